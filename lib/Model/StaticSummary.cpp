//===- StaticSummary.cpp - Reading the pass's summary JSON ----------------===//
#include "roofline/Model/StaticSummary.h"
#include "roofline/Model/Formula.h"
#include "roofline/Model/JSONAccess.h"

#include <nlohmann/json.hpp>


namespace roofline {

using nlohmann::json;

/// The formula at \p Key of \p O (\p Default when absent), read; the error
/// names \p Where and the key.
static Result<Formula> formulaAt(const json &O, const char *Key,
                                 const std::string &Where, ParamNames Params,
                                 std::optional<std::string> Default = "0") {
  if (!O.is_object() || !O.contains(Key)) {
    if (!Default)
      return Failure{Where + "." + Key + ": missing or not a string"};
    return Formula::read(*Default, Params);
  }
  if (!O[Key].is_string())
    return Failure{Where + "." + Key + ": " +
                   (Default ? "not a formula string" : "missing or not a string")};
  Result<Formula> F = Formula::read(O[Key].get<std::string>(), Params);
  if (!F)
    return Failure{Where + "." + Key + ": " + F.error()};
  return F;
}

/// The two formulas \p O must have, at \p Keys, into \p A and \p B.
static std::optional<Failure> readPair(const json &O,
                                       std::pair<const char *, const char *> Keys,
                                       const std::string &Where, ParamNames Params,
                                       Formula &A, Formula &B) {
  for (auto [Key, Dst] : {std::pair{Keys.first, &A}, std::pair{Keys.second, &B}}) {
    Result<Formula> F = formulaAt(O, Key, Where, Params, std::nullopt);
    if (!F)
      return Failure{F.error()};
    *Dst = *F;
  }
  return std::nullopt;
}

Result<FootprintRecord> parseFootprint(const json &FP, const std::string &Where,
                                       ParamNames Params) {
  FootprintRecord Foot;
  Foot.Exact = boolOr(FP, "exact", false);
  Foot.Note = stringOr(FP, "note", "");
  if (FP.contains("assumptions") && FP["assumptions"].is_array())
    for (const json &N : FP["assumptions"])
      if (N.is_string()) {
        StatedAssumption A{N.get<std::string>(), std::nullopt};
        if (Result<Assumption> Test = parseAssumption(A.Text, Params))
          A.Read = *Test;
        Foot.Assumptions.push_back(std::move(A));
      }
  if (std::optional<Failure> E = readPair(FP, {"read", "written"}, Where, Params,
                                          Foot.Read, Foot.Written))
    return *E;
  // Lower bounds: the footprint itself when exact, else 0 unless given.
  Result<Formula> ReadAtLeast = formulaAt(FP, "read_at_least", Where, Params,
                                          Foot.Exact ? Foot.Read.Text : "0");
  Result<Formula> WrittenAtLeast = formulaAt(FP, "written_at_least", Where, Params,
                                             Foot.Exact ? Foot.Written.Text : "0");
  Result<Formula> ReadOwn = formulaAt(FP, "read_own", Where, Params);
  for (const Result<Formula> *F : {&ReadAtLeast, &WrittenAtLeast, &ReadOwn})
    if (!*F)
      return Failure{F->error()};
  Foot.ReadAtLeast = *ReadAtLeast;
  Foot.WrittenAtLeast = *WrittenAtLeast;
  Foot.ReadOwn = *ReadOwn;
  return Foot;
}

Result<std::vector<KernelRecord>>
parseStaticSummary(const std::string &Text, const std::string &Path) {
  json J = json::parse(Text, nullptr, /*allow_exceptions=*/false);
  if (J.is_discarded())
    return Failure{Path + ": not valid JSON"};
  return parseStaticSummary(J, Path);
}

/// The formulas of a summary kernel's "formula" object \p F into \p R,
/// read with its parameters; the error names the field.
static std::optional<Failure> readFormulas(const json &F, const std::string &Where,
                                           KernelRecord &R) {
  std::string In = Where + ".formula";
  R.Parameters = stringsAt(F, "parameters");
  ParamNames Params = &R.Parameters;
  if (F.contains("params") && F["params"].is_array())
    for (const json &P : F["params"])
      if (P.is_string())
        R.Params.push_back(P.get<std::string>());
  if (std::optional<Failure> E = readPair(F, {"bytes_load", "bytes_store"}, In,
                                          Params, R.BytesLoad, R.BytesStore))
    return E;
  // A map of maps of formulas: precision -> class, or width -> kind.
  auto Nested = [&](const char *Key,
                    std::map<std::string, std::map<std::string, Formula>> &Dst)
      -> std::optional<Failure> {
    if (!F.contains(Key) || !F[Key].is_object())
      return std::nullopt;
    for (auto &[Outer, Inner] : F[Key].items()) {
      std::string At = In + "." + Key + "." + Outer;
      if (!Inner.is_object())
        return Failure{At + ": not an object"};
      for (auto &[Name, Text] : Inner.items()) {
        Result<Formula> V = formulaAt(Inner, Name.c_str(), At, Params);
        if (!V)
          return Failure{V.error()};
        Dst[Outer][Name] = *V;
      }
    }
    return std::nullopt;
  };
  if (std::optional<Failure> E = Nested("classes", R.Classes))
    return E;
  bool HasClasses = F.contains("classes") && F["classes"].is_object();
  if (!HasClasses && F.contains("flops") && F["flops"].is_string()) {
    // A summary without classes: its total as fp32 operations.
    Result<Formula> Flops = formulaAt(F, "flops", In, Params);
    if (!Flops)
      return Failure{Flops.error()};
    R.Classes["fp32"]["add"] = *Flops;
  }
  if (std::optional<Failure> E = Nested("int_classes", R.IntClasses))
    return E;
  if (F.contains("instructions")) {
    Result<Formula> I = formulaAt(F, "instructions", In, Params);
    if (!I)
      return Failure{I.error()};
    R.Instructions = *I;
  }
  if (F.contains("bytes_by_space") && F["bytes_by_space"].is_object())
    for (auto &[Space, LS] : F["bytes_by_space"].items()) {
      std::string At = In + ".bytes_by_space." + Space;
      Result<Formula> L = formulaAt(LS, "load", At, Params);
      Result<Formula> S = formulaAt(LS, "store", At, Params);
      if (!L)
        return Failure{L.error()};
      if (!S)
        return Failure{S.error()};
      R.BytesBySpace[Space] = {*L, *S};
      if (LS.is_object() && LS.contains("warp_shareable")) {
        Result<Formula> N = formulaAt(LS, "warp_shareable", At, Params);
        if (!N)
          return Failure{N.error()};
        R.ShareableBySpace[Space] = *N;
      }
    }
  return std::nullopt;
}

Result<std::vector<KernelRecord>> parseStaticSummary(const json &J,
                                                     const std::string &Path) {
  if (!J.is_object() || !J.contains("kernels") || !J["kernels"].is_array())
    return Failure{Path + ": kernels: missing (expected a \"kernels\" array)"};
  std::vector<KernelRecord> Out;
  for (size_t I = 0; I < J["kernels"].size(); ++I) {
    const json &K = J["kernels"][I];
    std::string Where = Path + ": kernels[" + std::to_string(I) + "]";
    if (!K.is_object())
      return Failure{Where + ": not an object"};
    KernelRecord R;
    R.Origin = Path;
    for (auto [Key, Dst] : {std::pair<const char *, std::string *>{"name", &R.Name},
                            {"display_name", &R.DisplayName},
                            {"kind", &R.Kind},
                            {"per", &R.Per}}) {
      if (!K.contains(Key) || !K[Key].is_string())
        return Failure{Where + "." + Key + ": missing or not a string"};
      *Dst = K[Key].get<std::string>();
    }
    R.File = stringOr(K, "file", "");
    R.Target = stringOr(K, "target", "");
    R.Source = stringOr(K, "source", "");
    if (K.contains("line") && K["line"].is_number_unsigned())
      R.Line = K["line"].get<unsigned>();
    if (!K.contains("formula") || !K["formula"].is_object())
      return Failure{Where + ".formula: missing"};
    if (std::optional<Failure> E = readFormulas(K["formula"], Where, R))
      return *E;
    R.Exact = boolOr(K, "exact", false);
    if (K.contains("notes") && K["notes"].is_array())
      for (const json &N : K["notes"])
        if (N.is_string())
          R.Notes.push_back(N.get<std::string>());
    if (K.contains("assumptions") && K["assumptions"].is_array())
      for (const json &N : K["assumptions"])
        if (N.is_string())
          R.Assumptions.push_back(N.get<std::string>());
    if (K.contains("footprint") && K["footprint"].is_object()) {
      Result<FootprintRecord> Foot =
          parseFootprint(K["footprint"], Where + ".footprint", &R.Parameters);
      if (!Foot)
        return Failure{Foot.error()};
      R.Footprint = *Foot;
    }
    Out.push_back(std::move(R));
  }
  return Out;
}

void Measurement::addCounts(const Measurement &B) {
  Calls += B.Calls;
  Seconds += B.Seconds;
  for (const auto &[P, Cs] : B.Classes)
    for (const auto &[C, N] : Cs)
      Classes[P][C] += N;
  BytesLoad += B.BytesLoad;
  BytesStore += B.BytesStore;
  for (const auto &[S, LS] : B.BytesBySpace) {
    BytesBySpace[S].first += LS.first;
    BytesBySpace[S].second += LS.second;
  }
  for (const auto &[S, N] : B.ShareableBySpace)
    ShareableBySpace[S] += N;
}

bool isGPUKernel(const KernelRecord &K) {
  return K.Kind == "cuda-kernel" || K.Kind == "hip-kernel";
}

} // namespace roofline
