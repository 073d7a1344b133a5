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
#include "Measure.h"

#include "roofline/Model/Platform.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <map>
#include <optional>

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


/// The compute roofs: every ISA, both precisions, one thread and all.
struct ComputeRoofs {
  json Table = json::array();
  double Peak[2] = {0, 0};    ///< fp32, fp64: the widest ISA, all threads
  double PeakOne[2] = {0, 0}; ///< the same on one thread
  std::string PeakSource[2];
};

ComputeRoofs measureComputeRoofs(const std::vector<ISA> &ISAs, unsigned All) {
  ComputeRoofs R;
  const ISA &Widest = ISAs.front();
  for (const ISA &I : ISAs)
    for (bool Double : {true, false})
      for (unsigned N : {1u, All}) {
        if (N == All && All == 1 && !R.Table.empty() &&
            R.Table.back()["threads"] == 1 && R.Table.back()["isa"] == I.Name &&
            R.Table.back()["precision"] == (Double ? "fp64" : "fp32"))
          continue;
        Stat S = measureCompute(I, Double, N);
        const char *Prec = Double ? "fp64" : "fp32";
        progress(std::string("compute ") + I.Name + " " + Prec + ", " +
                 std::to_string(N) + " thread" + (N == 1 ? "" : "s") + ": " +
                 human(S.best(), "FLOP/s") + " (spread " +
                 std::to_string(int(S.spread() * 1000) / 10.0).substr(0, 4) +
                 "%)");
        R.Table.push_back({{"isa", I.Name},
                           {"precision", Prec},
                           {"threads", N},
                           {"fma", I.FMA},
                           {"best_flops_per_s", S.best()},
                           {"median_flops_per_s", S.median()},
                           {"worst_flops_per_s", S.worst()}});
        if (&I == &Widest && N == 1)
          R.PeakOne[Double] = S.best();
        if (&I == &Widest && N == All) {
          R.Peak[Double] = S.best();
          char Buf[256];
          snprintf(Buf, sizeof(Buf),
                   "measured by roofline-probe %s: %s FMA chains (16 "
                   "independent), %u threads, best of %u runs (median %s, "
                   "spread %.1f%%)",
                   today().c_str(), I.Name.c_str(), N, repeats(),
                   human(S.median(), "FLOP/s").c_str(), S.spread() * 100);
          R.PeakSource[Double] = Buf;
        }
      }
  return R;
}

/// The integer roof: int32 vector adds in the widest vectors, one thread
/// and all.
struct IntegerRoof {
  json Table = json::array();
  double Peak = 0, PeakOne = 0;
  std::string Source;
};

IntegerRoof measureIntegerRoof(const ISA &Widest, unsigned All) {
  IntegerRoof R;
  for (unsigned N : {1u, All}) {
    if (N == All && All == 1 && !R.Table.empty())
      break;
    Stat S = measureIntAdd(Widest, N);
    progress("integer " + Widest.Name + " int32 adds, " + std::to_string(N) +
             " thread" + (N == 1 ? "" : "s") + ": " + human(S.best(), "op/s"));
    R.Table.push_back({{"isa", Widest.Name},
                       {"precision", "int32"},
                       {"threads", N},
                       {"best_ops_per_s", S.best()},
                       {"median_ops_per_s", S.median()},
                       {"worst_ops_per_s", S.worst()}});
    if (N == 1)
      R.PeakOne = S.best();
    R.Peak = S.best();
    char Buf[256];
    snprintf(Buf, sizeof(Buf),
             "measured by roofline-probe %s: %s int32 add chains (16 "
             "independent), %u threads, best of %u runs (median %s)",
             today().c_str(), Widest.Name.c_str(), N, repeats(),
             human(S.median(), "op/s").c_str());
    R.Source = Buf;
  }
  return R;
}

/// The instruction roof: the issue kernels' mixes on one thread and all,
/// the best of them kept (the front end's width, whichever mix reaches it).
struct IssueRoof {
  json Table = json::array();
  double Peak = 0, PeakOne = 0;
  std::string Source;
};

