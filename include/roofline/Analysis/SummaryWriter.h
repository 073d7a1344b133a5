//===- SummaryWriter.h - Kernel summaries as text and JSON ------*- C++ -*-===//
//
// The three ways the static counts leave the compiler: the print<roofline>
// text (what lit tests read), the one-line remark text, and the static
// summary JSON (docs/summary-schema.md).
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_ANALYSIS_SUMMARYWRITER_H
#define ROOFLINE_ANALYSIS_SUMMARYWRITER_H

#include "roofline/Analysis/KernelSummary.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace roofline {

/// Arithmetic intensity in words: "I = 0.1667 FLOP/B", or for formulas its
/// limit as the sizes grow ("I -> 0.25 FLOP/B for large sizes").
std::string intensityText(const Polynomial &Flops, const Polynomial &Bytes);

/// The multi-line block print<roofline> prints for one kernel.
std::string kernelText(const KernelSummary &K);
/// A remark as LLVM's structured arguments (what -fsave-optimization-record,
/// opt-viewer and opt-diff read): named values (FLOPs, BytesLoad,
/// Intensity, ...) between plain text (Key "").
struct RemarkArg {
  std::string Key, Value;
};
std::string remarkText(const std::vector<RemarkArg> &Args);

/// The kernel remark: name, FLOPs by precision, bytes, intensity, exactness.
std::vector<RemarkArg> kernelRemarkArgs(const KernelSummary &K);
std::string kernelRemark(const KernelSummary &K);
/// "read 8*n B, written 4*n B (exact)"; bounds as "LOW to HIGH".
std::string footprintText(const KernelSummary &K, const FootprintCounts &F);
/// The summary's "footprint" object (docs/summary-schema.md).
nlohmann::json footprintJSON(const KernelSummary &K, const FootprintCounts &F);
/// The remark at a top-level loop nest.
std::vector<RemarkArg> loopRemarkArgs(const KernelSummary &K, const LoopSummary &L);
std::string loopRemark(const KernelSummary &K, const LoopSummary &L);

nlohmann::json kernelJSON(const KernelSummary &K);

/// Writes \p Kernels of one compilation (\p Source for \p Target) into the
/// summary file \p Path, keeping the kernels other compilations wrote there
/// (the host and device halves of a .cu share a file). Atomic: the file is
/// replaced by rename. Returns an error message, empty on success.
std::string writeSummaryFile(const std::string &Path, const std::string &Source,
                             const std::string &Target,
                             const std::vector<KernelSummary> &Kernels,
                             const std::vector<nlohmann::json> &Inlined = {});

/// The file a directory-valued -roofline-json writes for this compilation:
/// DIR/<source name>.<target>.roofline.json.
std::string summaryFileInDirectory(const std::string &Dir,
                                   const std::string &Source,
                                   const std::string &Target);

} // namespace roofline

#endif
