//===- KeptCalls.cpp - A leaf's counters kept by its calling loop ---------===//
//
// The kept function (its signature, its returns, its forward path) and the
// rewrite of the loops that call it; KeptCalls.h says why.
//
//===----------------------------------------------------------------------===//
#include "KeptCalls.h"
#include "CountOperations.h"
#include "FormulaCode.h"
#include "HostLowering.h"
#include "RuntimeNames.h"

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

#include <set>

using namespace llvm;

static cl::opt<bool> KeptCalls(
    "roofline-kept-calls",
    cl::desc("Calls of small leaf functions in loops keep the callee's "
             "counters in the loop's registers (off: every call adds them "
             "to the callee's block)"),
    cl::init(true));

namespace roofline {

bool keptCallsEnabled() { return KeptCalls; }

namespace {

/// A call that returns to its caller, always: nothing leaves a loop around
/// it with the loop's sums in registers.
bool alwaysReturns(const CallBase &CB) {
  if (!isa<CallInst>(CB) || CB.isInlineAsm() || CB.hasOperandBundles() ||
      cast<CallInst>(CB).isMustTailCall())
    return false;
  if (const Function *Callee = CB.getCalledFunction();
      Callee && Callee->isIntrinsic())
    return true;
  return CB.hasFnAttr(Attribute::WillReturn) && CB.doesNotThrow();
}

/// The thread's block of \p S, and a pointer to its field \p I.
Value *blockField(IRBuilder<> &B, const KeptShape &S, unsigned I) {
  Value *Block = B.CreateThreadLocalAddress(S.TLS);
  return B.CreateConstGEP2_64(S.BlockType, Block, 0, I);
}

/// Adds \p N to counter \p Counter of the original's block, at \p B.
void addToCounter(IRBuilder<> &B, const KeptShape &S, uint32_t Counter,
                  Value *N) {
  Value *P = blockField(B, S, ROOFLINE_BLOCK_COUNTERS + Counter);
  B.CreateStore(B.CreateAdd(B.CreateLoad(B.getInt64Ty(), P), N), P);
}

/// ROOFLINE_TRACE or ROOFLINE_CACHE is on: calls must go through the
/// original's own entry.
Value *forwardingOn(IRBuilder<> &B) {
  Module &M = *B.GetInsertBlock()->getModule();
  Type *I32 = B.getInt32Ty();
  Value *Any = ConstantInt::get(I32, 0);
  for (const char *Name : {TracingFlag, "__roofline_cache_on"}) {
    GlobalVariable *G = M.getGlobalVariable(Name);
    if (!G)
      G = new GlobalVariable(M, I32, /*isConstant=*/false,
                             GlobalValue::ExternalLinkage, nullptr, Name);
    Any = B.CreateOr(Any, B.CreateLoad(I32, G));
  }
  return B.CreateICmpNE(Any, ConstantInt::get(I32, 0), "roofline.forward");
}

} // namespace

bool mayKeepCounters(Function &F, const CalleeCounts &Callees) {
  if (!KeptCalls || F.isDeclaration() || F.isVarArg() || !F.doesNotThrow() ||
      F.hasFnAttribute(Attribute::Naked))
    return false;
  // This module's copy runs, and no other definition can take its place
  // (then the calls of its clone would count what F does not run).
  if (!(F.hasLocalLinkage() || (F.isDefinitionExact() && F.isDSOLocal())))
    return false;
  for (const Argument &A : F.args())
    if (A.hasInAllocaAttr() || A.hasPreallocatedAttr() ||
        A.hasSwiftErrorAttr() || A.hasStructRetAttr())
      return false;
  if (!F.getReturnType()->isVoidTy() && !F.getReturnType()->isFirstClassType())
    return false;
  for (const BasicBlock &BB : F)
    if (BB.hasAddressTaken())
      return false;
  // A leaf: its calls count no other block, and all of them return.
  for (const Instruction &I : instructions(F))
    if (const auto *CB = dyn_cast<CallBase>(&I)) {
      const Function *Callee = CB->getCalledFunction();
      bool Defined = Callee && !Callee->isDeclaration();
      if (!alwaysReturns(*CB) || !Callees.measured(*CB).empty() ||
          (Defined && !Callees.fixedCost(*CB)) || // recursion, say
          CalleeCounts::forkedBody(*CB) ||
          CB->getIntrinsicID() == Intrinsic::localescape ||
          CB->getIntrinsicID() == Intrinsic::vastart)
        return false;
    }
  // Worth it only where another function calls it (in a loop, perhaps).
  return llvm::any_of(F.users(), [&](const User *U) {
    const auto *CI = dyn_cast<CallInst>(U);
    return CI && CI->getCalledOperand() == &F && CI->getFunction() != &F;
  });
}

std::vector<KeptKind> keptKinds(Function &F, const LoopInfo &LI,
                                const PlacedCounters &P) {
  PostDominatorTree PDT(F);
  ReversePostOrderTraversal<const Function *> RPOT(&F);
  // In a cycle LoopInfo does not see, a block may run more than once.
  bool Irreducible = containsIrreducibleCFG<const BasicBlock *>(RPOT, LI);
  std::vector<KeptKind> Kinds;
  for (const Counter &C : P.Counters) {
    KeptKind K = KeptKind::Flushed;
    if (C.K == Counter::Kind::Timer)
      K = KeptKind::Timer;
    else if (C.K == Counter::Kind::Block && !C.Maximum && !Irreducible &&
             C.Block && !LI.getLoopFor(C.Block) &&
             PDT.dominates(C.Block, &F.getEntryBlock()))
      K = KeptKind::PerCall; // +1 in a block every call runs once
    else if (C.K == Counter::Kind::Formula && C.FormulaSites.empty() &&
             !P.Arguments.empty())
      K = KeptKind::ByCaller; // its own footprint, from its arguments
    Kinds.push_back(K);
  }
  for (size_t I = 0; I < P.Counters.size(); ++I)
    if (Kinds[I] == KeptKind::ByCaller && P.Counters[I].Broken >= 0)
      Kinds[P.Counters[I].Broken] = KeptKind::ByCaller;
  return Kinds;
}

void takeKeptFormulas(const PlacedCounters &P,
                      const std::vector<KeptKind> &Kinds, KeptShape &S) {
  for (size_t I = 0; I < P.Counters.size(); ++I)
    if (Kinds[I] == KeptKind::ByCaller && P.Counters[I].Formula)
      S.Formulas.push_back({uint32_t(I), *P.Counters[I].Formula,
                            P.Counters[I].Conditions, P.Counters[I].Broken});
  for (const auto &[Name, V] : P.Arguments)
    if (const auto *A = dyn_cast<Argument>(V))
      S.Parameters[Name] = A->getArgNo();
}

std::vector<bool>
addKeptCountersWhereCounted(Function &F, const KeptShape &S,
                            const std::vector<Counter> &Counters) {
  std::vector<std::vector<CountOperation>> Ops(Counters.size());
  for (const CountOperation &C : countOperations(F))
    if (C.Counter < Counters.size())
      Ops[C.Counter].push_back(C);
  std::vector<bool> Added(Counters.size(), false);
  DominatorTree DT(F);
  LoopInfo LI(DT);
  for (size_t I = 0; I < Counters.size(); ++I) {
    // The counter's one count operation. (Adding its step to the block
    // each time it runs is the same sum however often that is; it is done
    // only where it runs once.)
    if (S.Kinds[I] != KeptKind::Flushed || Counters[I].Maximum ||
        Ops[I].size() != 1 || Ops[I][0].Maximum ||
        LI.getLoopFor(Ops[I][0].Call->getParent()))
      continue;
    IRBuilder<> B(Ops[I][0].Call);
    addToCounter(B, S, I, Ops[I][0].Step);
    Ops[I][0].Call->eraseFromParent();
    Added[I] = true;
  }
  return Added;
}

void flushKeptCounters(ReturnInst *Ret, const KeptShape &S,
                       const std::vector<Counter> &Counters,
                       ArrayRef<AllocaInst *> Slots,
                       const std::vector<bool> &Added) {
  IRBuilder<> B(Ret);
  Type *I64 = B.getInt64Ty();
  for (size_t I = 0; I < Counters.size(); ++I) {
    if (S.Kinds[I] != KeptKind::Flushed || Added[I])
      continue; // the timers add themselves; the calling loop adds these
    Value *Now = B.CreateLoad(I64, Slots[I]);
    Value *P = blockField(B, S, ROOFLINE_BLOCK_COUNTERS + I);
    Value *Old = B.CreateLoad(I64, P);
    B.CreateStore(Counters[I].Maximum
                      ? B.CreateBinaryIntrinsic(Intrinsic::umax, Old, Now)
                      : B.CreateAdd(Old, Now),
                  P);
  }
}

void makeKeptFunction(KeptShape &S, const Twine &Suffix,
                      ValueToValueMapTy &VMap) {
  Function &F = *S.Original;
  LLVMContext &Ctx = F.getContext();
  std::vector<Type *> Params(F.getFunctionType()->param_begin(),
                             F.getFunctionType()->param_end());
  Params.push_back(Type::getInt64Ty(Ctx));
  auto *Kept =
      Function::Create(FunctionType::get(F.getReturnType(), Params, false),
                       GlobalValue::InternalLinkage,
                       F.getName() + ".roofline.kept" + Suffix, F.getParent());
  for (size_t A = 0; A < F.arg_size(); ++A) {
    VMap[F.getArg(A)] = Kept->getArg(A);
    Kept->getArg(A)->setName(F.getArg(A)->getName());
  }
  Kept->getArg(F.arg_size())->setName("roofline.calls");
  SmallVector<ReturnInst *, 4> Returns;
  CloneFunctionInto(Kept, &F, VMap, CloneFunctionChangeType::LocalChangesOnly,
                    Returns);
  // F's own attributes, but no result attribute (the result is a struct
  // now) and no memory effects (it writes the block).
  AttributeList Attrs = F.getAttributes();
  std::vector<AttributeSet> ParamAttrs;
  for (unsigned A = 0; A < F.arg_size(); ++A)
    ParamAttrs.push_back(Attrs.getParamAttrs(A));
  Kept->setAttributes(
      AttributeList::get(Ctx, Attrs.getFnAttrs(), AttributeSet(), ParamAttrs));
  Kept->setMemoryEffects(MemoryEffects::unknown());
  Kept->setCallingConv(CallingConv::C);
  Kept->setLinkage(GlobalValue::InternalLinkage);
  Kept->setVisibility(GlobalValue::DefaultVisibility);
  Kept->setComdat(nullptr);
  Kept->setDLLStorageClass(GlobalValue::DefaultStorageClass);
  S.Kept = Kept;
}

void addForwardPath(KeptShape &S) {
  Function &Kept = *S.Kept;
  Instruction *At = S.TimedStart;
  IRBuilder<> B(At);
  Instruction *Then =
      SplitBlockAndInsertIfThen(forwardingOn(B), At, /*Unreachable=*/true);
  // The original counts the call and adds its counters to the block.
  IRBuilder<> FB(Then);
  std::vector<Value *> Args;
  for (size_t A = 0; A + 1 < Kept.arg_size(); ++A)
    Args.push_back(Kept.getArg(A));
  CallInst *Call = FB.CreateCall(S.Original, Args);
  Call->setCallingConv(S.Original->getCallingConv());
  if (DISubprogram *SP = Kept.getSubprogram())
    Call->setDebugLoc(DILocation::get(Kept.getContext(), SP->getLine(), 0, SP));
  if (Call->getType()->isVoidTy())
    FB.CreateRetVoid();
  else
    FB.CreateRet(Call);
  Then->eraseFromParent();
}

void addTimedDispatch(KeptShape &S) {
  Function &Kept = *S.Kept;
  Value *Calls = Kept.getArg(Kept.arg_size() - 1);
  Type *I64 = Calls->getType();
  // maybeTimed's two tests as two branches (a compare and a test, each
  // fused with its jump), not one of their `or`; the timed form thins
  // what they let through (timedCall) before it reads the clock.
  auto GoIfTimed = [&](auto Test) {
    Instruction *At = &*Kept.getEntryBlock().getFirstNonPHIOrDbgOrAlloca();
    IRBuilder<> B(At);
    Instruction *Then =
        SplitBlockAndInsertIfThen(Test(B), At, /*Unreachable=*/true);
    IRBuilder<> TB(Then);
    std::vector<Value *> Args;
    for (Argument &A : Kept.args())
      Args.push_back(&A);
    CallInst *Call = TB.CreateCall(S.Timed, Args);
    Call->setTailCall();
    if (DISubprogram *SP = Kept.getSubprogram())
      Call->setDebugLoc(
          DILocation::get(Kept.getContext(), SP->getLine(), 0, SP));
    if (Call->getType()->isVoidTy())
      TB.CreateRetVoid();
    else
      TB.CreateRet(Call);
    Then->eraseFromParent();
  };
  // (The second test goes in first: each split puts its test before the
  // entry's first instruction.)
  GoIfTimed([&](IRBuilder<> &B) {
    return B.CreateICmpEQ(
        B.CreateAnd(Calls, ConstantInt::get(I64, ROOFLINE_TIME_SAMPLE_MASK)),
        ConstantInt::get(I64, 0));
  });
  GoIfTimed([&](IRBuilder<> &B) {
    return B.CreateICmpULT(Calls,
                           ConstantInt::get(I64, ROOFLINE_TIME_ALL_CALLS));
  });
}

namespace {

/// One calling loop's count of one kept function's calls (a stack slot
/// until it is promoted to a register), and the calling kernel's reads of
/// the function's counters: once around the loop instead of around each
/// call.
struct LoopSums {
  const KeptShape *S;
  Value *Base, *Step; ///< the block's calls on entry; 1, or 0 (forwarding)
  AllocaInst *Seen;   ///< Base plus Step per call
  std::vector<std::pair<const GrowthRead *, Value *>> Reads; ///< on entry
  /// Per formula of S (KeptKind::ByCaller): its value per call and its
  /// broken assumptions (0 or 1), worked out on entry when the loop's one
  /// call has the same arguments every time; else their sums over the
  /// calls.
  struct Formula {
    Value *PerCall = nullptr, *BrokenPerCall = nullptr;
    AllocaInst *Sum = nullptr, *BrokenSum = nullptr;
  };
  std::vector<Formula> Formulas;
};

/// The values \p S's formulas name: the arguments of its call \p CI.
FormulaValues formulaValues(const KeptShape &S, const CallInst *CI) {
  FormulaValues Values;
  for (const auto &[Name, No] : S.Parameters)
    if (No < CI->arg_size())
      Values[Name] = CI->getArgOperand(No);
  return Values;
}

/// Whether every argument \p S's formulas name is the same at each call
/// \p CI makes in \p L.
bool sameEveryCall(const KeptShape &S, const CallInst *CI, const Loop &L) {
  FormulaValues Invariant;
  for (const auto &[Name, V] : formulaValues(S, CI))
    if (L.isLoopInvariant(V))
      Invariant[Name] = V;
  return llvm::all_of(S.Formulas, [&](const KeptFormula &K) {
    return polynomialUses(K.Formula, Invariant) &&
           llvm::all_of(K.Conditions, [&](const Condition &C) {
             return conditionUses(C, Invariant);
           });
  });
}

/// The formulas of \p S for the call \p CI, at \p B: per formula its value
/// and, where it has a counter of them, 1 where its assumptions fail (else
/// 0), both times \p Step (when set).
std::vector<std::pair<Value *, Value *>> formulasOf(IRBuilder<> &B,
                                                    const KeptShape &S,
                                                    const CallInst *CI,
                                                    Value *Step) {
  FormulaValues Values = formulaValues(S, CI);
  std::vector<std::pair<Value *, Value *>> Out;
  std::map<std::string, Value *> HoldsOf; // read and written share theirs
  for (const KeptFormula &K : S.Formulas) {
    std::string Key;
    for (const Condition &C : K.Conditions)
      Key += C.str() + "\n";
    Value *&Holds = HoldsOf[Key];
    Value *N = emitConditionalCount(B, K.Formula, K.Conditions, Values, Holds);
    Value *Broken = nullptr;
    if (K.Broken >= 0)
      Broken = B.CreateZExt(B.CreateNot(Holds), B.getInt64Ty());
    if (Step)
      Out.push_back(
          {B.CreateMul(N, Step), Broken ? B.CreateMul(Broken, Step) : nullptr});
    else
      Out.push_back({N, Broken});
  }
  return Out;
}

/// A loop whose calls can be counted in registers: every call in it
/// returns, and its exits can take the code that adds them to the blocks.
bool keepsSums(Loop &L, const std::map<const Function *, KeptShape> &Shapes) {
  if (!L.getLoopPreheader() || !L.hasDedicatedExits())
    return false;
  SmallVector<BasicBlock *, 4> Exits;
  L.getUniqueExitBlocks(Exits);
  for (BasicBlock *E : Exits)
    if (E->getFirstInsertionPt() == E->end() || E->isEHPad())
      return false;
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB)
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (!alwaysReturns(*CB) && !Shapes.count(CB->getCalledFunction()))
          return false;
  return true;
}

/// The calling kernel's reads of the callee's counters around \p CI.
std::vector<const GrowthRead *> readsOf(const CallInst *CI,
                                        const std::vector<GrowthRead> &Reads) {
  std::vector<const GrowthRead *> Out;
  for (const GrowthRead &R : Reads)
    if (R.Call == CI)
      Out.push_back(&R);
  return Out;
}

/// Whether the growth of \p F's block while \p L runs is the work of its
/// call \p CI alone: the loop's only call of F, which no other call of the
/// loop can reach (F's address is not taken, and no other call writes
/// memory but its arguments' and memory the program cannot see).
bool growthIsTheCalls(Loop &L, const CallInst *CI, const Function &F) {
  if (F.hasAddressTaken())
    return false;
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB)
      if (auto *CB = dyn_cast<CallBase>(&I); CB && CB != CI) {
        const Function *Callee = CB->getCalledFunction();
        if (Callee == &F)
          return false;
        if ((Callee && Callee->isIntrinsic()) || CB->onlyReadsMemory() ||
            CB->onlyAccessesInaccessibleMemOrArgMem())
          continue;
        return false;
      }
  return true;
}

