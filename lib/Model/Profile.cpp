//===- Profile.cpp - Reading and merging runtime profiles -----------------===//
#include "roofline/Model/Profile.h"
#include "roofline/Model/JSONAccess.h"

#include <algorithm>

#include <fstream>
#include <map>
#include <sstream>

namespace roofline {

using nlohmann::json;

namespace {

Result<json> readJSON(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  if (!In)
    return Failure{Path + ": cannot be read"};
  std::stringstream SS;
  SS << In.rdbuf();
  json J = json::parse(SS.str(), nullptr, /*allow_exceptions=*/false);
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
      Into[K] = numberOr(Into, K.c_str(), 0) + V.get<double>();
      if (V.is_number_integer() && Into[K].get<double>() ==
                                       double(uint64_t(Into[K].get<double>())))
        Into[K] = uint64_t(Into[K].get<double>());
    } else if (V.is_object() && K != "static") {
      if (!Into.contains(K) || !Into[K].is_object())
        Into[K] = json::object();
      addNumbers(Into[K], V);
    }
  }
}

} // namespace

bool isProfile(const json &J) {
  return J.is_object() && stringOr(J, "schema", "") == "roofline-profile";
}

Result<std::vector<KernelRecord>> parseProfile(const json &J,
                                               const std::string &Path) {
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
    R.Line = unsigned(std::max(0.0, numberOr(K, "line", 0)));
    Measurement M;
    M.Calls = numberOr(K, "calls", 0);
    M.Seconds = numberOr(K, "seconds", 0);
    if (K.contains("flop_classes") && K["flop_classes"].is_object())
      for (auto &[P, Classes] : K["flop_classes"].items())
        if (Classes.is_object())
          for (auto &[C, N] : Classes.items())
            if (N.is_number())
              M.Classes[P][C] = N.get<double>();
    const json &B = K["bytes"];
    M.BytesLoad = numberOr(B, "load", 0);
    M.BytesStore = numberOr(B, "store", 0);
    for (auto &[Space, LS] : B.items())
      if (LS.is_object())
        M.BytesBySpace[Space] = {numberOr(LS, "load", 0), numberOr(LS, "store", 0)};
    R.Measured = M;
    // The static formulas from the descriptor, when the compile had them.
    if (K.contains("static") && K["static"].is_object()) {
      const json &S = K["static"];
      R.StaticFlops = stringOr(S, "flops", "");
      R.StaticExact = boolOr(S, "exact", false);
    }
    R.Exact = true; // measured counts are exact
    Out.push_back(std::move(R));
  }
  return Out;
}

Result<std::vector<KernelRecord>>
loadInputs(const std::vector<std::string> &Paths) {
  std::vector<KernelRecord> Static, Measured;
  for (const std::string &P : Paths) {
    Result<json> J = readJSON(P);
    if (!J)
      return Failure{J.error()};
    if (isProfile(*J)) {
      Result<std::vector<KernelRecord>> R = parseProfile(*J, P);
      if (!R)
        return R;
      Measured.insert(Measured.end(), R->begin(), R->end());
    } else {
      Result<std::vector<KernelRecord>> R =
          parseStaticSummary(*J, P);
      if (!R)
        return R;
      Static.insert(Static.end(), R->begin(), R->end());
    }
  }
  // Measurements of one kernel from several files add up; a kernel with a
  // static summary keeps its formulas.
  std::vector<KernelRecord> Out = Static;
  std::map<std::string, size_t> ByName;
  for (size_t I = 0; I < Out.size(); ++I)
    ByName.emplace(Out[I].Name, I);
  for (KernelRecord &M : Measured) {
    auto It = ByName.find(M.Name);
    if (It == ByName.end()) {
      ByName.emplace(M.Name, Out.size());
      Out.push_back(std::move(M));
      continue;
    }
    KernelRecord &Into = Out[It->second];
    if (!Into.Measured) {
      Into.Measured = M.Measured;
      continue;
    }
    Measurement &A = *Into.Measured;
    const Measurement &B = *M.Measured;
    A.Calls += B.Calls;
    A.Seconds += B.Seconds;
    for (const auto &[P, Cs] : B.Classes)
      for (const auto &[C, N] : Cs)
        A.Classes[P][C] += N;
    A.BytesLoad += B.BytesLoad;
    A.BytesStore += B.BytesStore;
    for (const auto &[S, LS] : B.BytesBySpace) {
      A.BytesBySpace[S].first += LS.first;
      A.BytesBySpace[S].second += LS.second;
    }
  }
  return Out;
}

Result<json> mergeProfiles(const std::vector<std::string> &Paths) {
  if (Paths.empty())
    return Failure{"merge: no input profiles"};
  json Out = {{"schema", "roofline-profile"},
              {"version", 1},
              {"merged_from", json::array()},
              {"kernels", json::array()}};
  std::map<std::string, size_t> Index; // name -> position in Out.kernels
  for (const std::string &P : Paths) {
    Result<json> J = readJSON(P);
    if (!J)
      return Failure{J.error()};
    if (!isProfile(*J))
      return Failure{P + ": schema: not a roofline profile (expected "
                         "\"roofline-profile\")"};
    if (numberOr(*J, "version", 0) != 1)
      return Failure{P + ": version: expected 1, got " +
                     (*J)["version"].dump()};
    // Validates the kernels the same way the report reads them.
    if (auto R = parseProfile(*J, P); !R)
      return Failure{R.error()};
    Out["merged_from"].push_back(
        {{"file", P}, {"pid", numberOr(*J, "pid", 0)}, {"host", stringOr(*J, "host", "")}});
    for (const json &K : (*J)["kernels"]) {
      std::string Name = K["name"].get<std::string>();
      auto It = Index.find(Name);
      if (It == Index.end()) {
        Index[Name] = Out["kernels"].size();
        Out["kernels"].push_back(K);
        continue;
      }
      json &Into = Out["kernels"][It->second];
      if (stringOr(Into, "file", "") != stringOr(K, "file", "") ||
          numberOr(Into, "line", 0) != numberOr(K, "line", 0))
        return Failure{P + ": kernel '" + Name +
                       "' comes from a different source location than in "
                       "the profiles before it (" +
                       stringOr(Into, "file", "") + ":" +
                       std::to_string(int64_t(numberOr(Into, "line", 0))) +
                       "): mismatched builds"};
      json Loops = arrayOr(Into, "loops");
      addNumbers(Into, K);
      // Loop nests add up by line.
      for (const json &L : arrayOr(K, "loops")) {
        bool Found = false;
        for (json &M : Loops)
          if (numberOr(M, "line", -1) == numberOr(L, "line", -2)) {
            for (const char *Key : {"flops", "bytes_load", "bytes_store"})
              M[Key] = uint64_t(numberOr(M, Key, 0) + numberOr(L, Key, 0));
            Found = true;
          }
        if (!Found)
          Loops.push_back(L);
      }
      Into["loops"] = Loops;
      Into["line"] = numberOr(K, "line", 0);
    }
  }
  return Out;
}

} // namespace roofline
