//===- CacheLevels.h - Each cache level's bandwidth from a sweep -*- C++ -*-===//
//
// The bandwidth sweep measures working sets from 16 KiB to past the
// last-level cache. A level's bandwidth is the best among the working sets
// that fit comfortably in its share per thread (at most 3/4 of it) and not
// in the level before; the sweep's own boundary, where bandwidth drops by a
// third or more, is checked against what the OS says the level's size is.
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
  CacheLevel Cache;
  size_t SharePerThread = 0; ///< the level's bytes over the threads sharing it
  size_t DropAt = 0;         ///< working set where the sweep drops; 0: none
  bool AgreesWithOS = false; ///< DropAt within 4x of SharePerThread
  double BytesPerSecond = 0; ///< 0 when no working set fits the level
  size_t MeasuredAt = 0;     ///< the working set of BytesPerSecond
};

/// \p Sizes (per-thread working sets, increasing) with their best
/// bandwidths \p Best, measured with \p Threads threads: each of \p Caches'
/// levels.
std::vector<LevelBandwidth> detectLevels(const std::vector<CacheLevel> &Caches,
                                         const std::vector<size_t> &Sizes,
                                         const std::vector<double> &Best,
                                         unsigned Threads);

} // namespace probe
} // namespace roofline

#endif
