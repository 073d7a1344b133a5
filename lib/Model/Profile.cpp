//===- Profile.cpp - Reading and merging runtime profiles -----------------===//
#include "roofline/Model/Profile.h"
#include "roofline/Model/TrafficJoin.h"
#include "roofline/Model/Formula.h"
#include "roofline/Model/JSONAccess.h"
#include "roofline/Model/LaunchGroups.h"
#include "roofline/Model/ProfileStream.h"
#include "roofline/Model/Roofline.h"

#include <algorithm>
#include <cstdio>

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>

namespace roofline {

using nlohmann::json;

namespace {

Result<json> readJSON(const std::string &Path) {
  std::error_code EC;
  if (std::filesystem::is_directory(Path, EC))
    return Failure{Path + ": is a directory (expected a JSON file)"};
  std::ifstream In(Path, std::ios::binary);
  if (!In)
    return Failure{Path + ": cannot be read"};
  // Parsed from the stream: a large profile is not also held as text. A
  // read error surfaces from the stream buffer as an exception.
  json J;
  try {
    J = json::parse(In, nullptr, /*allow_exceptions=*/false);
  } catch (const std::exception &E) {
    return Failure{Path + ": cannot be read (" + E.what() + ")"};
  }
  if (J.is_discarded())
    return Failure{Path + ": not valid JSON"};
  if (!J.is_object())
    return Failure{Path + ": expected a JSON object"};
  return J;
}

/// Adds every number of \p From into \p Into, recursively (objects by key).
void addNumbers(json &Into, const json &From) {
  for (auto &[K, V] : From.items()) {
    if (V.is_number()) {
      double Sum = numberOr(Into, K.c_str(), 0) + V.get<double>();
      Into[K] = Sum;
      // Whole counts stay integers (when they fit one exactly).
      if (V.is_number_integer() && Sum >= 0 && Sum < 9e15 &&
          Sum == double(uint64_t(Sum)))
        Into[K] = uint64_t(Sum);
    } else if (V.is_object() && K != "static" && K != "traffic" &&
               K != "rank_seconds") {
      if (!Into.contains(K) || !Into[K].is_object())
        Into[K] = json::object();
      addNumbers(Into[K], V);
    }
  }
}


/// The cache model's per-level traffic of a kernel or loop record.
void readTraffic(const json &R, Measurement &M) {
  if (!R.contains("traffic") || !R["traffic"].is_object())
    return;
  const json &T = R["traffic"];
  M.TrafficModel = stringOr(T, "model", "");
  for (const json &L : arrayOr(T, "levels"))
    if (L.is_object())
      M.Traffic.push_back({stringOr(L, "level", ""), numberOr(L, "size_bytes", 0),
                           numberOr(L, "fill_bytes", 0), numberOr(L, "writeback_bytes", 0)});
}

/// Adds \p From's traffic into \p Into's; "" or why they cannot add up (a
/// run with another geometry).
std::string mergeTraffic(json &Into, const json &From) {
  if (!From.contains("traffic"))
    return "";
  if (!Into.contains("traffic")) {
    Into["traffic"] = From["traffic"];
    return "";
  }
  json &A = Into["traffic"];
  const json &B = From["traffic"];
  json &LA = A["levels"];
  const json BL = arrayOr(B, "levels");
  bool Same = LA.is_array() && LA.size() == BL.size();
  for (size_t I = 0; Same && I < BL.size(); ++I)
    for (const char *Key : {"size_bytes", "ways", "line_bytes"})
      Same &= numberOr(LA[I], Key, -1) == numberOr(BL[I], Key, -2);
  if (!Same)
    return "its cache model's levels differ from those of the profiles "
           "before it (runs with different ROOFLINE_CACHE)";
  for (size_t I = 0; I < BL.size(); ++I)
    for (const char *Key : {"fill_bytes", "writeback_bytes"})
      LA[I][Key] = numberOr(LA[I], Key, 0) + numberOr(BL[I], Key, 0);
  return "";
}

/// A loop's fewest and most iterations of one entry, over two runs (before
/// their entries add up): known where every run that entered it knew them.
void mergeIterationExtremes(json &Into, const json &From) {
  const char *Min = "min_iterations_per_entry", *Max = "max_iterations_per_entry";
  bool IntoEntered = numberOr(Into, "entries", 0) > 0;
  bool FromEntered = numberOr(From, "entries", 0) > 0;
  if (Into.contains(Max) && From.contains(Max)) {
    Into[Min] = clampedUnsigned(std::min(numberOr(Into, Min, 0), numberOr(From, Min, 0)), UINT64_MAX >> 1);
    Into[Max] = clampedUnsigned(std::max(numberOr(Into, Max, 0), numberOr(From, Max, 0)), UINT64_MAX >> 1);
  } else if (From.contains(Max) && !IntoEntered) {
    Into[Min] = From[Min];
    Into[Max] = From[Max];
  } else if (!From.contains(Max) && FromEntered) {
    Into.erase(Min);
    Into.erase(Max);
  }
}

std::string shortNumber(double V) {
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "%.10g", V);
  return Buf;
}

} // namespace

