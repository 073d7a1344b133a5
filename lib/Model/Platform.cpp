//===- Platform.cpp - A machine's roofs -----------------------------------===//
#include "roofline/Model/Platform.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <dirent.h>
#include <fstream>
#include <sstream>
#include <sys/stat.h>

namespace roofline {

using nlohmann::json;

const ComputePeak *Platform::peak(const std::string &Precision,
                                  const std::string &Unit) const {
  for (const ComputePeak &P : Compute)
    if (P.Precision == Precision && P.Unit == Unit)
      return &P;
  return nullptr;
}

const MemoryLevel &Platform::dram() const {
  for (const MemoryLevel &M : Memory)
    if (M.Level == "dram")
      return M;
  return Memory.front();
}

const ComputePeak &Platform::headlinePeak() const {
  if (const ComputePeak *P = peak("fp32", "vector"))
    return *P;
  const ComputePeak *Best = &Compute.front();
  for (const ComputePeak &P : Compute)
    if (P.Unit == "vector" &&
        (Best->Unit != "vector" || P.FlopsPerSecond > Best->FlopsPerSecond))
      Best = &P;
  return *Best;
}

namespace {

/// Reads one required field with a message naming file and field on error.
class Reader {
public:
  Reader(const std::string &Path) : Path(Path) {}
  std::string Error;

