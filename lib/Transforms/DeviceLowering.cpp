//===- DeviceLowering.cpp - Counts per warp in CUDA device code -----------===//
//
// In device code the counters stay per thread in registers; at the
// kernel's one exit, on NVPTX, each full warp sums them with shuffles and
// its first lane adds the warp's FLOPs and bytes to the kernel's device
// buffer, one atomic per cost slot (a partial warp: one per thread). On
// AMDGPU a full wavefront sums through ds_bpermute the same way; in a
// partial one each thread adds its own, and LLVM's AMDGPU atomic optimizer
// makes those one atomic per wavefront.
//
//===----------------------------------------------------------------------===//
#include "DeviceLowering.h"
#include "CounterCode.h"
#include "CountOperations.h"

#include "roofline/Analysis/DeviceCode.h"
#include "roofline/Runtime/CostKinds.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#include <functional>
#include <map>

using namespace llvm;

namespace roofline {

/// The SM version of a device function ("sm_90" -> 90; 0 if unknown).
static unsigned smVersion(const Function &F) {
  StringRef CPU = F.getFnAttribute("target-cpu").getValueAsString();
  unsigned V = 0;
  if (CPU.consume_front("sm_"))
    CPU.take_while([](char C) { return C >= '0' && C <= '9'; })
        .getAsInteger(10, V);
  return V;
}

/// A declaration of intrinsic \p ID in \p M.
static Function *declaration(Module &M, Intrinsic::ID ID,
                             ArrayRef<Type *> Types = {}) {
  return Intrinsic::getOrInsertDeclaration(&M, ID, Types);
}

namespace {
/// A warp's sums of its threads' counters (or a thread's own), the threads
/// they cover, and whether this thread adds them.
struct WarpSums {
  std::vector<Value *> Values;
  Value *Threads = nullptr, *Leader = nullptr;
};
} // namespace

/// sm_80+: redux.sync sums the active threads, whichever they are, in one
/// instruction per 32-bit value. A 64-bit counter goes as three 27-bit
/// chunks (32 lanes x 2^27 fits in 32 bits) and is put together again. The
/// first active lane adds the warp's sums.
static WarpSums reduxSums(IRBuilder<> &B, ArrayRef<Value *> Own, Value *Mask,
                          Value *Lane) {
  Module &M = *B.GetInsertBlock()->getModule();
  Type *I32 = B.getInt32Ty(), *I64 = B.getInt64Ty();
  WarpSums W;
  Function *Redux = declaration(M, Intrinsic::nvvm_redux_sync_add);
  Value *Low27 = ConstantInt::get(I64, (uint64_t(1) << 27) - 1);
  for (Value *V : Own) {
    Value *Sum = nullptr;
    for (unsigned Shift : {0u, 27u, 54u}) {
      Value *Bits = Shift ? B.CreateLShr(V, Shift) : V;
      Value *Chunk = B.CreateTrunc(B.CreateAnd(Bits, Low27), I32);
      Value *Part = B.CreateZExt(B.CreateCall(Redux, {Chunk, Mask}), I64);
      Part = Shift ? B.CreateShl(Part, Shift) : Part;
      Sum = Sum ? B.CreateAdd(Sum, Part) : Part;
    }
    W.Values.push_back(Sum);
  }
  W.Threads = B.CreateZExt(
      B.CreateCall(declaration(M, Intrinsic::ctpop, {I32}), {Mask}), I64);
  W.Leader =
      B.CreateICmpEQ(Lane, B.CreateCall(declaration(M, Intrinsic::cttz, {I32}),
                                        {Mask, B.getTrue()}));
  return W;
}

/// A butterfly step's exchange: the 32-bit value of the lane \p Offset
/// lanes away (lane ^ Offset), in a full warp or wavefront.
using LaneExchange =
    std::function<Value *(IRBuilder<> &B, Value *V32, unsigned Offset)>;

/// A full warp (wavefront) of \p Width threads sums with butterfly
/// exchanges (64-bit values as two 32-bit halves) and its first lane adds;
/// in a partial one (threads that left early, a block size not a multiple
/// of the width) each thread adds its own. New blocks go before \p Before.
static WarpSums butterflySums(IRBuilder<> &B, ArrayRef<Value *> Own,
                              Value *Full, Value *Lane, unsigned Width,
                              const LaneExchange &Exchange,
                              BasicBlock *Before) {
  BasicBlock *Entry = B.GetInsertBlock();
  Function &F = *Entry->getParent();
  LLVMContext &Ctx = F.getContext();
  Type *I32 = B.getInt32Ty(), *I64 = B.getInt64Ty();
  WarpSums W;
  BasicBlock *Reduce = BasicBlock::Create(Ctx, "roofline.warp_sum", &F, Before);
  BasicBlock *Merge = BasicBlock::Create(Ctx, "roofline.warp_done", &F, Before);
  B.CreateCondBr(Full, Reduce, Merge);
  B.SetInsertPoint(Reduce);
  std::vector<Value *> Summed;
  for (Value *V : Own) {
    for (unsigned Offset = Width / 2; Offset; Offset /= 2) {
      Value *Lo = B.CreateTrunc(V, I32);
      Value *Hi = B.CreateTrunc(B.CreateLShr(V, 32), I32);
      Value *OLo = Exchange(B, Lo, Offset), *OHi = Exchange(B, Hi, Offset);
      Value *Other = B.CreateOr(B.CreateZExt(OLo, I64),
                                B.CreateShl(B.CreateZExt(OHi, I64), 32));
      V = B.CreateAdd(V, Other);
    }
    Summed.push_back(V);
  }
  B.CreateBr(Merge);
  B.SetInsertPoint(Merge);
  for (size_t I = 0; I < Own.size(); ++I) {
    PHINode *P = B.CreatePHI(I64, 2);
    P->addIncoming(Summed[I], Reduce);
    P->addIncoming(Own[I], Entry);
    W.Values.push_back(P);
  }
  W.Threads = B.CreateSelect(Full, ConstantInt::get(I64, Width),
                             ConstantInt::get(I64, 1));
  W.Leader = B.CreateOr(B.CreateNot(Full),
                        B.CreateICmpEQ(Lane, ConstantInt::get(I32, 0)));
  return W;
}

/// Turing: butterfly shuffles (shfl.sync.bfly) over a full warp.
static WarpSums shuffleSums(IRBuilder<> &B, ArrayRef<Value *> Own,
                            Value *Mask, Value *Lane, BasicBlock *Before) {
  Module &M = *B.GetInsertBlock()->getModule();
  Type *I32 = B.getInt32Ty();
  Function *Shuffle = declaration(M, Intrinsic::nvvm_shfl_sync_bfly_i32);
  Value *AllLanes = ConstantInt::getAllOnesValue(I32);
  Value *Full = B.CreateICmpEQ(Mask, AllLanes, "roofline.full_warp");
  LaneExchange Exchange = [&](IRBuilder<> &XB, Value *V, unsigned Offset) {
    return XB.CreateCall(Shuffle, {AllLanes, V, ConstantInt::get(I32, Offset),
                                   ConstantInt::get(I32, 31)});
  };
  return butterflySums(B, Own, Full, Lane, 32, Exchange, Before);
}

/// AMDGPU: a full wavefront (the ballot of every lane) exchanges through
/// ds_bpermute, which reads the value of the lane its address names. The
/// threads of a partial one add their own, and the back end's atomic
/// optimizer makes those one atomic per wavefront.
static WarpSums wavefrontSums(IRBuilder<> &B, ArrayRef<Value *> Own,
                              unsigned Width, BasicBlock *Before) {
  Module &M = *B.GetInsertBlock()->getModule();
  Type *I32 = B.getInt32Ty(), *Ballot = B.getIntNTy(Width);
  Value *Active = B.CreateCall(
      declaration(M, Intrinsic::amdgcn_ballot, {Ballot}), {B.getTrue()});
  Value *Full = B.CreateICmpEQ(Active, ConstantInt::getAllOnesValue(Ballot),
                               "roofline.full_wavefront");
  Value *AllOnes = ConstantInt::getAllOnesValue(I32);
  Value *Lane = B.CreateCall(declaration(M, Intrinsic::amdgcn_mbcnt_lo),
                             {AllOnes, ConstantInt::get(I32, 0)});
  if (Width == 64)
    Lane = B.CreateCall(declaration(M, Intrinsic::amdgcn_mbcnt_hi),
                        {AllOnes, Lane});
  Function *Permute = declaration(M, Intrinsic::amdgcn_ds_bpermute);
  std::map<unsigned, Value *> Address; // per offset, for every exchange
  LaneExchange Exchange = [&](IRBuilder<> &XB, Value *V, unsigned Offset) {
    Value *&A = Address[Offset];
    if (!A)
      A = XB.CreateShl(XB.CreateXor(Lane, ConstantInt::get(I32, Offset)), 2);
    return XB.CreateCall(Permute, {A, V});
  };
  return butterflySums(B, Own, Full, Lane, Width, Exchange, Before);
}

/// At the kernel's one exit: each warp's sums of \p Slots, times their
/// costs, added to \p Counts.
static void emitWarpFlush(Function &F, const std::vector<CostEntry> &Costs,
                          ArrayRef<AllocaInst *> Slots,
                          GlobalVariable *Counts) {
  LLVMContext &Ctx = F.getContext();
  Module &M = *F.getParent();
  Type *I64 = Type::getInt64Ty(Ctx);

  // One exit, so that a warp's threads meet there (mostly) together.
  std::vector<ReturnInst *> Returns;
  for (BasicBlock &BB : F)
    if (auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator()))
      Returns.push_back(Ret);
  if (Returns.empty())
    return; // never returns (traps): nothing to add
  BasicBlock *Exit = BasicBlock::Create(Ctx, "roofline.exit", &F);
  for (ReturnInst *Ret : Returns) {
    BranchInst::Create(Exit, Ret->getParent());
    Ret->eraseFromParent(); // kernels return void
  }
  BasicBlock *Atomics = BasicBlock::Create(Ctx, "roofline.atomics", &F);
  BasicBlock *Done = BasicBlock::Create(Ctx, "roofline.ret", &F);

