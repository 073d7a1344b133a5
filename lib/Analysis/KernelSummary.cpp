//===- KernelSummary.cpp - A kernel's static counts -----------------------===//
#include "roofline/Analysis/KernelSummary.h"

#include <algorithm>

namespace roofline {

void FootprintCounts::add(const FootprintCounts &O) {
  Read += O.Read;
  Written += O.Written;
  ReadAtLeast += O.ReadAtLeast;
  WrittenAtLeast += O.WrittenAtLeast;
  ReadOwn += O.ReadOwn;
  Exact &= O.Exact;
  auto Append = [](auto &Into, const auto &List) {
    for (const auto &N : List)
      if (std::find(Into.begin(), Into.end(), N) == Into.end())
        Into.push_back(N);
  };
  Append(Notes, O.Notes);
  Append(Assumptions, O.Assumptions);
}

std::vector<SlotPolys::Entry>::const_iterator
SlotPolys::find(unsigned Slot) const {
  return std::lower_bound(
      Entries.begin(), Entries.end(), Slot,
      [](const Entry &E, unsigned S) { return E.first < S; });
}

const Polynomial &SlotPolys::operator[](unsigned Slot) const {
  static const Polynomial Zero;
  auto It = find(Slot);
  return It != Entries.end() && It->first == Slot ? It->second : Zero;
}

Polynomial &SlotPolys::operator[](unsigned Slot) {
  auto It = Entries.begin() + (find(Slot) - Entries.cbegin());
  if (It == Entries.end() || It->first != Slot)
    It = Entries.insert(It, {Slot, Polynomial()});
  return It->second;
}

void CountPolys::add(const CountPolys &O) {
  for (const auto &[Slot, P] : O.Slots)
    if (!P.isZero())
      Slots[Slot] += P;
  for (const auto &[Name, P] : O.Unknown)
    Unknown[Name] += P;
  for (const auto &[Arg, LS] : O.ArgBytes) {
    ArgBytes[Arg][0] += LS[0];
    ArgBytes[Arg][1] += LS[1];
  }
  UpperBound |= O.UpperBound;
  Instructions += O.Instructions;
}

/// Applies \p F to every polynomial of \p In, into a new CountPolys.
template <typename Fn> static CountPolys mapPolys(const CountPolys &In, Fn F) {
  CountPolys R;
  for (const auto &[Slot, P] : In.Slots)
    if (!P.isZero())
      R.Slots[Slot] = F(P);
  for (const auto &[Name, Q] : In.Unknown)
    R.Unknown[Name] = F(Q);
  for (const auto &[Arg, LS] : In.ArgBytes)
    R.ArgBytes[Arg] = {F(LS[0]), F(LS[1])};
  if (!In.Instructions.isZero())
    R.Instructions = F(In.Instructions);
  R.UpperBound = In.UpperBound;
  return R;
}

void CountPolys::add(const CostVector &Cost, const Polynomial &Times) {
  if (Times.isZero())
    return;
  for (unsigned I = 0; I < NumSlots; ++I)
    if (Cost.Slots[I])
      Slots[I].addScaled(Times, Rational(Cost.Slots[I]));
  for (const auto &[Name, N] : Cost.Unknown)
    Unknown[Name].addScaled(Times, Rational(N));
  for (const auto &[Arg, LS] : Cost.ArgBytes) {
    ArgBytes[Arg][0].addScaled(Times, Rational(LS[0]));
    ArgBytes[Arg][1].addScaled(Times, Rational(LS[1]));
  }
  if (Cost.Instructions)
    Instructions.addScaled(Times, Rational(Cost.Instructions));
  UpperBound |= Cost.UpperBound;
}

CountPolys CountPolys::times(const Polynomial &P) const {
  return mapPolys(*this, [&](const Polynomial &Q) { return Q * P; });
}

CountPolys
CountPolys::substitute(const std::map<std::string, Polynomial> &V) const {
  return mapPolys(*this, [&](const Polynomial &Q) { return Q.substitute(V); });
}

CountPolys CountPolys::sumOver(const std::string &Var,
                               const Polynomial &Count) const {
  return mapPolys(*this,
                  [&, PowerSums = std::vector<Polynomial>()](
                      const Polynomial &Q) mutable {
                    return Q.sumOver(Var, Count, PowerSums);
                  });
}

bool CountPolys::mentions(const std::string &Var) const {
  for (const auto &[Slot, P] : Slots)
    if (P.mentions(Var))
      return true;
  for (const auto &[Name, Q] : Unknown)
    if (Q.mentions(Var))
      return true;
  return false;
}

/// Term(0) + ... + Term(N - 1).
template <typename TermFn> static Polynomial sumOf(unsigned N, TermFn Term) {
  Polynomial Sum;
  for (unsigned I = 0; I < N; ++I)
    Sum += Term(I);
  return Sum;
}

Polynomial CountPolys::flops(Precision P) const {
  Polynomial Sum;
  for (unsigned C = 0; C < NumFlopClasses; ++C)
    Sum.addScaled(Slots[flopSlot(P, FlopClass(C))],
                  Rational(flopsPerOperation(FlopClass(C))));
  return Sum;
}

Polynomial CountPolys::flops() const {
  return sumOf(NumPrecisions, [&](unsigned P) { return flops(Precision(P)); });
}

Polynomial CountPolys::flopClass(FlopClass C) const {
  return sumOf(NumPrecisions,
               [&](unsigned P) { return Slots[flopSlot(Precision(P), C)]; });
}

Polynomial CountPolys::intOps(IntWidth W) const {
  return sumOf(NumIntKinds,
               [&](unsigned K) { return Slots[intSlot(W, IntKind(K))]; });
}

Polynomial CountPolys::intKind(IntKind K) const {
  return sumOf(NumIntWidths,
               [&](unsigned W) { return Slots[intSlot(IntWidth(W), K)]; });
}

Polynomial CountPolys::intOps() const {
  return sumOf(NumIntWidths, [&](unsigned W) { return intOps(IntWidth(W)); });
}

Polynomial CountPolys::special() const { return flopClass(FlopClass::Special); }

Polynomial CountPolys::bytes(MemSpace S, Access A) const {
  return Slots[byteSlot(S, A)];
}

Polynomial CountPolys::shareable(MemSpace S) const {
  return Slots[shareableSlot(S)];
}

Polynomial CountPolys::bytes(Access A) const {
  Polynomial Sum;
  for (unsigned S = 0; S < NumMemSpaces; ++S)
    if (isDRAMSpace(MemSpace(S)))
      Sum += bytes(MemSpace(S), A);
  return Sum;
}

bool CountPolys::anyValidityLost() const {
  for (const auto &[Slot, P] : Slots)
    if (!P.isValid())
      return true;
  for (const auto &[Name, Q] : Unknown)
    if (!Q.isValid())
      return true;
  return false;
}

std::vector<std::string> KernelSummary::variableOrder() const {
  return Params;
}

} // namespace roofline