IssueRoof measureIssueRoof(unsigned All) {
  IssueRoof R;
  uint64_t Probe = 0;
  if (issueKernel(IssueMix::Adds, 1, &Probe) == 0) {
    progress("instructions not measured: the issue kernels are x86-64 code");
    return R;
  }
  for (unsigned N : {1u, All}) {
    if (N == All && All == 1 && !R.Table.empty())
      break;
    double Best = 0;
    for (IssueMix Mix : {IssueMix::Adds, IssueMix::AddsAndLoads}) {
      Stat S = measureIssue(Mix, N);
      progress("instructions, " + std::string(issueMixText(Mix)) + ", " +
               std::to_string(N) + " thread" + (N == 1 ? "" : "s") + ": " +
               human(S.best(), "inst/s"));
      R.Table.push_back({{"mix", issueMixText(Mix)},
                         {"threads", N},
                         {"best_instructions_per_s", S.best()},
                         {"median_instructions_per_s", S.median()},
                         {"worst_instructions_per_s", S.worst()}});
      if (S.best() <= Best)
        continue;
      Best = S.best();
      char Buf[256];
      snprintf(Buf, sizeof(Buf),
               "measured by roofline-probe %s: independent instructions (%s), "
               "%u threads, best of %u runs (median %s)",
               today().c_str(), issueMixText(Mix), N, repeats(),
               human(S.median(), "inst/s").c_str());
      R.Source = Buf;
    }
    if (N == 1)
      R.PeakOne = Best;
    R.Peak = Best;
  }
  return R;
}

/// The bandwidth sweep: per-thread working sets from 16 KiB to well past
/// the last-level cache (at least 4x its size in total, at most 1 GiB).
struct BandwidthSweep {
  std::vector<size_t> Sizes;         ///< per thread
  std::vector<double> Best, BestOne; ///< all threads, one thread
  json Table = json::array();
  /// Memory's kernels, before the sweep (they run again after it: on a
  /// shared machine a neighbour's burst then spoils one window, not the roof).
  std::map<BandwidthKernel, double> EarlyDram;
  double EarlyDramOne = 0; ///< the best of them on one thread, before
};

BandwidthSweep sweepBandwidth(const Machine &M, const ISA &Widest, unsigned All) {
  BandwidthSweep W;
  size_t LLC = 0, FirstLevelBytes = SIZE_MAX;
  for (const topology::CacheInfo &C : M.DataCaches)
    if (C.Level == 1)
      FirstLevelBytes = C.SizeBytes;
  for (const topology::CacheInfo &C : M.DataCaches)
    LLC = std::max(LLC, C.SizeBytes);
  size_t DramTotal =
      std::min<size_t>(size_t(1) << 30, std::max<size_t>(4 * LLC, 256u << 20));
  size_t DramPerThread = DramTotal / All;
  for (size_t S = 16 << 10; S < DramPerThread; S *= Quick ? 4 : 2)
    W.Sizes.push_back(S);
  W.Sizes.push_back(DramPerThread);
  W.EarlyDram = memoryRates(Widest, DramPerThread, All);
  for (const auto &[K, V] : memoryRates(Widest, DramPerThread * All, 1))
    W.EarlyDramOne = std::max(W.EarlyDramOne, V);
  W.Best.resize(W.Sizes.size());
  W.BestOne.resize(W.Sizes.size());
  for (size_t K = 0; K < W.Sizes.size(); ++K) {
    size_t Size = W.Sizes[K];
    Stat Read = measureBandwidth(Widest, BandwidthKernel::Read, Size, All);
    Stat Triad = measureBandwidth(Widest, BandwidthKernel::Triad, Size, All);
    Stat Read1 = measureBandwidth(Widest, BandwidthKernel::Read, Size, 1);
    Stat Triad1 = All > 1 ? measureBandwidth(Widest, BandwidthKernel::Triad, Size, 1)
                          : Triad;
    // A read-modify-write stream (y += s*x) has no write-allocate fill and
    // beats both on some cores' L2 and memory.
    Stat Daxpy = measureBandwidth(Widest, BandwidthKernel::Daxpy, Size, All);
    Stat Daxpy1 = All > 1 ? measureBandwidth(Widest, BandwidthKernel::Daxpy, Size, 1)
                          : Daxpy;
    // Past the first level a triad moves 4 lines for the 3 STREAM credits
    // it: the written line is filled before it is written (write-allocate)
    // and written back later. The levels' traffic in a report counts both
    // (the cache model's fills and write-backs), so their roofs must too.
    double WriteAllocate = Size > FirstLevelBytes ? 4.0 / 3 : 1.0;
    W.Best[K] = std::max({Read.best(), Triad.best() * WriteAllocate, Daxpy.best()});
    W.BestOne[K] =
        std::max({Read1.best(), Triad1.best() * WriteAllocate, Daxpy1.best()});
    progress("bandwidth " + bytesText(Size) + " per thread: read " +
             human(Read.best(), "B/s") + ", triad " +
             human(Triad.best(), "B/s") + ", daxpy " +
             human(Daxpy.best(), "B/s") + " (" + std::to_string(All) +
             " threads); read " + human(Read1.best(), "B/s") + " (1 thread)");
    W.Table.push_back({{"bytes_per_thread", Size},
                       {"threads", All},
                       {"read_bytes_per_s", Read.best()},
                       {"read_spread", Read.spread()},
                       {"triad_bytes_per_s", Triad.best()},
                       {"triad_spread", Triad.spread()},
                       {"daxpy_bytes_per_s", Daxpy.best()},
                       {"daxpy_spread", Daxpy.spread()},
                       {"read_1_thread_bytes_per_s", Read1.best()},
                       {"triad_1_thread_bytes_per_s", Triad1.best()},
                       {"daxpy_1_thread_bytes_per_s", Daxpy1.best()}});
  }
  return W;
}

