//===- FunctionAnalyzer.h - The analysis of one function --------*- C++ -*-===//
//
// Internal to lib/Analysis: KernelAnalysis's per-function driver. It runs the
// steps in order, each a class with its own state that hands the next a
// read-only result:
//   ZeroTripGuards, GuardAssumptions (Guards.h)  which branches are assumed
//   TripCounts (TripCounts.h)                    each loop's trip count
//   MassFlow (MassFlow.h)                        how often blocks run; totals
//   FootprintAnalysis (Footprint.h)              distinct bytes per array
// The first three are asked on demand while the mass flow walks the
// function; all of them log to one Findings (FunctionScope.h). At the end
// the driver states the range conditions that no guard implies.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_LIB_ANALYSIS_FUNCTIONANALYZER_H
#define ROOFLINE_LIB_ANALYSIS_FUNCTIONANALYZER_H

#include "roofline/Analysis/CostModel.h"
#include "roofline/Analysis/KernelAnalysis.h"

#include <functional>
#include <memory>

namespace roofline::detail {

class FunctionAnalyzer {
public:
  FunctionAnalyzer(llvm::Function &F, FunctionAnalyses A, KernelAnalysis &Owner)
      : F(F), LI(A.LI), SE(A.SE), GetBPI(A.BPI), KeepSE(A.OwnedSE),
        Owner(Owner), CM(F, A.TTI) {}

  FunctionCounts run();

private:
  llvm::Function &F;
  llvm::LoopInfo &LI;
  llvm::ScalarEvolution &SE;
  std::function<llvm::BranchProbabilityInfo &()> GetBPI;
  std::shared_ptr<llvm::ScalarEvolution> KeepSE; ///< SE, where it is our own
  KernelAnalysis &Owner;
  CostModel CM;
};

} // namespace roofline::detail

#endif
