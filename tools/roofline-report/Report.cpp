//===- Report.cpp - Kernels placed on a platform's roofline ---------------===//
#include "Report.h"

#include "roofline/Model/Condition.h"

#include "roofline/Model/Formula.h"
#include "roofline/Model/SourceFiles.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace roofline {

std::optional<double> KernelRow::achievedFlops() const {
  if (!MeasuredSeconds || *MeasuredSeconds <= 0)
    return std::nullopt;
  return Place.Flops / *MeasuredSeconds;
}

std::optional<double> KernelRow::efficiency() const {
  auto A = achievedFlops();
  if (!A || Place.Attainable <= 0)
    return std::nullopt;
  return *A / Place.Attainable;
}

namespace {

/// Evaluates \p F, a formula of a kernel (read with its parameters), with
/// the assumed values. Without any --assume sizes,
/// unbound variables take LargeSize (and clear \p Known); once sizes are
/// given, a formula needing one more is an error.
Result<double> evaluate(const Formula &F,
                        const std::map<std::string, double> &Assume,
                        bool &Known) {
  bool SizesGiven = std::any_of(Assume.begin(), Assume.end(), [](const auto &KV) {
    return KV.first != "threads" && KV.first.rfind("blockDim.", 0) != 0;
  });
  // A per-thread count that varies with the thread: its mean over the
  // launch of --assume blockDim.x=...,gridDim.x=...; without them, the
  // first thread's.
  LaunchDims Dims;
  const char *Axes[] = {"x", "y", "z"};
  for (int A = 0; A < 3; ++A) {
    auto Block = Assume.find(std::string("blockDim.") + Axes[A]);
    Dims.Block[A] = Block == Assume.end() ? 1 : Block->second;
    auto Grid = Assume.find(std::string("gridDim.") + Axes[A]);
    Dims.Grid[A] = Grid == Assume.end() ? 1 : Grid->second;
  }
  if (SizesGiven)
    return evaluatePerThreadMean(F, Assume, Dims);
  std::set<std::string> Unbound;
  Result<double> V = evaluateAtLargeSizes(F, Assume, &Unbound, Dims);
  Known &= Unbound.empty();
  return V;
}

/// The static prediction of a CUDA launch configuration beside what its
/// launches measured, per launch.
std::string launchNote(const KernelRecord &K) {
  const KernelRecord::LaunchShape &L = *K.Launch;
  const Measurement &M = *K.Measured;
  if (L.Threads <= 0)
    return "launches beyond the runtime's record limit "
           "(ROOFLINE_LAUNCH_RECORDS): the kernel's totals less the recorded "
           "launches";
  double Launches = M.Calls > 0 ? M.Calls : 1;
  // The static formula counts by the tool's convention: compare alike.
  double Flops = Work{M.Classes}.flops(Convention::FMA2);
  auto Compare = [](std::optional<double> Predicted, double Measured) {
    if (!Predicted)
      return std::string("unknown (a formula needs a value the launch lacks)");
    std::string S = siNumber(*Predicted, 4) + " predicted, " +
                    siNumber(Measured, 4) + " measured";
    if (*Predicted > 0)
      S += " (" + siNumber(Measured / *Predicted * 100, 4) + "%)";
    return S;
  };
  return "per launch, static formula x " + siNumber(L.Threads, 6) +
         " threads: FLOPs " +
         Compare(L.PredictedFlops, Flops / Launches) + "; bytes " +
         Compare(L.PredictedBytes, (M.BytesLoad + M.BytesStore) / Launches) +
         (K.StaticExact ? "" : "; the static count is an estimate");
}

/// Why a run beat its bound: the roofs are the platform's, so one of its
/// figures is below what this machine does (or the run was elsewhere), or
/// the timer undercounts.
std::string aboveBound(const KernelRow &Row, const Platform &P) {
  const Placement &Pl = Row.Place;
  double Seconds = *Row.MeasuredSeconds;
  std::string S = "ABOVE THE BOUND: measured " +
                  siNumber(*Row.efficiency() * 100, 3) + "% of the attainable " +
                  siUnit(Pl.Attainable, "FLOP/s") + ", which no run can reach: ";
  if (Pl.Limiter.rfind("in-core", 0) == 0) {
    S += "it ran faster than its loops' machine code allows in LLVM's "
         "scheduling model at " + siUnit(P.ClockHz, "Hz") + " (" +
         Pl.InCore->Detail + "): the clock, the model or the match of loops "
         "to machine code is off";
  } else if (Pl.MemoryBound) {
    double Rate = Pl.Bytes / Seconds;
    S += "it moved " + siUnit(Pl.Bytes, "B") + " through " + Pl.Limiter +
         " at " + siUnit(Rate, "B/s") + ", above " + P.Name + "'s " +
         Pl.Limiter + " roof of " + siUnit(Pl.Bandwidth, "B/s") +
         " (not a peak for this machine, or the run was on another one)";
  } else {
    S += "it ran at " + siUnit(Pl.Flops / Seconds, "FLOP/s") + ", above " +
         P.Name + "'s " + Pl.Roof + " roof of " +
         siUnit(Pl.PeakFlops, "FLOP/s") +
         " (not a peak for this machine, or the run was on another one)";
  }
  return S + "; a sampled timer that undercounts would do the same";
}

/// A merge of many processes: the spread of the kernel's time over them.
std::string rankNote(const Measurement::RankSpread &R) {
  char Ratio[32];
  std::snprintf(Ratio, sizeof(Ratio), "%.2f", R.Max / R.Mean);
  return std::to_string((long long)R.Ranks) + " ranks: time min " +
         secondsText(R.Min) + ", mean " + secondsText(R.Mean) + ", max " +
         secondsText(R.Max) + " (max/mean " + Ratio +
         ": load imbalance; slowest rank " +
         std::to_string((long long)R.SlowestRank) + ")";
}

/// A run with the cache model: the bytes below each modelled level (its
/// fills and write-backs) are those the next level served in this run:
/// below l1 they go against the l2 roof, below the last modelled level
/// against DRAM. They replace the footprint's bounds for those levels.
void placeMeasuredTraffic(const Platform &P, const Measurement &M, KernelRow &Row) {
  auto Has = [&](const std::string &L) {
    return std::any_of(P.Memory.begin(), P.Memory.end(),
                       [&](const MemoryLevel &ML) { return ML.Level == L; });
  };
  std::string Levels, Larger;
  for (size_t I = 0; I < M.Traffic.size(); ++I) {
    const Measurement::LevelTraffic &T = M.Traffic[I];
    std::string Below = I + 1 < M.Traffic.size() ? "l" + std::to_string(I + 2) : "dram";
    Levels += (Levels.empty() ? "" : ", ") + T.Level + " " + binaryBytes(T.SizeBytes);
    // A simulated cache larger than the platform's (a VM's CPUID giving
    // the package's L3 where a core sees a slice) misses less than the
    // platform's would once more data reached it than the platform's
    // holds: its traffic below is then a loose lower bound, which does not
    // replace the footprint's, and without a footprint the traffic there
    // is unknown. (Less data than that: both hold it all, and miss alike.)
    double Reaching = I ? M.Traffic[I - 1].FillBytes + M.Traffic[I - 1].WritebackBytes
                        : std::numeric_limits<double>::infinity();
    auto Same = std::find_if(P.Memory.begin(), P.Memory.end(),
                             [&](const MemoryLevel &ML) { return ML.Level == T.Level; });
    if (Larger.empty() && Same != P.Memory.end() && Same->SizeBytes > 0 &&
        T.SizeBytes > 1.5 * Same->SizeBytes && Reaching > Same->SizeBytes)
      Larger = "the cache model's " + T.Level + " (" + binaryBytes(T.SizeBytes) +
               ") is larger than " + P.Name + "'s (" + binaryBytes(Same->SizeBytes) +
               ") and " + binaryBytes(Reaching) + " reached it: it misses "
               "less than " + P.Name + "'s would, so its traffic below " + T.Level +
               " is a lower bound only, taken where it exceeds the footprint's";
    if (!Has(Below))
      continue;
    if (!Larger.empty()) {
      // Still a lower bound (a larger cache misses less), where the
      // footprint gives one too: the larger of the two.
      if (auto It = Row.Bytes.find(Below); It != Row.Bytes.end())
        It->second = std::max(It->second, T.FillBytes + T.WritebackBytes);
      continue;
    }
    Row.Bytes[Below] = T.FillBytes + T.WritebackBytes;
    Row.MeasuredLevels.push_back(Below);
  }
  std::string Served;
  for (const std::string &L : Row.MeasuredLevels)
    Served += (Served.empty() ? "" : ", ") + L;
  // The footprint's notes are about the bounds these replace.
  if (Larger.empty())
    Row.Notes.erase(std::remove_if(Row.Notes.begin(), Row.Notes.end(),
                                   [](const std::string &N) {
                                     return N.rfind("footprint ", 0) == 0 ||
                                            N.rfind("no footprint measured", 0) == 0;
                                   }),
                    Row.Notes.end());
  else
    Row.Notes.push_back(Larger);
  Row.Notes.push_back("traffic at " + (Served.empty() ? std::string("no level of ") + P.Name : Served) +
                      " measured by the cache model (" + Levels + "; " +
                      M.TrafficModel + "): this run's, not a bound for others");
}

/// The in-core cycles of loop nests, summed, and the slowest nest's reason.
struct NestCycles {
  const InCoreReport &IR;
  bool EntriesApart = false; ///< the run's timers waited for the work
  double Cycles = 0, Longest = -1;
  unsigned Matched = 0;
  InCoreBound B;
  std::string Calling; // a nest left out: its counts hold a callee's work
  size_t CallingNests = 0;

