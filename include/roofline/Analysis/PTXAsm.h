//===- PTXAsm.h - Counting the PTX inside inline asm ------------*- C++ -*-===//
//
// cuda_fp16.h and cuda_bf16.h implement __hfma2, __hadd2 and friends as
// inline PTX, so IR-level counting alone would see nothing. This reads the
// asm template and counts the PTX arithmetic and memory instructions it
// recognises; anything else is reported as a named unknown ("asm:<opcode>"),
// never a silent zero. No LLVM here: it is text in, CostVector out.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_ANALYSIS_PTXASM_H
#define ROOFLINE_ANALYSIS_PTXASM_H

#include "roofline/Runtime/CostKinds.h"

#include <optional>
#include <string_view>
#include <vector>

namespace roofline {

/// Cost of one execution of the PTX instructions in \p AsmText (per thread).
CostVector costOfPTXAsm(std::string_view AsmText);

/// One ld, st, atom or red of an asm template: its state space, its width
/// (all lanes of a vector access; 0 when the type is not known) and where
/// its address comes from: the asm operand \p Operand ("[$1+8]": 1, plus
/// \p Offset 8), or none when it is a register of the asm's own.
struct PTXMemoryAccess {
  MemSpace Space = MemSpace::Generic;
  unsigned Bytes = 0;
  bool Loads = false, Stores = false;
  std::optional<unsigned> Operand;
  int64_t Offset = 0;
};

/// The memory instructions in \p AsmText, in order, for footprints.
std::vector<PTXMemoryAccess> memoryAccessesOfPTXAsm(std::string_view AsmText);

} // namespace roofline

#endif