  IRBuilder<> B(Exit);
  std::vector<Value *> Own;
  for (AllocaInst *A : Slots)
    Own.push_back(B.CreateLoad(I64, A));
  bool AMD = Triple(M.getTargetTriple()).isAMDGCN();
  WarpSums W;
  if (AMD) {
    W = wavefrontSums(B, Own, warpSize(F), Atomics);
  } else {
    Value *Mask = B.CreateCall(declaration(M, Intrinsic::nvvm_activemask), {},
                               "roofline.mask");
    Value *Lane =
        B.CreateCall(declaration(M, Intrinsic::nvvm_read_ptx_sreg_laneid));
    W = smVersion(F) >= 80 ? reduxSums(B, Own, Mask, Lane)
                           : shuffleSums(B, Own, Mask, Lane, Atomics);
  }
  B.CreateCondBr(W.Leader, Atomics, Done);
  const std::vector<Value *> &Values = W.Values;
  B.SetInsertPoint(Atomics);
  ArrayType *BufTy = cast<ArrayType>(Counts->getValueType());
  // The whole device: NVPTX's "device", AMDGPU's "agent".
  SyncScope::ID Device = Ctx.getOrInsertSyncScopeID(AMD ? "agent" : "device");
  auto AtomicAdd = [&](unsigned Word, Value *N) {
    Value *P = B.CreateConstInBoundsGEP2_64(BufTy, Counts, 0, Word);
    B.CreateAtomicRMW(AtomicRMWInst::Add, P, N, MaybeAlign(8),
                      AtomicOrdering::Monotonic, Device);
  };
  AtomicAdd(ROOFLINE_DEVICE_THREADS, W.Threads);
  std::map<uint32_t, Value *> PerSlot; // slot -> sum of counter * cost
  for (const CostEntry &C : Costs) {
    Value *Term =
        B.CreateMul(Values[C.Counter], ConstantInt::get(I64, C.PerUnit));
    Value *&Sum = PerSlot[C.Slot];
    Sum = Sum ? B.CreateAdd(Sum, Term) : Term;
  }
  for (auto [Slot, Sum] : PerSlot)
    AtomicAdd(ROOFLINE_DEVICE_SLOTS + Slot, Sum);
  B.CreateBr(Done);
  ReturnInst::Create(Ctx, Done);
}

void lowerForDevice(Function &F, ScalarEvolution &SE, const PlacedCounters &P,
                    GlobalVariable *Counts) {
  CounterCode Code = addCounts(F, SE, P);
  lowerCountOperations(F, Code.Slots);
  emitWarpFlush(F, P.Layout.Costs, Code.Slots, Counts);
  promoteCounters(F, Code);
}

} // namespace roofline