/// The kept calls of \p L: direct calls of a kept function (not from
/// itself); an empty list when a calling kernel's reads of a callee's
/// counters cannot be made around the loop.
std::vector<CallInst *>
keptCallsOf(Loop &L, const std::map<const Function *, KeptShape> &Shapes,
            const std::vector<GrowthRead> &Reads) {
  std::vector<CallInst *> Out;
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB)
      if (auto *CI = dyn_cast<CallInst>(&I))
        if (auto It = Shapes.find(CI->getCalledFunction());
            It != Shapes.end() && CI->getFunction() != It->first &&
            !CI->isMustTailCall() && !CI->hasOperandBundles() &&
            CI->getFunctionType() == It->first->getFunctionType() &&
            CI->getCallingConv() == It->first->getCallingConv()) {
          if (!readsOf(CI, Reads).empty() &&
              !growthIsTheCalls(L, CI, *It->first))
            return {};
          Out.push_back(CI);
        }
  return Out;
}

/// The outermost loops of \p L's nest that keep sums and call a kept
/// function.
void findLoops(Loop &L, const std::map<const Function *, KeptShape> &Shapes,
               const std::vector<GrowthRead> &Reads, DominatorTree &DT,
               LoopInfo &LI, std::vector<Loop *> &Out) {
  if (keptCallsOf(L, Shapes, Reads).empty()) {
    for (Loop *Sub : L)
      findLoops(*Sub, Shapes, Reads, DT, LI, Out);
    return;
  }
  // The optimiser may leave a loop out of simplified form: give it the
  // preheader and exits the sums need.
  if (!L.getLoopPreheader())
    InsertPreheaderForLoop(&L, &DT, &LI, nullptr, /*PreserveLCSSA=*/false);
  if (!L.hasDedicatedExits())
    formDedicatedExitBlocks(&L, &DT, &LI, nullptr, /*PreserveLCSSA=*/false);
  if (keepsSums(L, Shapes)) {
    Out.push_back(&L);
    return;
  }
  for (Loop *Sub : L)
    findLoops(*Sub, Shapes, Reads, DT, LI, Out);
}