  /// Adds \p N, whose own work (less what kernels inlined in it did) is
  /// \p Flops and \p Bytes.
  void add(const Measurement::Nest &N, double Flops, double Bytes) {
    if (std::optional<std::string> Callee =
            callInside(IR, N.Function, N.File, N.Line, N.EndLine)) {
      if (Calling.empty())
        Calling = N.Function + "'s loop at line " + std::to_string(N.Line) +
                  " calls " + *Callee;
      ++CallingNests;
      return;
    }
    std::optional<InCoreCeiling> C =
        ceilingOf(IR, N.Function, N.File, N.Line, N.EndLine,
                  {N.IterationsPerEntry, N.Iterations, N.Flops, N.Bytes, EntriesApart});
    if (!C)
      return;
    ++Matched;
    double Nest = C->cycles(Flops, Bytes);
    Cycles += Nest;
    if (Nest > Longest) {
      Longest = Nest;
      const InCoreRate &R = C->limiting(Flops, Bytes);
      B.Cause = R.Cause;
      B.Detail = R.Detail;
      B.CyclesPerIteration = R.CyclesPerIteration;
      B.Chain = R.Chain;
      B.Kind = R.Kind;
      B.Producer = R.Producer;
    }
  }
};

/// The kernels that ran only inlined into function \p K (no call of their
/// own), and had loop nests: their work is in K's counts, done by their
/// loops at their loops' ceilings.
std::vector<const KernelRecord *> inlinedOnlyInto(const KernelRecord &K,
                                                  const std::vector<KernelRecord> &All) {
  std::vector<const KernelRecord *> Out;
  if (K.LoopNest || !K.Measured)
    return Out;
  for (const KernelRecord &S : All)
    if (&S != &K && S.Measured && !S.LoopNest && S.Measured->OnlyInlined &&
        S.Measured->InlinedInto == std::vector<std::string>{K.DisplayName} &&
        !S.Measured->Nests.empty() && S.Measured->Executable == K.Measured->Executable)
      Out.push_back(&S);
  return Out;
}

/// The in-core bound of a measured kernel or loop nest: each of its nests'
/// work at the best rate of the nest's innermost machine loops, at the
/// platform's clock. The nests of a kernel inlined only into this one are
/// bounded by their own loops, and their work taken from the nests of
/// this one they sit in (a mat-vec's FMA chain inside a layer loop whose
/// other loops are fast is bounded by the chain, not by the fast loops).
std::optional<InCoreBound> inCoreBound(const KernelRecord &K, const Platform &P,
                                       const ReportOptions &Options,
                                       const std::vector<KernelRecord> &All,
                                       std::vector<std::string> &Notes) {
  const Measurement &M = *K.Measured;
  const InCoreReport *IR = Options.InCoreOf ? Options.InCoreOf(M.Executable) : nullptr;
  if (!IR) {
    if (!Options.NoInCoreNote.empty())
      Notes.push_back(Options.NoInCoreNote);
    return std::nullopt;
  }
  if (P.ClockHz <= 0) {
    Notes.push_back("no in-core bound: " + P.Name + " gives no clock_hz to "
                    "turn the loops' cycles into time");
    return std::nullopt;
  }
  // Each nest ends where the next one in the source starts: a copy the
  // compiler made of a loop inside it does not cut it short.
  auto Placed = [&](std::vector<Measurement::Nest> Of) {
    for (Measurement::Nest &N : Of)
      if (!N.Later.empty())
        N.EndLine = nestEnd(*IR, N.Function, N.File, N.Line, N.Later);
    return Of;
  };
  std::vector<Measurement::Nest> Nests =
      Placed(K.LoopNest ? std::vector<Measurement::Nest>{*K.LoopNest} : M.Nests);
  NestCycles Sum{*IR, M.StopsWait};
  std::vector<const KernelRecord *> Inlined = inlinedOnlyInto(K, All);
  std::vector<std::vector<Measurement::Nest>> InlinedNests;
  for (const KernelRecord *S : Inlined)
    InlinedNests.push_back(Placed(S->Measured->Nests));
  for (const std::vector<Measurement::Nest> &Of : InlinedNests)
    for (const Measurement::Nest &SN : Of)
      Sum.add(SN, SN.Flops, SN.Bytes);
  for (const Measurement::Nest &N : Nests) {
    double Flops = N.Flops, Bytes = N.Bytes;
    for (const std::vector<Measurement::Nest> &Of : InlinedNests)
      for (const Measurement::Nest &SN : Of)
        if (loopsShared(*IR, {SN.Function, SN.File, SN.Line, SN.EndLine},
                        {N.Function, N.File, N.Line, N.EndLine})) {
          Flops -= SN.Flops;
          Bytes -= SN.Bytes;
        }
    Sum.add(N, std::max(0.0, Flops), std::max(0.0, Bytes));
  }
  if (!Sum.Calling.empty())
    Notes.push_back("in-core: " + Sum.Calling + ", whose work the counts "
                    "include and no loop of the nest does: that nest has no "
                    "in-core bound");
  if (Sum.Matched == 0) {
    if (!Sum.Calling.empty())
      return std::nullopt;
    Notes.push_back(Nests.empty()
                        ? "no in-core bound: no loop nest measured"
                        : "no in-core bound: no innermost loop of " +
                              IR->Binary + " (on " + IR->Cpu +
                              ") has code from its loop nests");
    return std::nullopt;
  }
  size_t Total = Nests.size();
  for (const KernelRecord *S : Inlined)
    Total += S->Measured->Nests.size();
  if (Sum.Matched + Sum.CallingNests < Total)
    Notes.push_back("in-core bound from " + std::to_string(Sum.Matched) + " of " +
                    std::to_string(Total) + " loop nests (the rest have "
                    "no innermost loop MCA could model)");
  if (!Inlined.empty()) {
    std::string Names;
    for (const KernelRecord *S : Inlined)
      Names += (Names.empty() ? "" : ", ") + S->DisplayName;
    Notes.push_back("in-core: with the loop nests of " + Names +
                    ", inlined here only, each at its own loops' ceiling");
  }
  Sum.B.Seconds = Sum.Cycles / P.ClockHz;
  return Sum.B;
}

/// The DRAM side is unknown when bytes move but nothing bounds DRAM's
/// share of them: no footprint (levelTraffic gives no "dram" entry
/// without one) and no cache-model traffic placed there. A footprint that
/// fits in the caches gives a "dram" entry of 0: known, not a bound. Says
/// so in a note, with \p Remedy: what would place it.
void markTrafficUnknown(KernelRow &Row, const Platform &Roofs,
                        const KernelBytes &KB, const std::string &Remedy) {
  Row.TrafficUnknown = KB.Counted + KB.Shared > 0 && !Row.Bytes.count("dram");
  if (!Row.TrafficUnknown)
    return;
  // The first level's bytes (a GPU's: counted less what a warp's lanes
  // may share).
  double FirstBytes = 0;
  for (const char *Level : {"l1", "shared"})
    if (auto It = Row.Bytes.find(Level); It != Row.Bytes.end())
      FirstBytes += It->second;
  Row.Notes.push_back(
      "traffic unknown: " +
      (FirstBytes > 0
           ? "no footprint or cache model bounds the traffic below the "
             "first level of " + Roofs.Name + "; the attainable is that "
             "of the compute roof and the first level's " +
                 siUnit(FirstBytes, "B") + ", and whether the nest is "
             "memory-bound is not known (" +
                 Remedy + " places it)"
           : Roofs.Name + " has no first level to place the counted "
             "bytes (" + siUnit(KB.Counted + KB.Shared, "B") +
                 ") on and no footprint bounds the rest; the attainable "
                 "is the compute roof, and whether the nest is "
                 "memory-bound is not known (a platform with an l1, or " +
                 Remedy + ", places it)"));
}

/// With a footprint known only between bounds (a summary's: accesses whose
/// addresses depend on data are at most their counted bytes), the traffic
/// below the first level lies between them. Where the two ends give
/// different verdicts (compute-bound on a lower bound of 0 B, memory-bound
/// at the upper one: a GPU kernel whose rows come through a warp index)
/// the verdict is not known: says so, with both ends, and returns true
/// (the caller forgets the DRAM side). Where they agree at one level, the
/// row keeps the upper end's bytes (BytesAtMost) and a note gives the range.
bool verdictBetweenBounds(KernelRow &Row, const Platform &P, const KernelBytes &KB,
                          Convention C) {
  if (!KB.Footprint || KB.FootprintExact || !KB.FootprintAtMost ||
      *KB.FootprintAtMost <= *KB.Footprint)
    return false;
  KernelBytes Most = KB;
  Most.Footprint = *KB.FootprintAtMost;
  Most.FootprintExact = true;
  Placement High = place(P, Row.Ops, levelTraffic(P, Most), C);
  if (High.MemoryBound == Row.Place.MemoryBound) {
    // One verdict at both ends: the bytes it is bound on lie between them.
    if (!Row.TrafficUnknown && High.BytesLevel == Row.Place.BytesLevel &&
        High.Bytes > Row.Place.Bytes) {
      Row.BytesAtMost = High.Bytes;
      Row.Notes.push_back(
          "traffic at " + High.BytesLevel + " between " + siUnit(Row.Place.Bytes, "B") +
          " and " + siUnit(High.Bytes, "B") + " (the footprint's bounds): " +
          limiterName(High) + " binds at both; the minimum time uses the lower "
          "end (still a bound)");
    }
    return false;
  }
  Row.Notes.push_back(
      "verdict not known: the footprint is a lower bound, so the traffic "
      "below the first level is between " + siUnit(Row.Place.Bytes, "B") +
      " (" + limiterName(Row.Place) + " binds) and " +
      siUnit(High.Bytes, "B") + " at " + High.BytesLevel + ", its upper "
      "bound (" + limiterName(High) + " binds); " +
      (P.Kind == "cpu" ? "a run with ROOFLINE_CACHE=1, or an exact footprint, "
                         "decides"
                       : "an exact footprint of the accesses named above "
                         "decides"));
  return true;
}

/// The DRAM side of the bound is unknown, so the kernel is neither
/// compute-bound on the strength of 0 DRAM bytes (place() counts a level
/// without traffic as 0 bytes) nor placed at a level's intensity: its
/// limiter, headline bytes and intensity are unknown in every format (the
/// table's "?", JSON's null, CSV's empty cell). The attainable and minimum
/// time stay those of the known roofs (compute, in-core, the first level's
/// counted bytes): W over a lower bound of the time, still a sound upper
/// bound.
void forgetDramSide(Placement &Pl, const Platform &Roofs) {
  Pl.Limiter = "unknown";
  Pl.MemoryBound = false;
  Pl.NextStep.clear();
  Pl.Bytes = 0;
  Pl.BytesLevel = "dram";
  Pl.Intensity = std::numeric_limits<double>::quiet_NaN();
  Pl.Bandwidth = Roofs.dram().BytesPerSecond;
  Pl.Ridge = ridgePoint(Pl.PeakFlops, Pl.Bandwidth);
}

} // namespace

