//===- Report.h - Kernels placed on a platform's roofline -------*- C++ -*-===//
//
// The report's model: every kernel of the inputs evaluated (formulas with
// the --assume values, or at their large-size limit) and placed on the
// platform. The renderers (Formats.h, Chart.h) only format these rows.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_TOOLS_REPORT_H
#define ROOFLINE_TOOLS_REPORT_H

#include "roofline/Model/Platform.h"
#include "roofline/Model/Roofline.h"
#include "roofline/Model/StaticSummary.h"
#include "roofline/Model/Units.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace roofline {

/// Which work places a kernel on the chart.
enum class WorkKind { Flops, IntOps, Instructions };

/// "14.2..26.8 MB": bytes between two bounds, the unit once where the
/// prefixes agree.
std::string bytesRangeText(double Low, double High);

struct KernelRow {
  KernelRecord Kernel;
  Work Ops;
  Traffic Bytes;            ///< per level, "dram" = DRAM-roof traffic
  double BytesLoad = 0, BytesStore = 0; ///< counted, DRAM spaces
  double Counted = 0;                   ///< counted, every space but shared
  std::optional<double> Footprint;      ///< its lower bound when not exact
  /// With a footprint known only between bounds and the same limiter at
  /// both: the limiting level's bytes at the upper bound (Place.Bytes is
  /// the lower, which the bound uses).
  std::optional<double> BytesAtMost;
  bool SizesKnown = true;   ///< every formula variable had a value
  /// The DRAM side of its traffic is unknown though it moves bytes: a loop
  /// nest without a footprint or cache-model traffic. Its attainable is
  /// that of the roofs that are known (compute, in-core, the counted bytes
  /// at the first level, when the platform has one): still an upper bound.
  /// Its intensity and whether it is memory-bound are not known: Place's
  /// Limiter is "unknown", its Intensity NaN, every format says so.
  bool TrafficUnknown = false;
  double Threads = 1;       ///< CUDA: the per-thread counts times this
  Placement Place;
  double RanOnThreads = 0; ///< the roofs used are those of this many threads
  std::optional<double> MeasuredSeconds; ///< from a run, when there is one
  /// The platform levels whose bytes the run's cache model measured
  /// (ROOFLINE_CACHE), rather than the footprint's bound.
  std::vector<std::string> MeasuredLevels;
  std::vector<std::string> Notes;        ///< the report's own remarks
  /// The roofline it is placed on: what Ops (and Place's "Flops") hold.
  WorkKind Placed = WorkKind::Flops;
  double IntOps = 0; ///< the user's integer operations, whichever roof
  /// The machine instructions the summary estimates (a GPU's per thread,
  /// like its other counts), whichever roof; unset when it has none.
  std::optional<double> Instructions;

  /// Whether \p Level's bytes were measured by the run's cache model.
  bool measuredAt(const std::string &Level) const;
  /// Where \p Level's bytes come from: "counted" (the first level),
  /// "cache model" or "footprint" (the bound below the first level).
  const char *bytesSource(const std::string &Level) const;
  /// " (l1)" after the shown bytes when the row says nowhere else which
  /// level they are at: a compute- or in-core-bound kernel placed at a
  /// cache level. "" at DRAM, the default roof, and for a memory-bound
  /// kernel, whose bound names its level ("memory (l2)").
  std::string bytesLevelSuffix() const;
  /// What follows the limiting level's bytes: the upper end of a range
  /// ("..26.8 MB") and the level.
  std::string bytesSuffix() const;
  /// The bytes column: the limiting level's bytes, "14.2..26.8 MB" for a
  /// range, with the level when it is not DRAM.
  std::string bytesText() const;
  /// The unit of Ops: "FLOP", "intop" or "inst" (a GPU's: warp or
  /// wavefront instructions).
  const char *unit() const {
    return Placed == WorkKind::IntOps ? "intop"
           : Placed == WorkKind::Instructions ? "inst" : "FLOP";
  }
  const char *rateUnit() const {
    return Placed == WorkKind::IntOps ? "intop/s"
           : Placed == WorkKind::Instructions ? "inst/s" : "FLOP/s";
  }
  /// "flops", "intops" or "instructions", as JSON and CSV name the work.
  const char *workName() const {
    return Placed == WorkKind::IntOps ? "intops"
           : Placed == WorkKind::Instructions ? "instructions" : "flops";
  }
  std::optional<double> achievedFlops() const;
  std::optional<double> efficiency() const;
};

/// Which work a kernel is placed by (--roof).
enum class RoofChoice {
  /// Integer operations when they outnumber the FLOPs; instructions when
  /// there is neither (and the platform has an issue rate)
  Auto,
  Flops,
  IntOps,
  Instructions
};

struct ReportOptions {
  Convention Conv = Convention::FMA2;
  RoofChoice Roof = RoofChoice::Auto;
  std::map<std::string, double> Assume; ///< --assume NAME=VALUE
  std::string PlatformNote; ///< why this platform (e.g. the default)
  /// The platform is this machine's, probed (the default for a CPU run,
  /// or "local"): a run's own clock_hz, when faster than the probe's, is
  /// the in-core bound's clock.
  bool ThisMachine = false;
  /// --all-kernels: also functions from system headers and functions
  /// without floating-point work (listed, not shown, by default).
  bool AllKernels = false;
  /// A formula needing a value --assume lacks fails the report (for the
  /// kernels the user named with --kernels); else the kernel is listed as
  /// not judged.
  bool FailOnUnjudged = false;
  /// A formula needing a size --assume lacks fails the report (a --check
  /// gate must not pass a kernel a typo in --assume left unjudged); else
  /// the kernel is listed as not judged, with the size it needs.
  bool FailOnMissingSize = false;
  /// --all-roofs: the chart draws every compute roof, not only those the
  /// kernels are judged against.
  bool AllRoofs = false;
  /// The in-core analysis of a profile's executable ("" when the profile
  /// names none), or null; the driver runs it (lib/InCore).
  std::function<const InCoreReport *(const std::string &Executable)> InCoreOf;
  /// Why there is no in-core bound, said once per row when InCoreOf gives
  /// nothing (e.g. "--no-incore").
  std::string NoInCoreNote;
};

struct Report {
  Platform Plat;
  /// Drawn beside Plat on the chart (--compare-platform), e.g. the machine
  /// measured by roofline-probe next to its datasheet.
  std::optional<Platform> Second;
  ReportOptions Options;
  std::vector<KernelRow> Rows;
  /// The HTML table's loop nests under their functions (from a profile's
  /// loop records, placed on the same platform); empty elsewhere.
  std::vector<KernelRow> LoopRows;
  /// Not shown (without --all-kernels): display names.
  std::vector<std::string> HiddenNoFlops, HiddenSystem;
  /// Not judged: a formula needs a value not given ("name (needs ...)").
  std::vector<std::string> NotJudged;
};

/// Evaluates and places every kernel; errors name the kernel and formula.
Result<Report> buildReport(const Platform &P,
                           const std::vector<KernelRecord> &Kernels,
                           const ReportOptions &Options);

/// --check: "memory-bound", "min-intensity=X", "min-efficiency=X". Returns
/// the violations, one line each; an error for a malformed check.
Result<std::vector<std::string>> runCheck(const Report &R,
                                          const std::string &Check);


} // namespace roofline

#endif
