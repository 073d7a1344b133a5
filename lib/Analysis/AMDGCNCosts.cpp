//===- AMDGCNCosts.cpp - FLOPs and bytes of AMDGPU intrinsics -------------===//
//
// HIP device code's intrinsics (llvm.amdgcn.*): matrix cores (CDNA's MFMA,
// RDNA's WMMA) as
// matrix FLOPs per precision (2*M*N*K per block, a wavefront's blocks
// shared by its threads), and what costs nothing (work-item and workgroup
// ids, barriers, waits, cross-lane exchange). Rows in docs/counting.md,
// tests in test/HIP.
//
//===----------------------------------------------------------------------===//
#include "roofline/Analysis/CostModel.h"
#include "roofline/Analysis/DeviceCode.h"

#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Instructions.h"

#include <cstring>

using namespace llvm;

namespace roofline {

namespace {

/// An MFMA's or WMMA's shape, read from its name
/// (llvm.amdgcn.mfma.<D>.<M>x<N>x<K><A>, and .<M>x<N>x<K>.<A> on gfx950 and
/// for WMMA): its source element's precision and bits.
struct MatrixShape {
  int64_t M = 0, N = 0, K = 0;
  Precision P = Precision::Other;
  unsigned Bits = 0;
};

std::optional<MatrixShape> mfmaShape(StringRef Rest) {
  SmallVector<StringRef, 6> Parts;
  Rest.split(Parts, '.');
  // Parts: "mfma", the result type, the shape (with the source type glued
  // on, or in the next part).
  if (Parts.size() < 3)
    return std::nullopt;
  StringRef Shape = Parts[2];
  MatrixShape S;
  auto [MText, AfterM] = Shape.split('x');
  auto [NText, KAndType] = AfterM.split('x');
  size_t Digits = KAndType.find_first_not_of("0123456789");
  StringRef KText = KAndType.substr(0, Digits);
  StringRef Type = Digits == StringRef::npos ? "" : KAndType.substr(Digits);
  if (Type.empty() && Parts.size() > 3)
    Type = Parts[3];
  if (MText.getAsInteger(10, S.M) || NText.getAsInteger(10, S.N) ||
      KText.getAsInteger(10, S.K) || !S.M || !S.N || !S.K)
    return std::nullopt;
  if (Type == "f32" || Type == "xf32") {
    S.P = Precision::FP32;
    S.Bits = 32;
  } else if (Type == "f16") {
    S.P = Precision::FP16;
    S.Bits = 16;
  } else if (Type.starts_with("bf16")) {
    S.P = Precision::BF16;
    S.Bits = 16;
  } else if (Type == "f64") {
    S.P = Precision::FP64;
    S.Bits = 64;
  } else if (Type == "i8" || Type == "iu8" || Type.starts_with("fp8") ||
             Type.starts_with("bf8")) {
    S.Bits = 8;
  } else {
    return std::nullopt;
  }
  return S;
}

} // namespace

bool CostModel::costOfAMDGCNIntrinsic(const CallBase &CB, StringRef Name,
                                      OpCost &Cost) const {
  StringRef Rest = Name.drop_front(strlen("llvm.amdgcn."));
  // Matrix cores: a wavefront multiplies `blocks` MxK by KxN matrices, each
  // lane holding its share of A; the blocks are what the lanes' A elements
  // cover (64 x elements a lane / (M*K): the ISA's 32x32x1f32 is 2 blocks,
  // 4x4x1f32 16). 2*M*N*K FLOPs a block, per thread of the wavefront.
  // RDNA's WMMA is one block, its A operand held twice over the wave's
  // two halves (wave32: 16 halves a lane for a 16x16 A).
  bool WMMA = Rest.starts_with("wmma.");
  if (Rest.starts_with("mfma.") || WMMA) {
    std::optional<MatrixShape> S = mfmaShape(Rest);
    unsigned Wave = warpSize(*CB.getFunction());
    if (S && Wave && CB.arg_size() >= 1) {
      uint64_t LaneBits =
          DL.getTypeSizeInBits(CB.getArgOperand(0)->getType()).getFixedValue();
      int64_t Blocks =
          WMMA ? 1
               : int64_t(Wave) * int64_t(LaneBits / S->Bits) / (S->M * S->K);
      int64_t PerThread =
          2 * S->M * S->N * S->K * std::max<int64_t>(Blocks, 1) / int64_t(Wave);
      Cost.Fixed.addFlops(S->P, FlopClass::Tensor, PerThread);
      return true;
    }
    Cost.Fixed.addUnknown(("intrinsic:" + Name).str()); // a shape unread
    return true;
  }
  if (!mentionsFloat(CB) && !CB.mayReadOrWriteMemory())
    return true; // ids, lane masks, integer bit operations
  for (const char *Free :
       {"s.barrier", "s.waitcnt", "wave.barrier", "sched.barrier",
        "sched.group.barrier", "s.sleep", "ds.swizzle", "ds.bpermute",
        "ds.permute", "mov.dpp", "update.dpp", "permlane", "readlane",
        "readfirstlane", "writelane", "ballot"})
    if (Rest.starts_with(Free))
      return true; // synchronisation and cross-lane exchange: no FLOPs, bytes
  Cost.Fixed.addUnknown(("intrinsic:" + Name).str());
  return true;
}

} // namespace roofline
