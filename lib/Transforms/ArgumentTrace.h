//===- ArgumentTrace.h - A call's arguments for ROOFLINE_TRACE --*- C++ -*-===//
//
// ROOFLINE_TRACE=1: the runtime sets __roofline_tracing, and every
// instrumented function then passes its arguments at entry (pointers and
// integers as 64-bit integers, floating point as the bits of a double) to
// __roofline_trace, which follows buffers from kernel to kernel (fusion).
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_LIB_TRANSFORMS_ARGUMENTTRACE_H
#define ROOFLINE_LIB_TRANSFORMS_ARGUMENTTRACE_H

#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"

namespace roofline {

/// At \p F's entry: its arguments to the runtime with descriptor \p Desc,
/// when the runtime asks.
void emitArgumentTrace(llvm::Function &F, llvm::GlobalVariable *Desc);

} // namespace roofline

#endif
