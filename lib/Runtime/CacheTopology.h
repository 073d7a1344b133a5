//===- CacheTopology.h - This machine's data caches, as it has them -*- C++ -*-===//
//
// The one reader of this machine's cache geometry: the cache model
// (ROOFLINE_CACHE=1) and roofline-probe both take their levels from here.
// Linux's sysfs first (/sys/devices/system/cpu/cpu0/cache); where it lists
// none (virtual machines, some containers), the CPU's own description:
// CPUID leaf 4 (Intel) or 0x8000001D (AMD), whose sharing field and the
// CPUs' APIC ids say which logical CPUs share an instance, so one core
// complex's L3 is not taken for the socket's; else AMD's older leaves
// 0x80000005/6, whose L3 is the whole package's (flagged as such).
// No LLVM, no exceptions: part of libroofline_rt.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_RUNTIME_CACHETOPOLOGY_H
#define ROOFLINE_RUNTIME_CACHETOPOLOGY_H

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace roofline {
namespace topology {

/// One data or unified cache level, as one instance of it.
struct CacheInfo {
  unsigned Level = 0;      ///< 1, 2, 3
  uint64_t SizeBytes = 0;  ///< one instance
  uint32_t Ways = 0;       ///< 0: unknown
  uint32_t LineBytes = 0;  ///< 0: unknown
  unsigned SharedBy = 1;   ///< this machine's logical CPUs sharing an instance
  bool WholePackage = false; ///< the size is the package's total (old leaves)
};

enum class CacheSource { None, SysFS, CPUID, CPUIDLegacy };

struct CacheTopology {
  std::vector<CacheInfo> Levels; ///< the first level first
  CacheSource From = CacheSource::None;
  /// Where the levels came from, in words ("sysfs", "CPUID leaf
  /// 0x8000001D (the OS lists no caches)").
  std::string Origin;
};

/// The sysfs directory read: ROOFLINE_SYSFS_CACHE_DIR when set (tests hide
/// sysfs by naming an empty directory), else cpu0's.
std::string sysfsCacheDir();

/// Levels from a sysfs cache directory (index0, index1, ...); empty when it
/// lists none or a level cannot be read.
std::vector<CacheInfo> sysfsCaches(const std::string &Dir);

/// One CPUID sub-leaf's registers.
struct CPUIDRegs {
  uint32_t A = 0, B = 0, C = 0, D = 0;
};

/// Levels from the sub-leaves of leaf 4 or 0x8000001D (the same layout);
/// \p ApicIds are the logical CPUs' (initial) APIC ids, cpu0's first: the
/// sharing field's width of id bits groups them into instances. Without
/// ids, the sharing field's count, at most \p LogicalCPUs.
std::vector<CacheInfo> decodeCacheLeaf(const std::vector<CPUIDRegs> &Subleaves,
                                       const std::vector<uint32_t> &ApicIds,
                                       unsigned LogicalCPUs);

/// Levels from AMD's 0x80000005 and 0x80000006: L1d and L2 per core, an L3
/// whose size is the whole package's (WholePackage, shared by every CPU).
std::vector<CacheInfo> decodeAMDLegacy(const CPUIDRegs &L5, const CPUIDRegs &L6,
                                       unsigned LogicalCPUs);

/// This machine's data caches: sysfs, else CPUID.
CacheTopology readCacheTopology();

/// Where roofline-probe's platform of this machine is cached:
/// $XDG_CACHE_HOME/roofline (else ~/.cache/roofline, else /tmp/roofline)
/// and a name from the CPU model and the logical CPUs:
/// ".../amd-epyc-2cpu.json". roofline-report reads the roofs there.
std::string probedPlatformPath();

/// The size of each cache level (level -> bytes of one instance) in a
/// platform roofline-probe wrote (its "measurement" object's "caches":
/// the sweep's size where it disagrees with the OS); empty when the file
/// is missing or holds none.
std::vector<std::pair<unsigned, uint64_t>>
probedCacheSizes(const std::string &PlatformPath);

/// \p T with the sizes roofline-probe measured (probedCacheSizes) where
/// they differ from T's, each rounded down to whole sets; says which in
/// T.Origin. False when nothing changed.
bool applyProbedSizes(CacheTopology &T, const std::string &PlatformPath);

} // namespace topology
} // namespace roofline

#endif
