//===- CounterCode.h - The code that adds to the counters -------*- C++ -*-===//
//
// The part of lowering host and device code share: each placed counter as
// a stack slot zeroed at entry (promoted to a register once the lowering
// has added its flush), and the code that adds to it, per block, per
// preheader (the trip count), per transfer, per marker, per footprint
// formula and per measured call (the callee's growth).
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
};

/// Counters as stack slots, made and zeroed at \p B (the entry block).
CounterCode createCounterSlots(llvm::IRBuilder<> &B, size_t NumCounters);

/// Adds the code that adds to each counter of \p P (\p AfterPrelude: in
/// the entry block, after the slots and whatever the lowering needs
/// there). In host code, also each measured nest's fewest and most
/// iterations an entry.
void addIncrements(llvm::Function &F, llvm::ScalarEvolution &SE,
                   const PlacedCounters &P, CounterCode &Code,
                   llvm::Instruction *AfterPrelude);

/// The counters (and scratch slots) in registers; false (with a remark)
/// when the function is too large for that to be cheap, and they stay in
/// memory.
bool promoteCounters(llvm::Function &F, const CounterCode &Code);

} // namespace roofline

#endif
