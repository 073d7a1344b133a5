// Unit tests of the roofline model with the user's note's numbers.
#include "roofline/Model/Platform.h"
#include "roofline/Model/Roofline.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace roofline;

namespace {

Platform adHoc(double Pi, double Beta, bool FMA = false) {
  Platform P;
  P.Name = "test";
  P.DisplayName = "test";
  P.Kind = "gpu";
  P.Compute.push_back({"fp32", "vector", Pi, FMA, "test"});
  P.Memory.push_back({"dram", "", Beta, "test"});
  return P;
}

Placement placeTotal(const Platform &P, double W, double Q) {
  return place(P, Work::fromTotal(W), {{"dram", Q}}, Convention::FMA2);
}

Platform gtx1080ti() {
  Result<Platform> P = loadPlatform(ROOFLINE_PLATFORMS_DIR "/gtx1080ti.json");
  EXPECT_TRUE(bool(P)) << P.error();
  return *P;
}

TEST(Roofline, WorkedExampleOfTheNote) {
  // pi = 100 TFLOP/s, beta = 2 TB/s: ridge 50 FLOP/B.
  Platform P = adHoc(100e12, 2e12);
  EXPECT_DOUBLE_EQ(ridgePoint(100e12, 2e12), 50);
  // Kernel A at 5 FLOP/B: 10 TFLOP/s, memory-bound.
  Placement A = placeTotal(P, 5e12, 1e12);
  EXPECT_DOUBLE_EQ(A.Intensity, 5);
  EXPECT_DOUBLE_EQ(A.Attainable, 10e12);
  EXPECT_TRUE(A.MemoryBound);
  // Kernel B at 100 FLOP/B: 100 TFLOP/s, compute-bound.
  Placement B = placeTotal(P, 100e12, 1e12);
  EXPECT_DOUBLE_EQ(B.Attainable, 100e12);
  EXPECT_FALSE(B.MemoryBound);
  // Lower-bound time max(W/pi, Q/beta).
  EXPECT_DOUBLE_EQ(A.MinSeconds, 0.5);
  EXPECT_DOUBLE_EQ(B.MinSeconds, 1.0);
}

TEST(Roofline, GTX1080TiRidge) {
  // 11.3 TFLOP/s / 484 GB/s = 23.35 FLOP/B.
  Platform P = gtx1080ti();
  EXPECT_NEAR(ridgePoint(P.headlinePeak().FlopsPerSecond,
                         P.dram().BytesPerSecond),
              23.35, 0.01);
}

TEST(Roofline, VGG16IsComputeBoundMobileNetMemoryBound) {
  Platform P = gtx1080ti();
  // VGG16: W = 15e9, Q = 600e6, I = 25 > 23.3: at the 11.3 TFLOP/s roof.
  Placement V = placeTotal(P, 15e9, 600e6);
  EXPECT_DOUBLE_EQ(V.Intensity, 25);
  EXPECT_FALSE(V.MemoryBound);
  EXPECT_DOUBLE_EQ(V.Attainable, 11.3e12);
  // MobileNet: W = 0.5e9, Q = 74e6, I = 6.76: 484e9 * 6.76 = 3.27 TFLOP/s.
  Placement M = placeTotal(P, 0.5e9, 74e6);
  EXPECT_NEAR(M.Intensity, 6.757, 1e-3);
  EXPECT_TRUE(M.MemoryBound);
  EXPECT_NEAR(M.Attainable, 3.27e12, 0.01e12);
  // So MobileNet is only ~10x faster despite 30x fewer operations.
  EXPECT_NEAR(V.MinSeconds / M.MinSeconds, 8.7, 0.1);
}

TEST(Roofline, MixedPrecisionAddsComputeTimes) {
  // fp32 vector 10 TFLOP/s, fp16 tensor 100 TFLOP/s; 10 TFLOP fp32 and
  // 100 TFLOP fp16-tensor work take 1 s + 1 s: the roof is 110/2 = 55.
  Platform P = adHoc(10e12, 1e15);
  P.Compute.push_back({"fp16", "tensor", 100e12, true, "test"});
  Work W;
  W.Ops["fp32"]["add"] = 10e12;
  W.Ops["fp16"]["tensor"] = 100e12;
  Placement Pl = place(P, W, {{"dram", 1}}, Convention::FMA2);
  EXPECT_DOUBLE_EQ(Pl.PeakFlops, 55e12);
  EXPECT_DOUBLE_EQ(Pl.MinSeconds, 2.0);
  EXPECT_EQ(Pl.Roof, "fp16 tensor + fp32 vector");
}

TEST(Roofline, FMAAdjustedCeiling) {
  // An FMA-quoted 10 TFLOP/s peak: a kernel of 1e12 FMAs (2e12 FLOPs) and
  // 2e12 adds needs 3e12 issue slots at 5e12 per second = 0.6 s for its
  // 4e12 FLOPs: ceiling 6.67 TFLOP/s, next to the nominal 10.
  Platform P = adHoc(10e12, 1e15, /*FMA=*/true);
  Work W;
  W.Ops["fp32"]["fma"] = 1e12;
  W.Ops["fp32"]["add"] = 2e12;
  Placement Pl = place(P, W, {{"dram", 1}}, Convention::FMA2);
  EXPECT_DOUBLE_EQ(Pl.PeakFlops, 10e12);
  EXPECT_NEAR(Pl.FMAPeakFlops, 4e12 / 0.6, 1e3);
  // All FMAs: the ceiling is the peak.
  Work AllFMA;
  AllFMA.Ops["fp32"]["fma"] = 1e12;
  EXPECT_DOUBLE_EQ(place(P, AllFMA, {{"dram", 1}}, Convention::FMA2).FMAPeakFlops,
                   10e12);
}

TEST(Roofline, ConventionsFromClasses) {
  Work W;
  W.Ops["fp32"]["add"] = 10;
  W.Ops["fp32"]["mul"] = 20;
  W.Ops["fp32"]["fma"] = 30;
  W.Ops["fp32"]["div"] = 4;
  W.Ops["fp32"]["special"] = 7;
  EXPECT_DOUBLE_EQ(W.flops(Convention::FMA2), 10 + 20 + 60 + 4);
  EXPECT_DOUBLE_EQ(W.flops(Convention::NCU), 10 + 20 + 60);
  EXPECT_DOUBLE_EQ(W.flops(Convention::MAC), 10 + 20 + 30 + 4);
  EXPECT_DOUBLE_EQ(W.special(), 7);
  // Under mac, FMA-quoted peaks count MACs: half the FLOP figure.
  Platform P = adHoc(10e12, 1e12, /*FMA=*/true);
  EXPECT_DOUBLE_EQ(place(P, W, {{"dram", 1}}, Convention::MAC).PeakFlops, 5e12);
  // The one-thread figure too: one thread's roof under mac is half its
  // FLOP figure (the report's header reads it through onThreads).
  P.Compute[0].OneThread = 1e12;
  EXPECT_DOUBLE_EQ(onThreads(peaksUnder(P, Convention::MAC), 1)
                       .Compute[0].FlopsPerSecond,
                   0.5e12);
  EXPECT_FALSE(bool(parseConvention("flops")));
}

TEST(Roofline, HierarchicalRoofsFindTheLimiter) {
  // 1 GFLOP, 1 GB of DRAM traffic at 1 TB/s (1 ms) and 100 GB of shared
  // traffic at 20 TB/s (5 ms): shared memory limits.
  Platform P = adHoc(100e12, 1e12);
  P.Memory.push_back({"shared", "", 20e12, "test"});
  Placement Pl = place(P, Work::fromTotal(1e9), {{"dram", 1e9}, {"shared", 100e9}},
                       Convention::FMA2);
  ASSERT_EQ(Pl.Levels.size(), 2u);
  EXPECT_EQ(Pl.Limiter, "shared");
  EXPECT_DOUBLE_EQ(Pl.Levels[1].Seconds, 5e-3);
  // Placed at its limiter: 1e9 / 100e9 = 0.01 FLOP/B, ridge 100 / 20 = 5.
  EXPECT_EQ(Pl.BytesLevel, "shared");
  EXPECT_DOUBLE_EQ(Pl.Intensity, 0.01);
  EXPECT_DOUBLE_EQ(Pl.Ridge, 5);
}

TEST(Roofline, ComputeBoundIsPlacedAtItsBindingLevel) {
  // 1 GFLOP at 100 TFLOP/s (10 us); its 4 GB cross l1 at 1 PB/s (4 us)
  // and none reach DRAM (the data fits in cache): compute-bound, placed at
  // l1, the level nearest to binding: 4e9 B, I = 0.25, ridge 100e12 / 1e15
  // = 0.1. Not 0 B at an infinite intensity.
  Platform P = adHoc(100e12, 1e12);
  P.Memory.push_back({"l1", "", 1e15, "test"});
  Placement Pl = place(P, Work::fromTotal(1e9), {{"dram", 0}, {"l1", 4e9}},
                       Convention::FMA2);
  EXPECT_EQ(Pl.Limiter, "compute");
  EXPECT_EQ(Pl.BytesLevel, "l1");
  EXPECT_DOUBLE_EQ(Pl.Bytes, 4e9);
  EXPECT_DOUBLE_EQ(Pl.Intensity, 0.25);
  EXPECT_DOUBLE_EQ(Pl.Ridge, 0.1);
  // With DRAM traffic too, 1e9 B at 1 TB/s (1 ms): memory-bound at DRAM.
  Placement D = place(P, Work::fromTotal(1e9), {{"dram", 1e9}, {"l1", 4e9}},
                      Convention::FMA2);
  EXPECT_EQ(D.Limiter, "dram");
  EXPECT_EQ(D.BytesLevel, "dram");
  EXPECT_DOUBLE_EQ(D.Intensity, 1);
  // No bytes anywhere: DRAM's 0 B, at an infinite intensity.
  Placement None = place(P, Work::fromTotal(1e9), {{"dram", 0}, {"l1", 0}},
                         Convention::FMA2);
  EXPECT_EQ(None.BytesLevel, "dram");
  EXPECT_DOUBLE_EQ(None.Bytes, 0);
  EXPECT_TRUE(std::isinf(None.Intensity));
}

TEST(Roofline, MissingPrecisionFallsBackWithANote) {
  Platform P = adHoc(10e12, 1e12);
  Work W;
  W.Ops["fp64"]["add"] = 1e9;
  Placement Pl = place(P, W, {{"dram", 1e9}}, Convention::FMA2);
  EXPECT_DOUBLE_EQ(Pl.PeakFlops, 10e12);
  ASSERT_FALSE(Pl.Notes.empty());
  EXPECT_NE(Pl.Notes[0].find("no fp64 vector peak"), std::string::npos);
}

} // namespace

