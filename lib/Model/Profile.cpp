//===- Profile.cpp - Reading runtime profiles -----------------------------===//
#include "roofline/Model/Profile.h"
#include "roofline/Model/Formula.h"
#include "roofline/Model/JSONAccess.h"
#include "roofline/Model/LaunchGroups.h"
#include "roofline/Model/ProfileStream.h"
#include "roofline/Model/Roofline.h"
#include "roofline/Model/TrafficJoin.h"
#include "roofline/Runtime/ProfileKeys.h"

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

/// The cache model's per-level traffic of a kernel or loop record.
void readTraffic(const json &R, Measurement &M) {
  if (!R.contains(key::Traffic) || !R[key::Traffic].is_object())
    return;
  const json &T = R[key::Traffic];
  M.TrafficModel = stringOr(T, key::Model, "");
  for (const json &L : arrayOr(T, key::Levels))
    if (L.is_object())
      M.Traffic.push_back({stringOr(L, key::Level, ""),
                           numberOr(L, key::SizeBytes, 0),
                           numberOr(L, key::FillBytes, 0),
                           numberOr(L, key::WritebackBytes, 0)});
}

std::string shortNumber(double V) {
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "%.10g", V);
  return Buf;
}

} // namespace

Result<json> readJSONFile(const std::string &Path) { return readJSON(Path); }

bool isProfile(const json &J) {
  return J.is_object() && stringOr(J, key::Schema, "") == value::ProfileSchema;
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
  Read(key::FlopClasses, M.Classes);
  Read(key::IntClasses, M.IntClasses);
}

/// What a kernel record and a loop row both have: time, operation classes
/// and instructions, with \p Count ("calls", "entries") as the calls.
Measurement runCounts(const json &From, const char *Count) {
  Measurement M;
  M.Calls = numberOr(From, Count, 0);
  M.Seconds = numberOr(From, key::Seconds, 0);
  readClasses(From, M);
  if (From.contains(key::Instructions) && From[key::Instructions].is_number())
    M.Instructions = From[key::Instructions].get<double>();
  return M;
}

/// Where each of \p K's loop nests starts, where the next one of the same
/// function and file starts, and its work.
std::vector<Measurement::Nest> nestsOf(const json &K, const KernelRecord &Of) {
  std::vector<Measurement::Nest> Out;
  for (const json &L : arrayOr(K, key::Loops)) {
    if (!L.is_object())
      continue;
    Measurement::Nest N;
    N.Function = stringOr(L, key::Function, Of.DisplayName);
    N.File = stringOr(L, key::File, Of.File);
    N.Line = unsigned(clampedUnsigned(numberOr(L, key::Line, 0)));
    N.IterationsPerEntry = numberOr(L, key::IterationsPerEntry, 0);
    N.Iterations = numberOr(L, key::Iterations, 0);
    Measurement M;
    readClasses(L, M);
    N.Flops = Work{M.Classes}.flops(Convention::FMA2);
    N.Bytes = numberOr(L, key::BytesLoad, 0) + numberOr(L, key::BytesStore, 0);
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
  for (const json &L : arrayOr(K, key::Loops)) {
    if (!L.is_object())
      continue;
    KernelRecord R;
    R.LoopNest = Nests[NestIndex++];
    R.Origin = Of.Origin;
    R.Kind = "loop";
    R.Per = "entry";
    R.File = stringOr(L, key::File, Of.File);
    R.Line = unsigned(clampedUnsigned(numberOr(L, key::Line, 0)));
    R.Name = Of.Name + ":" + std::to_string(R.Line);
    R.DisplayName = "[loop in " + functionName(Of.DisplayName) + " at " + baseName(R.File) +
                    ":" + std::to_string(R.Line) + "]";
    Measurement M = runCounts(L, key::Entries);
    M.BytesLoad = numberOr(L, key::BytesLoad, 0);
    M.BytesStore = numberOr(L, key::BytesStore, 0);
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
    if (L.contains(key::Entries)) {
      std::string PerEntry;
      if (L.contains(key::MaxIterationsPerEntry))
        PerEntry =
            " (" + shortNumber(numberOr(L, key::MinIterationsPerEntry, 0)) +
            " to " + shortNumber(numberOr(L, key::MaxIterationsPerEntry, 0)) +
            " per entry)";
      R.Notes.push_back(shortNumber(numberOr(L, key::Entries, 0)) +
                        " entries, " +
                        shortNumber(numberOr(L, key::Iterations, 0)) +
                        " iterations" + PerEntry +
                        " of the loop as compiled (vectorised or "
                        "unrolled loops run fewer than the source's)");
    }
    if (!L.contains(key::Seconds))
      R.Notes.push_back("not timed (no preheader or exits to time it at)");
    Out.push_back(std::move(R));
  }
  return Out;
}

/// A kernel's measured counts, time and traffic from profile \p J's record
/// \p K (notes about them to \p R).
Measurement measurementOf(const json &J, const json &K, KernelRecord &R) {
  Measurement M = runCounts(K, key::Calls);
  const json &B = K[key::Bytes];
  M.BytesLoad = numberOr(B, key::Load, 0);
  M.BytesStore = numberOr(B, key::Store, 0);
  for (auto &[Space, LS] : B.items())
    if (LS.is_object()) {
      M.BytesBySpace[Space] = {numberOr(LS, key::Load, 0),
                               numberOr(LS, key::Store, 0)};
      if (double N = numberOr(LS, key::WarpShareable, 0))
        M.ShareableBySpace[Space] = N;
    }
  if (K.contains(key::Footprint) && K[key::Footprint].is_object()) {
    const json &F = K[key::Footprint];
    M.Footprint = numberOr(F, key::Read, 0) + numberOr(F, key::Written, 0);
    M.FootprintExact = boolOr(F, key::Exact, false);
  }
  readTraffic(K, M);
  M.Executable = stringOr(J, key::Executable, "");
  for (const json &C : arrayOr(K, key::InlinedInto))
    M.InlinedInto.push_back(C.is_string() ? C.get<std::string>() : "");
  M.OnlyInlined =
      !M.InlinedInto.empty() && stringOr(K, key::Timing, value::TimedByCalls)
                                        .rfind(value::TimedByCalls, 0) != 0;
  M.RunClockHz = numberOr(J, key::ClockHz, 0);
  M.StopsWait = stringOr(J, key::TimerStop, "") == value::StopWaits;
  M.Threads = numberOr(K, key::Threads, 0);
  M.Nests = nestsOf(K, R);
  // The cache model slows the run several times: its times are not the
  // kernel's, unless the traffic was joined from another run (--traffic).
  M.TimeFromCacheModel =
      K.contains(key::Traffic) && !K.contains(key::TrafficFrom);
  if (M.TimeFromCacheModel)
    R.Notes.push_back("time from a ROOFLINE_CACHE run, several times slower "
                      "than the program: FLOP/s and efficiency are low for "
                      "that; give a run without the model, and this one "
                      "with --traffic");
  if (K.contains(key::RankSeconds) && K[key::RankSeconds].is_object()) {
    const json &RS = K[key::RankSeconds];
    Measurement::RankSpread Spread;
    Spread.Ranks = numberOr(RS, key::Ranks, 0);
    Spread.Min = numberOr(RS, key::Min, 0);
    Spread.Mean = numberOr(RS, key::Mean, 0);
    Spread.Max = numberOr(RS, key::Max, 0);
    Spread.SlowestRank = numberOr(RS, key::SlowestRank, 0);
    M.Ranks = Spread;
  }
  return M;
}

/// Notes on what a record's counts leave out and where it was inlined.
void addRecordNotes(const json &K, KernelRecord &R) {
  if (K.contains(key::UncountedCalls) && K[key::UncountedCalls].is_array()) {
    std::string Calls;
    for (const json &C : K[key::UncountedCalls])
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
    std::string Timing = stringOr(K, key::Timing, "");
    R.Notes.push_back(
        "inlined into " + Callers +
        ": calls are entries into its inlined "
        "bodies" +
        (Timing == value::NotTimed
             ? "; not timed (no loop nest of its own to time)"
         : Timing == value::TimedInPart
             ? "; timed in part, by the loop nests that have timers"
             : "; time is its loop nests' (the code outside them is not "
               "timed)"));
  }
}

} // namespace

