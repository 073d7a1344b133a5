//===- Machine.cpp - What the OS says about this machine ------------------===//
#include "Machine.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include <algorithm>
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

#if defined(__x86_64__) || defined(__i386__)
/// The data caches as the CPU describes itself (CPUID leaf 4 on Intel,
/// 0x8000001D on AMD): for virtual machines whose OS lists none.
std::vector<CacheLevel> cpuidCaches() {
  std::vector<CacheLevel> Out;
  unsigned A, B, C, D;
  if (!__get_cpuid(0, &A, &B, &C, &D))
    return Out;
  bool AMD = B == 0x68747541; // "Auth"enticAMD
  unsigned Leaf = AMD ? 0x8000001D : 4;
  if (AMD && (!__get_cpuid(0x80000000, &A, &B, &C, &D) || A < Leaf))
    return Out;
  for (unsigned Sub = 0; Sub < 8; ++Sub) {
    __cpuid_count(Leaf, Sub, A, B, C, D);
    unsigned Type = A & 0x1f; // 1 data, 2 instruction, 3 unified
    if (Type == 0)
      break;
    if (Type == 2)
      continue;
    CacheLevel L;
    L.Level = (A >> 5) & 0x7;
    size_t Ways = ((B >> 22) & 0x3ff) + 1, Partitions = ((B >> 12) & 0x3ff) + 1;
    size_t Line = (B & 0xfff) + 1, Sets = size_t(C) + 1;
    L.Bytes = Ways * Partitions * Line * Sets;
    L.SharedBy = ((A >> 14) & 0xfff) + 1;
    Out.push_back(L);
  }
  if (!Out.empty() || !AMD || !__get_cpuid(0x80000006, &A, &B, &C, &D))
    return Out;
  // AMD's older leaves, which hypervisors pass through more often: L1d in
  // 0x80000005 ECX (KiB), L2 in 0x80000006 ECX (KiB), L3 in its EDX (512
  // KiB units). Per core but L3, which the package's CPUs share.
  unsigned L2C = C, L3D = D;
  if (!__get_cpuid(0x80000005, &A, &B, &C, &D))
    return Out;
  if (C >> 24)
    Out.push_back({1, size_t(C >> 24) << 10, 1});
  if (L2C >> 16)
    Out.push_back({2, size_t(L2C >> 16) << 10, 1});
  if ((L3D >> 18) & 0x3fff)
    Out.push_back({3, size_t((L3D >> 18) & 0x3fff) * (512 << 10), ~0u});
  return Out;
}
#else
std::vector<CacheLevel> cpuidCaches() { return {}; }
#endif

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
  if (M.DataCaches.empty()) {
    M.DataCaches = cpuidCaches();
    M.CachesFromCPUID = !M.DataCaches.empty();
  }
  // CPUID's sharing counts are the most the hardware allows: never more
  // than this machine has.
  for (CacheLevel &C : M.DataCaches)
    C.SharedBy = std::min(C.SharedBy, M.LogicalCPUs);
#ifdef __clang__
  M.Compiler = "clang " __clang_version__;
#else
  M.Compiler = "unknown compiler";
#endif
  return M;
}

} // namespace probe
} // namespace roofline
