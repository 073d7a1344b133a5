//===- RunClock.h - The core clock the run saw ------------------*- C++ -*-===//
//
// Internal to the runtime. The in-core bound turns cycles into seconds at a
// clock; a probe's clock is one moment's, and a turbo core or a shared VM
// runs faster or slower from minute to minute. The profile records the
// clock measured as it is written (the end of the run), so the report can
// bound the run at the faster of the two (docs/profile-schema.md).
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_RUNTIME_RUNCLOCK_H
#define ROOFLINE_RUNTIME_RUNCLOCK_H

namespace roofline {
namespace rt {

/// The core clock in Hz, from chains of dependent 64-bit adds (one cycle
/// each on every x86-64 core) timed by the monotonic clock: the best of a
/// few 0.1 ms windows. 0 where it cannot be measured (other targets).
double measureRunClockHz();

} // namespace rt
} // namespace roofline

#endif
