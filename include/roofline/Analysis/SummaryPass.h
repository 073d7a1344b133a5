//===- SummaryPass.h - What a compile reports -------------------*- C++ -*-===//
//
// The pipeline pass ("roofline"): the analysis's summaries as optimisation
// remarks (-Rpass-analysis=roofline), as the summary JSON
// (-roofline-json), and as warnings at kernels that are memory-bound or
// below an intensity on a platform (-roofline-warn). It changes nothing.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_ANALYSIS_SUMMARYPASS_H
#define ROOFLINE_ANALYSIS_SUMMARYPASS_H

#include "llvm/IR/PassManager.h"

#include <string>

namespace roofline {

class SummaryPass : public llvm::PassInfoMixin<SummaryPass> {
public:
  struct Options {
    std::string JSONPath; ///< a file, or a directory (one file per compile)
    std::string Warn;     ///< "", "memory-bound" or "intensity-below=X"
    std::string Platform; ///< a name or a JSON file; "" picks by target
    std::string Assume;   ///< sizes for the warnings: "n=4096,M=512"
    /// What a -roofline-warn finding is: "warning" (-Wpass-failed, which
    /// -Werror turns into an error with clang's own), "error" (roofline's
    /// findings alone fail the build), "remark" or "off".
    std::string Severity = "warning";
  };
  explicit SummaryPass(Options O) : Opts(std::move(O)) {}

  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);
  static bool isRequired() { return true; }

private:
  Options Opts;
};

} // namespace roofline

#endif
