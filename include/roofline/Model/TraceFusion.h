//===- TraceFusion.h - Fusion candidates from a traced run ------*- C++ -*-===//
//
// A profile written with ROOFLINE_TRACE=1 lists every call in order with
// its arguments, and each kernel's pointer parameters with the bytes it
// reads and writes through them (static formulas in its parameters). The
// buffers are followed from the call that writes them to the calls that
// read them: a buffer written by a producer and read by exactly one later
// call is an intermediate that fusing the two would keep out of memory
// (its write and its read: its footprint, each byte once); read by more
// calls, it must still be written. The gain is estimated from the measured
// bytes (counted through L1, the footprint below) and time of the two
// kernels, placed on each level as roofline-report places them.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_MODEL_TRACEFUSION_H
#define ROOFLINE_MODEL_TRACEFUSION_H

#include "roofline/Model/Platform.h"
#include "roofline/Model/Result.h"
#include "roofline/Model/Roofline.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace roofline {

struct FusionCandidate {
  std::string Producer, Consumer;           ///< display names
  std::string ProducerParam, ConsumerParam; ///< the buffer, as each names it
  std::string File;                         ///< the producer's
  unsigned Line = 0;
  double Occurrences = 0; ///< producer -> consumer pairs in the trace
  bool Fusible = false;   ///< every occurrence: read by the consumer only
  std::string Reason;
  /// The intermediate's footprint written and read (each byte once; its
  /// counted bytes where the summary has no exact footprint of it), over
  /// the fusible occurrences.
  double BytesSaved = 0;
  /// Measured (per-call averages of both kernels times occurrences):
  /// BytesBefore is their footprint, the traffic below the first level.
  double Flops = 0, BytesBefore = 0, MeasuredSeconds = 0;
  bool FootprintMeasured = true; ///< else counted bytes stand in for it
  Placement Before, After;        ///< the pair as one kernel, before/after
  double EstimatedSecondsAfter = 0; ///< measured time scaled by the bound
};

struct FusionAnalysis {
  std::vector<FusionCandidate> Candidates;
  double Calls = 0, CallsNotKept = 0;
};

/// The candidates of the traced profile \p J (file \p Path) on \p P.
Result<FusionAnalysis> findFusions(const nlohmann::json &J,
                                   const std::string &Path, const Platform &P,
                                   Convention C);

} // namespace roofline

#endif
