//===- Machine.cpp - What the OS says about this machine ------------------===//
#include "Machine.h"

#include <fstream>
#include <sstream>
#include <thread>
#include <unistd.h>

namespace roofline {
namespace probe {

static std::string readLine(const std::string &Path) {
  std::ifstream In(Path);
  std::string L;
  std::getline(In, L);
  return L;
}

/// "48K" -> 49152.
static size_t parseSize(const std::string &S) {
  size_t N = 0, I = 0;
  while (I < S.size() && isdigit((unsigned char)S[I]))
    N = N * 10 + size_t(S[I++] - '0');
  if (I < S.size() && (S[I] == 'K' || S[I] == 'k'))
    N <<= 10;
  else if (I < S.size() && S[I] == 'M')
    N <<= 20;
  return N;
}

/// "0-3,8" -> 5.
static unsigned countCPUs(const std::string &List) {
  unsigned N = 0;
  std::stringstream SS(List);
  std::string Part;
  while (std::getline(SS, Part, ',')) {
    size_t Dash = Part.find('-');
    if (Dash == std::string::npos)
      N += Part.empty() ? 0 : 1;
    else
      N += unsigned(std::stoul(Part.substr(Dash + 1)) -
                    std::stoul(Part.substr(0, Dash)) + 1);
  }
  return N ? N : 1;
}

Machine describeMachine() {
  Machine M;
  M.LogicalCPUs = std::max(1u, std::thread::hardware_concurrency());
  std::ifstream Info("/proc/cpuinfo");
  std::string Line;
  while (std::getline(Info, Line)) {
    auto Value = [&] {
      size_t C = Line.find(':');
      return C == std::string::npos ? std::string() : Line.substr(C + 2);
    };
    if (M.CPUModel.empty() && Line.rfind("model name", 0) == 0)
      M.CPUModel = Value();
    if (M.NominalMHz == 0 && Line.rfind("cpu MHz", 0) == 0)
      M.NominalMHz = std::stod(Value());
  }
  for (unsigned Index = 0; Index < 8; ++Index) {
    std::string Dir =
        "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(Index);
    std::string Type = readLine(Dir + "/type");
    if (Type.empty())
      break;
    if (Type == "Instruction")
      continue;
    CacheLevel C;
    C.Level = unsigned(std::stoul(readLine(Dir + "/level")));
    C.Bytes = parseSize(readLine(Dir + "/size"));
    C.SharedBy = countCPUs(readLine(Dir + "/shared_cpu_list"));
    M.DataCaches.push_back(C);
  }
#ifdef __clang__
  M.Compiler = "clang " __clang_version__;
#else
  M.Compiler = "unknown compiler";
#endif
  return M;
}

} // namespace probe
} // namespace roofline
