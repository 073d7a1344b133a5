//===- CounterCode.h - The code that adds to the counters -------*- C++ -*-===//
//
// The step between placement and lowering, shared by host and device
// code: each placed counter as a stack slot zeroed at entry (promoted to a
// register once the lowering has added its flush), and a count operation
// (CountOperations.h) where it grows: per block, per preheader (the trip
// count), per transfer, per marker, per footprint formula and per measured
// call (the callee's growth). A kept function's copies are made from the
// function at this point: their counters are its own, one for one.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_LIB_TRANSFORMS_COUNTERCODE_H
#define ROOFLINE_LIB_TRANSFORMS_COUNTERCODE_H

#include "CounterPlacement.h"
#include "KeptCalls.h"

#include "llvm/IR/IRBuilder.h"

#include <vector>

namespace roofline {

/// The counters' code: what the lowering flushes and promotes.
struct CounterCode {
  /// One stack slot per counter.
  std::vector<llvm::AllocaInst *> Slots;
  /// Other slots the code uses (promoted with the counters).
  std::vector<llvm::AllocaInst *> Scratch;
  /// Host code: each read of a callee's counter around a call (a kept
  /// call returns the growth instead: KeptCalls.h).
  std::vector<GrowthRead> GrowthReads;
  /// In the entry block: the slots' last zeroing store (the lowering's
  /// own entry code goes right after it), and the function's first
  /// instruction, before which the counts at entry are (the call's timer
  /// starts there).
  llvm::Instruction *SlotsEnd = nullptr, *AfterPrelude = nullptr;
};

/// Counters as stack slots, made and zeroed at \p B (the entry block).
CounterCode createCounterSlots(llvm::IRBuilder<> &B, size_t NumCounters);

/// \p P's counters as slots of \p F, and a count operation where each
/// grows. In host code, also each measured nest's fewest and most
/// iterations an entry.
CounterCode addCounts(llvm::Function &F, llvm::ScalarEvolution &SE,
                      const PlacedCounters &P);

/// The counters (and scratch slots) in registers; false (with a remark)
/// when the function is too large for that to be cheap, and they stay in
/// memory.
bool promoteCounters(llvm::Function &F, const CounterCode &Code);

} // namespace roofline

#endif
