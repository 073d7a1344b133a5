//===- CacheLevels.h - Each cache level's bandwidth from a sweep -*- C++ -*-===//
//
// The bandwidth sweep measures working sets from 16 KiB to past the
// last-level cache. A level's bandwidth is the best among the working sets
// that fit comfortably in its share per thread (at most 3/4 of it) and not
// in the level before; the sweep's own boundary, where bandwidth drops by a
// third or more, is checked against what the OS (or CPUID) says the level's
// size is. Where they disagree, the sweep wins (RooflineProbe.cpp): a VM's
// CPUID may describe the host's package, not the core complex it runs on.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_TOOLS_PROBE_CACHELEVELS_H
#define ROOFLINE_TOOLS_PROBE_CACHELEVELS_H

#include "Machine.h"

#include <cstddef>
#include <vector>

namespace roofline {
namespace probe {

struct LevelBandwidth {
  topology::CacheInfo Cache;
  size_t SharePerThread = 0; ///< the level's bytes over the threads sharing it
  size_t DropAt = 0;         ///< working set where the sweep drops; 0: none
  size_t LastFastAt = 0;     ///< the working set before DropAt
  /// The share lies between half of LastFastAt and twice DropAt: the sweep
  /// steps (2x, 4x quick) bracket the level's size.
  bool AgreesWithOS = false;
  double BytesPerSecond = 0; ///< 0 when no working set fits the level
  size_t MeasuredAt = 0;     ///< the working set of BytesPerSecond
};

/// \p Sizes (per-thread working sets, increasing) with their best
/// bandwidths \p Best, measured with \p Threads threads: each of \p Caches'
/// levels.
std::vector<LevelBandwidth> detectLevels(const std::vector<topology::CacheInfo> &Caches,
                                         const std::vector<size_t> &Sizes,
                                         const std::vector<double> &Best,
                                         unsigned Threads);

} // namespace probe
} // namespace roofline

#endif
