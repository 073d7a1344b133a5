//===- ProfileMerge.cpp - Merging runtime profiles ------------------------===//
//
// `roofline-report merge`: one profile from many processes' (MPI ranks,
// forked children, runs of one build), each kernel's counts summed, its
// loop nests added by line, and its time's spread over the ranks kept
// (rank_seconds, per_rank).
//
//===----------------------------------------------------------------------===//
#include "roofline/Model/Profile.h"
#include "roofline/Model/JSONAccess.h"
#include "roofline/Model/ProfileStream.h"
#include "roofline/Runtime/ProfileKeys.h"

#include <map>

namespace roofline {

using nlohmann::json;

namespace {

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
    } else if (V.is_object() && K != key::Static && K != key::Traffic &&
               K != key::RankSeconds) {
      if (!Into.contains(K) || !Into[K].is_object())
        Into[K] = json::object();
      addNumbers(Into[K], V);
    }
  }
}


/// Adds \p From's traffic into \p Into's; "" or why they cannot add up (a
/// run with another geometry).
std::string mergeTraffic(json &Into, const json &From) {
  if (!From.contains(key::Traffic))
    return "";
  if (!Into.contains(key::Traffic)) {
    Into[key::Traffic] = From[key::Traffic];
    return "";
  }
  json &A = Into[key::Traffic];
  const json &B = From[key::Traffic];
  json &LA = A[key::Levels];
  const json BL = arrayOr(B, key::Levels);
  bool Same = LA.is_array() && LA.size() == BL.size();
  for (size_t I = 0; Same && I < BL.size(); ++I)
    for (const char *Key : {key::SizeBytes, key::Ways, key::LineBytes})
      Same &= numberOr(LA[I], Key, -1) == numberOr(BL[I], Key, -2);
  if (!Same)
    return "its cache model's levels differ from those of the profiles "
           "before it (runs with different ROOFLINE_CACHE)";
  for (size_t I = 0; I < BL.size(); ++I)
    for (const char *Key : {key::FillBytes, key::WritebackBytes})
      LA[I][Key] = numberOr(LA[I], Key, 0) + numberOr(BL[I], Key, 0);
  return "";
}

