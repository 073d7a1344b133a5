// Unit tests of the in-core bound in the model: a nest's ceiling from its
// loops, the bound in place(), the limiter and next step, and the roofs of
// one thread.
#include "roofline/Model/InCore.h"
#include "roofline/Model/Platform.h"
#include "roofline/Model/Roofline.h"

#include <gtest/gtest.h>

using namespace roofline;

namespace {

InCoreLoop loop(const std::string &F, unsigned Line, double Cycles, double Flops,
                double Bytes, InCoreCause Cause) {
  InCoreLoop L;
  L.Function = F;
  L.Positions.push_back({F, "/k.c", Line});
  L.CyclesPerIteration = Cycles;
  L.FlopsPerIteration = Flops;
  L.BytesPerIteration = Bytes;
  L.Cause = Cause;
  L.Detail = "detail " + std::to_string(Line);
  return L;
}

InCoreReport report() {
  InCoreReport R;
  R.Cpu = "skylake";
  // f's nest at line 10: a vector body (8 FLOPs, 96 B in 1.5 cycles) and
  // its scalar remainder (2 FLOPs, 24 B in 1.5 cycles); g's reduction.
  R.Loops.push_back(loop("f", 11, 1.5, 8, 96, InCoreCause::Ports));
  R.Loops.push_back(loop("f", 12, 1.5, 2, 24, InCoreCause::Ports));
  R.Loops.push_back(loop("f", 30, 4, 1, 8, InCoreCause::DependencyChain));
  R.Loops.push_back(loop("g", 11, 4, 1, 8, InCoreCause::DependencyChain));
  return R;
}

TEST(InCore, NestTakesItsFastestLoopsRates) {
  InCoreReport R = report();
  auto C = ceilingOf(R, "f", "/k.c", 10, 20);
  ASSERT_TRUE(C);
  EXPECT_EQ(C->Loops, 2u); // line 30 is the next nest's, g is another function
  EXPECT_DOUBLE_EQ(C->Flops.PerCycle, 8 / 1.5);
  EXPECT_DOUBLE_EQ(C->Bytes.PerCycle, 96 / 1.5);
  // 1600 FLOPs and 19200 bytes: 300 cycles each way.
  EXPECT_DOUBLE_EQ(C->cycles(1600, 19200), 300);
  // Twice the bytes: the bytes set it.
  EXPECT_DOUBLE_EQ(C->cycles(1600, 38400), 600);
  EXPECT_EQ(&C->limiting(1600, 38400), &C->Bytes);
  EXPECT_FALSE(ceilingOf(R, "f", "/other.c", 10, 20));
  EXPECT_FALSE(ceilingOf(R, "h", "/k.c", 1, 0));
}

// darknet's gemm_nt at -O3: the i-loop at 114, its K <= 0 side unswitched
// into a copy whose j-loop (a "nest" of its own at 115) holds code of
// lines 114, 115 and 120; the FMA chain at 117-118. The copy at 115 lies
// within 114's loops' lines: 114's nest runs on to the next nest past
// them (130), not to 115.
TEST(InCore, UnswitchedCopyDoesNotEndItsNest) {
  InCoreReport R;
  InCoreLoop Copy = loop("gemm_nt", 114, 4.33, 1, 72, InCoreCause::Ports);
  Copy.Positions.push_back({"gemm_nt", "/k.c", 115});
  Copy.Positions.push_back({"gemm_nt", "/k.c", 120});
  R.Loops.push_back(Copy);
  InCoreLoop Chain = loop("gemm_nt", 117, 32, 16, 64, InCoreCause::DependencyChain);
  Chain.Positions.push_back({"gemm_nt", "/k.c", 118});
  // Enclosing code (the layer loop around an inlined kernel) spans other
  // nests: it does not widen this one.
  Chain.Enclosing.push_back({"gemm_nt", "/k.c", 140});
  R.Loops.push_back(Chain);
  EXPECT_EQ(nestEnd(R, "gemm_nt", "/k.c", 114, {115, 130}), 130u);
  EXPECT_EQ(nestEnd(R, "gemm_nt", "/k.c", 114, {115}), 0u);
  // A nest past the loops' lines ends it; another file's loops do not count.
  EXPECT_EQ(nestEnd(R, "gemm_nt", "/k.c", 114, {121, 130}), 121u);
  EXPECT_EQ(nestEnd(R, "gemm_nt", "/other.c", 114, {115}), 115u);
  EXPECT_EQ(nestEnd(R, "gemm_nt", "/k.c", 117, {125}), 125u);
  // With 114's nest to 130, the chain loop is in it: the ceiling is the
  // chain's 16 FLOPs in 32 cycles, or faster, never the copy's 1 in 4.33.
  auto C = ceilingOf(R, "gemm_nt", "/k.c", 114, 130);
  ASSERT_TRUE(C);
  EXPECT_EQ(C->Loops, 2u);
  EXPECT_GE(C->Flops.PerCycle, 16.0 / 32);
}

// A dot product's nest: the main body (8 FMAs a machine iteration, 16
// FLOPs, on a 32-cycle chain; ports 8 cycles) and its scalar remainder (1
// FMA, 4-cycle chain, ports 1); a window of 8 main iterations.
InCoreReport dotReport() {
  InCoreReport R;
  R.Loops.push_back(loop("dot", 5, 32, 16, 128, InCoreCause::DependencyChain));
  R.Loops.back().ChainCycles = 32;
  R.Loops.back().PortCycles = 8;
  R.Loops.back().WindowIterations = 8;
  R.Loops.push_back(loop("dot", 5, 4, 2, 16, InCoreCause::DependencyChain));
  R.Loops.back().ChainCycles = 4;
  R.Loops.back().PortCycles = 1;
  R.Loops.back().WindowIterations = 64;
  return R;
}

TEST(InCore, ChainsOverlapFromOneEntryToTheNext) {
  InCoreReport R = dotReport();
  // 128 iterations an entry behind a window of 8 (no reorder buffer known:
  // the loop's window is taken as one, in order): the next entry starts
  // when iteration 128 - 8 of this one is done, 121 links after it began
  // (ChainOverlapTest): 121 / 128 of the chain.
  EXPECT_DOUBLE_EQ(chainShare(R.Loops[0], 0, 128), 121.0 / 128);
  EXPECT_DOUBLE_EQ(chainShare(R.Loops[0], 0, 0), 0); // entries not known
  auto C = ceilingOf(R, "dot", "/k.c", 5, 0, {128});
  ASSERT_TRUE(C);
  // Main: 32 x 121/128 = 30.25 cycles for 16 FLOPs. The remainder takes
  // the main body's share (its 64-iteration window would make it look 3x
  // faster than it is): 4 x 121/128 for 2, the same rate.
  EXPECT_DOUBLE_EQ(C->Flops.PerCycle, 16 / (32 * 121.0 / 128));
  EXPECT_EQ(C->Flops.Cause, InCoreCause::DependencyChain);
  // Entries of 2 iterations: 5/24 of 32 = 6.67 cycles (ChainOverlapTest),
  // under the ports' 8: the ports bound it, and the detail says why.
  auto Short = ceilingOf(R, "dot", "/k.c", 5, 0, {2});
  ASSERT_TRUE(Short);
  EXPECT_DOUBLE_EQ(Short->Flops.PerCycle, 16.0 / 8);
  EXPECT_EQ(Short->Flops.Cause, InCoreCause::Ports);
  EXPECT_TRUE(Short->Flops.Chain.empty());
  EXPECT_NE(Short->Flops.Detail.find("overlaps from one entry to the next"),
            std::string::npos);
  // Timers that wait for the work (rdtscp): the entries timed do not
  // overlap, so the nest's own chain is all there, 32 cycles for 16 FLOPs
  // even at 2 iterations an entry.
  NestRun Apart{2};
  Apart.EntriesApart = true;
  auto Whole = ceilingOf(R, "dot", "/k.c", 5, 0, Apart);
  ASSERT_TRUE(Whole);
  EXPECT_DOUBLE_EQ(Whole->Flops.PerCycle, 16.0 / 32);
  EXPECT_EQ(Whole->Flops.Cause, InCoreCause::DependencyChain);
  // The window from the report's reorder buffer where a loop has none:
  // 160 micro-ops over 20 an iteration = 8.
  InCoreLoop Old = R.Loops[0];
  Old.WindowIterations = 0;
  Old.MicroOps = 20;
  EXPECT_DOUBLE_EQ(chainShare(Old, 160, 128), 121.0 / 128);
  // An in-order core (no window): the whole chain.
  EXPECT_DOUBLE_EQ(chainShare(Old, 0, 128), 1);
  // A scheduler queue that fills first (8 iterations, the reorder buffer
  // 16): the next entry's chain starts when iteration 120 of this one
  // issues, 120 links in: 120 / 128.
  Old.WindowIterations = 8;
  EXPECT_DOUBLE_EQ(chainShare(Old, 320, 128), 120.0 / 128);
}

// A mat-vec's nest at line 4: the row loop (not an innermost loop) enters
// the column loop (lines 6-7, its back branch's line 4 around it) once a
// row: one FMA a machine iteration (2 FLOPs) on a 4-cycle chain, ports 1
// cycle, 6 micro-ops an iteration under a 224-entry reorder buffer.
InCoreReport matvecReport() {
  InCoreReport R;
  R.WindowMicroOps = 224;
  R.Loops.push_back(loop("matvec", 7, 4, 2, 16, InCoreCause::DependencyChain));
  InCoreLoop &L = R.Loops.back();
  L.Positions.push_back({"matvec", "/k.c", 6});
  L.Enclosing.push_back({"matvec", "/k.c", 4});
  L.ChainCycles = 4;
  L.PortCycles = 1;
  L.MicroOps = 6;
  L.WindowIterations = 224.0 / 6;
  L.Chain = "vfmadd231sd, 4 cycles an iteration";
  L.Kind = ChainKind::FloatingPoint;
  return R;
}

TEST(InCore, InnerLoopsChainBoundsIt) {
  InCoreReport R = matvecReport();
  // 1000 rows (10 calls of 100), 1000 x 512 FMAs: 1,024,000 FLOPs over
  // 1000 row iterations = 1024 a row, 512 column iterations an entry.
  // The window: 224 / 6 = 37.3 iterations, 38 rounded up; the next row's
  // chain starts 512 - 38 + 1 = 475 links into this one's: 475 / 512 of
  // the chain, 4 x 475 / 512 = 3.7109 cycles an iteration.
  NestRun Run{100, 1000, 1024000, 0};
  auto C = ceilingOf(R, "matvec", "/k.c", 4, 0, Run);
  ASSERT_TRUE(C);
  EXPECT_DOUBLE_EQ(C->Flops.CyclesPerIteration, 4 * 475.0 / 512);
  EXPECT_EQ(C->Flops.Cause, InCoreCause::DependencyChain);
  EXPECT_EQ(C->Flops.Chain, "vfmadd231sd, 4 cycles an iteration");
  EXPECT_EQ(C->Flops.Kind, ChainKind::FloatingPoint);
  // Rows of 80 columns: 80 - 38 + 1 = 43 links of each row's chain are
  // not hidden, 4 x 43 / 80 = 2.15 cycles, still above the ports' 1.
  Run.Flops = 160000;
  auto Short = ceilingOf(R, "matvec", "/k.c", 4, 0, Run);
  ASSERT_TRUE(Short);
  EXPECT_DOUBLE_EQ(Short->Flops.CyclesPerIteration, 4 * 43.0 / 80);
  // A loop deeper down (a middle loop around it): its entries are not
  // known, and its chain is taken as hidden behind the next entry's.
  R.Loops[0].Enclosing = {{"matvec", "/k.c", 5}};
  auto Deep = ceilingOf(R, "matvec", "/k.c", 4, 0, Run);
  ASSERT_TRUE(Deep);
  EXPECT_DOUBLE_EQ(Deep->Flops.CyclesPerIteration, 1);
  EXPECT_EQ(Deep->Flops.Cause, InCoreCause::Ports);
}

TEST(InCore, JSONRoundTrip) {
  InCoreReport R = report();
  Result<InCoreReport> Back = parseInCoreJSON(inCoreJSON(R), "x.json");
  ASSERT_TRUE(bool(Back)) << Back.error();
  ASSERT_EQ(Back->Loops.size(), 4u);
  EXPECT_EQ(Back->Loops[2].Cause, InCoreCause::DependencyChain);
  EXPECT_DOUBLE_EQ(Back->Loops[0].BytesPerIteration, 96);
  Result<InCoreReport> Dot = parseInCoreJSON(inCoreJSON(dotReport()), "d.json");
  ASSERT_TRUE(bool(Dot)) << Dot.error();
  EXPECT_DOUBLE_EQ(Dot->Loops[1].WindowIterations, 64);
  InCoreReport M = matvecReport();
  M.Producers.push_back("clang version 22 /usr/bin/clang -O3 -c k.c");
  M.Loops[0].Producer = 0;
  Result<InCoreReport> MV = parseInCoreJSON(inCoreJSON(M), "m.json");
  ASSERT_TRUE(bool(MV)) << MV.error();
  EXPECT_EQ(MV->Loops[0].Chain, "vfmadd231sd, 4 cycles an iteration");
  EXPECT_EQ(MV->Loops[0].Kind, ChainKind::FloatingPoint);
  ASSERT_EQ(MV->Loops[0].Enclosing.size(), 1u);
  EXPECT_EQ(MV->Loops[0].Enclosing[0].Line, 4u);
  EXPECT_EQ(MV->Loops[0].Producer, 0);
  EXPECT_EQ(MV->Producers, M.Producers);
  EXPECT_FALSE(parseInCoreJSON("{\"schema\": \"roofline-profile\"}", "p.json"));
  EXPECT_FALSE(parseInCoreJSON("not json", "bad.json"));
}

Platform cpu() {
  Platform P;
  P.Name = "cpu";
  P.Kind = "cpu";
  P.Compute.push_back({"fp64", "vector", 100e9, true, "test"});
  P.Compute.back().OneThread = 50e9;
  P.Memory.push_back({"dram", "", 40e9, "test"});
  P.Memory.back().OneThread = 20e9;
  P.ClockHz = 4e9;
  return P;
}

TEST(InCore, ChainLongerThanEveryRoofLimits) {
  // 1e9 FLOPs of adds, 8e9 bytes: compute 0.01 s, DRAM 0.2 s; an add chain
  // of 4 cycles per FLOP at 4 GHz: 1 s.
  Work W;
  W.Ops["fp64"]["add"] = 1e9;
  InCoreBound B{1.0, InCoreCause::DependencyChain, "a 4-cycle chain", 4};
  Placement Pl = place(cpu(), W, {{"dram", 8e9}}, Convention::FMA2, &B);
  EXPECT_EQ(Pl.Limiter, "in-core: dependency chain");
  EXPECT_FALSE(Pl.MemoryBound);
  EXPECT_DOUBLE_EQ(Pl.MinSeconds, 1.0);
  EXPECT_DOUBLE_EQ(Pl.Attainable, 1e9);
  EXPECT_DOUBLE_EQ(Pl.InCoreFlops, 1e9);
  // Lifting the chain leaves DRAM's 0.2 s: 5x.
  EXPECT_NE(Pl.NextStep.find("a 4-cycle chain"), std::string::npos);
  EXPECT_NE(Pl.NextStep.find("up to 5x faster"), std::string::npos);
  // A shorter in-core time changes nothing: DRAM limits.
  InCoreBound Short{0.1, InCoreCause::Ports, "ports", 1};
  Placement Q = place(cpu(), W, {{"dram", 8e9}}, Convention::FMA2, &Short);
  EXPECT_EQ(Q.Limiter, "dram");
  EXPECT_DOUBLE_EQ(Q.MinSeconds, 0.2);
  EXPECT_NE(Q.NextStep.find("DRAM traffic bounds it"), std::string::npos);
  EXPECT_NE(Q.NextStep.find("up to 2x faster"), std::string::npos);
}

TEST(InCore, OneThreadsRoofs) {
  Platform One = onThreads(cpu(), 1);
  EXPECT_DOUBLE_EQ(One.Compute[0].FlopsPerSecond, 50e9);
  EXPECT_DOUBLE_EQ(One.Memory[0].BytesPerSecond, 20e9);
  Platform Many = onThreads(cpu(), 8); // never above the chip's
  EXPECT_DOUBLE_EQ(Many.Compute[0].FlopsPerSecond, 100e9);
  EXPECT_DOUBLE_EQ(Many.Memory[0].BytesPerSecond, 40e9);
  Platform Unknown = onThreads(cpu(), 0); // not known: the chip's
  EXPECT_DOUBLE_EQ(Unknown.Compute[0].FlopsPerSecond, 100e9);
}

TEST(InCore, RoofsAtTheRunsClock) {
  // Probed at 4 GHz with an L1 of 200 GB/s; the run saw 5 GHz: compute and
  // L1 x 1.25, DRAM as probed.
  Platform P = cpu();
  P.Memory.push_back({"l1", "", 200e9, "test"});
  P.Memory.back().OneThread = 100e9;
  Platform Fast = atClock(P, 5e9);
  EXPECT_DOUBLE_EQ(Fast.ClockHz, 5e9);
  EXPECT_DOUBLE_EQ(Fast.Compute[0].FlopsPerSecond, 125e9);
  EXPECT_DOUBLE_EQ(Fast.Compute[0].OneThread, 62.5e9);
  EXPECT_DOUBLE_EQ(Fast.Memory[1].BytesPerSecond, 250e9);
  EXPECT_DOUBLE_EQ(Fast.Memory[1].OneThread, 125e9);
  EXPECT_DOUBLE_EQ(Fast.dram().BytesPerSecond, 40e9);
  // A slower run, or a platform without a clock, keeps the probe's roofs.
  EXPECT_DOUBLE_EQ(atClock(P, 3e9).Compute[0].FlopsPerSecond, 100e9);
  P.ClockHz = 0;
  EXPECT_DOUBLE_EQ(atClock(P, 5e9).Compute[0].FlopsPerSecond, 100e9);
}

} // namespace
