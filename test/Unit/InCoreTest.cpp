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

TEST(InCore, JSONRoundTrip) {
  InCoreReport R = report();
  Result<InCoreReport> Back = parseInCoreJSON(inCoreJSON(R), "x.json");
  ASSERT_TRUE(bool(Back)) << Back.error();
  ASSERT_EQ(Back->Loops.size(), 4u);
  EXPECT_EQ(Back->Loops[2].Cause, InCoreCause::DependencyChain);
  EXPECT_DOUBLE_EQ(Back->Loops[0].BytesPerIteration, 96);
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

} // namespace