bool KernelRow::measuredAt(const std::string &Level) const {
  return std::find(MeasuredLevels.begin(), MeasuredLevels.end(), Level) !=
         MeasuredLevels.end();
}

const char *KernelRow::bytesSource(const std::string &Level) const {
  if (Level == "l1" || Level == "shared")
    return "counted";
  return measuredAt(Level) ? "cache model" : "footprint";
}

std::string bytesRangeText(double Low, double High) {
  // "14.2 MB" and "26.8 MB" -> "14.2..26.8 MB" when the prefixes agree.
  std::string Lo = siUnit(Low, "B"), Hi = siUnit(High, "B");
  size_t LS = Lo.rfind(' '), HS = Hi.rfind(' ');
  if (LS != std::string::npos && HS != std::string::npos &&
      Lo.substr(LS) == Hi.substr(HS))
    Lo = Lo.substr(0, LS);
  return Lo + ".." + Hi;
}

std::string KernelRow::bytesText() const {
  if (!BytesAtMost)
    return siUnit(Place.Bytes, "B") + bytesLevelSuffix();
  return bytesRangeText(Place.Bytes, *BytesAtMost) + bytesLevelSuffix();
}

std::string KernelRow::bytesSuffix() const {
  return (BytesAtMost ? ".." + siUnit(*BytesAtMost, "B") : "") + bytesLevelSuffix();
}