Result<json> readJSONFile(const std::string &Path) { return readJSON(Path); }

bool isProfile(const json &J) {
  return J.is_object() && stringOr(J, "schema", "") == "roofline-profile";
}

namespace {

/// "gemm.c" of "/src/gemm.c".
std::string baseName(const std::string &Path) {
  size_t Slash = Path.rfind('/');
  return Slash == std::string::npos ? Path : Path.substr(Slash + 1);
}

/// "dot<double>" of "double dot<double>(double const*, int)": the name a
/// loop row is labelled with (no parameters, no return type).
std::string functionName(const std::string &Display) {
  int Depth = 0;
  size_t Start = 0, End = Display.size();
  for (size_t I = 0; I < Display.size(); ++I) {
    char C = Display[I];
    if (C == '<')
      ++Depth;
    else if (C == '>')
      --Depth;
    else if (C == '(' && Depth == 0 && I > 0) {
      End = I;
      break;
    } else if (C == ' ' && Depth == 0)
      Start = I + 1;
  }
  return Start < End ? Display.substr(Start, End - Start) : Display;
}

void readClasses(const json &From, Measurement &M) {
  auto Read = [&](const char *Key, auto &Into) {
    if (From.contains(Key) && From[Key].is_object())
      for (auto &[P, Classes] : From[Key].items())
        if (Classes.is_object())
          for (auto &[C, N] : Classes.items())
            if (N.is_number())
              Into[P][C] = N.get<double>();
  };
  Read("flop_classes", M.Classes);
  Read("int_classes", M.IntClasses);
}

/// What a kernel record and a loop row both have: time, operation classes
/// and instructions, with \p Count ("calls", "entries") as the calls.
Measurement runCounts(const json &From, const char *Count) {
  Measurement M;
  M.Calls = numberOr(From, Count, 0);
  M.Seconds = numberOr(From, "seconds", 0);
  readClasses(From, M);
  if (From.contains("instructions") && From["instructions"].is_number())
    M.Instructions = From["instructions"].get<double>();
  return M;
}

/// Where each of \p K's loop nests starts, where the next one of the same
/// function and file starts, and its work.
std::vector<Measurement::Nest> nestsOf(const json &K, const KernelRecord &Of) {
  std::vector<Measurement::Nest> Out;
  for (const json &L : arrayOr(K, "loops")) {
    if (!L.is_object())
      continue;
    Measurement::Nest N;
    N.Function = stringOr(L, "function", Of.DisplayName);
    N.File = stringOr(L, "file", Of.File);
    N.Line = unsigned(clampedUnsigned(numberOr(L, "line", 0)));
    N.IterationsPerEntry = numberOr(L, "iterations_per_entry", 0);
    N.Iterations = numberOr(L, "iterations", 0);
    Measurement M;
    readClasses(L, M);
    N.Flops = Work{M.Classes}.flops(Convention::FMA2);
    N.Bytes = numberOr(L, "bytes_load", 0) + numberOr(L, "bytes_store", 0);
    Out.push_back(N);
  }
  for (Measurement::Nest &N : Out) {
    for (const Measurement::Nest &O : Out)
      if (O.Function == N.Function && O.File == N.File && O.Line > N.Line)
        N.Later.push_back(O.Line);
    std::sort(N.Later.begin(), N.Later.end());
    N.Later.erase(std::unique(N.Later.begin(), N.Later.end()), N.Later.end());
    N.EndLine = N.Later.empty() ? 0 : N.Later.front();
  }
  return Out;
}

/// The loop nests of profile kernel \p K (checked already) as records:
/// Advisor's "[loop in f at file:line]", entries as calls.
std::vector<KernelRecord> loopRecords(const json &K, const KernelRecord &Of) {
  std::vector<KernelRecord> Out;
  std::vector<Measurement::Nest> Nests = nestsOf(K, Of);
  size_t NestIndex = 0;
  for (const json &L : arrayOr(K, "loops")) {
    if (!L.is_object())
      continue;
    KernelRecord R;
    R.LoopNest = Nests[NestIndex++];
    R.Origin = Of.Origin;
    R.Kind = "loop";
    R.Per = "entry";
    R.File = stringOr(L, "file", Of.File);
    R.Line = unsigned(clampedUnsigned(numberOr(L, "line", 0)));
    R.Name = Of.Name + ":" + std::to_string(R.Line);
    R.DisplayName = "[loop in " + functionName(Of.DisplayName) + " at " + baseName(R.File) +
                    ":" + std::to_string(R.Line) + "]";
    Measurement M = runCounts(L, "entries");
    M.BytesLoad = numberOr(L, "bytes_load", 0);
    M.BytesStore = numberOr(L, "bytes_store", 0);
    readTraffic(L, M);
    M.TimeFromCacheModel = Of.Measured && Of.Measured->TimeFromCacheModel;
    if (Of.Measured) {
      M.Executable = Of.Measured->Executable;
      M.Threads = Of.Measured->Threads;
      // One clock for both views: the loop's time was the same run's.
      M.RunClockHz = Of.Measured->RunClockHz;
      M.StopsWait = Of.Measured->StopsWait;
    }
    R.Measured = M;
    if (L.contains("entries")) {
      std::string PerEntry;
      if (L.contains("max_iterations_per_entry"))
        PerEntry = " (" + shortNumber(numberOr(L, "min_iterations_per_entry", 0)) + " to " +
                   shortNumber(numberOr(L, "max_iterations_per_entry", 0)) + " per entry)";
      R.Notes.push_back(shortNumber(numberOr(L, "entries", 0)) + " entries, " +
                        shortNumber(numberOr(L, "iterations", 0)) + " iterations" +
                        PerEntry +
                        " of the loop as compiled (vectorised or "
                        "unrolled loops run fewer than the source's)");
    }
    if (!L.contains("seconds"))
      R.Notes.push_back("not timed (no preheader or exits to time it at)");
    Out.push_back(std::move(R));
  }
  return Out;
}

/// Each kernel's launch rows, as a file is read (ProfileStream.h): grouped
/// by configuration, and where they are in the file.
class KernelLaunches : public LaunchArrays {
public:
  struct Array {
    std::unique_ptr<LaunchGroups> Groups;
    uint64_t Begin = 0, End = 0;
    size_t Rows = 0;
  };
  std::map<size_t, Array> ByKernel;

