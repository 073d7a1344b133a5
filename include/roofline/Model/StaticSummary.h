//===- StaticSummary.h - Reading the pass's summary JSON --------*- C++ -*-===//
//
// The kernels of a static summary file (docs/summary-schema.md), as the
// report needs them: formulas for FLOPs by precision and class and for bytes
// by space, with where and why they are (not) exact.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_MODEL_STATICSUMMARY_H
#define ROOFLINE_MODEL_STATICSUMMARY_H

#include "roofline/Model/Condition.h"
#include "roofline/Model/Formula.h"
#include "roofline/Model/Result.h"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace roofline {

/// What a run measured for a kernel (all threads and processes summed).
struct Measurement {
  double Calls = 0, Seconds = 0;
  std::map<std::string, std::map<std::string, double>> Classes;
  /// The user's integer operations: width ("i32") -> kind ("add") -> count.
  std::map<std::string, std::map<std::string, double>> IntClasses;
  double BytesLoad = 0, BytesStore = 0; ///< DRAM-roof traffic
  std::map<std::string, std::pair<double, double>> BytesBySpace;
  /// space -> a GPU's bytes of wide accesses a warp's lanes may share
  /// (beyond 4 bytes a lane: docs/counting.md); absent: none.
  std::map<std::string, double> ShareableBySpace;
  /// Adds \p B's calls, seconds, FLOP classes and bytes (a kernel's
  /// records from two profiles joined).
  void addCounts(const Measurement &B);
  /// Machine instructions of the code as it ran (a GPU's: per thread,
  /// summed over threads); unset when the profile has none.
  std::optional<double> Instructions;
  /// Distinct bytes over all calls (the sum of each call's footprint), or
  /// their lower bound when not exact; unset when the run did not measure it.
  std::optional<double> Footprint;
  bool FootprintExact = true;
  /// Per cache level, first level first, from a run with the runtime's
  /// cache model (ROOFLINE_CACHE; docs/profile-schema.md, "traffic"): the
  /// lines it filled from below and the dirty lines it wrote back below.
  struct LevelTraffic {
    std::string Level; ///< "l1", "l2", ...
    double SizeBytes = 0, FillBytes = 0, WritebackBytes = 0;
  };
  std::vector<LevelTraffic> Traffic;
  std::string TrafficModel; ///< what the model simulated
  /// Calls and time are from the cache model's run (several times slower
  /// than the program): the efficiency is low for that reason.
  bool TimeFromCacheModel = false;
  /// A merge of many processes (MPI ranks): the spread of the kernel's
  /// time over those that ran it.
  struct RankSpread {
    double Ranks = 0, Min = 0, Mean = 0, Max = 0, SlowestRank = 0;
  };
  std::optional<RankSpread> Ranks;
  /// The functions it ran inlined into (the profile's "inlined_into"), and
  /// whether it ran only so (its "timing" is its loops', no call of its own).
  std::vector<std::string> InlinedInto;
  bool OnlyInlined = false;
  /// The program that ran (the profile's "executable"), for the in-core
  /// analysis of its machine code; "" when the profile does not say.
  std::string Executable;
  /// The core clock as the run ended (the profile's "clock_hz"; 0: not
  /// measured): the in-core bound's when faster than the platform's.
  double RunClockHz = 0;
  /// The run's timers stopped with a read that waits for the work before
  /// it (the profile's "timer_stop": "rdtscp"): no timed entry overlaps
  /// the next.
  bool StopsWait = false;
  /// Threads that ran the kernel (a CPU profile's "threads"; 0: not known).
  double Threads = 0;
  /// The kernel's loop nests (a profile's "loops"): where each starts and
  /// where the next begins (EndLine, 0: none after it), and their work.
  struct Nest {
    std::string Function, File;
    unsigned Line = 0, EndLine = 0;
    /// The lines of the function's later nests, ascending: EndLine is the
    /// first; one the compiler made of a loop inside this one (an
    /// unswitched copy) starts within this nest's lines (nestEnd).
    std::vector<unsigned> Later;
    double IterationsPerEntry = 0; ///< of its outermost loop as compiled
    double Iterations = 0; ///< of its outermost loop, over all entries
    double Flops = 0, Bytes = 0; ///< FLOPs under fma2, loads + stores
  };
  std::vector<Nest> Nests;
};