std::string KernelRow::bytesLevelSuffix() const {
  if (TrafficUnknown || Place.MemoryBound || Place.BytesLevel == "dram")
    return "";
  return " (" + Place.BytesLevel + ")";
}

/// Places \p Row on the roofline of the work it mostly does, or of the
/// work --roof names: its FLOPs; its integer operations \p Ints when they
/// outnumber the FLOPs (a DP table, a hash is on the chart rather than
/// hidden); its machine instructions when it does neither (a copy, a
/// pointer chase) and \p P has an issue rate. Says which, when it was
/// chosen for the user, and why not, when the one asked for cannot be.
static void chooseWork(KernelRow &Row, const Work &Ints, const Platform &P,
                       const ReportOptions &Options) {
  double Flops = Row.Ops.flops(Options.Conv);
  Row.IntOps = Ints.flops(Options.Conv);
  const ComputePeak *Issue = P.peak("instructions", "issue");
  if (Options.Roof == RoofChoice::Instructions ||
      (Options.Roof == RoofChoice::Auto && Flops == 0 && Row.IntOps == 0 &&
       Row.Instructions && *Row.Instructions > 0 && Issue)) {
    if (Row.Instructions && Issue) {
      Row.Placed = WorkKind::Instructions;
      unsigned Warp = std::max(1u, Issue->WarpSize);
      Row.Ops = Work::fromInstructions(*Row.Instructions / Warp);
      if (Options.Roof == RoofChoice::Auto)
        Row.Notes.push_back("on the instruction roofline: no FLOPs or integer "
                            "operations (--roof flops places it by its FLOPs)");
      // AMD's warp is the wavefront (64 threads on CDNA).
      std::string WarpName = P.Vendor == "AMD" ? "wavefront" : "warp";
      if (Warp > 1)
        Row.Notes.push_back(
            "instructions are " + std::to_string(Warp) + "-thread " + WarpName +
            " instructions: the per-thread estimate / " + std::to_string(Warp) +
            ", every " + WarpName + " full and none diverging (a lower bound)");
      else if (!Row.Kernel.Measured)
        Row.Notes.push_back("instructions are the estimate of the code "
                            "before vectorisation: a loop vectorised by a "
                            "factor VF issues about VF times fewer");
      return;
    }
    const char *Input = Row.Kernel.Measured ? "profile" : "summary";
    Row.Notes.push_back(
        std::string("not on the instruction roofline: ") +
        (Issue ? std::string("the ") + Input + " has no instruction count for it"
               : P.Name + " has no instruction issue rate") +
        " (placed by its " + (Row.IntOps > Flops ? "integer operations" : "FLOPs") + ")");
  }
  bool Integer = Options.Roof == RoofChoice::IntOps ||
                 (Options.Roof != RoofChoice::Flops && Row.IntOps > Flops);
  if (!Integer)
    return;
  Row.Placed = WorkKind::IntOps;
  Row.Ops = Ints;
  if (Options.Roof == RoofChoice::Auto)
    Row.Notes.push_back("on the integer roofline: " + siNumber(Row.IntOps) +
                        " integer operations to " + siNumber(Flops) +
                        " FLOPs (--roof flops places it by its FLOPs)");
}