  bool fail(const std::string &Field, const std::string &What) {
    if (Error.empty())
      Error = Path + ": " + Field + ": " + What;
    return false;
  }
  bool string(const json &J, const char *Key, const std::string &Field,
              std::string &Out, bool Required = true) {
    if (!J.contains(Key)) {
      if (Required)
        return fail(Field + Key, "missing");
      return true;
    }
    if (!J[Key].is_string())
      return fail(Field + Key, "must be a string");
    Out = J[Key].get<std::string>();
    if (Required && Out.empty())
      return fail(Field + Key, "must not be empty");
    return true;
  }
  bool positive(const json &J, const char *Key, const std::string &Field,
                double &Out) {
    if (!J.contains(Key))
      return fail(Field + Key, "missing");
    if (!J[Key].is_number())
      return fail(Field + Key, "must be a number");
    Out = J[Key].get<double>();
    if (!(Out > 0) || !std::isfinite(Out))
      return fail(Field + Key, "must be a positive number (got " +
                                   J[Key].dump() + ")");
    return true;
  }

private:
  std::string Path;
};

bool oneOf(const std::string &V, std::initializer_list<const char *> Options) {
  for (const char *O : Options)
    if (V == O)
      return true;
  return false;
}

/// One entry of "compute"; \p F names it ("compute[2].") in messages.
ComputePeak readComputePeak(Reader &R, const json &E, const std::string &F) {
  ComputePeak C;
  R.string(E, "precision", F, C.Precision);
  if (R.Error.empty() &&
      !oneOf(C.Precision,
             {"fp64", "fp32", "tf32", "fp16", "bf16", "fp8", "int64",
              "int32", "int16", "int8", "int4", "instructions"}))
    R.fail(F + "precision", "unknown precision \"" + C.Precision + "\"");
  R.string(E, "unit", F, C.Unit);
  if (R.Error.empty() && !oneOf(C.Unit, {"vector", "tensor", "issue"}))
    R.fail(F + "unit", "must be \"vector\", \"tensor\" or \"issue\"");
  if (R.Error.empty() &&
      (C.Precision == "instructions") != (C.Unit == "issue"))
    R.fail(F + "unit", "\"issue\" goes with precision \"instructions\" "
                       "and only with it");
  if (R.Error.empty() && E.contains("warp_size")) {
    const json &W = E["warp_size"];
    if (!W.is_number_unsigned() || W.get<unsigned>() == 0 ||
        C.Unit != "issue")
      R.fail(F + "warp_size",
             "must be a positive integer, on an \"issue\" peak");
    else
      C.WarpSize = W.get<unsigned>();
  }
  R.positive(E, "flops_per_s", F, C.FlopsPerSecond);
  if (E.contains("fma")) {
    if (!E["fma"].is_boolean())
      R.fail(F + "fma", "must be true or false");
    else
      C.FMA = E["fma"].get<bool>();
  }
  R.string(E, "source", F, C.Source);
  if (E.contains("flops_per_s_one_thread"))
    R.positive(E, "flops_per_s_one_thread", F, C.OneThread);
  return C;
}

} // namespace

Result<Platform> parsePlatform(const std::string &Text,
                               const std::string &Path) {
  json J = json::parse(Text, nullptr, /*allow_exceptions=*/false);
  if (J.is_discarded())
    return Failure{Path + ": not valid JSON"};
  if (!J.is_object())
    return Failure{Path + ": expected a JSON object"};
  Reader R(Path);
  Platform P;
  P.Path = Path;
  std::string Schema;
  R.string(J, "schema", "", Schema);
  if (R.Error.empty() && Schema != "roofline-platform")
    R.fail("schema", "expected \"roofline-platform\", got \"" + Schema + "\"");
  R.string(J, "name", "", P.Name);
  R.string(J, "display_name", "", P.DisplayName);
  R.string(J, "kind", "", P.Kind);
  if (R.Error.empty() && !oneOf(P.Kind, {"gpu", "cpu", "accelerator"}))
    R.fail("kind", "must be \"gpu\", \"cpu\" or \"accelerator\"");
  R.string(J, "vendor", "", P.Vendor, false);
  R.string(J, "notes", "", P.Notes, false);

  if (R.Error.empty() && (!J.contains("compute") || !J["compute"].is_array() ||
                          J["compute"].empty()))
    R.fail("compute", "must be a non-empty array of peaks");
  if (R.Error.empty())
    for (size_t I = 0; I < J["compute"].size(); ++I) {
      const json &E = J["compute"][I];
      std::string F = "compute[" + std::to_string(I) + "].";
      if (!E.is_object()) {
        R.fail(F.substr(0, F.size() - 1), "must be an object");
        break;
      }
      ComputePeak C = readComputePeak(R, E, F);
      if (!R.Error.empty())
        break;
      P.Compute.push_back(C);
    }

  if (R.Error.empty() && (!J.contains("memory") || !J["memory"].is_array() ||
                          J["memory"].empty()))
    R.fail("memory", "must be a non-empty array of bandwidths");
  if (R.Error.empty())
    for (size_t I = 0; I < J["memory"].size(); ++I) {
      const json &E = J["memory"][I];
      std::string F = "memory[" + std::to_string(I) + "].";
      if (!E.is_object()) {
        R.fail(F.substr(0, F.size() - 1), "must be an object");
        break;
      }
      MemoryLevel M;
      R.string(E, "level", F, M.Level);
      if (R.Error.empty() &&
          !oneOf(M.Level, {"dram", "l3", "l2", "l1", "shared"}))
        R.fail(F + "level", "unknown level \"" + M.Level + "\"");
      R.string(E, "name", F, M.Name, false);
      R.positive(E, "bytes_per_s", F, M.BytesPerSecond);
      if (E.contains("size_bytes"))
        R.positive(E, "size_bytes", F, M.SizeBytes);
      R.string(E, "source", F, M.Source);
      if (E.contains("bytes_per_s_one_thread"))
        R.positive(E, "bytes_per_s_one_thread", F, M.OneThread);
      if (E.contains("size_bytes_one_thread"))
        R.positive(E, "size_bytes_one_thread", F, M.OneThreadSizeBytes);
      if (!R.Error.empty())
        break;
      P.Memory.push_back(M);
    }
  if (R.Error.empty() && J.contains("clock_hz")) {
    R.positive(J, "clock_hz", "", P.ClockHz);
    R.string(J, "clock_source", "", P.ClockSource);
  }
  R.string(J, "llvm_cpu", "", P.LLVMCpu, false);
  if (R.Error.empty() && J.contains("fp_latency_cycles")) {
    if (!J["fp_latency_cycles"].is_object())
      R.fail("fp_latency_cycles", "must be an object (\"add\": cycles, \"fma\": cycles)");
    else
      for (auto It = J["fp_latency_cycles"].begin(); It != J["fp_latency_cycles"].end(); ++It) {
        double V = 0;
        if (!R.positive(J["fp_latency_cycles"], It.key().c_str(), "fp_latency_cycles.", V))
          break;
        P.FPLatency[It.key()] = V;
      }
  }
  if (R.Error.empty() &&
      std::none_of(P.Memory.begin(), P.Memory.end(),
                   [](const MemoryLevel &M) { return M.Level == "dram"; }))
    R.fail("memory", "needs a \"dram\" level (main memory bandwidth)");
  if (!R.Error.empty())
    return Failure{R.Error};
  return P;
}

static std::optional<std::string> readFile(const std::string &Path,
                                           std::string &Why) {
  struct stat St;
  if (stat(Path.c_str(), &St) != 0) {
    Why = "no such file";
    return std::nullopt;
  }
  if (S_ISDIR(St.st_mode)) {
    Why = "is a directory";
    return std::nullopt;
  }
  std::ifstream In(Path, std::ios::binary);
  if (!In) {
    Why = "cannot be read";
    return std::nullopt;
  }
  std::stringstream SS;
  SS << In.rdbuf();
  return SS.str();
}

Platform onThreads(const Platform &P, double Threads) {
  Platform Out = P;
  if (!(Threads >= 1))
    return Out;
  for (ComputePeak &C : Out.Compute)
    if (C.OneThread > 0)
      C.FlopsPerSecond = std::min(C.FlopsPerSecond, Threads * C.OneThread);
  for (MemoryLevel &M : Out.Memory) {
    if (M.OneThread > 0)
      M.BytesPerSecond = std::min(M.BytesPerSecond, Threads * M.OneThread);
    if (M.OneThreadSizeBytes > 0)
      M.SizeBytes = std::min(M.SizeBytes > 0 ? M.SizeBytes : 1e300,
                             Threads * M.OneThreadSizeBytes);
  }
  return Out;
}

Platform atClock(const Platform &P, double ClockHz) {
  Platform Out = P;
  if (!(P.ClockHz > 0) || !(ClockHz > P.ClockHz))
    return Out;
  double Ratio = ClockHz / P.ClockHz;
  for (ComputePeak &C : Out.Compute) {
    C.FlopsPerSecond *= Ratio;
    C.OneThread *= Ratio;
  }
  for (MemoryLevel &M : Out.Memory)
    if (M.Level != "dram") {
      M.BytesPerSecond *= Ratio;
      M.OneThread *= Ratio;
    }
  Out.ClockHz = ClockHz;
  return Out;
}

std::string platformJSON(const Platform &P, const std::string &Extra) {
  json Doc = {{"schema", "roofline-platform"},
              {"version", 1},
              {"name", P.Name},
              {"display_name", P.DisplayName},
              {"kind", P.Kind}};
  if (!P.Vendor.empty())
    Doc["vendor"] = P.Vendor;
  if (!P.Notes.empty())
    Doc["notes"] = P.Notes;
  if (P.ClockHz > 0) {
    Doc["clock_hz"] = P.ClockHz;
    Doc["clock_source"] = P.ClockSource;
  }
  if (!P.LLVMCpu.empty())
    Doc["llvm_cpu"] = P.LLVMCpu;
  if (!P.FPLatency.empty())
    Doc["fp_latency_cycles"] = P.FPLatency;
  Doc["compute"] = json::array();
  for (const ComputePeak &C : P.Compute) {
    json E = {{"precision", C.Precision},
              {"unit", C.Unit},
              {"flops_per_s", C.FlopsPerSecond},
              {"fma", C.FMA},
              {"source", C.Source}};
    if (C.OneThread > 0)
      E["flops_per_s_one_thread"] = C.OneThread;
    if (C.WarpSize > 0)
      E["warp_size"] = C.WarpSize;
    Doc["compute"].push_back(E);
  }
  Doc["memory"] = json::array();
  for (const MemoryLevel &M : P.Memory) {
    json L = {{"level", M.Level}, {"bytes_per_s", M.BytesPerSecond},
              {"source", M.Source}};
    if (!M.Name.empty())
      L["name"] = M.Name;
    if (M.SizeBytes > 0)
      L["size_bytes"] = M.SizeBytes;
    if (M.OneThread > 0)
      L["bytes_per_s_one_thread"] = M.OneThread;
    if (M.OneThreadSizeBytes > 0)
      L["size_bytes_one_thread"] = M.OneThreadSizeBytes;
    Doc["memory"].push_back(L);
  }
  if (!Extra.empty()) {
    json More = json::parse(Extra, nullptr, /*allow_exceptions=*/false);
    if (More.is_object())
      for (auto It = More.begin(); It != More.end(); ++It)
        Doc[It.key()] = It.value();
  }
  return Doc.dump(2) + "\n";
}

Result<Platform> loadPlatform(const std::string &Path) {
  std::string Why;
  auto Text = readFile(Path, Why);
  if (!Text)
    return Failure{Path + ": " + Why};
  return parsePlatform(*Text, Path);
}

std::vector<std::string> platformSearchPath(const std::string &BuiltinDir) {
  std::vector<std::string> Dirs;
  if (const char *Env = std::getenv("ROOFLINE_PLATFORMS")) {
    std::string S = Env;
    size_t Start = 0;
    while (Start <= S.size()) {
      size_t End = S.find(':', Start);
      if (End == std::string::npos)
        End = S.size();
      if (End > Start)
        Dirs.push_back(S.substr(Start, End - Start));
      Start = End + 1;
    }
  }
  Dirs.push_back(BuiltinDir);
  return Dirs;
}

std::vector<std::string> platformNames(const std::vector<std::string> &Dirs) {
  std::vector<std::string> Names;
  for (const std::string &D : Dirs) {
    DIR *Dir = opendir(D.c_str());
    if (!Dir)
      continue;
    while (dirent *E = readdir(Dir)) {
      std::string N = E->d_name;
      if (N.size() > 5 && N.compare(N.size() - 5, 5, ".json") == 0)
        Names.push_back(N.substr(0, N.size() - 5));
    }
    closedir(Dir);
  }
  std::sort(Names.begin(), Names.end());
  Names.erase(std::unique(Names.begin(), Names.end()), Names.end());
  return Names;
}

static unsigned editDistance(const std::string &A, const std::string &B) {
  std::vector<unsigned> Row(B.size() + 1);
  for (unsigned J = 0; J <= B.size(); ++J)
    Row[J] = J;
  for (unsigned I = 1; I <= A.size(); ++I) {
    unsigned Diag = Row[0];
    Row[0] = I;
    for (unsigned J = 1; J <= B.size(); ++J) {
      unsigned Up = Row[J];
      Row[J] = std::min({Row[J] + 1, Row[J - 1] + 1,
                         Diag + (A[I - 1] == B[J - 1] ? 0u : 1u)});
      Diag = Up;
    }
  }
  return Row[B.size()];
}

std::vector<std::string>
nearestNames(const std::string &Name, const std::vector<std::string> &Candidates,
             unsigned Max) {
  std::vector<std::pair<unsigned, std::string>> Scored;
  for (const std::string &C : Candidates) {
    unsigned D = editDistance(Name, C);
    // A substring match ("h100" in "h100-sxm") is as good as a typo.
    if (C.find(Name) != std::string::npos || Name.find(C) != std::string::npos)
      D = 0;
    if (D <= std::max<size_t>(2, Name.size() / 2))
      Scored.push_back({D, C});
  }
  std::sort(Scored.begin(), Scored.end());
  std::vector<std::string> Out;
  for (size_t I = 0; I < Scored.size() && I < Max; ++I)
    Out.push_back(Scored[I].second);
  return Out;
}

Result<Platform> findPlatform(const std::string &NameOrFile,
                              const std::vector<std::string> &Dirs) {
  bool IsFile = NameOrFile.find('/') != std::string::npos ||
                (NameOrFile.size() > 5 &&
                 NameOrFile.compare(NameOrFile.size() - 5, 5, ".json") == 0);
  if (IsFile)
    return loadPlatform(NameOrFile);
  for (const std::string &D : Dirs) {
    std::string Path = D + "/" + NameOrFile + ".json";
    struct stat St;
    if (stat(Path.c_str(), &St) == 0)
      return loadPlatform(Path);
  }
  std::string Msg = "unknown platform '" + NameOrFile + "'";
  std::vector<std::string> Near = nearestNames(NameOrFile, platformNames(Dirs));
  if (!Near.empty()) {
    Msg += "; did you mean ";
    for (size_t I = 0; I < Near.size(); ++I)
      Msg += (I ? ", '" : "'") + Near[I] + "'";
    Msg += "?";
  }
  Msg += " (--list-platforms lists them)";
  return Failure{Msg};
}

} // namespace roofline
