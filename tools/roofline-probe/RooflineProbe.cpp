//===- RooflineProbe.cpp - roofline-probe: this machine's roofs -----------===//
//
// USAGE:
//   roofline-probe -o platforms/local.json           # full (about a minute)
//   roofline-probe --quick -o /tmp/local.json        # about 10 s
//   roofline-report --platform local --flops 1e9 --bytes 1e8
//
// Measures, as the Empirical Roofline Toolkit and likwid-bench do: peak
// FP64 and FP32 FLOP/s with independent FMA chains (scalar and every SIMD
// width the CPU has, one core and all cores), and bandwidth with a
// read-only sum and a STREAM triad over working sets from 16 KiB to well
// past the last-level cache, on one core and on all cores. Cache levels are
// found from where the bandwidth drops and checked against the sizes the
// OS reports. The result is a platform JSON (docs/platform-schema.md) with
// the method, the spread over repeats and the machine in it.
//
//===----------------------------------------------------------------------===//
#include "ToolSupport.h"
#include "CacheLevels.h"
#include "GPU.h"
#include "Kernels.h"
#include "LocalPlatform.h"
#include "Machine.h"

#include "roofline/Model/Platform.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <map>
#include <new>
#include <optional>
#include <pthread.h>
#include <sched.h>
#include <thread>

using namespace llvm;
using namespace roofline;
using namespace roofline::probe;
using nlohmann::json;

static cl::OptionCategory Category("roofline-probe options");
static cl::opt<std::string> Output("o", cl::desc("Write the platform JSON here"),
                                   cl::value_desc("file"), cl::cat(Category));
static cl::opt<bool> Quick("quick",
                           cl::desc("About a minute or two: fewer sizes, shorter runs"),
                           cl::cat(Category));
static cl::opt<std::string> Name("name", cl::desc("Platform name (default local)"),
                                 cl::init("local"), cl::cat(Category));
static cl::opt<bool> NoGPU("no-gpu", cl::desc("Do not measure a CUDA device"),
                           cl::cat(Category));
static cl::opt<bool> PrintCachePath(
    "print-cache-path",
    cl::desc("Print where roofline-report keeps this machine's probed platform "
             "(refresh it with: roofline-probe -o \"$(roofline-probe "
             "--print-cache-path)\") and exit"),
    cl::cat(Category));
static cl::opt<unsigned> Threads("probe-threads",
                                 cl::desc("Threads for the all-cores figures "
                                          "(default: every logical CPU)"),
                                 cl::init(0), cl::cat(Category));

