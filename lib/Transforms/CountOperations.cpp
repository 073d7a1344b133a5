//===- CountOperations.cpp - A count as an IR operation -------------------===//
#include "CountOperations.h"
#include "CounterCode.h"
#include "roofline/Transforms/CountLowering.h"

#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace roofline {

static constexpr const char *CountName = "roofline.count";
static constexpr const char *CountMaxName = "roofline.count.max";

/// The declaration of \p Name: it returns, throws nothing and touches no
/// memory the program can see, so that no analysis of the code between
/// placement and lowering (the kept-call rewrite's) takes it for a call
/// that could leave a loop or write the program's data.
static FunctionCallee declaration(Module &M, const char *Name) {
  LLVMContext &Ctx = M.getContext();
  FunctionCallee F = M.getOrInsertFunction(
      Name, Type::getVoidTy(Ctx), Type::getInt32Ty(Ctx), Type::getInt64Ty(Ctx));
  if (auto *Fn = dyn_cast<Function>(F.getCallee()); Fn && !Fn->willReturn()) {
    Fn->setDoesNotThrow();
    Fn->setWillReturn();
    Fn->setMemoryEffects(MemoryEffects::inaccessibleMemOnly());
  }
  return F;
}

static CallInst *emit(IRBuilder<> &B, const char *Name, uint32_t Counter,
                      Value *V) {
  Module &M = *B.GetInsertBlock()->getModule();
  return B.CreateCall(declaration(M, Name), {B.getInt32(Counter), V});
}

CallInst *emitCount(IRBuilder<> &B, uint32_t Counter, Value *Step) {
  return emit(B, CountName, Counter, Step);
}

CallInst *emitCountMax(IRBuilder<> &B, uint32_t Counter, Value *V) {
  return emit(B, CountMaxName, Counter, V);
}

std::optional<CountOperation> asCountOperation(Instruction &I) {
  auto *CI = dyn_cast<CallInst>(&I);
  const Function *Callee = CI ? CI->getCalledFunction() : nullptr;
  if (!Callee || CI->arg_size() != 2)
    return std::nullopt;
  bool Max = Callee->getName() == CountMaxName;
  if (!Max && Callee->getName() != CountName)
    return std::nullopt;
  auto *Counter = dyn_cast<ConstantInt>(CI->getArgOperand(0));
  if (!Counter || !CI->getArgOperand(1)->getType()->isIntegerTy(64))
    return std::nullopt;
  return CountOperation{CI, uint32_t(Counter->getZExtValue()),
                        CI->getArgOperand(1), Max};
}

std::vector<CountOperation> countOperations(Function &F) {
  std::vector<CountOperation> Out;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (std::optional<CountOperation> C = asCountOperation(I))
        Out.push_back(*C);
  return Out;
}

/// A call of the count declarations that is not a count operation.
static bool malformed(Instruction &I) {
  auto *CI = dyn_cast<CallInst>(&I);
  const Function *Callee = CI ? CI->getCalledFunction() : nullptr;
  return Callee && (Callee->getName() == CountName ||
                    Callee->getName() == CountMaxName) &&
         !asCountOperation(I);
}

void lowerCountOperations(Function &F, ArrayRef<AllocaInst *> Slots) {
  Type *I64 = Type::getInt64Ty(F.getContext());
  auto Drop = [&](Instruction &I, const Twine &Why) {
    F.getContext().diagnose(DiagnosticInfoGeneric(
        "roofline: " + F.getName() + ": a count operation " + Why +
            " is dropped",
        DS_Remark));
    I.eraseFromParent();
  };
  for (BasicBlock &BB : F)
    for (Instruction &I : make_early_inc_range(BB))
      if (malformed(I))
        Drop(I, "without a constant counter and an i64 step");
  for (const CountOperation &C : countOperations(F)) {
    if (C.Counter >= Slots.size()) {
      Drop(*C.Call, "of counter " + Twine(C.Counter) + " (the function has " +
                        Twine(Slots.size()) + ")");
      continue;
    }
    IRBuilder<> B(C.Call);
    AllocaInst *Slot = Slots[C.Counter];
    Value *Old = B.CreateLoad(I64, Slot);
    B.CreateStore(C.Maximum
                      ? B.CreateBinaryIntrinsic(Intrinsic::umax, Old, C.Step)
                      : B.CreateAdd(Old, C.Step),
                  Slot);
    C.Call->eraseFromParent();
  }
  Module &M = *F.getParent();
  for (const char *Name : {CountName, CountMaxName})
    if (Function *D = M.getFunction(Name); D && D->use_empty())
      D->eraseFromParent();
}

PreservedAnalyses CountLoweringPass::run(Function &F,
                                         FunctionAnalysisManager &) {
  std::vector<CountOperation> Ops = countOperations(F);
  bool Any = !Ops.empty();
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      Any |= malformed(I);
  if (!Any)
    return PreservedAnalyses::all();
  // A slot per counter up to the largest an instrumenter makes (an
  // operation past it, from IR written by hand, is dropped with a remark).
  constexpr uint32_t MostCounters = 1u << 16;
  uint32_t Counters = 0;
  for (const CountOperation &C : Ops)
    if (C.Counter < MostCounters)
      Counters = std::max(Counters, C.Counter + 1);
  IRBuilder<> B(&*F.getEntryBlock().getFirstInsertionPt());
  lowerCountOperations(F, createCounterSlots(B, Counters).Slots);
  return PreservedAnalyses::none();
}

} // namespace roofline