/// A row from a run's measurement: exact counts and its time, on the
/// roofs of the threads it ran on.
static KernelRow measuredRow(const KernelRecord &K, const Platform &P,
                             const ReportOptions &Options,
                             const std::vector<KernelRecord> &All) {
  KernelRow Row;
  Row.Kernel = K;
  const Measurement &M = *K.Measured;
  Row.RanOnThreads = M.Threads;
  const Platform Roofs = onThreads(P, M.Threads);
  Row.Ops.Ops = M.Classes;
  Row.Instructions = M.Instructions;
  chooseWork(Row, Work::fromIntClasses(M.IntClasses), P, Options);
  Row.BytesLoad = M.BytesLoad;
  Row.BytesStore = M.BytesStore;
  KernelBytes KB;
  KB.GPUCode = isGPUKernel(K);
  for (const auto &[Space, LS] : M.BytesBySpace)
    (Space == "shared" ? KB.Shared : KB.Counted) += LS.first + LS.second;
  for (const auto &[Space, N] : M.ShareableBySpace)
    (Space == "shared" ? KB.SharedShareable : KB.CountedShareable) += N;
  if (M.BytesBySpace.empty())
    KB.Counted = M.BytesLoad + M.BytesStore;
  if (M.Footprint) {
    // The mean call's footprint: each call may find data a previous
    // one left in cache (the bound below uses the mean, a lower bound
    // of the per-call sum since max(0, F - C) is convex).
    KB.Calls = std::max(1.0, M.Calls);
    KB.Footprint = *M.Footprint / KB.Calls;
    KB.FootprintExact = M.FootprintExact;
    if (!M.FootprintExact)
      Row.Notes.push_back("footprint not exact: the levels below the "
                          "first get its lower bound");
  } else if (K.Kind != "loop") {
    // Without a footprint the counted bytes are no lower bound below the
    // first level (a kernel with reuse would beat them): the levels below
    // get none, and the row says its DRAM side is unknown.
    Row.Notes.push_back("no footprint measured (its formula needs more than "
                        "the call's arguments, an unknown trip count say, or "
                        "the profile is from before footprints)");
  }
  Row.Counted = KB.Counted;
  Row.Footprint = KB.Footprint ? std::optional<double>(*KB.Footprint * KB.Calls)
                               : std::nullopt;
  Row.Bytes = levelTraffic(Roofs, KB, &Row.Notes);
  if (!M.Traffic.empty())
    placeMeasuredTraffic(Roofs, M, Row);
  if (M.Ranks && M.Ranks->Mean > 0)
    Row.Notes.push_back(rankNote(*M.Ranks));
  Row.MeasuredSeconds = M.Seconds;
  markTrafficUnknown(Row, Roofs, KB,
                     "ROOFLINE_CACHE=1 on a build with -mllvm "
                     "-roofline-cache-model");
  std::vector<std::string> InCoreNotes; // said last, after the others
  std::optional<InCoreBound> InCore = inCoreBound(K, Roofs, Options, All, InCoreNotes);
  Row.Place = place(Roofs, Row.Ops, Row.Bytes, Options.Conv,
                    InCore ? &*InCore : nullptr);
  if (auto E = Row.efficiency(); E && *E > 1.0)
    Row.Notes.insert(Row.Notes.begin(), aboveBound(Row, Roofs));
  if (Row.TrafficUnknown)
    forgetDramSide(Row.Place, Roofs);
  if (K.Launch)
    Row.Notes.push_back(launchNote(K));
  else if (K.StaticFlops)
    Row.Notes.push_back("static count: " + K.StaticFlops->Text + " FLOP per call (" +
                        (K.StaticExact ? "exact" : "estimate") + ")");
  Row.Notes.insert(Row.Notes.end(), InCoreNotes.begin(), InCoreNotes.end());
  return Row;
}