/// Starts counting \p S's calls in \p L's preheader.
LoopSums startSums(Loop &L, const KeptShape &S, Instruction *EntryAt) {
  LoopSums Sums{&S, nullptr, nullptr, nullptr, {}};
  IRBuilder<> EB(EntryAt);
  Type *I64 = EB.getInt64Ty();
  Sums.Seen = EB.CreateAlloca(I64, nullptr, "roofline.kept.calls");
  IRBuilder<> B(L.getLoopPreheader()->getTerminator());
  // While tracing or modelling caches, every call goes through the
  // original (calls so far 0 is always a timed call: the forward path).
  Value *Forward = forwardingOn(B);
  Value *Calls = B.CreateLoad(I64, blockField(B, S, ROOFLINE_BLOCK_CALLS));
  Sums.Base = B.CreateSelect(Forward, ConstantInt::get(I64, 0), Calls);
  Sums.Step = B.CreateSelect(Forward, ConstantInt::get(I64, 0),
                             ConstantInt::get(I64, 1));
  B.CreateStore(Sums.Base, Sums.Seen);
  Sums.Formulas.resize(S.Formulas.size());
  return Sums;
}

/// \p CI's formulas (KeptKind::ByCaller) into \p Sums: once in the
/// preheader when it is \p Alone (the loop's one call of its function) and
/// its arguments are the same every time, else at the call.
void addFormulas(CallInst *CI, Loop &L, LoopSums &Sums, bool Alone,
                 Instruction *EntryAt) {
  const KeptShape &S = *Sums.S;
  if (S.Formulas.empty())
    return;
  if (Alone && sameEveryCall(S, CI, L)) {
    IRBuilder<> PB(L.getLoopPreheader()->getTerminator());
    auto Values = formulasOf(PB, S, CI, /*Step=*/nullptr);
    for (size_t I = 0; I < Values.size(); ++I)
      std::tie(Sums.Formulas[I].PerCall, Sums.Formulas[I].BrokenPerCall) =
          Values[I];
    return;
  }
  IRBuilder<> EB(EntryAt), PB(L.getLoopPreheader()->getTerminator()), B(CI);
  Type *I64 = B.getInt64Ty();
  auto Values = formulasOf(B, S, CI, Sums.Step);
  for (size_t I = 0; I < Values.size(); ++I) {
    LoopSums::Formula &F = Sums.Formulas[I];
    for (auto [Sum, Add] : {std::pair(&F.Sum, Values[I].first),
                            std::pair(&F.BrokenSum, Values[I].second)}) {
      if (!Add)
        continue; // no counter of broken assumptions
      if (!*Sum) {
        *Sum = EB.CreateAlloca(I64, nullptr, "roofline.kept.formula");
        PB.CreateStore(ConstantInt::get(I64, 0), *Sum);
      }
      B.CreateStore(B.CreateAdd(B.CreateLoad(I64, *Sum), Add), *Sum);
    }
  }
}