/// Each cache level's bandwidth from the sweep (CacheLevels.h) into
/// \p Memory; what the OS and the sweep said of it into \p Caches.
void addCacheLevels(const Machine &M, const BandwidthSweep &W, const ISA &Widest,
                    unsigned All, std::vector<MemoryLevel> &Memory, json &Caches) {
  if (M.DataCaches.empty())
    progress("caches: neither the OS (no /sys/devices/system/cpu/cpu0/cache, "
             "as in some virtual machines) nor CPUID lists any: the platform has "
             "no cache level");
  else if (M.CachesFromCPUID)
    progress("caches: from " + M.CacheOrigin);
  std::vector<LevelBandwidth> One = detectLevels(M.DataCaches, W.Sizes, W.BestOne, 1);
  size_t LevelIndex = 0;
  for (const LevelBandwidth &L : detectLevels(M.DataCaches, W.Sizes, W.Best, All)) {
    const LevelBandwidth &L1 = One[LevelIndex++];
    topology::CacheInfo C = L.Cache;
    size_t Described = C.SizeBytes;
    const char *Teller = M.CachesFromCPUID ? "CPUID" : "the OS";
    // Where the sweep drops elsewhere, the sweep's size is the one this
    // machine's threads see (a VM's CPUID may describe the host's package:
    // one EPYC's L3 is 16 core complexes' worth): the largest working set
    // that still ran at the level's speed, times the threads sharing it.
    std::string SizeNote;
    if (!L.AgreesWithOS && L.DropAt > 0) {
      size_t Seen = L.LastFastAt * std::max(1u, std::min(C.SharedBy, All));
      SizeNote = "; size " + bytesText(Seen) + " from the sweep (" + Teller +
                 " says " + bytesText(Described) + ")";
      progress("L" + std::to_string(C.Level) + ": " + Teller + " says " +
               bytesText(Described) + ", the sweep drops at " +
               bytesText(L.DropAt) + " per thread: using " + bytesText(Seen));
      C.SizeBytes = Seen;
    }
    Caches.push_back({{"level", C.Level},
                      {"os_bytes", Described},
                      {"bytes", C.SizeBytes},
                      {"size_from", SizeNote.empty() ? "os" : "sweep"},
                      {"shared_by", C.SharedBy},
                      {"share_per_thread", L.SharePerThread},
                      {"sweep_drop_at_bytes_per_thread", L.DropAt},
                      {"agrees_with_os", L.AgreesWithOS}});
    progress("L" + std::to_string(C.Level) + ": " + Teller + " says " +
             bytesText(Described) + " (" + bytesText(L.SharePerThread) +
             " per thread); the sweep " +
             (L.DropAt ? "drops at " + bytesText(L.DropAt) +
                             (L.AgreesWithOS ? ", agreeing" : ", not agreeing")
                       : std::string("shows no clear drop")));
    if (L.BytesPerSecond <= 0)
      continue;
    char Buf[384];
    snprintf(Buf, sizeof(Buf),
             "measured by roofline-probe %s: best of read-only sum, "
             "STREAM triad and daxpy update (%s), %u threads, %s per thread%s",
             today().c_str(), Widest.Name.c_str(), All,
             bytesText(L.MeasuredAt).c_str(), SizeNote.c_str());
    // Every instance of the level together: the threads it serves.
    unsigned Instances = (All + std::max(1u, C.SharedBy) - 1) /
                         std::max(1u, C.SharedBy);
    MemoryLevel ML{"l" + std::to_string(C.Level), "", L.BytesPerSecond, Buf,
                   double(C.SizeBytes) * Instances};
    // One thread: the bandwidth of the same sweep on one thread, and one
    // instance of the level (all of a shared one).
    ML.OneThread = L1.BytesPerSecond;
    ML.OneThreadSizeBytes = double(C.SizeBytes);
    Memory.push_back(ML);
  }
}