/// CUDA counts are per thread; --assume threads=N gives a launch's totals.
/// False when the counts stay per thread.
static bool scaleToLaunch(const KernelRecord &K, const ReportOptions &Options,
                          KernelRow &Row, KernelBytes &KB) {
  bool PerLaunch = true;
  if (K.Per == "thread") {
    auto T = Options.Assume.find("threads");
    if (T != Options.Assume.end()) {
      Row.Threads = T->second;
      Row.IntOps *= Row.Threads;
      if (Row.Instructions)
        *Row.Instructions *= Row.Threads;
      for (auto &[Prec, Classes] : Row.Ops.Ops)
        for (auto &[Class, N] : Classes)
          N *= Row.Threads;
      KB.Counted *= Row.Threads;
      KB.Shared *= Row.Threads;
      KB.CountedShareable *= Row.Threads;
      KB.SharedShareable *= Row.Threads;
      Row.BytesLoad *= Row.Threads;
      Row.BytesStore *= Row.Threads;
    } else {
      PerLaunch = false;
      Row.Notes.push_back("per-thread counts: times are per thread; give "
                          "--assume threads=N for a launch");
    }
  }
  return PerLaunch;
}

/// The footprint per call (per launch): its lower bound is what the levels
/// below the first must carry.
static void staticFootprint(const KernelRecord &K, const ReportOptions &Options,
                            bool PerLaunch, KernelRow &Row, KernelBytes &KB) {
  if (K.Footprint && PerLaunch) {
    // A launch of --assume threads=N without its shape: one block of N.
    std::map<std::string, double> Launch = Options.Assume;
    if (K.Per == "thread" && !Launch.count("blockDim.x") &&
        !Launch.count("gridDim.x")) {
      Launch["blockDim.x"] = Row.Threads;
      for (const char *D : {"gridDim.x", "gridDim.y", "gridDim.z",
                            "blockDim.y", "blockDim.z"})
        Launch.try_emplace(D, 1);
    }
    // A lower bound the analysis could not find ("unknown") is 0 bytes:
    // the footprint then lies between 0 and its upper bound.
    auto AtLeast = [&](const Formula &F) -> Result<double> {
      if (F.Text == "unknown")
        return 0.0;
      return evaluate(F, Launch, Row.SizesKnown);
    };
    Result<double> FR = AtLeast(K.Footprint->ReadAtLeast);
    Result<double> FW = AtLeast(K.Footprint->WrittenAtLeast);
    // An assumption the sizes break (rows that overlap: lda < K) leaves
    // the formula no lower bound: the levels below the first get none.
    for (const StatedAssumption &S : K.Footprint->Assumptions) {
      const std::optional<Assumption> &A = S.Read;
      if (A && A->isCondition() && A->Test.holds(Launch) == false) {
        Row.Notes.push_back("footprint: its assumption " + S.Text +
                            " does not hold at these sizes: no bound below "
                            "the first level");
        return;
      }
    }
    // Reads of the call's own writes come from its cache, not below it.
    double Own = 0;
    if (!K.Footprint->ReadOwn.isZero()) {
      Result<double> O = evaluate(K.Footprint->ReadOwn, Launch, Row.SizesKnown);
      if (O && *O > 0) {
        Own = *O;
        Row.Notes.push_back("footprint: " + siUnit(Own, "B") +
                            " of its reads are of bytes it wrote before, "
                            "from its cache: not counted below the first level");
      }
    }
    if (FR && FW) {
      KB.Footprint = std::max(0.0, *FR - Own) + *FW;
      KB.FootprintExact = K.Footprint->Exact;
      bool Known = true;
      Result<double> UR = evaluate(K.Footprint->Read, Launch, Known);
      Result<double> UW = evaluate(K.Footprint->Written, Launch, Known);
      if (UR)
        UR = std::max(0.0, *UR - Own);
      // No footprint exceeds the bytes accessed: the counted ones bound
      // it where the formulas give no upper bound ("unknown").
      if (!K.Footprint->Exact)
        KB.FootprintAtMost = std::min(UR && UW ? *UR + *UW : KB.Counted / KB.Calls,
                                      KB.Counted / KB.Calls);
      if (!K.Footprint->Exact)
        Row.Notes.push_back("footprint not exact (" + K.Footprint->Note +
                            "): the levels below the first get its lower "
                            "bound");
    } else {
      KB.Footprint = KB.Counted;
      Row.Notes.push_back("footprint: " + (FR ? FW : FR).error() +
                          "; the counted bytes stand in for DRAM traffic");
    }
  } else if (!K.Footprint) {
    // A summary from before footprints: its counted bytes stand in.
    KB.Footprint = KB.Counted;
    Row.Notes.push_back("no footprint in the summary: counted bytes stand "
                        "in for DRAM traffic (rebuild with this version)");
  }
}