/// Replaces \p CI by a call of the kept function, counted in \p Sums; the
/// calling kernel's reads around it move to the loop's entry and exits.
CallInst *keepCall(CallInst *CI, Loop &L, LoopSums &Sums,
                   const std::vector<GrowthRead> &Reads) {
  const KeptShape &S = *Sums.S;
  IRBuilder<> B(CI);
  Type *I64 = B.getInt64Ty();
  Value *Seen = B.CreateLoad(I64, Sums.Seen);
  std::vector<Value *> Args(CI->arg_begin(), CI->arg_end());
  Args.push_back(Seen);
  CallInst *New = B.CreateCall(S.Kept, Args);
  New->setDebugLoc(CI->getDebugLoc());
  AttributeList Attrs = CI->getAttributes();
  std::vector<AttributeSet> ParamAttrs;
  for (unsigned A = 0; A < CI->arg_size(); ++A)
    ParamAttrs.push_back(Attrs.getParamAttrs(A));
  New->setAttributes(AttributeList::get(CI->getContext(), AttributeSet(),
                                        Attrs.getRetAttrs(), ParamAttrs));
  B.CreateStore(B.CreateAdd(Seen, Sums.Step), Sums.Seen);
  IRBuilder<> PB(L.getLoopPreheader()->getTerminator());
  for (const GrowthRead *R : readsOf(CI, Reads)) {
    Value *P = blockField(PB, S, ROOFLINE_BLOCK_COUNTERS + R->Counter);
    Sums.Reads.push_back({R, PB.CreateLoad(I64, P, "roofline.kept.entry")});
    // The count of the growth goes (no register of its counter is then
    // carried around the loop); any other use adds 0.
    for (User *U : make_early_inc_range(R->Growth->users()))
      if (std::optional<CountOperation> C =
              asCountOperation(*cast<Instruction>(U));
          C && C->Step == R->Growth)
        C->Call->eraseFromParent();
    R->Growth->replaceAllUsesWith(ConstantInt::get(I64, 0));
    R->Growth->eraseFromParent();
    for (Instruction *Load : {R->After, R->Before})
      RecursivelyDeleteTriviallyDeadInstructions(Load);
  }
  CI->replaceAllUsesWith(New);
  CI->eraseFromParent();
  return New;
}

