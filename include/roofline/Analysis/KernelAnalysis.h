//===- KernelAnalysis.h - Per-kernel static counts --------------*- C++ -*-===//
//
// Combines the cost model with LoopInfo and ScalarEvolution: every block's
// cost times how often it runs, every loop summed over its iterations, every
// call replaced by the callee's totals with its arguments substituted. The
// result is exact where control flow is known, and otherwise says which
// branch or loop made it an estimate and how it was estimated.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_ANALYSIS_KERNELANALYSIS_H
#define ROOFLINE_ANALYSIS_KERNELANALYSIS_H

#include "roofline/Analysis/KernelSummary.h"

#include "llvm/ADT/DenseMap.h"

#include <functional>
#include <memory>

namespace llvm {
class BranchProbabilityInfo;
class DominatorTree;
class Function;
class LoopInfo;
class ScalarEvolution;
class TargetTransformInfo;
} // namespace llvm

namespace roofline {

struct FunctionAnalyses {
  llvm::LoopInfo &LI;
  llvm::ScalarEvolution &SE;
  /// Branch probabilities are needed only where a branch depends on data,
  /// so they are computed on first use.
  std::function<llvm::BranchProbabilityInfo &()> BPI;
  /// Where SE is the caller's own (PipelineAnalyses), it lives while a
  /// copy of this does: dropped once the function is analysed.
  std::shared_ptr<llvm::ScalarEvolution> OwnedSE;
  /// The target's cost model, which sizes the machine instructions; null:
  /// instructions are not counted.
  const llvm::TargetTransformInfo *TTI = nullptr;
};

/// Totals of one execution of a function, in its parameters' names.
struct FunctionCounts {
  std::vector<std::string> Params;
  CountPolys Totals;
  bool Exact = true;
  std::vector<std::string> Notes;
  std::vector<Assumption> Assumptions;
  std::vector<LoopSummary> Loops;
  FootprintSummary Footprint;
};

class KernelAnalysis {
public:
  using AnalysisGetter = std::function<FunctionAnalyses(llvm::Function &)>;
  explicit KernelAnalysis(AnalysisGetter Get) : Get(std::move(Get)) {}
  ~KernelAnalysis();

  /// Counts of \p F, computed once (callees on demand); null while \p F is
  /// being computed, which is how recursion is detected.
  const FunctionCounts *counts(llvm::Function &F);

  /// Whether \p F is reported as a kernel: a CUDA __global__ function on
  /// NVPTX; elsewhere a defined function with FLOPs or memory traffic in a
  /// loop.
  static bool isKernel(const llvm::Function &F);

  /// The kernel's summary. \p Original is the function in the user's
  /// module (the one analysed may be a register-promoted copy at -O0).
  KernelSummary summarize(llvm::Function &F, const llvm::Function &Original);

private:
  AnalysisGetter Get;
  llvm::DenseMap<const llvm::Function *, std::unique_ptr<FunctionCounts>>
      Cache;
};

} // namespace roofline

#endif
