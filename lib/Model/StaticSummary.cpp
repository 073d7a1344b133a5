//===- StaticSummary.cpp - Reading the pass's summary JSON ----------------===//
#include "roofline/Model/StaticSummary.h"
#include "roofline/Model/Formula.h"
#include "roofline/Model/JSONAccess.h"

#include <nlohmann/json.hpp>


namespace roofline {

using nlohmann::json;

Result<FootprintRecord> parseFootprint(const json &FP, const std::string &Where) {
  FootprintRecord Foot;
  for (auto [Key, Dst] : {std::pair<const char *, std::string *>{"read", &Foot.Read},
                          {"written", &Foot.Written}}) {
    if (!FP.contains(Key) || !FP[Key].is_string())
      return Failure{Where + "." + Key + ": missing or not a string"};
    *Dst = FP[Key].get<std::string>();
  }
  Foot.Exact = boolOr(FP, "exact", false);
  Foot.ReadAtLeast = stringOr(FP, "read_at_least", Foot.Exact ? Foot.Read : "0");
  Foot.WrittenAtLeast =
      stringOr(FP, "written_at_least", Foot.Exact ? Foot.Written : "0");
  Foot.ReadOwn = stringOr(FP, "read_own", "0");
  Foot.Note = stringOr(FP, "note", "");
  if (FP.contains("assumptions") && FP["assumptions"].is_array())
    for (const json &N : FP["assumptions"])
      if (N.is_string())
        Foot.Assumptions.push_back(N.get<std::string>());
  for (const std::string *T : {&Foot.Read, &Foot.Written, &Foot.ReadAtLeast,
                               &Foot.WrittenAtLeast, &Foot.ReadOwn})
    if (auto V = formulaVariables(*T); !V)
      return Failure{Where + ": " + V.error()};
  return Foot;
}

Result<std::vector<KernelRecord>>
parseStaticSummary(const std::string &Text, const std::string &Path) {
  json J = json::parse(Text, nullptr, /*allow_exceptions=*/false);
  if (J.is_discarded())
    return Failure{Path + ": not valid JSON"};
  return parseStaticSummary(J, Path);
}

Result<std::vector<KernelRecord>> parseStaticSummary(const json &J,
                                                     const std::string &Path) {
  if (!J.is_object() || !J.contains("kernels") || !J["kernels"].is_array())
    return Failure{Path + ": kernels: missing (expected a \"kernels\" array)"};
  std::vector<KernelRecord> Out;
  for (size_t I = 0; I < J["kernels"].size(); ++I) {
    const json &K = J["kernels"][I];
    std::string Where = Path + ": kernels[" + std::to_string(I) + "]";
    auto Str = [&](const json &O, const char *Key, std::string &Dst,
                   const std::string &Field) -> std::string {
      if (!O.contains(Key) || !O[Key].is_string())
        return Where + "." + Field + Key + ": missing or not a string";
      Dst = O[Key].get<std::string>();
      return "";
    };
    if (!K.is_object())
      return Failure{Where + ": not an object"};
    KernelRecord R;
    R.Origin = Path;
    for (auto [Key, Dst] : {std::pair<const char *, std::string *>{"name", &R.Name},
                            {"display_name", &R.DisplayName},
                            {"kind", &R.Kind},
                            {"per", &R.Per}})
      if (std::string E = Str(K, Key, *Dst, ""); !E.empty())
        return Failure{E};
    R.File = stringOr(K, "file", "");
    R.Target = stringOr(K, "target", "");
    R.Source = stringOr(K, "source", "");
    if (K.contains("line") && K["line"].is_number_unsigned())
      R.Line = K["line"].get<unsigned>();
    if (!K.contains("formula") || !K["formula"].is_object())
      return Failure{Where + ".formula: missing"};
    const json &F = K["formula"];
    if (std::string E = Str(F, "bytes_load", R.BytesLoad, "formula."); !E.empty())
      return Failure{E};
    if (std::string E = Str(F, "bytes_store", R.BytesStore, "formula.");
        !E.empty())
      return Failure{E};
    if (F.contains("classes") && F["classes"].is_object())
      for (auto &[Prec, Classes] : F["classes"].items()) {
        if (!Classes.is_object())
          return Failure{Where + ".formula.classes." + Prec + ": not an object"};
        for (auto &[Class, Formula] : Classes.items()) {
          if (!Formula.is_string())
            return Failure{Where + ".formula.classes." + Prec + "." + Class +
                           ": not a formula string"};
          R.Classes[Prec][Class] = Formula.get<std::string>();
        }
      }
    else if (F.contains("flops") && F["flops"].is_string())
      // A summary without classes: its total as fp32 operations.
      R.Classes["fp32"]["add"] = F["flops"].get<std::string>();
    if (F.contains("int_classes") && F["int_classes"].is_object())
      for (auto &[Width, Kinds] : F["int_classes"].items()) {
        if (!Kinds.is_object())
          return Failure{Where + ".formula.int_classes." + Width +
                         ": not an object"};
        for (auto &[Kind, Formula] : Kinds.items()) {
          if (!Formula.is_string())
            return Failure{Where + ".formula.int_classes." + Width + "." +
                           Kind + ": not a formula string"};
          R.IntClasses[Width][Kind] = Formula.get<std::string>();
        }
      }
    if (F.contains("instructions")) {
      if (!F["instructions"].is_string())
        return Failure{Where + ".formula.instructions: not a formula string"};
      R.Instructions = F["instructions"].get<std::string>();
    }
    if (F.contains("bytes_by_space") && F["bytes_by_space"].is_object())
      for (auto &[Space, LS] : F["bytes_by_space"].items()) {
        R.BytesBySpace[Space] = {stringOr(LS, "load", "0"), stringOr(LS, "store", "0")};
        if (LS.is_object() && LS.contains("warp_shareable"))
          R.ShareableBySpace[Space] = stringOr(LS, "warp_shareable", "0");
      }
    R.Parameters = stringsAt(F, "parameters");
    if (F.contains("params") && F["params"].is_array())
      for (const json &P : F["params"])
        if (P.is_string())
          R.Params.push_back(P.get<std::string>());
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
          parseFootprint(K["footprint"], Where + ".footprint");
      if (!Foot)
        return Failure{Foot.error()};
      R.Footprint = *Foot;
    }
    // Every formula must at least parse.
    std::vector<std::string> All = {R.BytesLoad, R.BytesStore};
    for (const auto &[P, Cs] : R.Classes)
      for (const auto &[C, Text] : Cs)
        All.push_back(Text);
    for (const auto &[W, Ks] : R.IntClasses)
      for (const auto &[Kd, Text] : Ks)
        All.push_back(Text);
    if (!R.Instructions.empty())
      All.push_back(R.Instructions);
    for (const std::string &Text : All)
      if (auto V = formulaVariables(Text, &R.Parameters); !V)
        return Failure{Where + ": " + V.error()};
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
