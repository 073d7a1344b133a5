//===- RunClock.cpp - The core clock the run saw --------------------------===//
#include "RunClock.h"

#include <stdint.h>
#include <time.h>

namespace roofline {
namespace rt {

namespace {

double now() {
  timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return double(T.tv_sec) + double(T.tv_nsec) * 1e-9;
}

} // namespace

double measureRunClockHz() {
#if defined(__x86_64__)
  const uint64_t Rounds = 20000; // 320,000 cycles: about 0.1 ms a window
  uint64_t X = 0;
  double Best = 0;
  for (int Window = 0; Window < 6; ++Window) { // the first warms the core
    double Start = now();
    for (uint64_t R = 0; R < Rounds; ++R)
      asm volatile(".rept 16\n\taddq $1, %0\n\t.endr" : "+r"(X));
    double Seconds = now() - Start;
    if (Window > 0 && Seconds > 0 && 16.0 * Rounds / Seconds > Best)
      Best = 16.0 * Rounds / Seconds;
  }
  return Best;
#else
  return 0;
#endif
}

} // namespace rt
} // namespace roofline