  void reset() override { ByKernel.clear(); }
  LaunchRowSink &begin(size_t Kernel, const json &SoFar) override {
    auto Columns = SoFar.find("launch_columns");
    Array &A = ByKernel[Kernel];
    A = Array();
    A.Groups = std::make_unique<LaunchGroups>(
        Columns != SoFar.end() ? &*Columns : nullptr);
    return *A.Groups;
  }
  void end(size_t Kernel, uint64_t Begin, uint64_t End, size_t Rows) override {
    Array &A = ByKernel[Kernel];
    A.Begin = Begin, A.End = End, A.Rows = Rows;
  }
  const Array *of(size_t Kernel) const {
    auto It = ByKernel.find(Kernel);
    return It == ByKernel.end() ? nullptr : &It->second;
  }
};

/// A kernel's measured counts, time and traffic from profile \p J's record
/// \p K (notes about them to \p R).
Measurement measurementOf(const json &J, const json &K, KernelRecord &R) {
  Measurement M = runCounts(K, "calls");
  const json &B = K["bytes"];
  M.BytesLoad = numberOr(B, "load", 0);
  M.BytesStore = numberOr(B, "store", 0);
  for (auto &[Space, LS] : B.items())
    if (LS.is_object()) {
      M.BytesBySpace[Space] = {numberOr(LS, "load", 0), numberOr(LS, "store", 0)};
      if (double N = numberOr(LS, "warp_shareable", 0))
        M.ShareableBySpace[Space] = N;
    }
  if (K.contains("footprint") && K["footprint"].is_object()) {
    const json &F = K["footprint"];
    M.Footprint = numberOr(F, "read", 0) + numberOr(F, "written", 0);
    M.FootprintExact = boolOr(F, "exact", false);
  }
  readTraffic(K, M);
  M.Executable = stringOr(J, "executable", "");
  for (const json &C : arrayOr(K, "inlined_into"))
    M.InlinedInto.push_back(C.is_string() ? C.get<std::string>() : "");
  M.OnlyInlined = !M.InlinedInto.empty() &&
                  stringOr(K, "timing", "calls").rfind("calls", 0) != 0;
  M.RunClockHz = numberOr(J, "clock_hz", 0);
  M.StopsWait = stringOr(J, "timer_stop", "") == "rdtscp";
  M.Threads = numberOr(K, "threads", 0);
  M.Nests = nestsOf(K, R);
  // The cache model slows the run several times: its times are not the
  // kernel's, unless the traffic was joined from another run (--traffic).
  M.TimeFromCacheModel = K.contains("traffic") && !K.contains("traffic_from");
  if (M.TimeFromCacheModel)
    R.Notes.push_back("time from a ROOFLINE_CACHE run, several times slower "
                      "than the program: FLOP/s and efficiency are low for "
                      "that; give a run without the model, and this one "
                      "with --traffic");
  if (K.contains("rank_seconds") && K["rank_seconds"].is_object()) {
    const json &RS = K["rank_seconds"];
    Measurement::RankSpread Spread;
    Spread.Ranks = numberOr(RS, "ranks", 0);
    Spread.Min = numberOr(RS, "min", 0);
    Spread.Mean = numberOr(RS, "mean", 0);
    Spread.Max = numberOr(RS, "max", 0);
    Spread.SlowestRank = numberOr(RS, "slowest_rank", 0);
    M.Ranks = Spread;
  }
  return M;
}

/// Notes on what a record's counts leave out and where it was inlined.
void addRecordNotes(const json &K, KernelRecord &R) {
  if (K.contains("uncounted_calls") && K["uncounted_calls"].is_array()) {
    std::string Calls;
    for (const json &C : K["uncounted_calls"])
      if (C.is_string())
        Calls += (Calls.empty() ? "" : ", ") + C.get<std::string>();
    if (!Calls.empty())
      R.Notes.push_back("measured counts leave out calls to " + Calls +
                        " (not instrumented here): the static count "
                        "leaves them out too, as unknown operations");
  }
  if (R.Measured && !R.Measured->InlinedInto.empty()) {
    std::string Callers;
    for (const std::string &C : R.Measured->InlinedInto)
      Callers += (Callers.empty() ? "" : ", ") + C;
    std::string Timing = stringOr(K, "timing", "");
    R.Notes.push_back(
        "inlined into " + Callers + ": calls are entries into its inlined "
        "bodies" +
        (Timing == "none" ? "; not timed (no loop nest of its own to time)"
         : Timing == "loops, in part"
             ? "; timed in part, by the loop nests that have timers"
             : "; time is its loop nests' (the code outside them is not timed)"));
  }
}

/// parseProfile, with the launch rows of kernel I already grouped when
/// \p Streamed has them (else they are in the document).
Result<std::vector<KernelRecord>>
parseKernels(const json &J, const std::string &Path, RowsBy By,
             const KernelLaunches *Streamed) {
  if (numberOr(J, "version", 0) != 1)
    return Failure{Path + ": version: expected 1"};
  if (!J.contains("kernels") || !J["kernels"].is_array())
    return Failure{Path + ": kernels: missing (expected an array)"};
  std::vector<KernelRecord> Out;
  for (size_t I = 0; I < J["kernels"].size(); ++I) {
    const json &K = J["kernels"][I];
    std::string Where = Path + ": kernels[" + std::to_string(I) + "]";
    if (!K.is_object() || !K.contains("name") || !K["name"].is_string())
      return Failure{Where + ".name: missing or not a string"};
    for (const char *Key : {"calls", "seconds"})
      if (!K.contains(Key) || !K[Key].is_number() || K[Key].get<double>() < 0)
        return Failure{Where + "." + Key + ": missing or not a number >= 0"};
    if (!K.contains("bytes") || !K["bytes"].is_object())
      return Failure{Where + ".bytes: missing"};
    KernelRecord R;
    R.Origin = Path;
    R.Name = K["name"].get<std::string>();
    R.DisplayName = stringOr(K, "display_name", R.Name);
    R.Kind = stringOr(K, "kind", "function");
    R.Per = "call";
    R.File = stringOr(K, "file", "");
    R.Line = unsigned(clampedUnsigned(numberOr(K, "line", 0)));
    Measurement M = measurementOf(J, K, R);
    R.Measured = M;
    // The static formulas from the descriptor, when the compile had them.
    if (K.contains("static") && K["static"].is_object()) {
      const json &S = K["static"];
      R.StaticFlops = stringOr(S, "flops", "");
      R.StaticExact = boolOr(S, "exact", false);
    }
    R.Exact = true; // measured counts are exact
    addRecordNotes(K, R);
    std::string Device = stringOr(K, "device", "");
    bool OnGPU = Device == "cuda" || Device == "hip";
    if (By == RowsBy::Loop) {
      if (!OnGPU) {
        std::vector<KernelRecord> Loops = loopRecords(K, R);
        Out.insert(Out.end(), Loops.begin(), Loops.end());
      }
      continue;
    }
    if (OnGPU) {
      R.Kind = Device + "-kernel";
      R.Per = "launch";
      const KernelLaunches::Array *A = Streamed ? Streamed->of(I) : nullptr;
      LaunchGroups *Groups = A ? A->Groups.get() : nullptr;
      std::optional<LaunchGroups> Read;
      if (!Streamed && K.contains("launches") && K["launches"].is_array()) {
        Read.emplace(K.contains("launch_columns") ? &K["launch_columns"] : nullptr);
        for (const json &E : K["launches"])
          Read->row(LaunchRow::fromJSON(E));
        Groups = &*Read;
      }
      if (Groups && Groups->rows() > 0 && K.contains("launches") &&
          K["launches"].is_array()) {
        Result<std::vector<KernelRecord>> Configs = Groups->records(K, R, Where);
        if (!Configs)
          return Failure{Configs.error()};
        Out.insert(Out.end(), Configs->begin(), Configs->end());
        continue;
      }
    }
    Out.push_back(std::move(R));
  }
  return Out;
}

} // namespace

