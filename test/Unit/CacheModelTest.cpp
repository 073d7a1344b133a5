// The runtime's cache model (lib/Runtime/CacheModel.cpp): geometry parsing,
// LRU with write-allocate and write-back, levels fed by the misses above,
// and the set sample. Every count below is derived by hand beside it.
#include "CacheModel.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <unistd.h>
#include <filesystem>
#include <fstream>

using namespace roofline::rt;

namespace {

std::vector<CacheGeometry> parse(const std::string &Spec) {
  std::vector<CacheGeometry> L;
  std::string Error;
  EXPECT_TRUE(parseCacheSpec(Spec, L, Error)) << Error;
  return L;
}

std::string parseError(const std::string &Spec) {
  std::vector<CacheGeometry> L;
  std::string Error;
  EXPECT_FALSE(parseCacheSpec(Spec, L, Error)) << Spec;
  return Error;
}

/// One access of a hierarchy as a single thread sees it (no spill below).
void access(CacheHierarchy &H, uint64_t Line, bool Write, LevelEvents *E) {
  CacheSpill Out;
  H.fetch(Line, Write, E, Out);
}

} // namespace

TEST(CacheModel, ParsesLevels) {
  std::vector<CacheGeometry> L = parse("32K:8:64,1M:16:64");
  ASSERT_EQ(L.size(), 2u);
  EXPECT_EQ(L[0].SizeBytes, 32768u);
  EXPECT_EQ(L[0].Ways, 8u);
  EXPECT_EQ(L[0].LineBytes, 64u);
  EXPECT_EQ(L[0].sets(), 64u); // 32768 / (8 * 64)
  EXPECT_EQ(L[1].SizeBytes, 1048576u);
  EXPECT_EQ(L[1].sets(), 1024u);
  EXPECT_EQ(parse("48K:12:64,2M:16:64,260M:20:64")[2].sets(), 212992u);
}

TEST(CacheModel, RejectsBadGeometry) {
  EXPECT_NE(parseError("32K:8").find("is not size:ways:line"), std::string::npos);
  EXPECT_NE(parseError("32Q:8:64").find("is not size:ways:line"), std::string::npos);
  EXPECT_NE(parseError("32K:0:64").find("is not size:ways:line"), std::string::npos);
  EXPECT_NE(parseError("32K:8:48").find("power of two"), std::string::npos);
  EXPECT_NE(parseError("32K:8:64,1M:16:128").find("line size"), std::string::npos);
  // 1000 bytes are not a whole number of 8 x 64-byte sets.
  EXPECT_NE(parseError("1000:8:64").find("whole number of sets"), std::string::npos);
  EXPECT_NE(parseError("").find("is not size:ways:line"), std::string::npos);
}

// One level of 2 sets x 2 ways (256 bytes, 64-byte lines): lines 0, 2, 4
// all map to set 0.
TEST(CacheModel, LeastRecentlyUsedWithWriteBack) {
  CacheHierarchy H({{256, 2, 64}});
  LevelEvents E[1] = {};
  access(H, 0, /*Write=*/true, E);  // miss: fill 1; set 0 = {0*}
  access(H, 2, false, E);           // miss: fill 2; {2, 0*}
  access(H, 0, false, E);           // hit; {0*, 2}
  access(H, 4, false, E);           // miss: fill 3, evicts 2 (clean); {4, 0*}
  access(H, 1, false, E);           // miss: fill 4, set 1
  access(H, 2, false, E);           // miss: fill 5, evicts 0 (dirty): wb 1
  access(H, 4, false, E);           // hit
  EXPECT_EQ(E[0].Fills, 5u);
  EXPECT_EQ(E[0].Writebacks, 1u);
}

