//===- DeviceCode.h - Preparing CUDA device code for counting ---*- C++ -*-===//
//
// -O0 device code calls its helpers and re-reads the thread's dimensions
// inside loops. Counting needs neither: the helpers' work is the kernel's,
// and blockDim.x is one value for the whole thread.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_ANALYSIS_DEVICECODE_H
#define ROOFLINE_ANALYSIS_DEVICECODE_H

#include "llvm/ADT/StringRef.h"

namespace llvm {
class Function;
class Value;
} // namespace llvm

namespace roofline {

/// "threadIdx.x", "blockDim.y", "laneid", ... for the intrinsic that reads
/// that special register (llvm.nvvm.read.ptx.sreg.*), or null.
const char *sregName(llvm::StringRef Intrinsic);
/// The same for a value that is a call of one, or null.
const char *sregName(const llvm::Value *V);

/// Inlines the device functions \p Kernel calls (repeatedly, to a bounded
/// depth), so that their work is counted as the kernel's and their thread
/// index arithmetic is seen: at -O0 nothing else inlines them. Recursion
/// and indirect calls stay calls (a remark says which).
void inlineDeviceCalls(llvm::Function &Kernel);

/// Moves the reads of the special registers (threadIdx, blockDim, ...;
/// `llvm.nvvm.read.ptx.sreg.*`, constant for a thread) to the entry block,
/// so that ScalarEvolution sees a loop stepping by blockDim.x as an
/// induction variable. For the analysis copy only.
void hoistThreadIndexReads(llvm::Function &F);

} // namespace roofline

#endif
