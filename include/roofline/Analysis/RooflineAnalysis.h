//===- RooflineAnalysis.h - The module's kernel summaries -------*- C++ -*-===//
//
// The static analysis as an LLVM module analysis: which functions are
// kernels (KernelSelection), and for each its FLOPs, bytes, loops, notes
// and assumptions (KernelAnalysis). The pipeline's summary pass reports
// the result, print<roofline> prints it, and roofline-instrument asks for
// it to write each kernel's formulas into its descriptor.
//
// At -O0 the analysis reads a register-promoted copy of the module (SROA,
// loop-simplify; on NVPTX the device helpers inlined and the thread-index
// reads hoisted), so that ScalarEvolution sees the trip counts; the user's
// module is never changed.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_ANALYSIS_ROOFLINEANALYSIS_H
#define ROOFLINE_ANALYSIS_ROOFLINEANALYSIS_H

#include "roofline/Analysis/KernelSummary.h"

#include "llvm/IR/PassManager.h"

#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace roofline {

class RooflineAnalysis : public llvm::AnalysisInfoMixin<RooflineAnalysis> {
public:
  struct Options {
    std::string KernelFilter; ///< regex on mangled or demangled names
    bool AllFunctions = false; ///< every defined CPU function
  };

  struct Result {
    std::vector<KernelSummary> Kernels;
    /// The summary of the function named \p MangledName, or null.
    const KernelSummary *find(llvm::StringRef MangledName) const;
    /// The summaries describe the module as the analysis saw it, before
    /// vectorisation and unrolling, which change how work is packed but
    /// not how much there is: later passes do not invalidate them, and the
    /// instrumentation at the end of the pipeline reads the same summaries
    /// the compile wrote. Functions are named, never pointed to.
    bool invalidate(llvm::Module &, const llvm::PreservedAnalyses &,
                    llvm::ModuleAnalysisManager::Invalidator &) {
      return false;
    }
  };

  RooflineAnalysis() = default;
  explicit RooflineAnalysis(Options O) : Opts(std::move(O)) {}
  Result run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);

private:
  friend llvm::AnalysisInfoMixin<RooflineAnalysis>;
  static llvm::AnalysisKey Key;
  Options Opts;
};

/// print<roofline>: the summaries as text, for tests and users.
class RooflinePrinterPass : public llvm::PassInfoMixin<RooflinePrinterPass> {
public:
  explicit RooflinePrinterPass(llvm::raw_ostream &OS) : OS(OS) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);
  static bool isRequired() { return true; }

private:
  llvm::raw_ostream &OS;
};

} // namespace roofline

#endif