Result<std::vector<KernelRecord>>
parseProfile(const json &J, const std::string &Path, RowsBy By,
             const KernelLaunches *Streamed) {
  if (numberOr(J, key::Version, 0) != 1)
    return Failure{Path + ": version: expected 1"};
  if (!J.contains(key::Kernels) || !J[key::Kernels].is_array())
    return Failure{Path + ": kernels: missing (expected an array)"};
  std::vector<KernelRecord> Out;
  for (size_t I = 0; I < J[key::Kernels].size(); ++I) {
    const json &K = J[key::Kernels][I];
    std::string Where = Path + ": kernels[" + std::to_string(I) + "]";
    if (!K.is_object() || !K.contains(key::Name) || !K[key::Name].is_string())
      return Failure{Where + ".name: missing or not a string"};
    for (const char *Key : {key::Calls, key::Seconds})
      if (!K.contains(Key) || !K[Key].is_number() || K[Key].get<double>() < 0)
        return Failure{Where + "." + Key + ": missing or not a number >= 0"};
    if (!K.contains(key::Bytes) || !K[key::Bytes].is_object())
      return Failure{Where + ".bytes: missing"};
    KernelRecord R;
    R.Origin = Path;
    R.Name = K[key::Name].get<std::string>();
    R.DisplayName = stringOr(K, key::DisplayName, R.Name);
    R.Kind = stringOr(K, key::Kind, "function");
    R.Per = "call";
    R.File = stringOr(K, key::File, "");
    R.Line = unsigned(clampedUnsigned(numberOr(K, key::Line, 0)));
    Measurement M = measurementOf(J, K, R);
    R.Measured = M;
    // The static formulas from the descriptor, when the compile had them.
    if (K.contains(key::Static) && K[key::Static].is_object()) {
      const json &S = K[key::Static];
      // (Beside the measured counts, for a note: one that does not read
      // is left out, not an error that loses the run.)
      std::vector<std::string> Params = stringsAt(S, key::Params);
      if (Result<Formula> F = Formula::read(stringOr(S, key::Flops, ""), &Params))
        R.StaticFlops = *F;
      R.StaticExact = boolOr(S, key::Exact, false);
    }
    R.Exact = true; // measured counts are exact
    addRecordNotes(K, R);
    std::string Device = stringOr(K, key::Device, "");
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
      if (!Streamed && K.contains(key::Launches) &&
          K[key::Launches].is_array()) {
        Read.emplace(K.contains(key::LaunchColumns) ? &K[key::LaunchColumns]
                                                    : nullptr);
        for (const json &E : K[key::Launches])
          Read->row(LaunchRow::fromJSON(E));
        Groups = &*Read;
      }
      if (Groups && Groups->rows() > 0 && K.contains(key::Launches) &&
          K[key::Launches].is_array()) {
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
      Result<std::vector<KernelRecord>> R = parseProfile(*J, P, By, &Launches);
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

} // namespace roofline
