//===- Platform.h - A machine's roofs ---------------------------*- C++ -*-===//
//
// A platform from platforms/*.json (docs/platform-schema.md): peak compute
// per precision and unit, bandwidth per memory level, each with its source.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_MODEL_PLATFORM_H
#define ROOFLINE_MODEL_PLATFORM_H

#include "roofline/Model/Result.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace roofline {

struct ComputePeak {
  /// fp64, fp32, tf32, fp16, bf16, fp8, int64..int4; or "instructions"
  /// with unit "issue": the instruction roofline's roof, machine
  /// instructions a second on a CPU, warp (wavefront) instructions on a GPU.
  std::string Precision;
  std::string Unit;      ///< "vector", "tensor" or "issue"
  double FlopsPerSecond = 0;
  bool FMA = true; ///< the peak counts an FMA as two operations
  std::string Source;
  /// The same peak on one thread (a probed platform gives it; 0: unknown).
  double OneThread = 0;

  /// A GPU's instruction issue: threads per warp (wavefront), whose
  /// per-thread instructions make one warp instruction; 0 elsewhere.
  unsigned WarpSize = 0;

  std::string label() const {
    return Unit == "issue" ? "instruction issue" : Precision + " " + Unit;
  }
};

struct MemoryLevel {
  std::string Level; ///< dram, l3, l2, l1, shared
  std::string Name;  ///< e.g. HBM3
  double BytesPerSecond = 0;
  std::string Source;
  /// Capacity of a cache level over the whole chip (every instance of it);
  /// 0 when the platform does not give it.
  double SizeBytes = 0;
  /// Bandwidth and capacity one thread sees (a probed platform gives them;
  /// 0: unknown): one core's private caches, its share of the rest.
  double OneThread = 0;
  double OneThreadSizeBytes = 0;
};

struct Platform {
  std::string Name;
  std::string DisplayName;
  std::string Kind; ///< gpu, cpu, accelerator
  std::string Vendor;
  std::string Notes;
  std::string Path; ///< where it was read from, for messages
  std::vector<ComputePeak> Compute;
  std::vector<MemoryLevel> Memory;
  /// A CPU's fastest core clock (turbo), which turns a loop's in-core
  /// cycles into time; 0 when not given.
  double ClockHz = 0;
  std::string ClockSource;
  /// LLVM's name for the CPU (-mcpu), whose scheduling model gives the
  /// in-core ceilings; "" when not given.
  std::string LLVMCpu;
  /// Measured latencies of dependent FP operations in cycles ("add",
  /// "fma"): where LLVM's model of the CPU is off, a chain is bounded by
  /// these (the shorter of the two). Empty when not measured.
  std::map<std::string, double> FPLatency;

  /// The peak for a precision and unit, or null.
  const ComputePeak *peak(const std::string &Precision,
                          const std::string &Unit) const;
  /// The DRAM (main memory / HBM) level; every valid platform has one.
  const MemoryLevel &dram() const;
  /// The fp32 vector peak, else the highest vector peak: the headline roof.
  const ComputePeak &headlinePeak() const;
};

/// \p P's roofs for a kernel that ran on \p Threads threads: one thread
/// gets its one-thread figures where the platform has them, a few threads
/// that many times those (never above the chip's). A platform without
/// one-thread figures is unchanged.
Platform onThreads(const Platform &P, double Threads);

/// \p P at a faster core clock than it was probed at (a turbo core, a
/// shared VM's busy minute): the compute peaks and the cache levels, which
/// run at the core's clock, scale by ClockHz / P.ClockHz; memory (DRAM)
/// does not. Unchanged when \p ClockHz is not above P.ClockHz.
Platform atClock(const Platform &P, double ClockHz);

/// Parses and validates platform JSON text; \p Path names it in messages.
Result<Platform> parsePlatform(const std::string &Text, const std::string &Path);
Result<Platform> loadPlatform(const std::string &Path);
/// The platform as its JSON text (the schema parsePlatform reads), with
/// \p Extra's members added at the top level (roofline-probe's
/// "measurement": a JSON object as text, or "").
std::string platformJSON(const Platform &P, const std::string &Extra = "");

/// The platform a tool uses when none is named, for kernels of the kinds
/// in \p Kinds (as summaries and profiles spell them): an AMD MI300X where
/// one is a HIP kernel, else an NVIDIA H100 SXM where one is a CUDA
/// kernel, else a 4th-generation Xeon (all in platforms/).
constexpr const char *DefaultGPUPlatform = "h100-sxm";
constexpr const char *DefaultAMDGPUPlatform = "mi300x";
constexpr const char *DefaultCPUPlatform = "intel-xeon-8480";
inline const char *defaultPlatformFor(const std::set<std::string> &Kinds) {
  if (Kinds.count("hip-kernel"))
    return DefaultAMDGPUPlatform;
  if (Kinds.count("cuda-kernel"))
    return DefaultGPUPlatform;
  return DefaultCPUPlatform;
}

/// Directories searched for NAME.json: $ROOFLINE_PLATFORMS (':'-separated),
/// then \p BuiltinDir.
std::vector<std::string> platformSearchPath(const std::string &BuiltinDir);

/// A platform by name (searched in \p Dirs) or by file path (contains '/'
/// or ends in .json). An unknown name suggests the nearest known names.
Result<Platform> findPlatform(const std::string &NameOrFile,
                              const std::vector<std::string> &Dirs);

/// Names of the platforms in \p Dirs, sorted.
std::vector<std::string> platformNames(const std::vector<std::string> &Dirs);

/// Up to \p Max candidates closest to \p Name by edit distance.
std::vector<std::string> nearestNames(const std::string &Name,
                                      const std::vector<std::string> &Candidates,
                                      unsigned Max = 3);

} // namespace roofline

#endif