Result<std::vector<KernelRecord>> parseProfile(const json &J,
                                               const std::string &Path,
                                               RowsBy By) {
  return parseKernels(J, Path, By, nullptr);
}

std::vector<KernelRecord> joinRecords(std::vector<KernelRecord> Static,
                                      std::vector<KernelRecord> Measured) {
  std::vector<KernelRecord> Out = std::move(Static);
  std::map<std::string, size_t> ByName;
  for (size_t I = 0; I < Out.size(); ++I)
    ByName.emplace(Out[I].Name, I);
  for (KernelRecord &M : Measured) {
    std::string Key = M.Launch ? M.Name + " " + M.Launch->Config : M.Name;
    auto It = ByName.find(Key);
    if (It == ByName.end()) {
      ByName.emplace(Key, Out.size());
      Out.push_back(std::move(M));
      continue;
    }
    KernelRecord &Into = Out[It->second];
    if (!Into.Measured) {
      Into.Measured = M.Measured;
      continue;
    }
    Into.Measured->addCounts(*M.Measured);
  }
  return Out;
}

Result<std::vector<KernelRecord>>
loadInputs(const std::vector<std::string> &Paths, RowsBy By,
           const std::string &TrafficPath) {
  std::vector<KernelRecord> Static, Measured;
  std::optional<json> Traffic;
  if (!TrafficPath.empty()) {
    Result<json> T = readJSON(TrafficPath);
    if (!T)
      return Failure{T.error()};
    if (!isProfile(*T))
      return Failure{TrafficPath + ": not a profile (--traffic takes the "
                     "profile of a ROOFLINE_CACHE run)"};
    Traffic = std::move(*T);
  }
  for (const std::string &P : Paths) {
    KernelLaunches Launches;
    Result<json> J = readProfileStream(P, Launches);
    if (!J)
      return Failure{J.error()};
    if (isProfile(*J) && Traffic) {
      Result<json> Joined = joinTraffic(*J, P, *Traffic, TrafficPath);
      if (!Joined)
        return Failure{Joined.error()};
      J = std::move(*Joined);
    }
    if (isProfile(*J)) {
      Result<std::vector<KernelRecord>> R = parseKernels(*J, P, By, &Launches);
      if (!R)
        return R;
      Measured.insert(Measured.end(), R->begin(), R->end());
    } else if (By == RowsBy::Loop) {
      continue; // no measured loops in a static summary
    } else {
      Result<std::vector<KernelRecord>> R =
          parseStaticSummary(*J, P);
      if (!R)
        return R;
      Static.insert(Static.end(), R->begin(), R->end());
    }
  }
  return joinRecords(std::move(Static), std::move(Measured));
}