namespace {

using Clock = std::chrono::steady_clock;

struct Stat {
  std::vector<double> Runs; ///< rates, best first after finish()
  double best() const { return Runs.front(); }
  double median() const { return Runs[Runs.size() / 2]; }
  double worst() const { return Runs.back(); }
  /// (best - worst) / best
  double spread() const { return (best() - worst()) / best(); }
  void finish() { std::sort(Runs.rbegin(), Runs.rend()); }
};

void pin(unsigned CPU) {
  cpu_set_t Set;
  CPU_ZERO(&Set);
  CPU_SET(CPU, &Set);
  pthread_setaffinity_np(pthread_self(), sizeof(Set), &Set);
}

/// Runs Work(thread) on \p N pinned threads started together; returns the
/// total units over the slowest thread's seconds.
template <typename Fn> double together(unsigned N, Fn Work) {
  std::atomic<unsigned> Ready{0};
  std::atomic<bool> Go{false};
  std::vector<double> Units(N), Seconds(N);
  std::vector<std::thread> T;
  for (unsigned I = 0; I < N; ++I)
    T.emplace_back([&, I] {
      pin(I);
      ++Ready;
      while (!Go.load())
        ;
      auto Start = Clock::now();
      Units[I] = Work(I);
      Seconds[I] = std::chrono::duration<double>(Clock::now() - Start).count();
    });
  while (Ready.load() < N)
    ;
  Go = true;
  for (std::thread &Th : T)
    Th.join();
  double Total = 0, Slowest = 0;
  for (unsigned I = 0; I < N; ++I) {
    Total += Units[I];
    Slowest = std::max(Slowest, Seconds[I]);
  }
  return Total / Slowest;
}

double TargetSeconds() { return Quick ? 0.02 : 0.1; }
unsigned Repeats() { return Quick ? 3 : 7; }

volatile double Sink; // keeps the kernels' results alive

/// The rate of a chain kernel (Kernel(Iterations, Sink) returns the units
/// done) on one thread: calibrated to about 2 ms a run, then many short
/// runs, so that on a shared machine one of them runs uninterrupted.
template <typename Fn> Stat measureChain(Fn Kernel) {
  uint64_t Iterations = 1 << 12;
  for (;;) {
    auto Start = Clock::now();
    Kernel(Iterations);
    double S = std::chrono::duration<double>(Clock::now() - Start).count();
    if (S >= 0.002 || Iterations > (uint64_t(1) << 40))
      break;
    Iterations *= 2;
  }
  Stat R;
  for (unsigned Rep = 0; Rep < 40; ++Rep)
    R.Runs.push_back(together(1, [&](unsigned) { return Kernel(Iterations); }));
  R.finish();
  return R;
}

/// The core clock while one thread runs: a chain of dependent integer adds
/// (one cycle each) over time.
Stat measureClock() {
  return measureChain([](uint64_t Iterations) {
    uint64_t S = 0;
    double Cycles = addChainKernel(Iterations, &S);
    Sink = Sink + double(S);
    return Cycles;
  });
}

/// Dependent FP operations per second on one thread (their latency is the
/// clock over this).
Stat measureFPChain(bool FMA) {
  return measureChain([FMA](uint64_t Iterations) {
    double S = 1;
    double Ops = fpChainKernel(FMA, Iterations, &S);
    Sink = Sink + S;
    return Ops;
  });
}

Stat measureCompute(const ISA &I, bool Double, unsigned N) {
  double Local = 0;
  uint64_t Iterations = 1 << 12;
  for (;;) { // calibrate on one thread
    auto Start = Clock::now();
    computeKernel(I, Double, Iterations, &Local);
    double S = std::chrono::duration<double>(Clock::now() - Start).count();
    if (S >= TargetSeconds() / 2 || Iterations > (uint64_t(1) << 40))
      break;
    Iterations *= 2;
  }
  Stat R;
  for (unsigned Rep = 0; Rep < Repeats(); ++Rep)
    R.Runs.push_back(together(N, [&](unsigned) {
      double S = 0;
      double F = computeKernel(I, Double, Iterations, &S);
      Sink = Sink + S;
      return F;
    }));
  R.finish();
  return R;
}

/// Page-aligned storage: a kernel's 64-byte vectors then never straddle
/// two lines, as in a compiled loop over aligned arrays (malloc's 16-byte
/// alignment split every other AVX-512 load, and the L1 and L2 roofs came
/// out below what such a loop reaches).
template <class T> struct PageAligned {
  using value_type = T;
  PageAligned() = default;
  template <class U> PageAligned(const PageAligned<U> &) {}
  T *allocate(size_t N) {
    return static_cast<T *>(::operator new(N * sizeof(T), std::align_val_t(4096)));
  }
  void deallocate(T *P, size_t) { ::operator delete(P, std::align_val_t(4096)); }
  bool operator==(const PageAligned &) const { return true; }
};

struct Arrays {
  std::vector<double, PageAligned<double>> A, B, C;
};

/// The bandwidth kernels: which peak each reaches is machine-dependent, so
/// every level keeps the best and says which kernel gave it.
enum class BandwidthKernel { Read, Triad, CopyNT, TriadNT, Memcpy };

const char *kernelText(BandwidthKernel K) {
  switch (K) {
  case BandwidthKernel::Read:
    return "read-only sum";
  case BandwidthKernel::Triad:
    return "STREAM triad";
  case BandwidthKernel::CopyNT:
    return "copy with non-temporal stores";
  case BandwidthKernel::TriadNT:
    return "STREAM triad with non-temporal stores";
  case BandwidthKernel::Memcpy:
    return "the C library's memcpy";
  }
  return "";
}

/// Bandwidth of kernel \p K with a working set of \p Bytes per thread.
/// With \p SinglePasses, each of \p Runs measurements is one pass over the
/// working set (STREAM's method for memory: the best single pass), else
/// enough passes for TargetSeconds.
Stat measureBandwidth(const ISA &I, BandwidthKernel K, size_t Bytes,
                      unsigned N, bool SinglePasses = false,
                      unsigned Runs = Repeats()) {
  unsigned ArrayCount = K == BandwidthKernel::Read ? 1
                     : K == BandwidthKernel::CopyNT || K == BandwidthKernel::Memcpy
                         ? 2
                         : 3;
  size_t Elems = std::max<size_t>(Bytes / sizeof(double) / ArrayCount, 64);
  Elems = Elems / 64 * 64;
  std::vector<Arrays> Data(N);
  // First touch in the threads that use the data (their own NUMA node).
  together(N, [&](unsigned T) {
    Data[T].B.assign(Elems, 1.0);
    if (ArrayCount > 1)
      Data[T].A.assign(Elems, 0.0);
    if (ArrayCount > 2)
      Data[T].C.assign(Elems, 2.0);
    return 1.0;
  });
  // Small working sets are swept many times per call: at least ~4 MiB of
  // traffic per call, so the call itself costs nothing measurable.
  unsigned Repeat =
      unsigned(std::max<size_t>(1, (size_t(4) << 20) / (Elems * sizeof(double))));
  auto Pass = [&](unsigned T) {
    Arrays &D = Data[T];
    switch (K) {
    case BandwidthKernel::Triad:
      return triadKernel(I, D.A.data(), D.B.data(), D.C.data(), Elems, Repeat);
    case BandwidthKernel::CopyNT:
      return copyNTKernel(I, D.A.data(), D.B.data(), Elems, Repeat);
    case BandwidthKernel::Memcpy:
      return memcpyKernel(D.A.data(), D.B.data(), Elems, Repeat);
    case BandwidthKernel::TriadNT:
      return triadNTKernel(I, D.A.data(), D.B.data(), D.C.data(), Elems,
                           Repeat);
    case BandwidthKernel::Read:
      break;
    }
    double S = 0;
    double B = readKernel(I, D.B.data(), Elems, Repeat, &S);
    Sink = Sink + S;
    return B;
  };
  // Passes per measurement: enough for TargetSeconds at the rate of a warm
  // first pass.
  auto Start = Clock::now();
  Pass(0);
  Pass(0);
  double One =
      std::chrono::duration<double>(Clock::now() - Start).count() / 2;
  uint64_t Passes =
      SinglePasses ? 1 : std::max<uint64_t>(1, uint64_t(TargetSeconds() / One));
  Stat R;
  for (unsigned Rep = 0; Rep < Runs; ++Rep)
    R.Runs.push_back(together(N, [&](unsigned T) {
      double B = 0;
      for (uint64_t P = 0; P < Passes; ++P)
        B += Pass(T);
      return B;
    }));
  R.finish();
  return R;
}

/// Each memory kernel's best single pass of 20 over \p Bytes per thread
/// (at least 4x the last-level cache in all), as STREAM times its kernels.
std::map<BandwidthKernel, double> memoryRates(const ISA &I, size_t Bytes,
                                              unsigned N) {
  std::map<BandwidthKernel, double> Rate;
  for (BandwidthKernel K :
       {BandwidthKernel::Read, BandwidthKernel::Triad, BandwidthKernel::CopyNT,
        BandwidthKernel::TriadNT, BandwidthKernel::Memcpy})
    Rate[K] = measureBandwidth(I, K, Bytes, N, true, 20).best();
  return Rate;
}

std::string human(double V, const char *Unit) {
  const char *P[] = {"", "k", "M", "G", "T", "P"};
  int I = 0;
  while (V >= 1000 && I < 5) {
    V /= 1000;
    ++I;
  }
  char Buf[64];
  snprintf(Buf, sizeof(Buf), "%.3g %s%s", V, P[I], Unit);
  return Buf;
}

std::string bytesText(size_t B) {
  char Buf[32];
  if (B >= (size_t(1) << 30))
    snprintf(Buf, sizeof(Buf), "%zu GiB", B >> 30);
  else if (B >= (size_t(1) << 20))
    snprintf(Buf, sizeof(Buf), "%zu MiB", B >> 20);
  else
    snprintf(Buf, sizeof(Buf), "%zu KiB", B >> 10);
  return Buf;
}

void progress(const std::string &S) { errs() << "roofline-probe: " << S << "\n"; }

std::string today() {
  time_t T = time(nullptr);
  char Buf[32];
  strftime(Buf, sizeof(Buf), "%Y-%m-%d", gmtime(&T));
  return Buf;
}

} // namespace