/// A row from a static summary: its formulas evaluated with --assume (or
/// at the large-size limit). None when a formula needs an unknown trip
/// count (listed in \p NotJudged); a failure when it needs a size the
/// user can give.
static Result<std::optional<KernelRow>>
staticRow(const KernelRecord &K, const Platform &P, const ReportOptions &Options,
          std::vector<std::string> &NotJudged) {
  KernelRow Row;
  Row.Kernel = K;
  std::string Who = K.Origin + ": kernel '" + K.DisplayName + "': ";
  // A formula that needs a value --assume does not give.
  std::string Error;
  for (const auto &[Prec, Classes] : K.Classes)
    for (const auto &[Class, F] : Classes) {
      Result<double> V = evaluate(F, Options.Assume, Row.SizesKnown);
      if (!V && Error.empty())
        Error = V.error();
      Row.Ops.Ops[Prec][Class] = V ? *V : 0;
    }
  std::map<std::string, std::map<std::string, double>> IntClasses;
  for (const auto &[Width, Kinds] : K.IntClasses)
    for (const auto &[Kind, F] : Kinds) {
      Result<double> V = evaluate(F, Options.Assume, Row.SizesKnown);
      if (!V && Error.empty())
        Error = V.error();
      IntClasses[Width][Kind] = V ? *V : 0;
    }
  if (K.Instructions) {
    bool Known = true;
    // Not when it alone needs a value the others do not (a loop without
    // work whose trip count is unknown).
    if (Result<double> V = evaluate(*K.Instructions, Options.Assume, Known);
        V && (Known || !Row.SizesKnown))
      Row.Instructions = *V;
  }
  chooseWork(Row, Work::fromIntClasses(IntClasses), P, Options);
  Result<double> Load = evaluate(K.BytesLoad, Options.Assume, Row.SizesKnown);
  Result<double> Store = evaluate(K.BytesStore, Options.Assume, Row.SizesKnown);
  if (!Load && Error.empty())
    Error = Load.error();
  if (!Store && Error.empty())
    Error = Store.error();
  if (!Error.empty()) {
    // A size the user can give (a parameter) is an error; an unknown trip
    // count of a loop (trip_L<line>, unknown) nobody can give: the kernel
    // is listed as not judged, unless the user named it (--kernels).
    size_t At = Error.find("needs a value for '");
    std::string Var;
    if (At != std::string::npos) {
      size_t From = At + 19, To = Error.find('\'', From);
      Var = Error.substr(From, To == std::string::npos ? To : To - From);
    }
    AtomKind Kind = Atom::named(Var, &K.Parameters).kind();
    bool Unknowable = Kind == AtomKind::UnknownTrip || Kind == AtomKind::Unknown;
    if (Options.FailOnUnjudged || (Options.FailOnMissingSize && !Unknowable))
      return Failure{Who + Error};
    // The rows the sizes given evaluate are shown; this one names what it
    // lacks.
    NotJudged.push_back(K.DisplayName + " (needs " + Var +
                        (Unknowable ? ", an unknown trip count)"
                                    : ": give --assume " + Var + "=VALUE)"));
    return std::optional<KernelRow>();
  }
  Row.BytesLoad = *Load;
  Row.BytesStore = *Store;
  // Counted bytes (every load and store but shared memory's) cross the
  // first level; the footprint, what must come from below it.
  KernelBytes KB;
  KB.GPUCode = isGPUKernel(K);
  KB.Counted = *Load + *Store;
  for (const auto &[Space, LS] : K.BytesBySpace) {
    bool DRAMSpace = Space == "memory" || Space == "global" || Space == "generic";
    if (DRAMSpace)
      continue; // in Load and Store already
    Result<double> L = evaluate(LS.first, Options.Assume, Row.SizesKnown);
    Result<double> S = evaluate(LS.second, Options.Assume, Row.SizesKnown);
    if (!L || !S)
      continue;
    (Space == "shared" ? KB.Shared : KB.Counted) += *L + *S;
  }
  for (const auto &[Space, F] : K.ShareableBySpace)
    if (Result<double> N = evaluate(F, Options.Assume, Row.SizesKnown))
      (Space == "shared" ? KB.SharedShareable : KB.CountedShareable) += *N;
  bool PerLaunch = scaleToLaunch(K, Options, Row, KB);
  staticFootprint(K, Options, PerLaunch, Row, KB);
  Row.Footprint = KB.Footprint;
  Row.Counted = KB.Counted;
  Row.Bytes = levelTraffic(P, KB, &Row.Notes);
  bool PerThreadVaries =
      mentionsThreadIndex(K.BytesLoad) || mentionsThreadIndex(K.BytesStore);
  for (const auto &[Prec, Classes] : K.Classes)
    for (const auto &[Class, F] : Classes)
      PerThreadVaries |= mentionsThreadIndex(F);
  if (PerThreadVaries)
    Row.Notes.push_back(
        Options.Assume.count("blockDim.x")
            ? "counts vary with the thread index: the mean over the launch's threads"
            : "counts vary with the thread index: the first thread's; give "
              "--assume blockDim.x=X,blockDim.y=Y for the block's mean");
  if (!Row.SizesKnown)
    Row.Notes.push_back("sizes not given: judged at the large-size limit "
                        "(unbound variables = " +
                        siNumber(LargeSize, 7) + ")");
  // (Only per-thread counts without a launch lack a footprint here.)
  markTrafficUnknown(Row, P, KB, "--assume threads=N");
  Row.Place = place(P, Row.Ops, Row.Bytes, Options.Conv);
  if (verdictBetweenBounds(Row, P, KB, Options.Conv))
    Row.TrafficUnknown = true;
  if (Row.TrafficUnknown)
    forgetDramSide(Row.Place, P);
  // Ding and Williams' GPU intensity: warp instructions per 32-byte
  // transaction (a full sector of NVIDIA's caches; not AMD's), at DRAM.
  const ComputePeak *Issue = P.peak("instructions", "issue");
  if (Row.Placed == WorkKind::Instructions && Issue && Issue->WarpSize > 1 &&
      P.Vendor != "AMD")
    for (const LevelBound &L : Row.Place.Levels)
      if (L.Level == "dram" && L.Bytes > 0)
        Row.Notes.push_back(siNumber(L.Intensity * 32) +
                            " warp instructions per 32-byte DRAM transaction");
  return std::optional<KernelRow>(std::move(Row));
}

