//===- NVVMCosts.cpp - FLOPs and bytes of NVVM intrinsics ----------------===//
//
// CUDA device code's intrinsics (llvm.nvvm.*): tensor-core MMA as matrix
// FLOPs (2*M*N*K a warp, per thread), fragment loads and stores, special
// functions, and what costs nothing (special registers, barriers, warp
// exchange). Rows in docs/counting.md, tests in test/Analysis and
// test/CUDA.
//
//===----------------------------------------------------------------------===//
#include "roofline/Analysis/CostModel.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Instructions.h"

#include <cstring>

using namespace llvm;

namespace roofline {

/// Reads "m16n16k16" out of an NVVM MMA intrinsic name.
static bool mmaShape(StringRef Name, int64_t &M, int64_t &N, int64_t &K) {
  SmallVector<StringRef, 8> Parts;
  Name.split(Parts, '.');
  for (StringRef Part : Parts) {
    if (!Part.consume_front("m"))
      continue;
    auto NPos = Part.find('n'), KPos = Part.find('k');
    if (NPos == StringRef::npos || KPos == StringRef::npos || KPos < NPos)
      continue;
    if (!Part.substr(0, NPos).getAsInteger(10, M) &&
        !Part.substr(NPos + 1, KPos - NPos - 1).getAsInteger(10, N) &&
        !Part.substr(KPos + 1).getAsInteger(10, K))
      return true;
  }
  return false;
}

/// Element type named in an MMA intrinsic: precision and size in bytes.
static void mmaElement(StringRef Name, Precision &P, unsigned &Bytes) {
  SmallVector<StringRef, 8> Parts;
  Name.split(Parts, '.');
  P = Precision::FP16;
  Bytes = 2;
  for (StringRef Part : Parts) {
    if (Part == "bf16") {
      P = Precision::BF16;
      Bytes = 2;
      return;
    }
    if (Part == "tf32") {
      P = Precision::FP32;
      Bytes = 4;
      return;
    }
    if (Part == "f64") {
      P = Precision::FP64;
      Bytes = 8;
      return;
    }
    if (Part == "s8" || Part == "u8" || Part == "e4m3" || Part == "e5m2") {
      P = Precision::Other;
      Bytes = 1;
      return;
    }
    if (Part == "s4" || Part == "u4" || Part == "b1") {
      P = Precision::Other;
      Bytes = 1;
      return;
    }
  }
}

bool CostModel::costOfNVVMIntrinsic(const CallBase &CB, StringRef Name,
                                    OpCost &Cost) const {
  StringRef Rest = Name.drop_front(strlen("llvm.nvvm."));
  const Type *Ty = mathType(CB);
  Precision P = precisionOf(Ty);
  unsigned Lanes = lanesOf(Ty);
  if (Rest.starts_with("read.ptx.sreg."))
    return true;

  // Tensor cores: 2*M*N*K FLOPs per warp-wide MMA, so 2*M*N*K/32 per thread.
  if ((Rest.starts_with("wmma.") && Rest.contains(".mma.")) ||
      Rest.starts_with("mma.")) {
    int64_t M, N, K;
    unsigned Bytes;
    if (mmaShape(Rest, M, N, K)) {
      Precision TP;
      mmaElement(Rest, TP, Bytes);
      Cost.Fixed.addFlops(TP, FlopClass::Tensor, 2 * M * N * K / 32);
      return true;
    }
  }
  if (Rest.starts_with("wmma.") &&
      (Rest.contains(".load.") || Rest.contains(".store."))) {
    int64_t M, N, K;
    unsigned Bytes;
    Precision TP;
    if (mmaShape(Rest, M, N, K)) {
      mmaElement(Rest, TP, Bytes);
      // Fragments: A is MxK, B is KxN, C and D are MxN; f32 accumulators.
      int64_t Elements = M * N;
      if (Rest.contains(".load.a."))
        Elements = M * K;
      else if (Rest.contains(".load.b."))
        Elements = K * N;
      else if (Rest.contains(".f32") || Rest.contains(".s32"))
        Bytes = 4;
      if (Rest.contains(".load.c.") && Rest.contains(".f16"))
        Bytes = 2;
      bool Store = Rest.contains(".store.");
      addAccess(Cost.Fixed, spaceOf(CB.getArgOperand(0)),
                Store ? Access::Store : Access::Load, Elements * Bytes / 32);
      return true;
    }
  }
  if (Rest.starts_with("ldg.global.") || Rest.starts_with("ldu.global.")) {
    addAccess(Cost.Fixed, MemSpace::Global, Access::Load,
              DL.getTypeStoreSize(CB.getType()).getFixedValue());
    return true;
  }

  auto Is = [&](StringRef Prefix) { return Rest.starts_with(Prefix); };
  if (Ty->isFPOrFPVectorTy()) {
    FlopClass C;
    bool Known = true;
    if (Is("fma."))
      C = FlopClass::FMA;
    else if (Is("add."))
      C = FlopClass::Add;
    else if (Is("mul."))
      C = FlopClass::Mul;
    else if (Is("div.") || Is("rcp."))
      C = FlopClass::Div;
    else if (Is("sqrt.") || Is("rsqrt."))
      C = FlopClass::Sqrt;
    else if (Is("ex2.") || Is("lg2.") || Is("sin.") || Is("cos.") ||
             Is("tanh."))
      C = FlopClass::Special;
    else
      Known = false;
    if (Known) {
      Cost.Fixed.addFlops(P, C, Lanes);
      return true;
    }
    if (Is("fmax") || Is("fmin") || Is("fabs") || Is("saturate") ||
        Is("f2") || Is("d2") || Is("i2") || Is("ui2") || Is("ll2") ||
        Is("ull2") || Is("ff2") || Is("round") || Is("trunc") ||
        Is("floor") || Is("ceil") || Is("neg") || Is("bitcast") ||
        Is("copysign") || Is("isspacep") || Is("fns"))
      return true;
  }
  if (Is("atomic.")) {
    unsigned Size = DL.getTypeStoreSize(CB.getType()).getFixedValue();
    addAtomic(Cost.Fixed, spaceOf(CB.getArgOperand(0)), Size);
    if (CB.getType()->isFPOrFPVectorTy() && Rest.contains("add"))
      Cost.Fixed.addFlops(P, FlopClass::Add, Lanes);
    return true;
  }
  if (!mentionsFloat(CB) && !CB.mayReadOrWriteMemory())
    return true;
  if (Is("barrier") || Is("bar.") || Is("membar") || Is("fence") ||
      Is("shfl") || Is("vote") || Is("match") || Is("activemask") ||
      Is("nanosleep"))
    return true; // synchronisation and warp exchange: no FLOPs, no traffic
  Cost.Fixed.addUnknown(("intrinsic:" + Name).str());
  return true;
}

} // namespace roofline
