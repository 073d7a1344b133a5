// Unit tests of the inline-PTX recogniser (cuda_fp16's __hfma2 and friends).
#include "roofline/Analysis/PTXAsm.h"

#include <gtest/gtest.h>

using namespace roofline;

namespace {

int64_t flops(const CostVector &C, Precision P, FlopClass K) {
  return C.Slots[flopSlot(P, K)];
}

TEST(PTXAsm, Hfma2IsTwoHalfFMAs) {
  // cuda_fp16.hpp: __hfma2 -> "{ fma.rn.f16x2 %0,%1,%2,%3;\n}\n"
  CostVector C = costOfPTXAsm("{ fma.rn.f16x2 %0,%1,%2,%3;\n}\n");
  EXPECT_EQ(flops(C, Precision::FP16, FlopClass::FMA), 2);
  EXPECT_TRUE(C.Unknown.empty());
}

TEST(PTXAsm, ScalarAndPackedArithmetic) {
  CostVector C = costOfPTXAsm("add.f16 %0,%1,%2;\n"
                              "sub.bf16x2 %0,%1,%2;\n"
                              "mul.rn.f32 %0,%1,%2;\n"
                              "fma.rn.ftz.f64 %0,%1,%2,%3;");
  EXPECT_EQ(flops(C, Precision::FP16, FlopClass::Add), 1);
  EXPECT_EQ(flops(C, Precision::BF16, FlopClass::Add), 2);
  EXPECT_EQ(flops(C, Precision::FP32, FlopClass::Mul), 1);
  EXPECT_EQ(flops(C, Precision::FP64, FlopClass::FMA), 1);
}

TEST(PTXAsm, DirectivesMovesAndCompilesAreFree) {
  // __hmax-style blocks declare registers and move values around.
  CostVector C = costOfPTXAsm("{.reg .b16 lo, hi;\n mov.b32 {lo, hi}, %1;\n"
                              " setp.gt.f16 p, lo, hi;\n cvt.f32.f16 %0, lo;}");
  EXPECT_TRUE(C.empty());
}

TEST(PTXAsm, SpecialFunctionsAreApart) {
  CostVector C = costOfPTXAsm("ex2.approx.f16x2 %0, %1;\nrcp.approx.f32 %0,%1;"
                              "\nsqrt.rn.f32 %0,%1;");
  EXPECT_EQ(flops(C, Precision::FP16, FlopClass::Special), 2);
  EXPECT_EQ(flops(C, Precision::FP32, FlopClass::Div), 1);
  EXPECT_EQ(flops(C, Precision::FP32, FlopClass::Sqrt), 1);
}

TEST(PTXAsm, LoadsAndStoresBySpace) {
  CostVector C = costOfPTXAsm("@%p1 ld.global.nc.v4.f32 {%0,%1,%2,%3}, [%4];\n"
                              "st.shared.b16 [%0], %1;\nld.param.u64 %0, [p];");
  EXPECT_EQ(C.Slots[byteSlot(MemSpace::Global, Access::Load)], 16);
  EXPECT_EQ(C.Slots[byteSlot(MemSpace::Shared, Access::Store)], 2);
  EXPECT_TRUE(C.Unknown.empty());
}

TEST(PTXAsm, MemoryAccessesNameTheirAddressOperand) {
  // As the IR spells clang's __ldcs and cuda_bf16.h's __stcs: "$N" operands.
  auto A = memoryAccessesOfPTXAsm("ld.global.cs.v4.s32 {$0,$1,$2,$3}, [$4];");
  ASSERT_EQ(A.size(), 1u);
  EXPECT_EQ(A[0].Space, MemSpace::Global);
  EXPECT_EQ(A[0].Bytes, 16u);
  EXPECT_TRUE(A[0].Loads);
  EXPECT_FALSE(A[0].Stores);
  EXPECT_EQ(A[0].Operand, 4u);
  auto S = memoryAccessesOfPTXAsm("st.global.cs.b16 [${0}+6], $1;");
  ASSERT_EQ(S.size(), 1u);
  EXPECT_TRUE(S[0].Stores);
  EXPECT_EQ(S[0].Operand, 0u);
  EXPECT_EQ(S[0].Offset, 6);
  // An atomic both reads and writes; an address in the asm's own register
  // has no operand; a kernel parameter is not memory traffic.
  auto R = memoryAccessesOfPTXAsm(
      "{.reg .u64 a; add.u64 a, $1, 16; atom.global.add.f32 $0, [a], $2;}\n"
      "ld.param.u64 $0, [p];");
  ASSERT_EQ(R.size(), 1u);
  EXPECT_TRUE(R[0].Loads && R[0].Stores);
  EXPECT_FALSE(R[0].Operand.has_value());
}

TEST(PTXAsm, TensorCoreMMAIsTwoMNKPerWarp) {
  // 2*16*8*16 = 4096 FLOPs per warp-wide op, 128 per thread.
  CostVector C = costOfPTXAsm(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, "
      "{%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};");
  EXPECT_EQ(flops(C, Precision::FP16, FlopClass::Tensor), 128);
  CostVector B = costOfPTXAsm(
      "mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%0}, {%1}, {%2}, {%3};");
  EXPECT_EQ(flops(B, Precision::BF16, FlopClass::Tensor), 64);
}

TEST(PTXAsm, UnknownInstructionsAreNamedNotZero) {
  CostVector C = costOfPTXAsm("tex.2d.v4.f32.f32 {%0,%1,%2,%3}, [t, {%4,%5}];");
  ASSERT_EQ(C.Unknown.size(), 1u);
  EXPECT_EQ(C.Unknown.begin()->first, "asm:tex.2d.v4.f32.f32");
}

} // namespace
