//===- Measure.h - Timing the probe's kernels -------------------*- C++ -*-===//
//
// How the probe times its kernels (Kernels.h): pinned threads started
// together, each measurement the total work over the slowest thread's
// time; many short runs, the best kept (on a shared machine one of them
// runs uninterrupted). RooflineProbe.cpp decides what to measure.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_TOOLS_PROBE_MEASURE_H
#define ROOFLINE_TOOLS_PROBE_MEASURE_H

#include "Kernels.h"

#include <algorithm>
#include <cstddef>
#include <map>
#include <vector>

namespace roofline {
namespace probe {

/// The rates of a measurement's runs.
struct Stat {
  std::vector<double> Runs; ///< rates, best first after finish()
  double best() const { return Runs.front(); }
  double median() const { return Runs[Runs.size() / 2]; }
  double worst() const { return Runs.back(); }
  /// (best - worst) / best
  double spread() const { return (best() - worst()) / best(); }
  void finish() { std::sort(Runs.rbegin(), Runs.rend()); }
};

/// --quick: shorter runs and fewer of them.
void setQuickPace(bool Quick);
double targetSeconds(); ///< of one run
unsigned repeats();     ///< runs per measurement

/// The bandwidth kernels: which peak each reaches is machine-dependent, so
/// every level keeps the best and says which kernel gave it.
enum class BandwidthKernel { Read, Triad, Daxpy, CopyNT, TriadNT, Memcpy };

const char *kernelText(BandwidthKernel K);

/// The core clock while one thread runs: a chain of dependent integer adds
/// (one cycle each) over time.
Stat measureClock();
/// Dependent FP operations per second on one thread (their latency is the
/// clock over this).
Stat measureFPChain(bool FMA);
/// FLOP/s of \p I's FMA chains in doubles or floats on \p N threads.
Stat measureCompute(const ISA &I, bool Double, unsigned N);
/// int32 operations per second of \p I's vector adds on \p N threads.
Stat measureIntAdd(const ISA &I, unsigned N);
/// Instructions per second of mix \p Mix's issue kernel on \p N threads.
Stat measureIssue(IssueMix Mix, unsigned N);
/// Bandwidth of kernel \p K with a working set of \p Bytes per thread on
/// \p N threads. With \p SinglePasses, each of \p Runs measurements (0:
/// repeats()) is one pass over the working set (STREAM's method for
/// memory: the best single pass), else enough passes for targetSeconds().
Stat measureBandwidth(const ISA &I, BandwidthKernel K, size_t Bytes, unsigned N,
                      bool SinglePasses = false, unsigned Runs = 0);
/// Each memory kernel's best single pass of 20 over \p Bytes per thread
/// (at least 4x the last-level cache in all), as STREAM times its kernels.
std::map<BandwidthKernel, double> memoryRates(const ISA &I, size_t Bytes,
                                              unsigned N);

} // namespace probe
} // namespace roofline

#endif