/// At \p At (an exit of the loop): the loop's calls into the block, and
/// the callee's growth into the calling kernel's counters.
void addSums(Instruction *At, const LoopSums &Sums) {
  const KeptShape &S = *Sums.S;
  IRBuilder<> B(At);
  Type *I64 = B.getInt64Ty();
  // Frozen: to the code generator's strength reduction the count is then
  // not the loop's induction variable, whose products below it would
  // otherwise carry through the loop, a register and an add per call each
  // (`tiny` in bench/kernels.cpp: 71.7 -> 67.7 instructions a call).
  Value *Calls =
      B.CreateFreeze(B.CreateSub(B.CreateLoad(I64, Sums.Seen), Sums.Base));
  for (size_t I = 0; I < S.Kinds.size(); ++I)
    if (S.Kinds[I] == KeptKind::PerCall)
      addToCounter(B, S, I, Calls);
  // Each formula: its value per call times the calls, or its sum.
  auto Total = [&](Value *PerCall, AllocaInst *Sum) -> Value * {
    return PerCall ? B.CreateMul(PerCall, Calls) : B.CreateLoad(I64, Sum);
  };
  for (size_t I = 0; I < S.Formulas.size(); ++I) {
    const LoopSums::Formula &F = Sums.Formulas[I];
    if (!F.PerCall && !F.Sum)
      continue;
    addToCounter(B, S, S.Formulas[I].Counter, Total(F.PerCall, F.Sum));
    if (S.Formulas[I].Broken >= 0)
      addToCounter(B, S, S.Formulas[I].Broken,
                   Total(F.BrokenPerCall, F.BrokenSum));
  }
  // (After the counters that run once per call are in the block: they
  // are part of the growth.)
  for (auto [R, OnEntry] : Sums.Reads) {
    Value *Now = B.CreateLoad(
        I64, blockField(B, S, ROOFLINE_BLOCK_COUNTERS + R->Counter));
    emitCount(B, R->Into, B.CreateSub(Now, OnEntry));
  }
  Value *P = blockField(B, S, ROOFLINE_BLOCK_CALLS);
  Value *Old = B.CreateLoad(I64, P);
  B.CreateStore(B.CreateAdd(Old, Calls), P);
  // The thread's first calls: the runtime learns of its block.
  Value *First = B.CreateAnd(B.CreateICmpEQ(Old, ConstantInt::get(I64, 0)),
                             B.CreateICmpNE(Calls, ConstantInt::get(I64, 0)));
  Instruction *Then = SplitBlockAndInsertIfThen(First, At, false);
  Module &M = *At->getModule();
  LLVMContext &Ctx = M.getContext();
  FunctionCallee Register = M.getOrInsertFunction(
      RegisterThreadFn, Type::getVoidTy(Ctx), PointerType::getUnqual(Ctx),
      PointerType::getUnqual(Ctx));
  IRBuilder<> TB(Then);
  TB.CreateCall(Register, {S.Desc, TB.CreateThreadLocalAddress(S.TLS)});
}

} // namespace

