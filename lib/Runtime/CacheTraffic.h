//===- CacheTraffic.h - Per-kernel traffic from the cache model -*- C++ -*-===//
//
// ROOFLINE_CACHE turns on the cache model: instrumented functions then run
// their traced copies, which pass every load and store to the model (the
// sampled ones: the copies test the set sample inline). The events are
// counted per descriptor row (its parts, then its loop nests), per thread,
// and summed when the profile is written. Internal to libroofline_rt.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_RUNTIME_CACHETRAFFIC_H
#define ROOFLINE_RUNTIME_CACHETRAFFIC_H

#include "CacheModel.h"
#include "roofline/Runtime/Descriptor.h"

#include <string>
#include <vector>

namespace roofline {
namespace rt {

/// Reads ROOFLINE_CACHE (and ROOFLINE_CACHE_SAMPLE) once; a value it
/// cannot use is reported on stderr and leaves the model off.
void startCacheModel();
bool cacheModelOn();

/// The levels' events of row \p Row of \p K (a part, or NumParts + a loop
/// nest's index), summed over threads and scaled from the sampled sets;
/// added into \p Sums (one per level).
void addTraffic(const roofline_kernel *K, uint32_t Row, std::vector<double> &Fills,
                std::vector<double> &Writebacks);

/// `"traffic": {...}` (design.md, "Memory traffic") for the per-level sums.
std::string trafficJSON(const std::vector<double> &Fills,
                        const std::vector<double> &Writebacks);

/// Forgets the counted events (roofline_reset, a forked child); the caches
/// keep their contents.
void resetTraffic();

} // namespace rt
} // namespace roofline

#endif