/// A loop's fewest and most iterations of one entry, over two runs (before
/// their entries add up): known where every run that entered it knew them.
void mergeIterationExtremes(json &Into, const json &From) {
  const char *Min = key::MinIterationsPerEntry,
             *Max = key::MaxIterationsPerEntry;
  bool IntoEntered = numberOr(Into, key::Entries, 0) > 0;
  bool FromEntered = numberOr(From, key::Entries, 0) > 0;
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

/// \p K's loop nests added into \p Loops by line (new lines appended);
/// "" or what does not add up ("loop at line N: ...").
std::string mergeLoopRows(json &Loops, const json &K) {
  for (const json &L : arrayOr(K, key::Loops)) {
    bool Found = false;
    for (json &M : Loops)
      if (numberOr(M, key::Line, -1) == numberOr(L, key::Line, -2)) {
        mergeIterationExtremes(M, L);
        for (const char *Key : {key::Flops, key::Intops, key::Instructions,
                                key::BytesLoad, key::BytesStore, key::Entries,
                                key::Iterations, key::TimedEntries})
          if (M.contains(Key) || L.contains(Key))
            M[Key] = clampedUnsigned(numberOr(M, Key, 0) + numberOr(L, Key, 0),
                                     UINT64_MAX >> 1);
        if (L.contains(key::FlopClasses) && L[key::FlopClasses].is_object()) {
          if (!M.contains(key::FlopClasses) || !M[key::FlopClasses].is_object())
            M[key::FlopClasses] = json::object();
          addNumbers(M[key::FlopClasses], L[key::FlopClasses]);
        }
        if (M.contains(key::Seconds) || L.contains(key::Seconds))
          M[key::Seconds] =
              numberOr(M, key::Seconds, 0) + numberOr(L, key::Seconds, 0);
        if (std::string Why = mergeTraffic(M, L); !Why.empty())
          return "loop at line " +
                 std::to_string(clampedUnsigned(numberOr(L, key::Line, 0))) +
                 ": " + Why;
        if (numberOr(M, key::Entries, 0) > 0)
          M[key::IterationsPerEntry] =
              numberOr(M, key::Iterations, 0) / numberOr(M, key::Entries, 0);
        Found = true;
      }
    if (!Found)
      Loops.push_back(L);
  }
  return "";
}

/// \p Into's list \p Key with \p K's entries it lacks.
void unionInto(json &Into, const json &K, const char *Key) {
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
void addRankSpread(json &K, const json &Ranks) {
  K[key::PerRank] = Ranks;
  if (Ranks.size() < 2) {
    K.erase(key::RankSeconds);
    return;
  }
  double Min = 0, Max = 0, Sum = 0;
  json Slowest, Fastest;
  for (size_t I = 0; I < Ranks.size(); ++I) {
    double S = numberOr(Ranks[I], key::Seconds, 0);
    if (I == 0 || S < Min)
      Min = S, Fastest = Ranks[I].value(key::Rank, json(nullptr));
    if (I == 0 || S > Max)
      Max = S, Slowest = Ranks[I].value(key::Rank, json(nullptr));
    Sum += S;
  }
  K[key::RankSeconds] = {{key::Ranks, Ranks.size()},
                         {key::Min, Min},
                         {key::Mean, Sum / double(Ranks.size())},
                         {key::Max, Max},
                         {key::FastestRank, Fastest},
                         {key::SlowestRank, Slowest}};
}

} // namespace

Result<MergedProfile> mergeProfiles(const std::vector<std::string> &Paths) {
  if (Paths.empty())
    return Failure{"merge: no input profiles"};
  MergedProfile Merged;
  Merged.Inputs = Paths;
  json &Out = Merged.Doc;
  Out = {{key::Schema, value::ProfileSchema},
         {key::Version, 1},
         {key::MergedFrom, json::array()},
         {key::Kernels, json::array()}};
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
    if (numberOr(*J, key::Version, 0) != 1)
      return Failure{P + ": version: expected 1, got " +
                     (*J)[key::Version].dump()};
    // Validates the kernels the same way the report reads them.
    if (auto R = parseProfile(*J, P, RowsBy::Function, &Launches); !R)
      return Failure{R.error()};
    // A process's rank: the launcher's, else its place among the inputs.
    json Rank = J->contains(key::Rank) && (*J)[key::Rank].is_number_integer()
                    ? (*J)[key::Rank]
                    : json(InputIndex);
    ++InputIndex;
    json From = {{key::File, P},
                 {key::Pid, J->contains(key::Pid) ? (*J)[key::Pid] : json(0)},
                 {key::Host, stringOr(*J, key::Host, "")}};
    if (J->contains(key::Rank))
      From[key::Rank] = (*J)[key::Rank];
    Out[key::MergedFrom].push_back(From);
    const json &Kernels = (*J)[key::Kernels];
    for (size_t KI = 0; KI < Kernels.size(); ++KI) {
      const json &K = Kernels[KI];
      // Where this input's launch rows of the kernel are (not in K).
      std::optional<MergedProfile::Rows> Rows;
      if (const KernelLaunches::Array *A = Launches.of(KI))
        Rows = MergedProfile::Rows{InputIndex - 1, A->Begin, A->End, A->Rows};
      std::string Name = K[key::Name].get<std::string>();
      json &Ranks = PerRank[Name];
      if (!Ranks.is_array())
        Ranks = json::array();
      if (K.contains(key::PerRank) && K[key::PerRank].is_array())
        for (const json &R : K[key::PerRank])
          Ranks.push_back(R);
      else
        Ranks.push_back({{key::Rank, Rank},
                         {key::Seconds, K[key::Seconds]},
                         {key::Calls, K[key::Calls]}});
      auto It = Index.find(Name);
      if (It == Index.end()) {
        Index[Name] = Out[key::Kernels].size();
        Out[key::Kernels].push_back(K);
        Merged.Launches.emplace_back();
        if (Rows && K.contains(key::Launches) && K[key::Launches].is_array())
          Merged.Launches.back().push_back(*Rows);
        continue;
      }
      json &Into = Out[key::Kernels][It->second];
      if (stringOr(Into, key::File, "") != stringOr(K, key::File, "") ||
          numberOr(Into, key::Line, 0) != numberOr(K, key::Line, 0))
        return Failure{
            P + ": kernel '" + Name +
            "' comes from a different source location than in "
            "the profiles before it (" +
            stringOr(Into, key::File, "") + ":" +
            std::to_string(clampedUnsigned(numberOr(Into, key::Line, 0))) +
            "): mismatched builds"};
      json Loops = arrayOr(Into, key::Loops);
      addNumbers(Into, K);
      if (std::string Why = mergeTraffic(Into, K); !Why.empty())
        return Failure{P + ": kernel '" + Name + "': " + Why};
      // CUDA launch records: all of them, in input order.
      if (K.contains(key::Launches) && K[key::Launches].is_array()) {
        json &All = Into[key::Launches];
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
      Into[key::Loops] = Loops;
      // The callers an inlined kernel's bodies are in, and the calls its
      // counts leave out, from every input.
      for (const char *Key : {key::InlinedInto, key::UncountedCalls})
        unionInto(Into, K, Key);
      Into[key::Line] =
          K.contains(key::Line) ? K[key::Line] : json(0); // not a sum
    }
  }
  // The spread of each kernel's time over the processes that ran it (load
  // imbalance): min, mean, max and which rank was slowest.
  for (auto &[Name, Ranks] : PerRank)
    addRankSpread(Out[key::Kernels][Index[Name]], Ranks);
  return Merged;
}

} // namespace roofline
