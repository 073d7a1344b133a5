//===- ArgumentTrace.cpp - A call's arguments for ROOFLINE_TRACE ----------===//
#include "ArgumentTrace.h"
#include "RuntimeNames.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

namespace roofline {

void emitArgumentTrace(Function &F, GlobalVariable *Desc) {
  if (F.arg_empty())
    return;
  LLVMContext &Ctx = F.getContext();
  Module &M = *F.getParent();
  Type *I32 = Type::getInt32Ty(Ctx), *I64 = Type::getInt64Ty(Ctx);
  BasicBlock &Entry = F.getEntryBlock();
  ArrayType *ArgsTy = ArrayType::get(I64, F.arg_size());
  AllocaInst *Args = IRBuilder<>(&Entry, Entry.begin())
                         .CreateAlloca(ArgsTy, nullptr, "roofline.args");
  GlobalVariable *Tracing = M.getGlobalVariable(TracingFlag);
  if (!Tracing)
    Tracing =
        new GlobalVariable(M, I32, /*isConstant=*/false,
                           GlobalValue::ExternalLinkage, nullptr, TracingFlag);
  Instruction *At = &*Entry.getFirstNonPHIOrDbgOrAlloca();
  IRBuilder<> B(At);
  Value *On =
      B.CreateICmpNE(B.CreateLoad(I32, Tracing), ConstantInt::get(I32, 0));
  Instruction *Then = SplitBlockAndInsertIfThen(On, At, false);
  IRBuilder<> TB(Then);
  const DataLayout &DL = M.getDataLayout();
  for (Argument &A : F.args()) {
    Type *T = A.getType();
    Value *V = ConstantInt::get(I64, 0);
    if (T->isPointerTy())
      V = TB.CreatePtrToInt(&A, I64);
    else if (T->isIntegerTy() && T->getIntegerBitWidth() <= 64)
      V = TB.CreateSExtOrTrunc(&A, I64);
    else if (T->isFloatingPointTy() && DL.getTypeSizeInBits(T) <= 64)
      V = TB.CreateBitCast(TB.CreateFPExt(&A, Type::getDoubleTy(Ctx)), I64);
    TB.CreateStore(V, TB.CreateConstGEP2_64(ArgsTy, Args, 0, A.getArgNo()));
  }
  FunctionCallee Trace = M.getOrInsertFunction(TraceFn, Type::getVoidTy(Ctx),
                                               PointerType::getUnqual(Ctx),
                                               PointerType::getUnqual(Ctx));
  TB.CreateCall(Trace, {Desc, Args});
}

} // namespace roofline