std::map<CallBase *, CallInst *>
keepCallsIn(Function &G, const std::map<const Function *, KeptShape> &Shapes,
            const std::vector<GrowthRead> &Reads) {
  std::map<CallBase *, CallInst *> Replaced;
  if (Shapes.empty() || G.isDeclaration())
    return Replaced;
  DominatorTree DT(G);
  LoopInfo LI(DT);
  std::vector<Loop *> Loops;
  for (Loop *L : LI)
    findLoops(*L, Shapes, Reads, DT, LI, Loops);
  if (Loops.empty())
    return Replaced;
  Instruction *EntryAt = &*G.getEntryBlock().getFirstInsertionPt();
  // Preheaders and calls first, then the exits: an exit may be another
  // loop's preheader, whose code must stay before its branch.
  std::vector<std::pair<Loop *, std::vector<LoopSums>>> Done;
  std::vector<AllocaInst *> Promoted;
  for (Loop *L : Loops) {
    std::map<const Function *, size_t> Index;
    std::vector<LoopSums> All;
    std::vector<CallInst *> Calls = keptCallsOf(*L, Shapes, Reads);
    for (CallInst *CI : Calls) {
      const Function *Callee = CI->getCalledFunction();
      auto [It, New] = Index.try_emplace(Callee, All.size());
      if (New)
        All.push_back(startSums(*L, Shapes.at(Callee), EntryAt));
      bool Alone = llvm::count_if(Calls, [&](const CallInst *O) {
                     return O->getCalledFunction() == Callee;
                   }) == 1;
      addFormulas(CI, *L, All[It->second], Alone, EntryAt);
      Replaced[CI] = keepCall(CI, *L, All[It->second], Reads);
    }
    for (const LoopSums &S : All) {
      Promoted.push_back(S.Seen);
      for (const LoopSums::Formula &F : S.Formulas)
        for (AllocaInst *Sum : {F.Sum, F.BrokenSum})
          if (Sum)
            Promoted.push_back(Sum);
    }
    Done.push_back({L, std::move(All)});
  }
  for (auto &[L, All] : Done) {
    SmallVector<BasicBlock *, 4> Exits;
    L->getUniqueExitBlocks(Exits);
    for (BasicBlock *E : Exits)
      for (const LoopSums &S : All)
        addSums(&*E->getFirstInsertionPt(), S);
  }
  DominatorTree FreshDT(G);
  PromoteMemToReg(Promoted, FreshDT);
  return Replaced;
}

} // namespace roofline
