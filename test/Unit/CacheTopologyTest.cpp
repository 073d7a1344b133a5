//===- CacheTopologyTest.cpp - This machine's caches from sysfs or CPUID --===//
#include "CacheModel.h"
#include "CacheTopology.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace roofline::topology;
namespace fs = std::filesystem;

namespace {

// CPUID 0x8000001D as a KVM guest on an EPYC reads it (2 vCPUs, APIC ids 0
// and 1): sub-leaves L1d, L1i, L2, L3, end. Each level: ways = EBX[31:22]
// + 1, line = EBX[11:0] + 1, sets = ECX + 1; sharing = EAX[25:14] + 1.
const std::vector<CPUIDRegs> GuestLeaf = {
    {0x00000121, 0x01c0003f, 0x0000003f, 0}, // L1d: 8 x 64 x 64 = 32 KiB
    {0x00000122, 0x01c0003f, 0x0000003f, 0}, // L1i: left out
    {0x00000143, 0x01c0003f, 0x000003ff, 2}, // L2: 8 x 64 x 1024 = 512 KiB
    {0x00004163, 0x03c0003f, 0x00007fff, 1}, // L3: 16 x 64 x 32768 = 32 MiB, 2 ids
    {0, 0, 0, 0}};

TEST(CacheTopology, CPUIDLeafGivesEachLevelPerInstance) {
  std::vector<CacheInfo> L = decodeCacheLeaf(GuestLeaf, {0, 1}, 2);
  ASSERT_EQ(L.size(), 3u);
  EXPECT_EQ(L[0].Level, 1u);
  EXPECT_EQ(L[0].SizeBytes, 32u << 10);
  EXPECT_EQ(L[0].Ways, 8u);
  EXPECT_EQ(L[0].LineBytes, 64u);
  EXPECT_EQ(L[0].SharedBy, 1u);
  EXPECT_EQ(L[1].SizeBytes, 512u << 10);
  EXPECT_EQ(L[2].Level, 3u);
  EXPECT_EQ(L[2].SizeBytes, 32u << 20); // one core complex's, not the socket's
  EXPECT_EQ(L[2].Ways, 16u);
  EXPECT_EQ(L[2].SharedBy, 2u);
  EXPECT_FALSE(L[2].WholePackage);
}

// A 32-CPU machine with two core complexes: the L3's sharing field says 16
// ids (EAX[25:14] = 15), so APIC ids 0-15 share cpu0's instance and 16-31
// the other's.
TEST(CacheTopology, ApicIdsGroupTheCPUsOfAnInstance) {
  std::vector<CPUIDRegs> Leaf = GuestLeaf;
  Leaf[3].A = (15u << 14) | 0x163;
  std::vector<uint32_t> Ids;
  for (uint32_t I = 0; I < 32; ++I)
    Ids.push_back(I);
  EXPECT_EQ(decodeCacheLeaf(Leaf, Ids, 32)[2].SharedBy, 16u);
  // Without ids, the field's count, at most the machine's CPUs.
  EXPECT_EQ(decodeCacheLeaf(Leaf, {}, 8)[2].SharedBy, 8u);
}

// AMD's old leaves on the same guest: L1d 0x80000005 ECX = 32 KiB, 8 ways,
// 64 B; L2 0x80000006 ECX = 512 KiB, code 6 (8 ways); L3 EDX[31:18] = 512
// units of 512 KiB = 256 MiB, the host package's, code 9 (no ways given).
TEST(CacheTopology, OldAMDLeavesFlagThePackagesL3) {
  CPUIDRegs L5{0xff40ff40, 0xff40ff40, 0x20080140, 0x20080140};
  CPUIDRegs L6{0x48002200, 0x68004200, 0x02006140, 0x08009140};
  std::vector<CacheInfo> L = decodeAMDLegacy(L5, L6, 2);
  ASSERT_EQ(L.size(), 3u);
  EXPECT_EQ(L[0].SizeBytes, 32u << 10);
  EXPECT_EQ(L[0].Ways, 8u);
  EXPECT_EQ(L[1].SizeBytes, 512u << 10);
  EXPECT_EQ(L[1].Ways, 8u);
  EXPECT_EQ(L[2].SizeBytes, uint64_t(256) << 20);
  EXPECT_EQ(L[2].Ways, 0u);
  EXPECT_TRUE(L[2].WholePackage);
  // The cache model simulates it with 16 ways, and says so.
  std::string Notes, Error;
  auto G = roofline::rt::modelGeometry(L, Notes, Error);
  ASSERT_EQ(G.size(), 3u) << Error;
  EXPECT_EQ(G[2].Ways, 16u);
  EXPECT_NE(Notes.find("L3's ways are not given"), std::string::npos);
}

TEST(CacheTopology, SysfsSharingFromTheCPUList) {
  fs::path Dir = fs::temp_directory_path() / "roofline-topology-test";
  fs::remove_all(Dir);
  auto Index = [&](int I, const char *Level, const char *Type, const char *Size,
                   const char *Shared) {
    fs::path D = Dir / ("index" + std::to_string(I));
    fs::create_directories(D);
    std::ofstream(D / "level") << Level << "\n";
    std::ofstream(D / "type") << Type << "\n";
    std::ofstream(D / "size") << Size << "\n";
    std::ofstream(D / "ways_of_associativity") << "16\n";
    std::ofstream(D / "coherency_line_size") << "64\n";
    std::ofstream(D / "shared_cpu_list") << Shared << "\n";
  };
  Index(0, "1", "Data", "48K", "0,64");
  Index(1, "2", "Unified", "1024K", "0,64");
  Index(2, "3", "Unified", "32768K", "0-7,64-71");
  std::vector<CacheInfo> L = sysfsCaches(Dir.string());
  ASSERT_EQ(L.size(), 3u);
  EXPECT_EQ(L[0].SharedBy, 2u);
  EXPECT_EQ(L[2].SizeBytes, 32u << 20);
  EXPECT_EQ(L[2].SharedBy, 16u);
  EXPECT_TRUE(sysfsCaches((Dir / "none").string()).empty());
  fs::remove_all(Dir);
}

// The sizes roofline-probe measured, read from its platform (the sweep's
// 8 MiB where a VM's CPUID gave the package's 508 MiB L3), and applied to
// the levels the OS gave, rounded down to whole sets.
TEST(CacheTopology, ProbedSizesReplaceThePackagesL3) {
  namespace fs = std::filesystem;
  fs::path P = fs::temp_directory_path() / "roofline-probed-platform.json";
  std::ofstream(P) << R"({"name": "local", "memory": [],
    "measurement": {"cpu": "x", "caches": [
      {"agrees_with_os": true, "bytes": 49152, "level": 1, "os_bytes": 49152},
      {"agrees_with_os": true, "bytes": 1048576, "level": 2},
      {"agrees_with_os": false, "bytes": 8389000, "level": 3, "os_bytes": 532676608,
       "size_from": "sweep"}]}})";
  auto Sizes = probedCacheSizes(P.string());
  ASSERT_EQ(Sizes.size(), 3u);
  EXPECT_EQ(Sizes[2], (std::pair<unsigned, uint64_t>(3, 8389000)));
  CacheTopology T;
  T.Levels = {{1, 48 << 10, 12, 64, 1, false},
              {2, 1 << 20, 16, 64, 1, false},
              {3, uint64_t(508) << 20, 0, 64, 2, true}};
  T.Origin = "CPUID";
  EXPECT_TRUE(applyProbedSizes(T, P.string()));
  EXPECT_EQ(T.Levels[0].SizeBytes, 48u << 10);
  EXPECT_EQ(T.Levels[2].SizeBytes, 8u << 20); // whole sets of 16 x 64 B
  EXPECT_FALSE(T.Levels[2].WholePackage);
  EXPECT_NE(T.Origin.find("L3 8192 KiB (the package's 520192 KiB)"), std::string::npos);
  // Applied again: nothing changes. No file, or no caches: nothing.
  EXPECT_FALSE(applyProbedSizes(T, P.string()));
  EXPECT_TRUE(probedCacheSizes((P.string() + ".none")).empty());
  std::ofstream(P) << R"({"name": "xeon", "memory": [{"level": "l3"}]})";
  EXPECT_TRUE(probedCacheSizes(P.string()).empty());
  fs::remove(P);
}

} // namespace