/// \p K's loop nests added into \p Loops by line (new lines appended);
/// "" or what does not add up ("loop at line N: ...").
static std::string mergeLoopRows(json &Loops, const json &K) {
  for (const json &L : arrayOr(K, "loops")) {
    bool Found = false;
    for (json &M : Loops)
      if (numberOr(M, "line", -1) == numberOr(L, "line", -2)) {
        mergeIterationExtremes(M, L);
        for (const char *Key : {"flops", "intops", "instructions", "bytes_load", "bytes_store",
                                "entries", "iterations", "timed_entries"})
          if (M.contains(Key) || L.contains(Key))
            M[Key] = clampedUnsigned(numberOr(M, Key, 0) + numberOr(L, Key, 0),
                                     UINT64_MAX >> 1);
        if (L.contains("flop_classes") && L["flop_classes"].is_object()) {
          if (!M.contains("flop_classes") || !M["flop_classes"].is_object())
            M["flop_classes"] = json::object();
          addNumbers(M["flop_classes"], L["flop_classes"]);
        }
        if (M.contains("seconds") || L.contains("seconds"))
          M["seconds"] = numberOr(M, "seconds", 0) + numberOr(L, "seconds", 0);
        if (std::string Why = mergeTraffic(M, L); !Why.empty())
          return "loop at line " +
                 std::to_string(clampedUnsigned(numberOr(L, "line", 0))) + ": " + Why;
        if (numberOr(M, "entries", 0) > 0)
          M["iterations_per_entry"] =
              numberOr(M, "iterations", 0) / numberOr(M, "entries", 0);
        Found = true;
      }
    if (!Found)
      Loops.push_back(L);
  }
  return "";
}

