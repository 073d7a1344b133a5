//===- PipelineAnalyses.h - Analyses read without disturbing -O2 -*- C++ -*-===//
//
// The analyses KernelAnalysis reads inside the optimiser's pipeline: the
// pipeline's own LoopInfo and branch probabilities (functions of the IR
// alone), but a ScalarEvolution of its own. ScalarEvolution caches what it
// has been asked (no-wrap flags it proved, trip counts, ranges), and its
// later answers depend on that history: the pipeline's copy, once the
// analysis had asked its questions, made the loop passes after it compile
// some loops differently. The plugin must not change the code it does not
// instrument (test/Plugin/unchanged-code.test).
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_ANALYSIS_PIPELINEANALYSES_H
#define ROOFLINE_ANALYSIS_PIPELINEANALYSES_H

#include "roofline/Analysis/KernelAnalysis.h"

#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/PassManager.h"

#include <map>
#include <memory>

namespace roofline {

class PipelineAnalyses {
public:
  explicit PipelineAnalyses(llvm::FunctionAnalysisManager &FAM) : FAM(FAM) {}
  /// \p F's analyses for KernelAnalysis, valid while this object and the
  /// result live and the IR does not change. The ScalarEvolution is a new
  /// one each time, owned by the result: KernelAnalysis asks once per
  /// function and drops it when done, so a module's worth of them is never
  /// held at once (page faults were a quarter of the analysis's time).
  FunctionAnalyses operator()(llvm::Function &F);

private:
  llvm::FunctionAnalysisManager &FAM;
};

} // namespace roofline

#endif
