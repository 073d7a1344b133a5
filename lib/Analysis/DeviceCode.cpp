//===- DeviceCode.cpp - Preparing CUDA device code for counting -----------===//
#include "roofline/Analysis/DeviceCode.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <vector>

using namespace llvm;

namespace roofline {

const char *sregName(StringRef Intrinsic) {
  return StringSwitch<const char *>(Intrinsic)
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

void hoistThreadIndexReads(Function &F) {
  BasicBlock &Entry = F.getEntryBlock();
  auto At = Entry.getFirstNonPHIOrDbgOrAlloca();
  SmallVector<CallInst *, 8> Reads;
  for (BasicBlock &BB : F)
    if (&BB != &Entry)
      for (Instruction &I : BB)
        if (auto *CI = dyn_cast<CallInst>(&I))
          if (Function *Callee = CI->getCalledFunction())
            if (Callee->getName().starts_with("llvm.nvvm.read.ptx.sreg.") &&
                CI->arg_empty())
              Reads.push_back(CI);
  for (CallInst *CI : Reads)
    CI->moveBefore(At);
}

} // namespace roofline
