//===- Summaries.cpp - The kernels roofline-audit knows -------------------===//
#include "Summaries.h"

#include "roofline/Model/JSONAccess.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace roofline {

namespace fs = std::filesystem;
using nlohmann::json;

const PointerParam *AuditKernel::pointer(unsigned Index) const {
  for (const PointerParam &P : Pointers)
    if (P.Index == Index)
      return &P;
  return nullptr;
}

namespace {

Result<bool> addFile(const std::string &Path, bool Named, KernelTable &Table) {
  std::ifstream In(Path);
  if (!In)
    return Failure{Path + ": cannot read"};
  std::stringstream SS;
  SS << In.rdbuf();
  json J = json::parse(SS.str(), nullptr, /*allow_exceptions=*/false);
  if (J.is_discarded())
    return Failure{Path + ": not valid JSON"};
  if (stringOr(J, "schema", "") != "roofline-static-summary") {
    if (Named)
      return Failure{Path + ": not a static summary (schema is not "
                            "\"roofline-static-summary\")"};
    return false; // a profile or other JSON in a directory
  }
  Result<std::vector<KernelRecord>> Kernels = parseStaticSummary(J, Path);
  if (!Kernels)
    return Failure{Kernels.error()};
  json Raw = arrayOr(J, "kernels");
  for (size_t I = 0; I < Kernels->size(); ++I) {
    AuditKernel K;
    K.Record = (*Kernels)[I];
    json Params = arrayOr(Raw[I], "pointer_params");
    for (size_t P = 0; P < Params.size(); ++P) {
      const json &O = Params[P];
      if (!O.is_object() || !O.contains("index") ||
          !O["index"].is_number_unsigned())
        return Failure{Path + ": kernels[" + std::to_string(I) +
                       "].pointer_params[" + std::to_string(P) +
                       "].index: missing or not an unsigned integer"};
      PointerParam PP;
      PP.Index = O["index"].get<unsigned>();
      PP.Name = stringOr(O, "name", "");
      std::string Access = stringOr(O, "access", "");
      PP.Read = Access == "read" || Access == "read-write";
      PP.Written = Access == "written" || Access == "read-write";
      std::string Where = Path + ": kernels[" + std::to_string(I) +
                          "].pointer_params[" + std::to_string(P) + "]";
      ParamNames Names = &K.Record.Parameters;
      for (auto [Key, Dst] : {std::pair<const char *, Formula *>{"bytes_read", &PP.BytesRead},
                              {"bytes_written", &PP.BytesWritten}}) {
        Result<Formula> F = Formula::read(stringOr(O, Key, "0"), Names);
        if (!F)
          return Failure{Where + "." + Key + ": " + F.error()};
        *Dst = *F;
      }
      if (O.contains("footprint") && O["footprint"].is_object()) {
        Result<FootprintRecord> F =
            parseFootprint(O["footprint"], Where + ".footprint", Names);
        if (!F)
          return Failure{F.error()};
        PP.Footprint = *F;
      }
      K.Pointers.push_back(PP);
    }
    // The host and device halves of a .cu file are separate summaries; a
    // kernel counted in both keeps the one with pointer facts.
    auto It = Table.find(K.Record.Name);
    if (It == Table.end() || It->second.Pointers.empty())
      Table[K.Record.Name] = std::move(K);
  }
  return true;
}

} // namespace

Result<KernelTable> loadSummaries(const std::vector<std::string> &Paths) {
  KernelTable Table;
  for (const std::string &Path : Paths) {
    std::error_code EC;
    if (fs::is_directory(Path, EC)) {
      std::vector<std::string> Files;
      for (fs::recursive_directory_iterator It(Path, EC), End; !EC && It != End;
           It.increment(EC))
        if (It->is_regular_file(EC) && It->path().extension() == ".json")
          Files.push_back(It->path().string());
      if (EC)
        return Failure{Path + ": cannot list: " + EC.message()};
      std::sort(Files.begin(), Files.end()); // the same table on every run
      for (const std::string &F : Files)
        if (Result<bool> R = addFile(F, false, Table); !R)
          return Failure{R.error()};
      continue;
    }
    if (!fs::exists(Path, EC))
      return Failure{Path + ": no such file or directory"};
    if (Result<bool> R = addFile(Path, true, Table); !R)
      return Failure{R.error()};
  }
  return Table;
}

} // namespace roofline