/// Memory's peak: besides the sweep's read, triad and daxpy at the largest
/// working set, the kernels that avoid write-allocate reads (non-temporal
/// copy and triad, as STREAM's best builds and likwid-bench's *_mem
/// kernels, and the C library's memcpy, which compilers put in place of
/// copy loops): the best of them, named in the source. Each kernel's rate
/// into \p ByKernel.
MemoryLevel dramLevel(const BandwidthSweep &W, const ISA &Widest, unsigned All,
                      json &ByKernel) {
  std::map<BandwidthKernel, double> Rate = W.EarlyDram;
  for (auto &[K, V] : memoryRates(Widest, W.Sizes.back(), All))
    Rate[K] = std::max(Rate[K], V);
  Rate[BandwidthKernel::Read] = std::max(
      Rate[BandwidthKernel::Read], W.Table.back()["read_bytes_per_s"].get<double>());
  Rate[BandwidthKernel::Triad] = std::max(
      Rate[BandwidthKernel::Triad], W.Table.back()["triad_bytes_per_s"].get<double>());
  Rate[BandwidthKernel::Daxpy] = std::max(
      Rate[BandwidthKernel::Daxpy], W.Table.back()["daxpy_bytes_per_s"].get<double>());
  for (BandwidthKernel K : {BandwidthKernel::Daxpy, BandwidthKernel::CopyNT,
                            BandwidthKernel::TriadNT, BandwidthKernel::Memcpy})
    progress(std::string("memory: ") + kernelText(K) + " " + human(Rate[K], "B/s") +
             " (" + std::to_string(All) + " threads, " +
             bytesText(W.Sizes.back()) + " per thread)");
  std::pair<double, BandwidthKernel> BestDram{0, BandwidthKernel::Read};
  for (const auto &[K, V] : Rate) {
    ByKernel[kernelText(K)] = V;
    if (V > BestDram.first)
      BestDram = {V, K};
  }
  char Buf[320];
  snprintf(Buf, sizeof(Buf),
           "measured by roofline-probe %s: %s (%s), the best of read-only "
           "sum, STREAM triad, daxpy update, non-temporal copy and triad and "
           "memcpy, "
           "best single pass of 2 x 20, %u threads, %s per thread (%s in all)",
           today().c_str(), kernelText(BestDram.second), Widest.Name.c_str(),
           All, bytesText(W.Sizes.back()).c_str(),
           bytesText(W.Sizes.back() * All).c_str());
  MemoryLevel Dram{"dram", "", BestDram.first, Buf};
  // One thread, twice as for all of them, and the sweep's largest size.
  double One = std::max(W.EarlyDramOne, W.BestOne.back());
  for (const auto &[K, V] : memoryRates(Widest, W.Sizes.back() * All, 1))
    One = std::max(One, V);
  Dram.OneThread = std::min(One, BestDram.first);
  progress("memory, 1 thread: " + human(One, "B/s"));
  return Dram;
}

/// FP latencies: a chain's rate at the clock. The best rate gives the
/// shortest latency, which keeps a chain's bound a lower bound.
std::map<std::string, double> fpLatencies(const ISA &Widest, double ClockHz) {
  std::map<std::string, double> FPLatency;
  for (bool FMA : {false, true}) {
    if (FMA && !Widest.FMA)
      continue;
    Stat S = measureFPChain(FMA);
    double Cycles = ClockHz / S.best();
    FPLatency[FMA ? "fma" : "add"] = Cycles;
    progress(std::string("latency, dependent ") + (FMA ? "FMAs" : "adds") + ": " +
             std::to_string(Cycles).substr(0, 4) + " cycles");
  }
  return FPLatency;
}

/// The GPU, when there is one: its own platform, NAME-gpu. \p Why says why
/// not otherwise.
std::optional<Platform> gpuPlatform(std::string &Why) {
  GPUResult G;
  Why = "--no-gpu";
  if (NoGPU || !probeGPU(G, Quick, Why)) {
    progress("GPU not measured: " + Why);
    return std::nullopt;
  }
  progress("GPU " + G.Name + ": fp32 " + human(G.FP32, "FLOP/s") + ", fp64 " +
           human(G.FP64, "FLOP/s") + ", device memory " + human(G.Bandwidth, "B/s"));
  std::string How = "measured by roofline-probe " + today() + " on " + G.Name +
                    " (sm_" + std::to_string(G.Major) + std::to_string(G.Minor) +
                    ", " + std::to_string(G.SMs) + " SMs): ";
  std::string FMAChains = How + "8 FMA chains per thread, CUDA events, best run";
  Platform GPU;
  GPU.Name = Name.getValue() + "-gpu";
  GPU.DisplayName = G.Name + " (measured)";
  GPU.Kind = "gpu";
  GPU.Compute = {{"fp32", "vector", G.FP32, true, FMAChains},
                 {"fp64", "vector", G.FP64, true, FMAChains}};
  GPU.Memory = {{"dram", "", G.Bandwidth,
                 How + "float4 copy of 1 GiB, read + write bytes, best run"}};
  return GPU;
}