int main(int argc, char **argv) {
  cl::HideUnrelatedOptions(Category);
  setVersionPrinter("roofline-probe");
  cl::ParseCommandLineOptions(argc, argv,
                              "roofline-probe: measures this machine's roofs\n");
  if (PrintCachePath) {
    outs() << localPlatformCachePath() << "\n";
    return 0;
  }
  Machine M = describeMachine();
  unsigned All = Threads ? Threads.getValue() : M.LogicalCPUs;
  std::vector<ISA> ISAs = availableISAs();
  const ISA &Widest = ISAs.front();
  progress(M.CPUModel + ", " + std::to_string(M.LogicalCPUs) +
           " logical CPUs, widest SIMD " + Widest.Name +
           (Quick ? " (quick mode)" : ""));

  // Compute roofs.
  json Compute = json::array();
  double Peak[2] = {0, 0}; // fp32, fp64 with the widest ISA on all threads
  double PeakOne[2] = {0, 0}; // the same on one thread
  std::string PeakSource[2];
  for (const ISA &I : ISAs)
    for (bool Double : {true, false})
      for (unsigned N : {1u, All}) {
        if (N == All && All == 1 && !Compute.empty() &&
            Compute.back()["threads"] == 1 && Compute.back()["isa"] == I.Name &&
            Compute.back()["precision"] == (Double ? "fp64" : "fp32"))
          continue;
        Stat S = measureCompute(I, Double, N);
        const char *Prec = Double ? "fp64" : "fp32";
        progress(std::string("compute ") + I.Name + " " + Prec + ", " +
                 std::to_string(N) + " thread" + (N == 1 ? "" : "s") + ": " +
                 human(S.best(), "FLOP/s") + " (spread " +
                 std::to_string(int(S.spread() * 1000) / 10.0).substr(0, 4) +
                 "%)");
        Compute.push_back({{"isa", I.Name},
                           {"precision", Prec},
                           {"threads", N},
                           {"fma", I.FMA},
                           {"best_flops_per_s", S.best()},
                           {"median_flops_per_s", S.median()},
                           {"worst_flops_per_s", S.worst()}});
        if (&I == &Widest && N == 1)
          PeakOne[Double] = S.best();
        if (&I == &Widest && N == All) {
          Peak[Double] = S.best();
          char Buf[256];
          snprintf(Buf, sizeof(Buf),
                   "measured by roofline-probe %s: %s FMA chains (16 "
                   "independent), %u threads, best of %u runs (median %s, "
                   "spread %.1f%%)",
                   today().c_str(), I.Name.c_str(), N, Repeats(),
                   human(S.median(), "FLOP/s").c_str(), S.spread() * 100);
          PeakSource[Double] = Buf;
        }
      }

  // Bandwidth sweep: per-thread working sets from 16 KiB to well past the
  // last-level cache (at least 4x its size in total, at most 1 GiB).
  size_t LLC = 0, FirstLevelBytes = SIZE_MAX;
  for (const CacheLevel &C : M.DataCaches)
    if (C.Level == 1)
      FirstLevelBytes = C.Bytes;
  for (const CacheLevel &C : M.DataCaches)
    LLC = std::max(LLC, C.Bytes);
  size_t DramTotal =
      std::min<size_t>(size_t(1) << 30, std::max<size_t>(4 * LLC, 256u << 20));
  size_t DramPerThread = DramTotal / All;
  std::vector<size_t> Sizes;
  for (size_t S = 16 << 10; S < DramPerThread; S *= Quick ? 4 : 2)
    Sizes.push_back(S);
  Sizes.push_back(DramPerThread);
  json Sweep = json::array();
  json DramKernels = json::object(); // memory's rate by kernel
  // Memory's kernels run twice, before and after the sweep: on a shared
  // machine a neighbour's burst then spoils one window, not the roof.
  std::map<BandwidthKernel, double> EarlyDram =
      memoryRates(Widest, DramPerThread, All);
  std::vector<double> Best(Sizes.size()), BestOne(Sizes.size());
  for (size_t K = 0; K < Sizes.size(); ++K) {
    Stat Read = measureBandwidth(Widest, BandwidthKernel::Read, Sizes[K], All);
    Stat Triad =
        measureBandwidth(Widest, BandwidthKernel::Triad, Sizes[K], All);
    Stat Read1 = measureBandwidth(Widest, BandwidthKernel::Read, Sizes[K], 1);
    Stat Triad1 = All > 1 ? measureBandwidth(Widest, BandwidthKernel::Triad, Sizes[K], 1)
                          : Triad;
    // Past the first level a triad moves 4 lines for the 3 STREAM credits
    // it: the written line is filled before it is written (write-allocate)
    // and written back later. The levels' traffic in a report counts both
    // (the cache model's fills and write-backs), so their roofs must too.
    double WriteAllocate = Sizes[K] > FirstLevelBytes ? 4.0 / 3 : 1.0;
    Best[K] = std::max(Read.best(), Triad.best() * WriteAllocate);
    BestOne[K] = std::max(Read1.best(), Triad1.best() * WriteAllocate);
    progress("bandwidth " + bytesText(Sizes[K]) + " per thread: read " +
             human(Read.best(), "B/s") + ", triad " +
             human(Triad.best(), "B/s") + " (" + std::to_string(All) +
             " threads); read " + human(Read1.best(), "B/s") + " (1 thread)");
    Sweep.push_back({{"bytes_per_thread", Sizes[K]},
                     {"threads", All},
                     {"read_bytes_per_s", Read.best()},
                     {"read_spread", Read.spread()},
                     {"triad_bytes_per_s", Triad.best()},
                     {"triad_spread", Triad.spread()},
                     {"read_1_thread_bytes_per_s", Read1.best()},
                     {"triad_1_thread_bytes_per_s", Triad1.best()}});
  }

  // Levels: each cache level's bandwidth from the sweep (CacheLevels.h).
  std::vector<MemoryLevel> Memory;
  json Caches = json::array();
  if (M.DataCaches.empty())
    progress("caches: neither the OS (no /sys/devices/system/cpu/cpu0/cache, "
             "as in some virtual machines) nor CPUID lists any: the platform has "
             "no cache level");
  else if (M.CachesFromCPUID)
    progress("caches: the OS lists none (no /sys/devices/system/cpu/cpu0/cache); "
             "their sizes are CPUID's");
  std::vector<LevelBandwidth> One = detectLevels(M.DataCaches, Sizes, BestOne, 1);
  size_t LevelIndex = 0;
  for (const LevelBandwidth &L : detectLevels(M.DataCaches, Sizes, Best, All)) {
    const LevelBandwidth &L1 = One[LevelIndex++];
    CacheLevel C = L.Cache;
    // CPUID in a virtual machine may describe the host's package (one
    // EPYC's L3 is 16 dies' worth): where the sweep drops elsewhere, the
    // sweep's size is the one this machine's threads see.
    if (M.CachesFromCPUID && !L.AgreesWithOS && L.DropAt > 0) {
      size_t Seen = L.DropAt * std::max(1u, std::min(C.SharedBy, All));
      progress("L" + std::to_string(C.Level) + ": CPUID says " + bytesText(C.Bytes) +
               ", the sweep drops at " + bytesText(L.DropAt) + " per thread: using " +
               bytesText(Seen));
      C.Bytes = Seen;
    }
    Caches.push_back({{"level", C.Level},
                      {"os_bytes", C.Bytes},
                      {"shared_by", C.SharedBy},
                      {"share_per_thread", L.SharePerThread},
                      {"sweep_drop_at_bytes_per_thread", L.DropAt},
                      {"agrees_with_os", L.AgreesWithOS}});
    progress("L" + std::to_string(C.Level) + ": OS says " +
             bytesText(C.Bytes) + " (" + bytesText(L.SharePerThread) +
             " per thread); the sweep " +
             (L.DropAt ? "drops at " + bytesText(L.DropAt) +
                             (L.AgreesWithOS ? ", agreeing" : ", not agreeing")
                       : std::string("shows no clear drop")));
    if (L.BytesPerSecond > 0) {
      char Buf[256];
      snprintf(Buf, sizeof(Buf),
               "measured by roofline-probe %s: best of read-only sum and "
               "STREAM triad (%s), %u threads, %s per thread",
               today().c_str(), Widest.Name.c_str(), All,
               bytesText(L.MeasuredAt).c_str());
      // Every instance of the level together: the threads it serves.
      unsigned Instances = (All + std::max(1u, C.SharedBy) - 1) /
                           std::max(1u, C.SharedBy);
      MemoryLevel ML{"l" + std::to_string(C.Level), "", L.BytesPerSecond, Buf,
                     double(C.Bytes) * Instances};
      // One thread: the bandwidth of the same sweep on one thread, and one
      // instance of the level (all of a shared one).
      ML.OneThread = L1.BytesPerSecond;
      ML.OneThreadSizeBytes = double(C.Bytes);
      Memory.push_back(ML);
    }
  }
  {
    // Memory's peak: besides the sweep's read and triad at the largest
    // working set, the kernels that avoid write-allocate reads (non-temporal
    // copy and triad, as STREAM's best builds and likwid-bench's *_mem
    // kernels, and the C library's memcpy, which compilers put in place of
    // copy loops): the best of them, named in the source.
    std::map<BandwidthKernel, double> Rate = EarlyDram;
    for (auto &[K, V] : memoryRates(Widest, Sizes.back(), All))
      Rate[K] = std::max(Rate[K], V);
    Rate[BandwidthKernel::Read] =
        std::max(Rate[BandwidthKernel::Read],
                 Sweep.back()["read_bytes_per_s"].get<double>());
    Rate[BandwidthKernel::Triad] =
        std::max(Rate[BandwidthKernel::Triad],
                 Sweep.back()["triad_bytes_per_s"].get<double>());
    for (BandwidthKernel K : {BandwidthKernel::CopyNT, BandwidthKernel::TriadNT,
                              BandwidthKernel::Memcpy})
      progress(std::string("memory: ") + kernelText(K) + " " +
               human(Rate[K], "B/s") + " (" + std::to_string(All) +
               " threads, " + bytesText(Sizes.back()) + " per thread)");
    std::pair<double, BandwidthKernel> BestDram{0, BandwidthKernel::Read};
    for (const auto &[K, V] : Rate) {
      DramKernels[kernelText(K)] = V;
      if (V > BestDram.first)
        BestDram = {V, K};
    }
    char Buf[320];
    snprintf(Buf, sizeof(Buf),
             "measured by roofline-probe %s: %s (%s), the best of read-only "
             "sum, STREAM triad, non-temporal copy and triad and memcpy, "
             "best single pass of 2 x 20, %u threads, %s per thread (%s in all)",
             today().c_str(), kernelText(BestDram.second),
             Widest.Name.c_str(), All, bytesText(Sizes.back()).c_str(),
             bytesText(Sizes.back() * All).c_str());
    MemoryLevel Dram{"dram", "", BestDram.first, Buf};
    double One = 0;
    for (const auto &[K, V] : memoryRates(Widest, Sizes.back() * All, 1))
      One = std::max(One, V);
    Dram.OneThread = std::min(One, BestDram.first);
    progress("memory, 1 thread: " + human(One, "B/s"));
    Memory.push_back(Dram);
  }
  Stat Clk = measureClock();
  progress("clock, 1 thread: " + human(Clk.best(), "Hz") + " (dependent adds)");
  // FP latencies: a chain's rate at the clock. The best rate gives the
  // shortest latency, which keeps a chain's bound a lower bound.
  std::map<std::string, double> FPLatency;
  for (bool FMA : {false, true}) {
    if (FMA && !Widest.FMA)
      continue;
    Stat S = measureFPChain(FMA);
    double Cycles = Clk.best() / S.best();
    FPLatency[FMA ? "fma" : "add"] = Cycles;
    progress(std::string("latency, dependent ") + (FMA ? "FMAs" : "adds") + ": " +
             std::to_string(Cycles).substr(0, 4) + " cycles");
  }

  // Theoretical peak for comparison: clock x cores x lanes x 2 (FMA) x
  // FMA pipes (2 assumed for AVX-512 parts, the common server case).
  double Pipes = Widest.Name == "avx512" || Widest.Name == "avx2" ? 2 : 1;
  double Lanes64 = Widest.Bits / 64.0;
  double Theory64 = M.NominalMHz * 1e6 * All * Lanes64 * 2 * Pipes;
  Platform CPU;
  CPU.Name = Name.getValue();
  CPU.DisplayName = M.CPUModel + " (measured, " + std::to_string(All) + " threads)";
  CPU.Kind = "cpu";
  CPU.Notes = "Measured by roofline-probe" + std::string(Quick ? " --quick" : "") +
              " on " + today() + "; " + M.Compiler +
              ". Figures are the best run; the spread is in 'measurement'.";
  CPU.Compute = {{"fp64", "vector", Peak[1], Widest.FMA, PeakSource[1]},
                 {"fp32", "vector", Peak[0], Widest.FMA, PeakSource[0]}};
  CPU.Compute[0].OneThread = PeakOne[1];
  CPU.Compute[1].OneThread = PeakOne[0];
  CPU.ClockHz = Clk.best();
  {
    char Buf[200];
    snprintf(Buf, sizeof(Buf),
             "measured by roofline-probe %s: chains of dependent 64-bit adds "
             "(1 cycle each), 1 thread, best of %zu runs (median %s)",
             today().c_str(), Clk.Runs.size(), human(Clk.median(), "Hz").c_str());
    CPU.ClockSource = Buf;
  }
  CPU.LLVMCpu = sys::getHostCPUName().str();
  CPU.FPLatency = FPLatency;
  CPU.Memory = Memory;
  json Measurement = {
      {"cpu", M.CPUModel},
      {"logical_cpus", M.LogicalCPUs},
      {"threads", All},
      {"widest_isa", Widest.Name},
      {"nominal_mhz", M.NominalMHz},
      {"compiler", M.Compiler},
      {"date", today()},
      {"quick", bool(Quick)},
      {"repeats", Repeats()},
      {"seconds_per_run", TargetSeconds()},
      {"compute", Compute},
      {"sweep", Sweep},
      {"memory_by_kernel", DramKernels},
      {"caches", Caches},
      {"theoretical_fp64_flops_per_s", Theory64},
      {"theoretical_method",
       "nominal clock from /proc/cpuinfo x threads x 64-bit lanes of the "
       "widest ISA x 2 (FMA) x 2 FMA pipes (assumed)"},
      {"fp64_fraction_of_theoretical", Peak[1] / Theory64}};

  // The GPU, when there is one: its own platform, NAME-gpu, written next to
  // the CPU's (FILE.json -> FILE-gpu.json).
  GPUResult G;
  std::string Why = "--no-gpu";
  std::optional<Platform> GPU;
  if (!NoGPU && probeGPU(G, Quick, Why)) {
    progress("GPU " + G.Name + ": fp32 " + human(G.FP32, "FLOP/s") + ", fp64 " +
             human(G.FP64, "FLOP/s") + ", device memory " +
             human(G.Bandwidth, "B/s"));
    std::string How = "measured by roofline-probe " + today() + " on " +
                      G.Name + " (sm_" + std::to_string(G.Major) +
                      std::to_string(G.Minor) + ", " + std::to_string(G.SMs) +
                      " SMs): ";
    std::string FMAChains = How + "8 FMA chains per thread, CUDA events, best run";
    GPU.emplace();
    GPU->Name = Name.getValue() + "-gpu";
    GPU->DisplayName = G.Name + " (measured)";
    GPU->Kind = "gpu";
    GPU->Compute = {{"fp32", "vector", G.FP32, true, FMAChains},
                    {"fp64", "vector", G.FP64, true, FMAChains}};
    GPU->Memory = {{"dram", "", G.Bandwidth,
                    How + "float4 copy of 1 GiB, read + write bytes, best run"}};
  } else {
    progress("GPU not measured: " + Why);
  }
  Measurement["gpu"] = GPU ? json(GPU->DisplayName) : json(Why);
  json Extra = {{"measurement", Measurement}};

  std::string Text = platformJSON(CPU, Extra.dump());
  if (Output.empty() || Output == "-") {
    outs() << Text;
  } else {
    std::ofstream Out(Output);
    Out << Text;
    if (!Out) {
      errs() << "roofline-probe: error: cannot write '" << Output << "'\n";
      return 2;
    }
    progress("wrote " + Output);
    if (GPU) {
      std::string GPUPath = Output;
      size_t Dot = GPUPath.rfind(".json");
      GPUPath = (Dot == std::string::npos ? GPUPath : GPUPath.substr(0, Dot)) +
                "-gpu.json";
      std::ofstream GOut(GPUPath);
      GOut << platformJSON(*GPU);
      if (!GOut) {
        errs() << "roofline-probe: error: cannot write '" << GPUPath << "'\n";
        return 2;
      }
      progress("wrote " + GPUPath);
    }
  }
  return 0;
}
