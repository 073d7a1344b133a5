//===- KernelSelection.h - Which functions are kernels ----------*- C++ -*-===//
//
// The one rule both the analysis and the instrumentation follow: CUDA
// __global__ functions on NVPTX; elsewhere defined functions with FLOPs or
// memory traffic in a loop (or calling such a function), optionally
// filtered by a name regex or widened to every defined function.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_ANALYSIS_KERNELSELECTION_H
#define ROOFLINE_ANALYSIS_KERNELSELECTION_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Support/Regex.h"

#include <optional>
#include <string>

namespace roofline {

class KernelSelector {
public:
  /// \p Filter: a regex on the mangled or demangled name (empty: none);
  /// \p All: every defined function on CPU targets.
  KernelSelector(llvm::FunctionAnalysisManager &FAM, const std::string &Filter,
                 bool All);

  /// An invalid filter regex, to report once; the filter is then ignored.
  const std::string &filterError() const { return FilterError; }

  bool isKernel(llvm::Function &F);
  /// A kernel by its own code alone (not by the kernels it calls): what a
  /// function inlined into its callers must be to keep its own record.
  bool isKernelByOwnCode(llvm::Function &F);

  /// Why the instrumentation leaves kernel \p F alone, or "" when it does
  /// not: the user opted out (`disable_sanitizer_instrumentation`,
  /// `no_profile_instrument_function`, whose IR attributes are
  /// disable_sanitizer_instrumentation and noprofile/skipprofile), or it
  /// ends in a musttail call (no code may go between it and the return).
  /// The one list of the instrumenter's skip rules; the functions that are
  /// never kernels (runtime and library names, naked functions) are
  /// KernelAnalysis::isKernel's.
  static std::string whyNotInstrumented(const llvm::Function &F);

private:
  bool passesFilter(const llvm::Function &F) const;
  bool hasWorkInLoops(llvm::Function &F);
  bool hasOwnWorkInLoops(llvm::Function &F);

  llvm::FunctionAnalysisManager &FAM;
  std::optional<llvm::Regex> Filter;
  std::string FilterError;
  bool All;
  llvm::DenseMap<const llvm::Function *, bool> WorkInLoops;
};

} // namespace roofline

#endif