/// Writes \p Text to \p Path; false (said on stderr) when it cannot.
bool writeFile(const std::string &Path, const std::string &Text) {
  std::ofstream Out(Path);
  Out << Text;
  if (!Out) {
    errs() << "roofline-probe: error: cannot write '" << Path << "'\n";
    return false;
  }
  progress("wrote " + Path);
  return true;
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
  setQuickPace(Quick);
  Machine M = describeMachine();
  unsigned All = Threads ? Threads.getValue() : M.LogicalCPUs;
  std::vector<ISA> ISAs = availableISAs();
  const ISA &Widest = ISAs.front();
  progress(M.CPUModel + ", " + std::to_string(M.LogicalCPUs) +
           " logical CPUs, widest SIMD " + Widest.Name +
           (Quick ? " (quick mode)" : ""));

  ComputeRoofs C = measureComputeRoofs(ISAs, All);
  IntegerRoof Int = measureIntegerRoof(Widest, All);
  IssueRoof Issue = measureIssueRoof(All);
  BandwidthSweep W = sweepBandwidth(M, Widest, All);
  std::vector<MemoryLevel> Memory;
  json Caches = json::array();
  addCacheLevels(M, W, Widest, All, Memory, Caches);
  json DramKernels = json::object(); // memory's rate by kernel
  Memory.push_back(dramLevel(W, Widest, All, DramKernels));
  Stat Clk = measureClock();
  progress("clock, 1 thread: " + human(Clk.best(), "Hz") + " (dependent adds)");
  std::map<std::string, double> FPLatency = fpLatencies(Widest, Clk.best());

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
  CPU.Compute = {{"fp64", "vector", C.Peak[1], Widest.FMA, C.PeakSource[1]},
                 {"fp32", "vector", C.Peak[0], Widest.FMA, C.PeakSource[0]}};
  CPU.Compute[0].OneThread = C.PeakOne[1];
  CPU.Compute[1].OneThread = C.PeakOne[0];
  CPU.Compute.push_back({"int32", "vector", Int.Peak, false, Int.Source});
  CPU.Compute.back().OneThread = Int.PeakOne;
  if (Issue.Peak > 0) {
    CPU.Compute.push_back({"instructions", "issue", Issue.Peak, false, Issue.Source});
    CPU.Compute.back().OneThread = Issue.PeakOne;
  }
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
      {"repeats", repeats()},
      {"seconds_per_run", targetSeconds()},
      {"compute", C.Table},
      {"integer", Int.Table},
      {"instructions", Issue.Table},
      {"sweep", W.Table},
      {"memory_by_kernel", DramKernels},
      {"caches", Caches},
      {"theoretical_fp64_flops_per_s", Theory64},
      {"theoretical_method",
       "nominal clock from /proc/cpuinfo x threads x 64-bit lanes of the "
       "widest ISA x 2 (FMA) x 2 FMA pipes (assumed)"},
      {"fp64_fraction_of_theoretical", C.Peak[1] / Theory64}};

  // The GPU's platform is written next to the CPU's (FILE.json ->
  // FILE-gpu.json).
  std::string Why;
  std::optional<Platform> GPU = gpuPlatform(Why);
  Measurement["gpu"] = GPU ? json(GPU->DisplayName) : json(Why);
  json Extra = {{"measurement", Measurement}};

  std::string Text = platformJSON(CPU, Extra.dump());
  if (Output.empty() || Output == "-") {
    outs() << Text;
    return 0;
  }
  if (!writeFile(Output, Text))
    return 2;
  if (GPU) {
    std::string GPUPath = Output;
    size_t Dot = GPUPath.rfind(".json");
    GPUPath = (Dot == std::string::npos ? GPUPath : GPUPath.substr(0, Dot)) +
              "-gpu.json";
    if (!writeFile(GPUPath, platformJSON(*GPU)))
      return 2;
  }
  return 0;
}
