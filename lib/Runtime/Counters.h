//===- Counters.h - The runtime's counts, per thread ------------*- C++ -*-===//
//
// Instrumented code adds each call's counts into a thread_local block of
// its function (no runtime call, no lock, no atomic read-modify-write). The
// runtime knows every live block, folds a thread's blocks into the totals
// when the thread exits, and sums everything when it writes a profile.
// Internal to libroofline_rt.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_RUNTIME_COUNTERS_H
#define ROOFLINE_RUNTIME_COUNTERS_H

#include "roofline/Runtime/CostKinds.h"
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
  uint64_t Ticks = 0; ///< of the timed calls
  uint64_t Timed = 0; ///< calls timed (all at first, then a sample)
  uint64_t Threads = 0; ///< threads whose block has a call
  std::vector<uint64_t> Counters;
  /// Counters merged by maximum, not sum: each loop's fewest (as a
  /// complement) and most iterations of one entry.
  std::vector<bool> ByMaximum;
};

/// Once per process: the profile written at exit, fork and signal handling.
void startRuntime();

/// FLOPs (of one precision, or all), special operations and DRAM-level
/// bytes (global, generic and host memory) of a row of cost slots.
uint64_t flopsOf(const uint64_t *Slots, int Precision = -1);
uint64_t specialOf(const uint64_t *Slots);
uint64_t dramBytesOf(const uint64_t *Slots, Access A);

/// Sums every thread's counts.
std::vector<KernelTotals> snapshot();
/// Zeroes every count (roofline_reset, and a forked child).
void resetCounts();
/// Cycle-counter ticks per second, calibrated against the steady clock.
double ticksPerSecond();

} // namespace rt
} // namespace roofline

#endif
