//===- Compare.h - Auditing a change: before and after ----------*- C++ -*-===//
//
// roofline-report --compare before.json after.json: the two sides (static
// summaries or profiles, e.g. before and after fusing kernels) placed on the
// same platform, and per kernel and in total the change in bytes,
// intensity, bound, the roofline lower-bound time and the measured time.
// Kernels are matched by name; a kernel only before was removed (fused
// away), one only after was added (the fused kernel).
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_TOOLS_COMPARE_H
#define ROOFLINE_TOOLS_COMPARE_H

#include "Report.h"

#include <nlohmann/json.hpp>

#include <string>
#include <utility>
#include <vector>

namespace roofline {

/// The kernels of the two files, before and after.
Result<std::pair<std::vector<KernelRecord>, std::vector<KernelRecord>>>
loadComparison(const std::vector<std::string> &Inputs);

/// One side of a comparison row: a kernel (its launch configurations summed)
/// or the total.
struct CompareSide {
  bool Present = false;
  Work Ops;
  Traffic Bytes;
  double Predicted = 0;            ///< sum of the roofline lower bounds
  std::optional<double> Measured;  ///< when every part was measured
  bool SizesKnown = true;
  Placement Place;                 ///< the summed work and traffic
  /// The summed traffic with each row's footprint at its upper bound
  /// (KernelRow::BytesAtMost), where some row has one.
  Traffic BytesHigh;
  bool AnyRange = false;
  /// Place's bytes are a lower end: the upper one, at the same level.
  std::optional<double> BytesAtMost;
  /// Some row's DRAM side is unknown, or the two ends of the range give
  /// different verdicts: the side's bytes, intensity and bound are unknown.
  bool TrafficUnknown = false;
};

struct CompareRow {
  std::string Name, DisplayName, File;
  unsigned Line = 0;
  CompareSide Before, After;
};

struct ReportComparison {
  Platform Plat;
  ReportOptions Options;
  std::vector<CompareRow> Rows; ///< kernels in before's order, then added ones
  CompareRow Total;
};

ReportComparison compareReports(const Report &Before, const Report &After);

/// format: table, json, markdown or csv; an error names another format.
Result<std::string> renderComparison(const ReportComparison &C,
                                     const std::string &Format);
nlohmann::json comparisonJSON(const ReportComparison &C);

} // namespace roofline

#endif
