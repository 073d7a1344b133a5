//===- PipelineAnalyses.cpp - Analyses read without disturbing -O2 --------===//
#include "roofline/Analysis/PipelineAnalyses.h"

#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/BranchProbabilityInfo.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/IR/Dominators.h"

using namespace llvm;

namespace roofline {

FunctionAnalyses PipelineAnalyses::operator()(Function &F) {
  LoopInfo &LI = FAM.getResult<LoopAnalysis>(F);
  auto SE = std::make_shared<ScalarEvolution>(
      F, FAM.getResult<TargetLibraryAnalysis>(F),
      FAM.getResult<AssumptionAnalysis>(F),
      FAM.getResult<DominatorTreeAnalysis>(F), LI);
  return FunctionAnalyses{LI, *SE,
                          [this, &F]() -> BranchProbabilityInfo & {
                            return FAM.getResult<BranchProbabilityAnalysis>(F);
                          },
                          SE, &FAM.getResult<TargetIRAnalysis>(F)};
}

} // namespace roofline