Result<Report> buildReport(const Platform &P,
                           const std::vector<KernelRecord> &Kernels,
                           const ReportOptions &Options) {
  Report R;
  R.Plat = peaksUnder(P, Options.Conv); // what the table and chart show
  R.Options = Options;
  for (const KernelRecord &K : Kernels) {
    // Nobody's kernel (libstdc++'s algorithms from an older summary): not
    // evaluated, so its formulas cannot fail the report.
    if (!Options.AllKernels && isSystemFile(K.File)) {
      R.HiddenSystem.push_back(K.DisplayName);
      continue;
    }
    if (K.Measured) {
      R.Rows.push_back(measuredRow(K, P, Options, Kernels));
      continue;
    }
    Result<std::optional<KernelRow>> Row = staticRow(K, P, Options, R.NotJudged);
    if (!Row)
      return Failure{Row.error()};
    if (*Row)
      R.Rows.push_back(std::move(**Row));
  }
  // Sizes given that judge no kernel at all: say what each one needs.
  bool SizeMissing = std::any_of(R.NotJudged.begin(), R.NotJudged.end(),
                                 [](const std::string &N) {
                                   return N.find("give --assume") != std::string::npos;
                                 });
  if (R.Rows.empty() && SizeMissing) {
    std::string Needs;
    for (const std::string &N : R.NotJudged)
      Needs += (Needs.empty() ? "" : "; ") + N;
    return Failure{"no kernel can be judged with these sizes: " + Needs};
  }
  // A function without floating-point work has no place on a roofline
  // (its intensity is 0): listed, not shown.
  if (!Options.AllKernels)
    R.Rows.erase(std::remove_if(R.Rows.begin(), R.Rows.end(),
                                [&](const KernelRow &Row) {
                                  if (Row.Place.Flops > 0)
                                    return false;
                                  R.HiddenNoFlops.push_back(Row.Kernel.DisplayName);
                                  return true;
                                }),
                 R.Rows.end());
  return R;
}

Result<std::vector<std::string>> runCheck(const Report &R,
                                          const std::string &Check) {
  std::vector<std::string> Violations;
  auto Threshold = [&](const std::string &Prefix) -> std::optional<double> {
    if (Check.rfind(Prefix, 0) != 0)
      return std::nullopt;
    std::string V = Check.substr(Prefix.size());
    char *End = nullptr;
    double D = std::strtod(V.c_str(), &End);
    if (V.empty() || *End || !std::isfinite(D))
      return std::nullopt;
    return D;
  };
  char Buf[512];
  if (Check == "memory-bound") {
    for (const KernelRow &K : R.Rows)
      if (K.Place.MemoryBound) {
        // Judged at the level that limits it, with that level's ridge.
        double I = K.Place.Intensity, Ridge = K.Place.Ridge;
        for (const LevelBound &L : K.Place.Levels)
          if (L.Level == K.Place.Limiter) {
            I = L.Intensity;
            Ridge = K.Place.PeakFlops / L.BytesPerSecond;
          }
        std::snprintf(Buf, sizeof(Buf),
                      "%s:%u: %s is memory-bound (%s) on %s: I = %.3g FLOP/B < "
                      "ridge %.3g FLOP/B, attainable %sFLOP/s",
                      K.Kernel.File.c_str(), K.Kernel.Line,
                      K.Kernel.DisplayName.c_str(), K.Place.Limiter.c_str(),
                      R.Plat.Name.c_str(), I, Ridge,
                      siNumber(K.Place.Attainable).c_str());
        Violations.push_back(Buf);
      }
    return Violations;
  }
  if (auto X = Threshold("min-intensity=")) {
    for (const KernelRow &K : R.Rows)
      if (K.Place.Intensity < *X) {
        std::snprintf(Buf, sizeof(Buf),
                      "%s:%u: %s has intensity %.3g FLOP/B < %.3g",
                      K.Kernel.File.c_str(), K.Kernel.Line,
                      K.Kernel.DisplayName.c_str(), K.Place.Intensity, *X);
        Violations.push_back(Buf);
      }
    return Violations;
  }
  if (auto X = Threshold("min-efficiency=")) {
    for (const KernelRow &K : R.Rows)
      if (auto E = K.efficiency(); E && *E < *X) {
        std::snprintf(Buf, sizeof(Buf),
                      "%s:%u: %s reaches %.1f%% of its attainable %sFLOP/s "
                      "(< %.1f%%)",
                      K.Kernel.File.c_str(), K.Kernel.Line,
                      K.Kernel.DisplayName.c_str(), *E * 100,
                      siNumber(K.Place.Attainable).c_str(), *X * 100);
        Violations.push_back(Buf);
      }
    return Violations;
  }
  return Failure{"--check: unknown check '" + Check +
                 "' (expected memory-bound, min-intensity=X or "
                 "min-efficiency=X)"};
}

} // namespace roofline