/// \p Into's list \p Key with \p K's entries it lacks.
static void unionInto(json &Into, const json &K, const char *Key) {
  if (!K.contains(Key) || !K[Key].is_array())
    return;
  json Union = arrayOr(Into, Key);
  for (const json &C : K[Key])
    if (std::find(Union.begin(), Union.end(), C) == Union.end())
      Union.push_back(C);
  Into[Key] = Union;
}

/// The spread of a kernel's time over the processes that ran it (load
/// imbalance): min, mean, max and which rank was slowest.
static void addRankSpread(json &K, const json &Ranks) {
  K["per_rank"] = Ranks;
  if (Ranks.size() < 2) {
    K.erase("rank_seconds");
    return;
  }
  double Min = 0, Max = 0, Sum = 0;
  json Slowest, Fastest;
  for (size_t I = 0; I < Ranks.size(); ++I) {
    double S = numberOr(Ranks[I], "seconds", 0);
    if (I == 0 || S < Min)
      Min = S, Fastest = Ranks[I].value("rank", json(nullptr));
    if (I == 0 || S > Max)
      Max = S, Slowest = Ranks[I].value("rank", json(nullptr));
    Sum += S;
  }
  K["rank_seconds"] = {{"ranks", Ranks.size()}, {"min", Min},
                       {"mean", Sum / double(Ranks.size())}, {"max", Max},
                       {"fastest_rank", Fastest}, {"slowest_rank", Slowest}};
}