// Two levels: 1 set x 1 way above, 1 set x 2 ways below. The lower level
// sees only the upper one's misses; a dirty line written back where the
// lower level holds it stays there, else it goes on below (and counts as
// that level's write-back too).
TEST(CacheModel, LevelsFedByMissesAbove) {
  CacheHierarchy H({{64, 1, 64}, {128, 2, 64}});
  LevelEvents E[2] = {};
  CacheSpill Out;
  H.fetch(0, true, E, Out);  // l1 miss, l2 miss: {0*} / {0}
  H.fetch(0, false, E, Out); // l1 hit: l2 untouched
  H.fetch(1, false, E, Out); // l1 miss, evicts 0 dirty -> l2 holds 0: marked
                             // dirty; l2 miss for 1: {1, 0*}
  EXPECT_EQ(E[0].Fills, 2u);
  EXPECT_EQ(E[0].Writebacks, 1u);
  EXPECT_EQ(E[1].Fills, 2u);
  EXPECT_EQ(E[1].Writebacks, 0u);
  EXPECT_FALSE(Out.NumWritebacks);
  H.fetch(2, false, E, Out); // l1 miss (1 clean); l2 miss, evicts 0 dirty:
                             // l2 write-back to memory
  EXPECT_EQ(E[1].Fills, 3u);
  EXPECT_EQ(E[1].Writebacks, 1u);
  ASSERT_EQ(Out.NumWritebacks, 1u);
  EXPECT_EQ(Out.Writebacks[0], 0u);
  EXPECT_TRUE(Out.Fetch); // the last fetch went to memory
  EXPECT_EQ(Out.FetchLine, 2u);

  // A dirty line whose copy below was evicted: it passes l2 (no
  // allocation, so l2's contents depend only on l1's misses).
  CacheHierarchy G({{64, 1, 64}, {64, 1, 64}});
  LevelEvents F[2] = {};
  CacheSpill Spill;
  G.fetch(0, true, F, Spill);  // {0*} / {0}
  G.writeBack(5, F, Spill);    // not in l1 either: l1 and l2 pass it down
  EXPECT_EQ(F[0].Writebacks, 1u);
  EXPECT_EQ(F[1].Writebacks, 1u);
  EXPECT_EQ(Spill.NumWritebacks, 1u);
}

TEST(CacheModel, SampleMasks) {
  EXPECT_EQ(sampleMaskOf(64), ~uint64_t(0));
  EXPECT_EQ(sampleMaskOf(3), 0u);
  EXPECT_EQ(sampleMaskOf(0), 0u);
  for (unsigned Of : {1u, 2u, 4u, 8u, 16u, 32u}) {
    uint64_t M = sampleMaskOf(Of);
    EXPECT_EQ(__builtin_popcountll(M), int(Of));
    unsigned Block = 64 / Of;
    // One residue in each block of 64/Of consecutive residues ...
    for (unsigned B = 0; B < Of; ++B) {
      int N = 0;
      for (unsigned R = B * Block; R < (B + 1) * Block; ++R)
        N += (M >> R) & 1;
      EXPECT_EQ(N, 1) << Of << " " << B;
    }
    // ... and one in each class modulo Of.
    for (unsigned C = 0; C < Of; ++C) {
      int N = 0;
      for (unsigned R = C; R < 64; R += Of)
        N += (M >> R) & 1;
      EXPECT_EQ(N, 1) << Of << " " << C;
    }
  }
  EXPECT_EQ(defaultSampleMask(), sampleMaskOf(8));
  // Sampling needs every level's set count to be a multiple of 64.
  EXPECT_TRUE(canSampleSets(parse("48K:12:64,2M:16:64,260M:20:64")));
  EXPECT_FALSE(canSampleSets(parse("16K:8:64"))); // 32 sets
}

TEST(CacheModel, ReadsLinuxCacheGeometry) {
  namespace fs = std::filesystem;
  fs::path Dir = fs::temp_directory_path() / ("roofline-cache-" + std::to_string(getpid()));
  auto Index = [&](int I, const char *Level, const char *Type, const char *Size,
                   const char *Ways) {
    fs::path D = Dir / ("index" + std::to_string(I));
    fs::create_directories(D);
    std::ofstream(D / "level") << Level << "\n";
    std::ofstream(D / "type") << Type << "\n";
    std::ofstream(D / "size") << Size << "\n";
    std::ofstream(D / "ways_of_associativity") << Ways << "\n";
    std::ofstream(D / "coherency_line_size") << "64\n";
  };
  Index(0, "1", "Data", "48K", "12");
  Index(1, "1", "Instruction", "32K", "8");
  Index(2, "3", "Unified", "266240K", "20");
  Index(3, "2", "Unified", "2048K", "16");
  std::vector<CacheGeometry> L = machineCaches(Dir.string());
  ASSERT_EQ(L.size(), 3u); // the instruction cache is left out
  EXPECT_EQ(L[0].SizeBytes, 48u * 1024);
  EXPECT_EQ(L[1].SizeBytes, 2048u * 1024); // by level, not by index
  EXPECT_EQ(L[2].Ways, 20u);
  EXPECT_TRUE(machineCaches((Dir / "none").string()).empty());
  fs::remove_all(Dir);
}
