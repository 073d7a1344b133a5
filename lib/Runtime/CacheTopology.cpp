//===- CacheTopology.cpp - This machine's data caches, as it has them -----===//
#include "CacheTopology.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

namespace roofline {
namespace topology {

namespace {

std::string readLine(const std::string &Path) {
  std::ifstream In(Path);
  std::string Line;
  std::getline(In, Line);
  return Line;
}

/// "48K" -> 49152, "32768K" -> 33554432, "12" -> 12; 0 for anything else.
uint64_t parseSize(const std::string &S) {
  char *End = nullptr;
  unsigned long long V = std::strtoull(S.c_str(), &End, 10);
  if (End == S.c_str())
    return 0;
  std::string Suffix(End);
  if (Suffix == "K" || Suffix == "k")
    return V << 10;
  if (Suffix == "M" || Suffix == "m")
    return V << 20;
  if (Suffix == "G" || Suffix == "g")
    return V << 30;
  return Suffix.empty() ? V : 0;
}

/// "0-3,8" -> 5 (0 for an empty list).
unsigned countCPUs(const std::string &List) {
  unsigned N = 0;
  std::stringstream SS(List);
  std::string Part;
  while (std::getline(SS, Part, ',')) {
    if (Part.empty())
      continue;
    size_t Dash = Part.find('-');
    if (Dash == std::string::npos) {
      ++N;
      continue;
    }
    unsigned long Lo = std::strtoul(Part.substr(0, Dash).c_str(), nullptr, 10);
    unsigned long Hi = std::strtoul(Part.substr(Dash + 1).c_str(), nullptr, 10);
    N += Hi >= Lo ? unsigned(Hi - Lo + 1) : 0;
  }
  return N;
}

unsigned logicalCPUs() {
  return std::max(1u, std::thread::hardware_concurrency());
}

/// The initial APIC id of each logical CPU, in /proc/cpuinfo's order
/// (cpu0 first); empty when it lists none.
std::vector<uint32_t> apicIds() {
  std::vector<uint32_t> Ids;
  std::ifstream Info("/proc/cpuinfo");
  std::string Line;
  while (std::getline(Info, Line))
    if (Line.rfind("initial apicid", 0) == 0) {
      size_t Colon = Line.find(':');
      if (Colon != std::string::npos)
        Ids.push_back(uint32_t(std::strtoul(Line.c_str() + Colon + 1, nullptr, 10)));
    }
  return Ids;
}

/// AMD's 4-bit associativity code of 0x80000006 (L2, L3): ways, 0 when the
/// code gives none (disabled, fully associative, or "see 0x8000001D").
uint32_t amdWays(uint32_t Code) {
  static const uint32_t Ways[16] = {0, 1, 2, 3, 4, 6, 8, 0,
                                    16, 0, 32, 48, 64, 96, 128, 0};
  return Ways[Code & 0xf];
}

} // namespace

std::string sysfsCacheDir() {
  const char *Env = std::getenv("ROOFLINE_SYSFS_CACHE_DIR");
  return Env && *Env ? Env : "/sys/devices/system/cpu/cpu0/cache";
}

std::vector<CacheInfo> sysfsCaches(const std::string &Dir) {
  std::vector<CacheInfo> Found;
  for (int I = 0; I < 16; ++I) {
    std::string Index = Dir + "/index" + std::to_string(I) + "/";
    std::string Type = readLine(Index + "type");
    if (Type.empty())
      break;
    if (Type != "Data" && Type != "Unified")
      continue;
    CacheInfo C;
    C.Level = unsigned(std::atoi(readLine(Index + "level").c_str()));
    C.SizeBytes = parseSize(readLine(Index + "size"));
    C.Ways = uint32_t(parseSize(readLine(Index + "ways_of_associativity")));
    C.LineBytes = uint32_t(parseSize(readLine(Index + "coherency_line_size")));
    C.SharedBy = std::max(1u, countCPUs(readLine(Index + "shared_cpu_list")));
    if (C.Level == 0 || C.SizeBytes == 0)
      return {};
    Found.push_back(C);
  }
  std::stable_sort(Found.begin(), Found.end(),
                   [](const CacheInfo &X, const CacheInfo &Y) {
                     return X.Level < Y.Level;
                   });
  return Found;
}

std::vector<CacheInfo> decodeCacheLeaf(const std::vector<CPUIDRegs> &Subleaves,
                                       const std::vector<uint32_t> &ApicIds,
                                       unsigned LogicalCPUs) {
  std::vector<CacheInfo> Out;
  for (const CPUIDRegs &R : Subleaves) {
    unsigned Type = R.A & 0x1f; // 1 data, 2 instruction, 3 unified
    if (Type == 0)
      break;
    if (Type == 2)
      continue;
    CacheInfo C;
    C.Level = (R.A >> 5) & 0x7;
    C.Ways = ((R.B >> 22) & 0x3ff) + 1;
    uint32_t Partitions = ((R.B >> 12) & 0x3ff) + 1;
    C.LineBytes = (R.B & 0xfff) + 1;
    uint64_t Sets = uint64_t(R.C) + 1;
    C.SizeBytes = uint64_t(C.Ways) * Partitions * C.LineBytes * Sets;
    // The most ids that may share an instance, rounded up to a power of two:
    // the low id bits that name CPUs within one instance.
    unsigned MaxSharing = ((R.A >> 14) & 0xfff) + 1, Shift = 0;
    while ((1u << Shift) < MaxSharing)
      ++Shift;
    if (!ApicIds.empty()) {
      unsigned Same = 0;
      for (uint32_t Id : ApicIds)
        Same += (Id >> Shift) == (ApicIds.front() >> Shift);
      C.SharedBy = std::max(1u, Same);
    } else {
      C.SharedBy = std::max(1u, std::min(MaxSharing, LogicalCPUs));
    }
    Out.push_back(C);
  }
  return Out;
}

std::vector<CacheInfo> decodeAMDLegacy(const CPUIDRegs &L5, const CPUIDRegs &L6,
                                       unsigned LogicalCPUs) {
  std::vector<CacheInfo> Out;
  if (L5.C >> 24) {
    uint32_t Ways = (L5.C >> 16) & 0xff;
    Out.push_back({1, uint64_t(L5.C >> 24) << 10, Ways == 0xff ? 0 : Ways,
                   L5.C & 0xff, 1, false});
  }
  if (L6.C >> 16)
    Out.push_back({2, uint64_t(L6.C >> 16) << 10, amdWays(L6.C >> 12),
                   L6.C & 0xff, 1, false});
  if ((L6.D >> 18) & 0x3fff)
    Out.push_back({3, uint64_t((L6.D >> 18) & 0x3fff) * (512u << 10),
                   amdWays(L6.D >> 12), L6.D & 0xff, std::max(1u, LogicalCPUs),
                   true});
  return Out;
}

#if defined(__x86_64__) || defined(__i386__)
static CacheTopology cpuidTopology() {
  CacheTopology T;
  unsigned A, B, C, D;
  if (!__get_cpuid(0, &A, &B, &C, &D))
    return T;
  bool AMD = B == 0x68747541; // "Auth"enticAMD
  unsigned MaxBasic = A, MaxExtended = 0;
  if (__get_cpuid(0x80000000, &A, &B, &C, &D))
    MaxExtended = A;
  unsigned Leaf = AMD ? 0x8000001D : 4;
  if (AMD ? MaxExtended >= Leaf : MaxBasic >= Leaf) {
    std::vector<CPUIDRegs> Subleaves;
    for (unsigned Sub = 0; Sub < 8; ++Sub) {
      CPUIDRegs R;
      __cpuid_count(Leaf, Sub, R.A, R.B, R.C, R.D);
      Subleaves.push_back(R);
      if ((R.A & 0x1f) == 0)
        break;
    }
    T.Levels = decodeCacheLeaf(Subleaves, apicIds(), logicalCPUs());
    if (!T.Levels.empty()) {
      T.From = CacheSource::CPUID;
      T.Origin = AMD ? "CPUID leaf 0x8000001D" : "CPUID leaf 4";
      return T;
    }
  }
  if (AMD && MaxExtended >= 0x80000006) {
    CPUIDRegs L5, L6;
    __get_cpuid(0x80000005, &L5.A, &L5.B, &L5.C, &L5.D);
    __get_cpuid(0x80000006, &L6.A, &L6.B, &L6.C, &L6.D);
    T.Levels = decodeAMDLegacy(L5, L6, logicalCPUs());
    if (!T.Levels.empty()) {
      T.From = CacheSource::CPUIDLegacy;
      T.Origin = "CPUID leaves 0x80000005/6 (their L3 is the package's)";
    }
  }
  return T;
}
#else
static CacheTopology cpuidTopology() { return {}; }
#endif

CacheTopology readCacheTopology() {
  CacheTopology T;
  std::string Dir = sysfsCacheDir();
  T.Levels = sysfsCaches(Dir);
  if (!T.Levels.empty()) {
    T.From = CacheSource::SysFS;
    T.Origin = Dir;
    return T;
  }
  T = cpuidTopology();
  if (!T.Levels.empty())
    T.Origin += " (" + Dir + " lists no caches)";
  // Sharing counts are never more than this machine has.
  for (CacheInfo &C : T.Levels)
    C.SharedBy = std::min(C.SharedBy, logicalCPUs());
  return T;
}

std::string probedPlatformPath() {
  std::string Dir;
  if (const char *X = std::getenv("XDG_CACHE_HOME"); X && *X)
    Dir = X;
  else if (const char *H = std::getenv("HOME"); H && *H)
    Dir = std::string(H) + "/.cache";
  else
    Dir = "/tmp";
  // "AMD EPYC 9B45 ..." -> "amd-epyc-9b45-...", and the CPUs.
  std::ifstream In("/proc/cpuinfo");
  std::string Line, Model = "cpu";
  while (std::getline(In, Line))
    if (Line.rfind("model name", 0) == 0 && Line.find(':') != std::string::npos) {
      Model = Line.substr(Line.find(':') + 1);
      break;
    }
  std::string Key;
  for (char C : Model) {
    if (std::isalnum((unsigned char)C))
      Key += char(std::tolower((unsigned char)C));
    else if (!Key.empty() && Key.back() != '-')
      Key += '-';
  }
  while (!Key.empty() && Key.back() == '-')
    Key.pop_back();
  return Dir + "/roofline/" + Key + "-" + std::to_string(logicalCPUs()) + "cpu.json";
}

std::vector<std::pair<unsigned, uint64_t>>
probedCacheSizes(const std::string &PlatformPath) {
  std::ifstream In(PlatformPath);
  std::stringstream Text;
  Text << In.rdbuf();
  const std::string S = Text.str();
  // The probe's own output: "caches": [{"level": 1, "bytes": 49152, ...},
  // ...] inside "measurement"; flat objects, so a scan for the two keys
  // in each {...} reads it without a JSON library in the runtime.
  std::vector<std::pair<unsigned, uint64_t>> Out;
  size_t At = S.find("\"measurement\"");
  At = At == std::string::npos ? At : S.find("\"caches\"", At);
  At = At == std::string::npos ? At : S.find('[', At);
  if (At == std::string::npos)
    return Out;
  size_t End = S.find(']', At);
  auto Number = [](const std::string &Obj, const char *Key) -> uint64_t {
    size_t K = Obj.find(Key);
    if (K == std::string::npos)
      return 0;
    K = Obj.find(':', K);
    return K == std::string::npos ? 0 : std::strtoull(Obj.c_str() + K + 1, nullptr, 10);
  };
  while (End != std::string::npos) {
    size_t Open = S.find('{', At), Close = S.find('}', At);
    if (Open == std::string::npos || Close == std::string::npos || Open > End ||
        Close < Open)
      break;
    std::string Obj = S.substr(Open, Close - Open + 1);
    uint64_t Level = Number(Obj, "\"level\""), Bytes = Number(Obj, "\"bytes\"");
    if (Level >= 1 && Level <= 6 && Bytes > 0)
      Out.push_back({unsigned(Level), Bytes});
    At = Close + 1;
  }
  return Out;
}

bool applyProbedSizes(CacheTopology &T, const std::string &PlatformPath) {
  std::string Changed;
  for (const auto &[Level, Bytes] : probedCacheSizes(PlatformPath))
    for (CacheInfo &C : T.Levels) {
      uint64_t Set = uint64_t(C.Ways ? C.Ways : 16) * (C.LineBytes ? C.LineBytes : 64);
      uint64_t Size = Bytes / Set * Set;
      if (C.Level != Level || Size == 0 || Size == C.SizeBytes)
        continue;
      Changed += (Changed.empty() ? "" : ", ") + std::string("L") +
                 std::to_string(Level) + " " + std::to_string(Size >> 10) +
                 " KiB (" + (C.WholePackage ? "the package's " : "") +
                 std::to_string(C.SizeBytes >> 10) + " KiB)";
      C.SizeBytes = Size;
      C.WholePackage = false;
    }
  if (Changed.empty())
    return false;
  T.Origin += "; sizes roofline-probe measured (" + PlatformPath + "): " + Changed;
  return true;
}

} // namespace topology
} // namespace roofline
