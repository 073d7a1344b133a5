// Unit tests of the words around an in-core bound: the flags a loop was
// built with (its DW_AT_producer), the scheduler resources' names, the
// limiter that names a chain, and next steps that fit the limiter and
// leave out flags already used.
#include "roofline/Model/CompileFlags.h"
#include "roofline/Model/Platform.h"
#include "roofline/Model/ResourceNames.h"
#include "roofline/Model/Roofline.h"

#include <gtest/gtest.h>

using namespace roofline;

namespace {

const char *Native = "Debian clang version 22.1.8 (1~deb12u1) /usr/bin/clang "
                     "--config=/opt/roofline/bin/roofline-clang.cfg -O3 "
                     "-march=native -g -c decode.c -o decode.o";

TEST(Advice, FlagsFromTheProducer) {
  CompileFlags F = compileFlags(Native);
  EXPECT_TRUE(F.Recorded);
  EXPECT_EQ(F.Optimize, "-O3");
  EXPECT_EQ(F.Arch, "-march=native");
  EXPECT_TRUE(F.Vectorize);
  EXPECT_FALSE(F.Reassociate);
  EXPECT_FALSE(F.ContractFast);
  // Without -grecord-command-line: clang's version alone.
  CompileFlags Bare = compileFlags("Debian clang version 22.1.8 (1~deb12u1)");
  EXPECT_FALSE(Bare.Recorded);
  EXPECT_FALSE(Bare.Vectorize);
  // The last of contradicting flags wins; -Ofast reassociates and fuses.
  CompileFlags Fast = compileFlags("clang x -Ofast -fno-vectorize");
  EXPECT_TRUE(Fast.Reassociate);
  EXPECT_TRUE(Fast.ContractFast);
  EXPECT_FALSE(Fast.Vectorize);
  CompileFlags Undone = compileFlags("clang x -O2 -ffast-math -fno-fast-math "
                                     "-ffp-contract=fast");
  EXPECT_FALSE(Undone.Reassociate);
  EXPECT_TRUE(Undone.ContractFast);
  EXPECT_TRUE(Undone.Vectorize);
  EXPECT_FALSE(compileFlags("clang x -O1").Vectorize);
}

TEST(Advice, ResourcesInWords) {
  EXPECT_EQ(resourceWords("Zn4FP45"),
            "the FP load, store and FP-to-integer pipes (Zn4FP45)");
  EXPECT_EQ(resourceWords("Zn4FPFAdd01"), "the FP add pipes (Zn4FPFAdd01)");
  EXPECT_EQ(resourceWords("Zn3FPFMul01"),
            "the FP multiply and FMA pipes (Zn3FPFMul01)");
  EXPECT_EQ(resourceWords("SKXPort23"), "the load ports (SKXPort23)");
  EXPECT_EQ(resourceWords("ICXPort49"), "the store-data ports (ICXPort49)");
  EXPECT_EQ(resourceWords("SKLFPDivider"), "the FP divider (SKLFPDivider)");
  EXPECT_EQ(resourceWords("SPRPort01_05"), "the FP add ports (SPRPort01_05)");
  EXPECT_EQ(resourceWords("SBPort1"), "the FP add port (SBPort1)");
  // Port groups without a role of their own: the ports, by number.
  EXPECT_EQ(resourceWords("SKXPort16"), "ports 1 and 6 (SKXPort16)");
  EXPECT_EQ(resourceWords("SPRPort00_05_06"), "ports 0, 5 and 6 (SPRPort00_05_06)");
  // A model outside the table keeps LLVM's name, and says whose it is.
  EXPECT_EQ(resourceWords("A64FXGI03"),
            "the scheduling model's resource A64FXGI03");
  EXPECT_EQ(resourceWords("Zn4Nothing"),
            "the scheduling model's resource Zn4Nothing");
}

Platform cpu() {
  Platform P;
  P.Name = "cpu";
  P.Kind = "cpu";
  P.Compute.push_back({"fp64", "vector", 100e9, true, "test"});
  P.Memory.push_back({"dram", "", 40e9, "test"});
  P.ClockHz = 4e9;
  return P;
}

/// 1e9 FMAs' worth of FLOPs (2e9), 4e9 bytes from DRAM (0.1 s) and an
/// in-core bound of 1 s: the core limits, 10x above DRAM.
Placement placed(InCoreBound B) {
  Work W;
  W.Ops["fp64"]["fma"] = 1e9;
  return place(cpu(), W, {{"dram", 4e9}}, Convention::FMA2, &B);
}

InCoreBound chain(ChainKind Kind, const std::string &Producer) {
  InCoreBound B{1.0, InCoreCause::DependencyChain,
                "a 32-cycle loop-carried chain through vfmadd231sd (latency 4)", 32};
  B.Chain = "vfmadd231sd, 8 x 4 cycles an iteration";
  B.Kind = Kind;
  B.Producer = Producer;
  return B;
}

TEST(Advice, TheLimiterNamesTheChain) {
  Placement Pl = placed(chain(ChainKind::FloatingPoint, Native));
  EXPECT_EQ(Pl.Limiter, "in-core: dependency chain");
  EXPECT_EQ(limiterName(Pl),
            "in-core: dependency chain (vfmadd231sd, 8 x 4 cycles an iteration)");
  // An FP reduction: accumulators or reassociation, and the gain to DRAM.
  EXPECT_NE(Pl.NextStep.find("several accumulators or reassociation "
                             "(-ffast-math / -fassociative-math)"),
            std::string::npos);
  EXPECT_NE(Pl.NextStep.find("up to 10x faster"), std::string::npos);
  EXPECT_EQ(Pl.NextStep.find("vectorise"), std::string::npos);
  // Built with -ffast-math already: no flag, accumulators by hand.
  Placement Fast = placed(chain(ChainKind::FloatingPoint, "clang x -O3 -ffast-math"));
  EXPECT_EQ(Fast.NextStep.find("-ffast-math"), std::string::npos);
  EXPECT_NE(Fast.NextStep.find("several accumulators by hand"), std::string::npos);
  // Through memory (Gauss-Seidel): reorder the sweep.
  Placement Memory = placed(chain(ChainKind::Memory, ""));
  EXPECT_NE(Memory.NextStep.find("red-black or wavefront"), std::string::npos);
}

TEST(Advice, PortsAdviceLeavesOutFlagsUsed) {
  InCoreBound B{1.0, InCoreCause::Ports,
                "2 cycles an iteration on the FP add pipes (Zn4FPFAdd01)", 2};
  // Flags not recorded: the usual ones.
  Placement Unknown = placed(B);
  EXPECT_EQ(limiterName(Unknown), "in-core: ports");
  EXPECT_NE(Unknown.NextStep.find("vectorise (-O3 -march=native), fuse "
                                  "multiply-adds (-ffp-contract=fast)"),
            std::string::npos);
  // Built with -O3 -march=native -ffp-contract=fast: neither flag again.
  B.Producer = std::string(Native) + " -ffp-contract=fast";
  Placement Built = placed(B);
  EXPECT_EQ(Built.NextStep.find("(-O3 -march=native)"), std::string::npos);
  EXPECT_EQ(Built.NextStep.find("-ffp-contract"), std::string::npos);
  EXPECT_NE(Built.NextStep.find("already built with -O3 -march=native"),
            std::string::npos);
}

} // namespace
