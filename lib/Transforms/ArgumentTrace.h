//===- ArgumentTrace.h - A call's arguments for ROOFLINE_TRACE --*- C++ -*-===//
//
// ROOFLINE_TRACE=1: the runtime sets __roofline_tracing, and every
// instrumented function then passes its arguments at entry (pointers and
// integers as 64-bit integers, floating point as the bits of a double) to
// __roofline_trace, which follows buffers from kernel to kernel (fusion).
// The call shares the cold block of the sampled calls' clock (HostLowering):
// __roofline_trace itself does nothing unless the runtime is tracing.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_LIB_TRANSFORMS_ARGUMENTTRACE_H
#define ROOFLINE_LIB_TRANSFORMS_ARGUMENTTRACE_H

#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"

namespace roofline {

/// Whether the runtime asks for arguments: the flag's load, at \p B.
llvm::Value *tracingOn(llvm::IRBuilder<> &B);

/// At \p B: the function's arguments to the runtime with descriptor \p Desc.
void emitArgumentTrace(llvm::IRBuilder<> &B, llvm::GlobalVariable *Desc);

} // namespace roofline

#endif
