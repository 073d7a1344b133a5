//===- Summaries.h - The kernels roofline-audit knows -----------*- C++ -*-===//
//
// The static summaries (-mllvm -roofline-json=DIR) give every counted kernel
// its FLOP and byte formulas and, per pointer parameter, the bytes it reads
// and writes and its footprint (docs/summary-schema.md, pointer_params). The audit finds a
// call's kernel by its mangled name.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_TOOLS_AUDIT_SUMMARIES_H
#define ROOFLINE_TOOLS_AUDIT_SUMMARIES_H

#include "roofline/Model/Result.h"
#include "roofline/Model/StaticSummary.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace roofline {

/// How a kernel uses one of its pointer parameters.
struct PointerParam {
  unsigned Index = 0;
  std::string Name;
  bool Read = false, Written = false;
  Formula BytesRead, BytesWritten; ///< with the kernel's parameters
  /// The distinct bytes of this array one call (one launch) reads and
  /// writes; unset in summaries from before footprints.
  std::optional<FootprintRecord> Footprint;
};

struct AuditKernel {
  KernelRecord Record;
  std::vector<PointerParam> Pointers;

  bool isCUDA() const { return Record.Per == "thread"; }
  const PointerParam *pointer(unsigned Index) const;
};

/// Kernels by mangled name.
using KernelTable = std::map<std::string, AuditKernel>;

/// Reads summary files and the *.json summaries in directories (profiles
/// and other JSON there are skipped). A file named on the command line that
/// is not a summary, or a malformed one, is an error naming it.
Result<KernelTable> loadSummaries(const std::vector<std::string> &Paths);

} // namespace roofline

#endif
