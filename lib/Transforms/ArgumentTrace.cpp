//===- ArgumentTrace.cpp - A call's arguments for ROOFLINE_TRACE ----------===//
#include "ArgumentTrace.h"
#include "RuntimeNames.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace roofline {

Value *tracingOn(IRBuilder<> &B) {
  Module &M = *B.GetInsertBlock()->getModule();
  Type *I32 = B.getInt32Ty();
  GlobalVariable *Tracing = M.getGlobalVariable(TracingFlag);
  if (!Tracing)
    Tracing =
        new GlobalVariable(M, I32, /*isConstant=*/false,
                           GlobalValue::ExternalLinkage, nullptr, TracingFlag);
  return B.CreateICmpNE(B.CreateLoad(I32, Tracing), ConstantInt::get(I32, 0),
                        "roofline.tracing");
}

void emitArgumentTrace(IRBuilder<> &B, GlobalVariable *Desc) {
  Function &F = *B.GetInsertBlock()->getParent();
  LLVMContext &Ctx = F.getContext();
  Module &M = *F.getParent();
  Type *I64 = Type::getInt64Ty(Ctx);
  BasicBlock &Entry = F.getEntryBlock();
  ArrayType *ArgsTy = ArrayType::get(I64, F.arg_size());
  AllocaInst *Args = IRBuilder<>(&Entry, Entry.begin())
                         .CreateAlloca(ArgsTy, nullptr, "roofline.args");
  const DataLayout &DL = M.getDataLayout();
  for (Argument &A : F.args()) {
    Type *T = A.getType();
    Value *V = ConstantInt::get(I64, 0);
    if (T->isPointerTy())
      V = B.CreatePtrToInt(&A, I64);
    else if (T->isIntegerTy() && T->getIntegerBitWidth() <= 64)
      V = B.CreateSExtOrTrunc(&A, I64);
    else if (T->isFloatingPointTy() && DL.getTypeSizeInBits(T) <= 64)
      V = B.CreateBitCast(B.CreateFPExt(&A, Type::getDoubleTy(Ctx)), I64);
    B.CreateStore(V, B.CreateConstGEP2_64(ArgsTy, Args, 0, A.getArgNo()));
  }
  FunctionCallee Trace = M.getOrInsertFunction(TraceFn, Type::getVoidTy(Ctx),
                                               PointerType::getUnqual(Ctx),
                                               PointerType::getUnqual(Ctx));
  B.CreateCall(Trace, {Desc, Args});
}

} // namespace roofline