/// An assumption as a summary states it: its text, and its test when the
/// text reads as one (read with the file, with the kernel's parameters).
struct StatedAssumption {
  std::string Text;
  std::optional<Assumption> Read;
};

/// A footprint from a summary (docs/summary-schema.md, "Footprint"):
/// formulas of the distinct bytes a call (CUDA: a launch) reads and writes.
struct FootprintRecord {
  Formula Read, Written;
  /// Lower bounds: the same as Read and Written when exact.
  Formula ReadAtLeast, WrittenAtLeast;
  /// Of Read, the bytes the call wrote before reading them: not traffic
  /// below the first level ("read_own"; absent: none).
  Formula ReadOwn;
  bool Exact = true;
  std::string Note;
  std::vector<StatedAssumption> Assumptions;
};

/// Reads a footprint object, its formulas with the kernel's parameters
/// \p Params; the error names \p Where ("f.json: kernels[2].footprint")
/// and the field.
Result<FootprintRecord> parseFootprint(const nlohmann::json &FP,
                                       const std::string &Where,
                                       ParamNames Params);

struct KernelRecord;
/// A CUDA or HIP kernel's record (kind "cuda-kernel", "hip-kernel").
bool isGPUKernel(const KernelRecord &K);

struct KernelRecord {
  std::string Name, DisplayName, Kind, Per, File, Target, Source;
  unsigned Line = 0;
  // The formulas, read when the file is (parseStaticSummary).
  /// precision -> class -> formula (operation counts; tensor in FLOPs)
  std::map<std::string, std::map<std::string, Formula>> Classes;
  /// width ("i32") -> kind ("add", "compare"...) -> formula: integer work
  std::map<std::string, std::map<std::string, Formula>> IntClasses;
  /// space -> {load formula, store formula}
  std::map<std::string, std::pair<Formula, Formula>> BytesBySpace;
  /// space -> formula of the bytes a warp's lanes may share (Measurement's)
  std::map<std::string, Formula> ShareableBySpace;
  Formula BytesLoad, BytesStore; ///< DRAM-roof traffic
  /// Machine instructions (per thread on a GPU) as the summary estimates
  /// them; unset when the summary has none.
  std::optional<Formula> Instructions;
  /// The variables the formulas use ("params": the kernel's parameters
  /// first, then unknown trip counts and the like).
  std::vector<std::string> Params;
  /// The kernel's parameters ("parameters"): names its formulas read as
  /// parameters whatever they spell (Atom::named). Empty for a summary
  /// written before the field: then every name is typed by its spelling.
  std::vector<std::string> Parameters;
  bool Exact = true;
  std::vector<std::string> Notes, Assumptions;
  std::optional<FootprintRecord> Footprint;
  std::string Origin; ///< the file it came from
  std::optional<Measurement> Measured;
  /// A loop record (Kind "loop"): the nest as Measurement::Nest has it.
  std::optional<Measurement::Nest> LoopNest;
  /// From a profile only: the static FLOP formula the compile found.
  std::optional<Formula> StaticFlops;
  bool StaticExact = false;
  /// A CUDA launch configuration from a profile: its launch shape, and the
  /// static per-thread formulas times its threads with its arguments bound
  /// (per launch; unset when a formula needs a value the launch lacks).
  struct LaunchShape {
    std::string Config; ///< "<<<4096, 256>>> n=1048576"
    double Threads = 0; ///< per launch
    std::optional<double> PredictedFlops, PredictedBytes;
  };
  std::optional<LaunchShape> Launch;
};

/// Reads every kernel of a static summary (roofline/Model/Profile.h's
/// loadInputs reads files); the error names the file and the field
/// ("kernels[3].formula.flops: missing").
Result<std::vector<KernelRecord>> parseStaticSummary(const std::string &Text,
                                                     const std::string &Path);
Result<std::vector<KernelRecord>> parseStaticSummary(const nlohmann::json &J,
                                                     const std::string &Path);

} // namespace roofline

#endif
