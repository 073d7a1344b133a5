//===- Counters.h - The runtime's counts, per thread ------------*- C++ -*-===//
//
// Each thread adds its calls' counts into its own table (no locks, no atomic
// read-modify-write on the hot path); the tables are summed when a profile
// is written. Internal to libroofline_rt.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_RUNTIME_COUNTERS_H
#define ROOFLINE_RUNTIME_COUNTERS_H

#include "roofline/Runtime/Descriptor.h"

#include <cstdint>
#include <string>
#include <vector>

namespace roofline {
namespace rt {

/// The totals of one kernel over all threads.
struct KernelTotals {
  const roofline_kernel *Kernel = nullptr;
  uint64_t Calls = 0;
  uint64_t Ticks = 0;
  std::vector<uint64_t> Counters;
};

/// Sums every thread's counts.
std::vector<KernelTotals> snapshot();
/// Zeroes every count (roofline_reset, and a forked child).
void resetCounts();
/// Cycle-counter ticks per second, calibrated against the steady clock.
double ticksPerSecond();

} // namespace rt
} // namespace roofline

#endif