namespace {

TEST(Roofline, IntegerWorkOnTheIntegerRoof) {
  // An int32 vector roof of 1 Top/s beside fp32's 100 TFLOP/s, DRAM 1 TB/s.
  Platform P = adHoc(100e12, 1e12);
  P.Compute.push_back({"int32", "vector", 1e12, false, "test"});
  // 4e9 int32 operations (every kind counts one) over 1e9 bytes: I = 4,
  // above the int32 ridge of 1: compute-bound at 1 Top/s, 4 ms.
  Work W = Work::fromIntClasses({{"i32", {{"add", 3e9}, {"compare", 1e9}}}});
  for (Convention C : {Convention::FMA2, Convention::NCU, Convention::MAC}) {
    Placement Pl = place(P, W, {{"dram", 1e9}}, C);
    EXPECT_DOUBLE_EQ(Pl.Flops, 4e9);
    EXPECT_EQ(Pl.Roof, "int32 vector");
    EXPECT_DOUBLE_EQ(Pl.PeakFlops, 1e12);
    EXPECT_DOUBLE_EQ(Pl.MinSeconds, 4e-3);
    EXPECT_FALSE(Pl.MemoryBound);
  }
  // i8 work without an int8 vector peak: the int32 roof with four times the
  // lanes, and a note: 4e9 / 4e12 = 1 ms.
  Placement Bytes = place(P, Work::fromIntClasses({{"i8", {{"add", 4e9}}}}),
                          {{"dram", 1e6}}, Convention::FMA2);
  EXPECT_DOUBLE_EQ(Bytes.PeakFlops, 4e12);
  EXPECT_DOUBLE_EQ(Bytes.MinSeconds, 1e-3);
  ASSERT_EQ(Bytes.Notes.size(), 1u);
  EXPECT_NE(Bytes.Notes[0].find("int32 vector roof scaled to its lanes (x4"),
            std::string::npos)
      << Bytes.Notes[0];
}

} // namespace
