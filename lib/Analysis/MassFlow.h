//===- MassFlow.h - How often each block runs, and the totals ---*- C++ -*-===//
//
// Internal to lib/Analysis. The function's counts per call: the cost of each
// block times how often it runs, loops summed over their trip counts
// (MassFlow.cpp says how), with a row per top-level loop nest.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_LIB_ANALYSIS_MASSFLOW_H
#define ROOFLINE_LIB_ANALYSIS_MASSFLOW_H

#include "FunctionScope.h"
#include "Guards.h"
#include "Region.h"
#include "TripCounts.h"

#include "roofline/Analysis/KernelAnalysis.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/BranchProbabilityInfo.h"

#include <functional>
#include <map>
#include <vector>

namespace roofline::detail {

class MassFlow {
public:
  MassFlow(const FunctionScope &S, ZeroTripGuards &ZeroTrip, TripCounts &Trips,
           GuardAssumptions &Guards, KernelAnalysis &Owner,
           std::function<BranchProbabilityInfo &()> GetBPI, Findings &Found)
      : S(S), ZeroTrip(ZeroTrip), Trips(Trips), Guards(Guards), Owner(Owner),
        GetBPI(std::move(GetBPI)), Found(Found), Translator(S.translator()) {}

  struct Result {
    CountPolys Totals; ///< per call
    /// How often each loop's body runs per entry (its trip count, less one
    /// when it exits before the latch).
    DenseMap<const Loop *, Polynomial> Iterations;
    /// Blocks and loops that run on every iteration of the loop around them
    /// (once per call outside loops): all the mass of their region reaches
    /// them.
    DenseMap<const void *, bool> RunsEveryTime;
    /// Blocks the walk reached: the others never run where the assumed
    /// guards hold (the twin of an unswitched nest, an early exit).
    DenseSet<const BasicBlock *> Reached;
    /// The top-level loop nests' rows (no footprints yet), and their loops.
    std::vector<LoopSummary> TopLoops;
    std::vector<Loop *> TopLoopNests;
  };
  /// Walks the function once.
  Result run();

private:
  CountPolys regionTotal(const Region &R, BasicBlock *FinalExit,
                         bool LastIteration);
  std::vector<std::pair<int, double>> exitsOf(const Region &R, Loop *Sub);
  /// Records whether node \p Nd, reached by \p Mass of its region's passes,
  /// runs on every one (and is not behind a guard).
  void noteRunsEveryTime(const RegionNode &Nd, double Mass);
  CountPolys loopTotal(Loop *L);
  /// Blocks from \p From up to \p Join (or \p R's header) in GuardedBlocks.
  void markGuarded(const Region &R, BasicBlock *From, BasicBlock *Join);
  /// The row of top-level loop nest \p L: its location, depth, trip count
  /// and \p Totals (its work in one call).
  LoopSummary loopRow(Loop *L, const CountPolys &Totals, bool RowExact);
  CountPolys blockCost(BasicBlock *BB, Loop *Context);
  /// A counted call's cost: the callee's totals with its parameters
  /// replaced by the arguments (unknown where the analysis cannot name
  /// one), its pointer traffic moved to the caller's parameters.
  CountPolys calleeCost(CallBase &CB, const FunctionCounts &FC, Loop *Context);

  const FunctionScope &S;
  ZeroTripGuards &ZeroTrip;
  TripCounts &Trips;
  GuardAssumptions &Guards;
  KernelAnalysis &Owner;
  std::function<BranchProbabilityInfo &()> GetBPI;
  Findings &Found;
  SCEVPolynomial Translator; ///< lengths and arguments
  /// Node-based: a CountPolys is kilobytes (a polynomial per slot), and a
  /// DenseMap's first 64 buckets of them were a page-faulting share of
  /// every function's analysis.
  std::map<const Loop *, CountPolys> LoopTotals;
  /// Blocks behind an inner loop's zero-trip guard on an outer counter.
  SmallPtrSet<const BasicBlock *, 8> GuardedBlocks;
  Result Out;
};

} // namespace roofline::detail

#endif
