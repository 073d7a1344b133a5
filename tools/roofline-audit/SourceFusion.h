//===- SourceFusion.h - Fusion candidates from the host source --*- C++ -*-===//
//
// A producer launch writes a buffer and the next launch that reads it is its
// consumer. Fusing the two keeps the intermediate on chip: the producer's
// write and the consumer's read of it disappear (bytes saved), the FLOPs
// stay, so the intensity rises and a memory-bound pair gets faster on the
// roofline. The saving below the first memory level is the intermediate's
// footprint (written once, read once); the launches' traffic is placed on
// each level as roofline-report places it (counted bytes through L1, the
// footprint below). A pair is not a candidate when the buffer is read again later
// (it must still be written), when host synchronisation or a memcpy lies
// between the launches, or when their launch shapes differ.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_TOOLS_AUDIT_SOURCEFUSION_H
#define ROOFLINE_TOOLS_AUDIT_SOURCEFUSION_H

#include "HostCode.h"

#include "roofline/Model/Platform.h"
#include "roofline/Model/Roofline.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace roofline {

/// A launch (or a group of launches) on the roofline.
struct PlacedCost {
  double Flops = 0, Bytes = 0, Intensity = 0, Seconds = 0;
  bool MemoryBound = false;
};

struct FusionPair {
  const HostFunction *Fn = nullptr;
  size_t Producer = 0, Consumer = 0; ///< indices into Fn->Launches
  Buffer Buf;
  bool Fusible = true;
  std::vector<std::string> Reasons; ///< why not, or why it is a candidate
  std::vector<std::string> Notes;
  /// The intermediate's write by the producer plus its read by the
  /// consumer, in the host's names: their footprints (each byte once), or
  /// their counted bytes where a footprint is not exact (a note says so);
  /// saved when Fusible.
  Polynomial RoundTrip;
  double RoundTripValue = 0;
  /// The loads and stores of it that fusing removes (through L1).
  double CountedRoundTrip = 0;
  PlacedCost Before, After; ///< After equals Before when not fusible
  /// Sizes with no value (given or in the source): the figures are then
  /// the large-size limit's, and only ratios are shown.
  std::set<std::string> Unbound;
};

/// Launches joined by fusible candidates: fused into one kernel.
struct FusedChain {
  const HostFunction *Fn = nullptr;
  std::vector<size_t> Launches;
  std::vector<std::string> Buffers;
  Polynomial Saved;
  double SavedValue = 0;
  PlacedCost Before, After;
  std::set<std::string> Unbound; ///< as FusionPair's
};

struct AuditOptions {
  Convention Conv = Convention::FMA2;
  std::map<std::string, double> Assume; ///< --assume, over the source's values
};

struct FusionAudit {
  Platform Plat;
  std::string PlatformNote;
  AuditOptions Options;
  std::vector<FusionPair> Candidates;
  std::vector<FusedChain> Chains;
  /// Variables evaluated at the large-size limit (no value given or known).
  std::set<std::string> Unbound;
  /// Per host function, the values its formulas took from the source
  /// (const int n = 4096) where --assume gave none.
  std::map<const HostFunction *, std::map<std::string, double>> FromSource;
};

/// Finds the candidates of \p Functions and places them on \p P. Errors
/// name the kernel and the formula that could not be used.
Result<FusionAudit> auditFusion(const std::vector<HostFunction> &Functions,
                          const Platform &P, const AuditOptions &Options);

} // namespace roofline

#endif
