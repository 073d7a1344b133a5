//===- DeviceCode.cpp - GPU device code: kernels, thread indices ----------===//
#include "roofline/Analysis/DeviceCode.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Analysis/InstructionSimplify.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <vector>

using namespace llvm;

namespace roofline {

bool isDeviceModule(const Module &M) {
  const Triple &T = M.getTargetTriple();
  return T.isNVPTX() || T.isAMDGCN();
}

const char *kernelKind(const Module &M) {
  const Triple &T = M.getTargetTriple();
  return T.isAMDGCN() ? "hip-kernel" : T.isNVPTX() ? "cuda-kernel" : "function";
}

bool isDeviceKernel(const Function &F) {
  return F.getCallingConv() == CallingConv::PTX_Kernel ||
         F.getCallingConv() == CallingConv::AMDGPU_KERNEL;
}

bool isDeviceLibraryFence(const Function &Callee) {
  return Callee.getName() == "__atomic_work_item_fence";
}

std::vector<std::pair<PTXMemoryAccess, const Value *>>
asmMemoryOperands(const CallBase &CB) {
  const auto *IA = cast<InlineAsm>(CB.getCalledOperand());
  std::vector<const Value *> ArgOf; // by operand number
  unsigned Arg = 0;
  for (const InlineAsm::ConstraintInfo &C : IA->ParseConstraints()) {
    if (C.Type == InlineAsm::isClobber)
      continue;
    bool TakesArg = C.Type != InlineAsm::isOutput || C.isIndirect;
    ArgOf.push_back(TakesArg && Arg < CB.arg_size() ? CB.getArgOperand(Arg)
                                                    : nullptr);
    Arg += TakesArg;
  }
  std::vector<std::pair<PTXMemoryAccess, const Value *>> Out;
  for (const PTXMemoryAccess &A : memoryAccessesOfPTXAsm(IA->getAsmString())) {
    const Value *Ptr = A.Operand && *A.Operand < ArgOf.size() ? ArgOf[*A.Operand]
                                                              : nullptr;
    if (!A.Bytes || (Ptr && !Ptr->getType()->isPointerTy()))
      Ptr = nullptr;
    Out.push_back({A, Ptr});
  }
  return Out;
}

unsigned warpSize(const Function &F) {
  const Triple &T = F.getParent()->getTargetTriple();
  if (T.isNVPTX())
    return 32;
  if (!T.isAMDGCN())
    return 0;
  StringRef Features = F.getFnAttribute("target-features").getValueAsString();
  if (Features.contains("+wavefrontsize32"))
    return 32;
  if (Features.contains("+wavefrontsize64"))
    return 64;
  // The processor's default: 32 from gfx10 (RDNA) on, 64 before (GCN, CDNA).
  return F.getFnAttribute("target-cpu").getValueAsString().starts_with("gfx1")
             ? 32
             : 64;
}

namespace {

/// A value a HIP kernel reads of its launch from memory.
enum class LaunchValue { None, BlockDim, GridDim, GridSize };
struct LaunchRead {
  LaunchValue What = LaunchValue::None;
  unsigned Axis = 0;
};

/// Where the launch's dimensions are, as LLVM's AMDGPULowerKernelAttributes
/// reads them: the dispatch packet (hsa_kernel_dispatch_packet_t:
/// workgroup_size_x/y/z, u16 at 4, 6, 8; grid_size_x/y/z, u32 at 12, 16,
/// 20, in work-items) and, from code object v5 on, the implicit kernel
/// arguments (hidden_block_count_x/y/z, u32 at 0, 4, 8;
/// hidden_group_size_x/y/z, u16 at 12, 14, 16).
LaunchRead launchRead(const LoadInst &L) {
  const Module &M = *L.getModule();
  if (!M.getTargetTriple().isAMDGCN())
    return {}; // (asked of every load the cost model sees)
  const DataLayout &DL = M.getDataLayout();
  APInt Offset(64, 0);
  const Value *Base = L.getPointerOperand()->stripAndAccumulateConstantOffsets(
      DL, Offset, /*AllowNonInbounds=*/true);
  const auto *Call = dyn_cast<CallBase>(Base);
  if (!Call)
    return {};
  int64_t At = Offset.getSExtValue();
  uint64_t Bytes = DL.getTypeStoreSize(L.getType()).getFixedValue();
  auto Field = [&](int64_t First, uint64_t Size, LaunchValue What) {
    if (Bytes != Size || At < First || At > First + 2 * int64_t(Size) ||
        (At - First) % int64_t(Size))
      return LaunchRead{};
    return LaunchRead{What, unsigned((At - First) / int64_t(Size))};
  };
  switch (Call->getIntrinsicID()) {
  case Intrinsic::amdgcn_dispatch_ptr:
    if (LaunchRead R = Field(4, 2, LaunchValue::BlockDim);
        R.What != LaunchValue::None)
      return R;
    return Field(12, 4, LaunchValue::GridSize);
  case Intrinsic::amdgcn_implicitarg_ptr: {
    // Before code object v5 the implicit arguments hold other fields.
    auto *Version = mdconst::extract_or_null<ConstantInt>(
        M.getModuleFlag("amdhsa_code_object_version"));
    if (!Version || Version->getZExtValue() < 500)
      return {};
    if (LaunchRead R = Field(0, 4, LaunchValue::GridDim);
        R.What != LaunchValue::None)
      return R;
    return Field(12, 2, LaunchValue::BlockDim);
  }
  default:
    return {};
  }
}

const char *const AxisName[] = {"x", "y", "z"};

} // namespace

const char *gridSizeAxis(const Value *V) {
  const auto *L = dyn_cast<LoadInst>(V);
  if (!L)
    return nullptr;
  LaunchRead R = launchRead(*L);
  return R.What == LaunchValue::GridSize ? AxisName[R.Axis] : nullptr;
}

bool readsLaunchDimensions(const LoadInst &L) {
  return launchRead(L).What != LaunchValue::None;
}

const char *sregName(StringRef Intrinsic) {
  return StringSwitch<const char *>(Intrinsic)
      .Case("llvm.amdgcn.workitem.id.x", "threadIdx.x")
      .Case("llvm.amdgcn.workitem.id.y", "threadIdx.y")
      .Case("llvm.amdgcn.workitem.id.z", "threadIdx.z")
      .Case("llvm.amdgcn.workgroup.id.x", "blockIdx.x")
      .Case("llvm.amdgcn.workgroup.id.y", "blockIdx.y")
      .Case("llvm.amdgcn.workgroup.id.z", "blockIdx.z")
      .Case("llvm.nvvm.read.ptx.sreg.tid.x", "threadIdx.x")
      .Case("llvm.nvvm.read.ptx.sreg.tid.y", "threadIdx.y")
      .Case("llvm.nvvm.read.ptx.sreg.tid.z", "threadIdx.z")
      .Case("llvm.nvvm.read.ptx.sreg.ntid.x", "blockDim.x")
      .Case("llvm.nvvm.read.ptx.sreg.ntid.y", "blockDim.y")
      .Case("llvm.nvvm.read.ptx.sreg.ntid.z", "blockDim.z")
      .Case("llvm.nvvm.read.ptx.sreg.ctaid.x", "blockIdx.x")
      .Case("llvm.nvvm.read.ptx.sreg.ctaid.y", "blockIdx.y")
      .Case("llvm.nvvm.read.ptx.sreg.ctaid.z", "blockIdx.z")
      .Case("llvm.nvvm.read.ptx.sreg.nctaid.x", "gridDim.x")
      .Case("llvm.nvvm.read.ptx.sreg.nctaid.y", "gridDim.y")
      .Case("llvm.nvvm.read.ptx.sreg.nctaid.z", "gridDim.z")
      .Case("llvm.nvvm.read.ptx.sreg.laneid", "laneid")
      .Default(nullptr);
}

const char *sregName(const Value *V) {
  if (const auto *CB = dyn_cast<CallBase>(V))
    if (const Function *Callee = CB->getCalledFunction())
      return sregName(Callee->getName());
  if (const auto *L = dyn_cast<LoadInst>(V)) {
    static const char *const BlockDim[] = {"blockDim.x", "blockDim.y",
                                           "blockDim.z"};
    static const char *const GridDim[] = {"gridDim.x", "gridDim.y",
                                          "gridDim.z"};
    LaunchRead R = launchRead(*L);
    if (R.What == LaunchValue::BlockDim)
      return BlockDim[R.Axis];
    if (R.What == LaunchValue::GridDim)
      return GridDim[R.Axis];
  }
  return nullptr;
}

void inlineDeviceCalls(Function &Kernel) {
  for (unsigned Round = 0; Round < 16; ++Round) {
    std::vector<CallBase *> Calls;
    for (BasicBlock &BB : Kernel)
      for (Instruction &I : BB)
        if (auto *CB = dyn_cast<CallBase>(&I))
          if (Function *Callee = CB->getCalledFunction())
            if (!Callee->isDeclaration() && !Callee->isIntrinsic() &&
                Callee != &Kernel)
              Calls.push_back(CB);
    if (Calls.empty())
      return;
    for (CallBase *CB : Calls) {
      InlineFunctionInfo IFI;
      InlineResult R = InlineFunction(*CB, IFI);
      if (!R.isSuccess())
        Kernel.getContext().diagnose(DiagnosticInfoGeneric(
            "roofline: a call in CUDA kernel " + Kernel.getName() +
                " is not counted: " + R.getFailureReason(),
            DS_Remark));
    }
  }
}

/// A read hoistThreadIndexReads moves: a special register's, an index's,
/// the launch's dimensions (and the address they are loaded from).
static bool isThreadConstant(const Instruction &I) {
  if (const auto *CI = dyn_cast<CallInst>(&I)) {
    const Function *Callee = CI->getCalledFunction();
    if (!Callee || !CI->arg_empty())
      return false;
    StringRef Name = Callee->getName();
    return Name.starts_with("llvm.nvvm.read.ptx.sreg.") || sregName(Name) ||
           Callee->getIntrinsicID() == Intrinsic::amdgcn_dispatch_ptr ||
           Callee->getIntrinsicID() == Intrinsic::amdgcn_implicitarg_ptr;
  }
  if (const auto *GEP = dyn_cast<GetElementPtrInst>(&I)) {
    const auto *Base =
        dyn_cast<CallBase>(GEP->getPointerOperand()->stripPointerCasts());
    return GEP->hasAllConstantIndices() && Base &&
           (Base->getIntrinsicID() == Intrinsic::amdgcn_dispatch_ptr ||
            Base->getIntrinsicID() == Intrinsic::amdgcn_implicitarg_ptr);
  }
  if (const auto *L = dyn_cast<LoadInst>(&I))
    return readsLaunchDimensions(*L);
  return false;
}

void hoistThreadIndexReads(Function &F) {
  BasicBlock &Entry = F.getEntryBlock();
  auto At = Entry.getFirstNonPHIOrDbgOrAlloca();
  // In order, each once what it uses is in the entry block: the pointer
  // intrinsics, then the addresses, then the loads.
  for (bool Moved = true; Moved;) {
    Moved = false;
    for (BasicBlock &BB : F) {
      if (&BB == &Entry)
        continue;
      for (Instruction &I : llvm::make_early_inc_range(BB)) {
        bool OperandsReady = llvm::all_of(I.operands(), [&](const Use &U) {
          const auto *Op = dyn_cast<Instruction>(U.get());
          return !Op || Op->getParent() == &Entry;
        });
        if (isThreadConstant(I) && OperandsReady) {
          I.moveBefore(At);
          Moved = true;
        }
      }
    }
  }
}

void useScratchDirectly(Function &F) {
  for (Instruction &I : llvm::make_early_inc_range(instructions(F))) {
    auto *Cast = dyn_cast<AddrSpaceCastInst>(&I);
    auto *Slot =
        Cast ? dyn_cast<AllocaInst>(Cast->getPointerOperand()) : nullptr;
    if (!Slot)
      continue;
    // Only where every use is a load or store through the pointer.
    bool Plain = llvm::all_of(Cast->uses(), [](const Use &U) {
      if (const auto *L = dyn_cast<LoadInst>(U.getUser()))
        return !L->isVolatile();
      if (const auto *S = dyn_cast<StoreInst>(U.getUser()))
        return !S->isVolatile() && U.getOperandNo() == 1;
      return false;
    });
    if (!Plain)
      continue;
    Cast->replaceAllUsesWith(Slot);
    Cast->eraseFromParent();
  }
}

void tidyPromotedDeviceCode(Function &F) {
  bool Uniform =
      F.getFnAttribute("uniform-work-group-size").getValueAsBool();
  for (Instruction &I : llvm::make_early_inc_range(instructions(F))) {
    // A pointer promoted from a flat slot: inttoptr(ptrtoint P), a cast.
    if (auto *I2P = dyn_cast<IntToPtrInst>(&I))
      if (auto *P2I = dyn_cast<PtrToIntInst>(I2P->getOperand(0))) {
        Value *P = P2I->getPointerOperand();
        Value *Now = P->getType() == I2P->getType()
                         ? P
                         : new AddrSpaceCastInst(P, I2P->getType(), "",
                                                 I2P->getIterator());
        I2P->replaceAllUsesWith(Now);
        I2P->eraseFromParent();
        continue;
      }
    // A test whose value is known (of constants: a runtime function's
    // `if (flags)` once its argument is known; of a value with itself:
    // `i == i` once -O0's two loads of i are one): its value, so that
    // SimplifyCFG folds the branch.
    if (auto *Cmp = dyn_cast<ICmpInst>(&I))
      if (auto *C = dyn_cast_or_null<Constant>(
              simplifyICmpInst(Cmp->getCmpPredicate(), Cmp->getOperand(0),
                               Cmp->getOperand(1), SimplifyQuery(F.getDataLayout())))) {
        Cmp->replaceAllUsesWith(C);
        Cmp->eraseFromParent();
        continue;
      }
    // HIP's blockDim.x is OpenCL's local size, min(grid - group offset,
    // group size); with uniform work-groups (HIP's launches) it is the
    // group size, as AMDGPULowerKernelAttributes folds it at -O1 and up.
    auto *Min = dyn_cast<IntrinsicInst>(&I);
    if (!Uniform || !Min || Min->getIntrinsicID() != Intrinsic::umin)
      continue;
    for (Value *Op : Min->args()) {
      Value *Inner = Op;
      if (auto *Z = dyn_cast<ZExtInst>(Inner))
        Inner = Z->getOperand(0);
      auto *L = dyn_cast<LoadInst>(Inner);
      if (L && launchRead(*L).What == LaunchValue::BlockDim) {
        Min->replaceAllUsesWith(Op);
        Min->eraseFromParent();
        break;
      }
    }
  }
}

} // namespace roofline
