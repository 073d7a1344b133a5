//===- HostLowering.h - Counters flushed into a thread's block --*- C++ -*-===//
//
// The host lowering of a placed function, as InstrProfiling is LLVM's: its
// counters live in registers during a call and are added at each return
// into a thread_local block ([calls, ticks, timed calls, counters...]),
// which the runtime sums over threads by the function's descriptor; the
// thread's first call registers the block. A sample of calls (every call
// at first, then one in 64, then one in 1024: timedCall) reads the clock,
// and so do sampled entries of each measured loop nest; each adds its
// ticks weighted by the calls (entries) it stands for.
//
// A kept function (KeptCalls.h) is lowered the same way but for its
// returns, which leave the per-call counters to the calling loop.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_LIB_TRANSFORMS_HOSTLOWERING_H
#define ROOFLINE_LIB_TRANSFORMS_HOSTLOWERING_H

#include "CounterCode.h"
#include "CounterPlacement.h"
#include "KeptCalls.h"

#include "llvm/IR/IRBuilder.h"

#include <map>

namespace roofline {

/// What the host lowering needs besides the placement.
struct HostLoweringInputs {
  /// The function's descriptor: the runtime sums its blocks by it.
  llvm::GlobalVariable *Desc = nullptr;
  /// Pass the call's arguments to ROOFLINE_TRACE (a kernel's own calls).
  bool TraceArguments = false;
  /// Set: the function is this shape's kept function; it adds to the
  /// original's block.
  const KeptShape *KeepFor = nullptr;
  /// Its loops' calls of these functions are kept calls (may be null).
  const std::map<const llvm::Function *, KeptShape> *KeptCallees = nullptr;
};

/// The host lowering's result.
struct HostLowering {
  llvm::GlobalVariable *TLS = nullptr; ///< the thread's block
  llvm::ArrayType *BlockType = nullptr;
  /// Calls the kept-call rewrite replaced, and their replacements.
  std::map<llvm::CallBase *, llvm::CallInst *> Replaced;
  /// A kept function's: where a timed call reads the clock (its forward
  /// path goes in before it: KeptCalls.h).
  llvm::Instruction *TimedStart = nullptr;
};

/// Lowers \p F's counts (\p Code, of placement \p P) for host code: the
/// block, its flushes and the timers; the count operations last.
HostLowering lowerForHost(llvm::Function &F, const PlacedCounters &P,
                          const CounterCode &Code,
                          const HostLoweringInputs &In);

/// \p F's block as its callers read it: \p H's, with \p Layout's costs
/// (those of the innermost part, footprints excluded).
CalleeCounts::Block blockOf(const CountLayout &Layout, const HostLowering &H,
                            llvm::GlobalVariable *Desc);

/// Whether a call (a nest's entry) is timed, by \p SoFar, the thread's
/// calls (entries) so far: all below \p AllBelow, then one in
/// ROOFLINE_TIME_SAMPLE_MASK + 1, and from ROOFLINE_TIME_SPARSE_CALLS one
/// in ROOFLINE_TIME_SPARSE_MASK + 1 (Descriptor.h).
llvm::Value *timedCall(llvm::IRBuilder<> &B, llvm::Value *SoFar,
                       uint64_t AllBelow);
/// Its first two tests only: true for every timed call and for the calls
/// the third thins out (the cheap test of a hot path).
llvm::Value *maybeTimed(llvm::IRBuilder<> &B, llvm::Value *SoFar,
                        uint64_t AllBelow);
/// The calls (entries) a timed one stands for: 1, 64 or 1024, its stride.
llvm::Value *sampleWeight(llvm::IRBuilder<> &B, llvm::Value *SoFar,
                          uint64_t AllBelow);

} // namespace roofline

#endif