Result<MergedProfile> mergeProfiles(const std::vector<std::string> &Paths) {
  if (Paths.empty())
    return Failure{"merge: no input profiles"};
  MergedProfile Merged;
  Merged.Inputs = Paths;
  json &Out = Merged.Doc;
  Out = {{"schema", "roofline-profile"},
              {"version", 1},
              {"merged_from", json::array()},
              {"kernels", json::array()}};
  std::map<std::string, size_t> Index; // name -> position in Out.kernels
  // Per kernel, each process's time: {rank, seconds, calls}, from the
  // inputs' own per_rank lists when they are merged profiles already.
  std::map<std::string, json> PerRank;
  size_t InputIndex = 0;
  for (const std::string &P : Paths) {
    KernelLaunches Launches;
    Result<json> J = readProfileStream(P, Launches);
    if (!J)
      return Failure{J.error()};
    if (!isProfile(*J))
      return Failure{P + ": schema: not a roofline profile (expected "
                         "\"roofline-profile\")"};
    if (numberOr(*J, "version", 0) != 1)
      return Failure{P + ": version: expected 1, got " +
                     (*J)["version"].dump()};
    // Validates the kernels the same way the report reads them.
    if (auto R = parseKernels(*J, P, RowsBy::Function, &Launches); !R)
      return Failure{R.error()};
    // A process's rank: the launcher's, else its place among the inputs.
    json Rank = J->contains("rank") && (*J)["rank"].is_number_integer()
                    ? (*J)["rank"]
                    : json(InputIndex);
    ++InputIndex;
    json From = {{"file", P},
                 {"pid", J->contains("pid") ? (*J)["pid"] : json(0)},
                 {"host", stringOr(*J, "host", "")}};
    if (J->contains("rank"))
      From["rank"] = (*J)["rank"];
    Out["merged_from"].push_back(From);
    const json &Kernels = (*J)["kernels"];
    for (size_t KI = 0; KI < Kernels.size(); ++KI) {
      const json &K = Kernels[KI];
      // Where this input's launch rows of the kernel are (not in K).
      std::optional<MergedProfile::Rows> Rows;
      if (const KernelLaunches::Array *A = Launches.of(KI))
        Rows = MergedProfile::Rows{InputIndex - 1, A->Begin, A->End, A->Rows};
      std::string Name = K["name"].get<std::string>();
      json &Ranks = PerRank[Name];
      if (!Ranks.is_array())
        Ranks = json::array();
      if (K.contains("per_rank") && K["per_rank"].is_array())
        for (const json &R : K["per_rank"])
          Ranks.push_back(R);
      else
        Ranks.push_back({{"rank", Rank}, {"seconds", K["seconds"]}, {"calls", K["calls"]}});
      auto It = Index.find(Name);
      if (It == Index.end()) {
        Index[Name] = Out["kernels"].size();
        Out["kernels"].push_back(K);
        Merged.Launches.emplace_back();
        if (Rows && K.contains("launches") && K["launches"].is_array())
          Merged.Launches.back().push_back(*Rows);
        continue;
      }
      json &Into = Out["kernels"][It->second];
      if (stringOr(Into, "file", "") != stringOr(K, "file", "") ||
          numberOr(Into, "line", 0) != numberOr(K, "line", 0))
        return Failure{P + ": kernel '" + Name +
                       "' comes from a different source location than in "
                       "the profiles before it (" +
                       stringOr(Into, "file", "") + ":" +
                       std::to_string(clampedUnsigned(numberOr(Into, "line", 0))) +
                       "): mismatched builds"};
      json Loops = arrayOr(Into, "loops");
      addNumbers(Into, K);
      if (std::string Why = mergeTraffic(Into, K); !Why.empty())
        return Failure{P + ": kernel '" + Name + "': " + Why};
      // CUDA launch records: all of them, in input order.
      if (K.contains("launches") && K["launches"].is_array()) {
        json &All = Into["launches"];
        std::vector<MergedProfile::Rows> &Kept = Merged.Launches[It->second];
        if (!All.is_array()) {
          All = json::array();
          Kept.clear();
        }
        if (Rows)
          Kept.push_back(*Rows);
      }
      if (std::string Why = mergeLoopRows(Loops, K); !Why.empty())
        return Failure{P + ": kernel '" + Name + "', " + Why};
      Into["loops"] = Loops;
      // The callers an inlined kernel's bodies are in, and the calls its
      // counts leave out, from every input.
      for (const char *Key : {"inlined_into", "uncounted_calls"})
        unionInto(Into, K, Key);
      Into["line"] = K.contains("line") ? K["line"] : json(0); // not a sum
    }
  }
  // The spread of each kernel's time over the processes that ran it (load
  // imbalance): min, mean, max and which rank was slowest.
  for (auto &[Name, Ranks] : PerRank)
    addRankSpread(Out["kernels"][Index[Name]], Ranks);
  return Merged;
}

} // namespace roofline
