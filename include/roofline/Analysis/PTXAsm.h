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

#include <string_view>

namespace roofline {

/// Cost of one execution of the PTX instructions in \p AsmText (per thread).
CostVector costOfPTXAsm(std::string_view AsmText);

} // namespace roofline

#endif
