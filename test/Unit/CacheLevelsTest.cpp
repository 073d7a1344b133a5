//===- CacheLevelsTest.cpp - roofline-probe's cache-level detection -------===//
#include "CacheLevels.h"

#include <gtest/gtest.h>

using namespace roofline::probe;
using roofline::topology::CacheInfo;

namespace {

// A sweep of a machine with a 48 KiB L1 per core, a 2 MiB L2 per core and
// a 64 MiB L3 shared by 16 threads (4 MiB per thread), 2 threads running:
// 100 GB/s up to 32 KiB, 60 GB/s in L2, 30 GB/s in L3, 10 GB/s past it.
TEST(CacheLevels, EachLevelItsPlateauAndItsDrop) {
  // (level, bytes, ways, line bytes, shared by)
  std::vector<CacheInfo> Caches = {{1, 48 << 10, 0, 0, 1}, {2, 2 << 20, 0, 0, 1},
                                   {3, 64 << 20, 0, 0, 16}};
  std::vector<size_t> Sizes;
  std::vector<double> Best;
  for (size_t S = 16 << 10; S <= 128u << 20; S *= 2) {
    Sizes.push_back(S);
    Best.push_back(S <= (32 << 10) ? 100e9 : S <= (1 << 20) ? 60e9
                                            : S <= (16u << 20) ? 30e9 : 10e9);
  }
  std::vector<LevelBandwidth> L = detectLevels(Caches, Sizes, Best, 2);
  ASSERT_EQ(L.size(), 3u);
  // L1: 48 KiB per thread; sets up to 36 KiB: 16 and 32 KiB, 100 GB/s (the
  // first of equal bests is kept); the sweep drops (to 60) at 64 KiB,
  // within 4x of 48 KiB: agreeing.
  EXPECT_EQ(L[0].SharePerThread, size_t(48) << 10);
  EXPECT_EQ(L[0].BytesPerSecond, 100e9);
  EXPECT_EQ(L[0].MeasuredAt, size_t(16) << 10);
  EXPECT_EQ(L[0].DropAt, size_t(64) << 10);
  EXPECT_TRUE(L[0].AgreesWithOS);
  // L2: sets above 48 KiB and up to 1.5 MiB: 64 KiB .. 1 MiB at 60 GB/s.
  EXPECT_EQ(L[1].BytesPerSecond, 60e9);
  EXPECT_EQ(L[1].DropAt, size_t(2) << 20);
  EXPECT_TRUE(L[1].AgreesWithOS);
  // L3: shared by min(16, 2) = 2 threads: 32 MiB each; the plateau is 30
  // GB/s and the drop at 32 MiB agrees.
  EXPECT_EQ(L[2].SharePerThread, size_t(32) << 20);
  EXPECT_EQ(L[2].BytesPerSecond, 30e9);
  EXPECT_EQ(L[2].DropAt, size_t(32) << 20);
  EXPECT_EQ(L[2].LastFastAt, size_t(16) << 20);
  EXPECT_TRUE(L[2].AgreesWithOS);
}

// A VM whose CPUID gives the host package's L3 (508 MiB, shared by both of
// its 2 CPUs: 254 MiB a thread) where one core complex's 32 MiB is what the
// threads see. The quick sweep (4x steps, 2 threads) runs 16 MiB a thread
// at L3 speed and 64 MiB at DRAM's: the level's size is bracketed by 16 and
// 64 MiB a thread, far below 254: the sweep disagrees (the probe then takes
// 16 MiB x 2 threads = 32 MiB).
TEST(CacheLevels, ASocketsL3DisagreesWithTheSweep) {
  std::vector<CacheInfo> Caches = {
      {1, 32 << 10, 0, 0, 1}, {2, 512 << 10, 0, 0, 1}, {3, size_t(508) << 20, 0, 0, 2}};
  std::vector<size_t> Sizes;
  std::vector<double> Best;
  for (size_t S = 16 << 10; S <= size_t(512) << 20; S *= 4) {
    Sizes.push_back(S);
    Best.push_back(S <= (16u << 10) ? 200e9 : S <= (256u << 10) ? 90e9
                                          : S <= (16u << 20) ? 50e9 : 20e9);
  }
  std::vector<LevelBandwidth> L = detectLevels(Caches, Sizes, Best, 2);
  ASSERT_EQ(L.size(), 3u);
  EXPECT_EQ(L[2].SharePerThread, size_t(254) << 20);
  EXPECT_EQ(L[2].DropAt, size_t(64) << 20);
  EXPECT_EQ(L[2].LastFastAt, size_t(16) << 20);
  // Within 4x of the drop, the old rule called this agreement.
  EXPECT_FALSE(L[2].AgreesWithOS);
  EXPECT_EQ(L[2].BytesPerSecond, 50e9);
}

// A flat sweep (a VM whose caches the OS misreports) shows no drop: the
// levels get the plateau where they fit, and no agreement is claimed.
TEST(CacheLevels, AFlatSweepAgreesWithNothing) {
  std::vector<CacheInfo> Caches = {{1, 32 << 10, 0, 0, 1}, {2, 1 << 20, 0, 0, 1}};
  std::vector<size_t> Sizes = {16 << 10, 64 << 10, 256 << 10, 4 << 20};
  std::vector<double> Best(Sizes.size(), 20e9);
  std::vector<LevelBandwidth> L = detectLevels(Caches, Sizes, Best, 1);
  ASSERT_EQ(L.size(), 2u);
  EXPECT_EQ(L[0].BytesPerSecond, 20e9);
  EXPECT_EQ(L[0].DropAt, 0u);
  EXPECT_FALSE(L[0].AgreesWithOS);
  EXPECT_EQ(L[1].MeasuredAt, size_t(64) << 10); // the first above L1's share
  EXPECT_FALSE(L[1].AgreesWithOS);
}

} // namespace
