//===- CostKinds.cpp - What the cost model counts -------------------------===//
#include "roofline/Runtime/CostKinds.h"

namespace roofline {

const char *precisionName(Precision P) {
  static const char *Names[] = {"fp16", "bf16", "fp32", "fp64", "other"};
  return Names[unsigned(P)];
}

const char *flopClassName(FlopClass C) {
  static const char *Names[] = {"add", "mul",     "fma",   "div",
                                "sqrt", "special", "tensor"};
  return Names[unsigned(C)];
}

const char *memSpaceName(MemSpace S) {
  static const char *Names[] = {"memory", "stack",    "global", "shared",
                                "local",  "constant", "generic"};
  return Names[unsigned(S)];
}

const char *intWidthName(IntWidth W) {
  static const char *Names[] = {"i8", "i16", "i32", "i64"};
  return Names[unsigned(W)];
}

const char *intKindName(IntKind K) {
  static const char *Names[] = {"add", "mul", "div", "bitwise", "compare", "dot"};
  return Names[unsigned(K)];
}

IntWidth intWidthOf(unsigned Bits) {
  if (Bits <= 8)
    return IntWidth::I8;
  if (Bits <= 16)
    return IntWidth::I16;
  if (Bits <= 32)
    return IntWidth::I32;
  return IntWidth::I64;
}

int64_t flopsPerOperation(FlopClass C) {
  switch (C) {
  case FlopClass::FMA:
    return 2;
  case FlopClass::Special:
    return 0;
  default:
    return 1;
  }
}

bool isDRAMSpace(MemSpace S) {
  return S == MemSpace::Memory || S == MemSpace::Global ||
         S == MemSpace::Generic;
}

CostVector &CostVector::operator+=(const CostVector &O) {
  for (unsigned I = 0; I < NumSlots; ++I)
    Slots[I] += O.Slots[I];
  for (const auto &[Name, N] : O.Unknown)
    Unknown[Name] += N;
  for (const auto &[Arg, LS] : O.ArgBytes) {
    ArgBytes[Arg][0] += LS[0];
    ArgBytes[Arg][1] += LS[1];
  }
  UpperBound |= O.UpperBound;
  Instructions += O.Instructions;
  return *this;
}

bool CostVector::empty() const {
  for (int64_t S : Slots)
    if (S)
      return false;
  return Unknown.empty();
}

} // namespace roofline
