//===- CalleeCounts.cpp - A call's work in its caller's counts ------------===//
#include "CalleeCounts.h"

#include "roofline/Analysis/CostModel.h"

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SCCIterator.h"
#include "llvm/Analysis/CallGraph.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace roofline {

namespace {

const Function *calleeOf(const CallBase &CB) {
  if (const Function *Body = CalleeCounts::forkedBody(CB))
    return Body;
  return CostModel::isCountedCallee(CB) ? CB.getCalledFunction() : nullptr;
}

/// A call whose work is counted through a callee that is not here, or not
/// counted at all: a declaration other than a counted math function or
/// intrinsic, or a call through a pointer.
bool callsElsewhere(const CallBase &CB) {
  const Function *Callee = CB.getCalledFunction();
  if (!Callee)
    return !CB.isInlineAsm();
  // A call that does not return (abort, a throw) ends the work it is in.
  if (Callee->isIntrinsic() || !Callee->isDeclaration() || CB.doesNotReturn())
    return false;
  FlopClass Class;
  bool Free;
  if (classifyMathFunction(Callee->getName(), Class, Free))
    return false; // counted as the math function it is
  // The OpenMP runtime's bookkeeping (a loop's schedule, a reduction's
  // lock) does no work of the user's; a parallel region does.
  StringRef Name = Callee->getName();
  if (Name.starts_with("__kmpc_") && !Name.starts_with("__kmpc_fork"))
    return false;
  return !Name.starts_with("__roofline") && !Name.starts_with("omp_");
}

/// How a call that is not counted is named in the record.
std::string uncountedName(const CallBase &CB) {
  const Function *Callee = CB.getCalledFunction();
  if (!Callee)
    return "a function pointer";
  StringRef Name = Callee->getName();
  if (Name.starts_with("__kmpc_fork"))
    return "an OpenMP parallel region (its outlined body is not instrumented)";
  return demangle(Name);
}

/// A callee whose block the caller may read: this module's copy is the one
/// that runs (not a linkonce or weak definition another object's copy may
/// replace at link time, whose block would never grow).
bool runsThisCopy(const Function &F) {
  return F.hasLocalLinkage() || F.isDefinitionExact();
}

} // namespace

const Function *CalleeCounts::forkedBody(const CallBase &CB) {
  // __kmpc_fork_call(ident, argc, microtask, args...), and the same for
  // __kmpc_fork_teams.
  const Function *Fork = CB.getCalledFunction();
  if (!Fork || !Fork->isDeclaration() || CB.arg_size() < 3)
    return nullptr;
  StringRef Name = Fork->getName();
  if (Name != "__kmpc_fork_call" && Name != "__kmpc_fork_teams")
    return nullptr;
  auto *Body = dyn_cast<Function>(CB.getArgOperand(2)->stripPointerCasts());
  return Body && !Body->isDeclaration() ? Body : nullptr;
}

CalleeCounts::CalleeCounts(Module &M, FunctionAnalysisManager &FAM,
                           const std::function<bool(Function &)> &IsTarget,
                           const std::function<bool(Function &)> &CanInstrument) {
  // Components, callees first: the order in which functions are
  // instrumented, so that a caller finds its callees' blocks.
  CallGraph CG(M);
  unsigned Next = 0;
  std::vector<std::vector<Function *>> Components;
  for (scc_iterator<CallGraph *> I = scc_begin(&CG); !I.isAtEnd(); ++I) {
    std::vector<Function *> C;
    for (CallGraphNode *N : *I)
      if (Function *F = N->getFunction(); F && !F->isDeclaration()) {
        C.push_back(F);
        Component[F] = Next;
        Members[Next].push_back(F);
      }
    ++Next;
    Components.push_back(std::move(C));
  }
  // Which functions are instrumented: the targets, and every callee of an
  // instrumented function that has no fixed cost (transitively).
  std::set<Function *> Targets, Needed;
  std::vector<Function *> Work;
  for (Function &F : M)
    if (!F.isDeclaration() && IsTarget(F)) {
      Targets.insert(&F);
      Work.push_back(&F);
    }
  while (!Work.empty()) {
    Function *F = Work.back();
    Work.pop_back();
    for (Instruction &I : instructions(*F)) {
      auto *CB = dyn_cast<CallBase>(&I);
      const Function *C = CB ? calleeOf(*CB) : nullptr;
      if (!C)
        continue;
      Function *Callee = const_cast<Function *>(C);
      // A parallel region's body runs once per thread: never a fixed cost.
      bool Forked = forkedBody(*CB) != nullptr;
      if ((!Forked && fixedCostOf(*Callee, FAM)) || Targets.count(Callee) ||
          Needed.count(Callee))
        continue;
      if (!CanInstrument(*Callee) || !runsThisCopy(*Callee))
        continue; // uncounted(), with its reason
      Needed.insert(Callee);
      Work.push_back(Callee);
    }
  }
  for (Function *F : Targets)
    Instrumentable.insert(F);
  for (Function *F : Needed)
    Instrumentable.insert(F);
  for (const std::vector<Function *> &C : Components)
    for (Function *F : C)
      if (Instrumentable.count(F))
        Order.push_back({F, Targets.count(F) > 0});
}

std::optional<CostVector> CalleeCounts::fixedCostOf(Function &F,
                                                   FunctionAnalysisManager &FAM) {
  if (auto It = Fixed.find(&F); It != Fixed.end())
    return It->second;
  if (!Visiting.insert(&F).second)
    return std::nullopt; // recursion: not fixed
  std::optional<CostVector> Result;
  LoopInfo &LI = FAM.getResult<LoopAnalysis>(F);
  if (LI.empty()) {
    PostDominatorTree &PDT = FAM.getResult<PostDominatorTreeAnalysis>(F);
    CostModel CM(F, &FAM.getResult<TargetIRAnalysis>(F));
    CostVector Total;
    bool Fixed = true;
    BasicBlock &Entry = F.getEntryBlock();
    for (BasicBlock &BB : F) {
      bool Always = PDT.dominates(&BB, &Entry);
      for (Instruction &I : BB) {
        OpCost C = CM.costOf(I);
        CostVector Cost = C.Fixed;
        if (auto *CB = dyn_cast<CallBase>(&I))
          if (const Function *Callee = calleeOf(*CB)) {
            if (forkedBody(*CB)) { // once per thread of the team
              Fixed = false;
              break;
            }
            auto Sub = fixedCostOf(const_cast<Function &>(*Callee), FAM);
            if (!Sub) {
              Fixed = false;
              break;
            }
            Cost += *Sub;
          }
        bool Any = !C.Variable.empty();
        for (unsigned S = 0; S < NumSlots && !Any; ++S)
          Any = Cost.Slots[S] != 0;
        // A cycle LoopInfo cannot see, or a counted instruction that runs
        // on some calls only: measured instead.
        if (Any && (!Always || !C.Variable.empty())) {
          Fixed = false;
          break;
        }
        // Instructions are not work: a branch of control alone leaves the
        // callee fixed, and its instructions on some calls uncounted.
        if (!Always)
          Cost.Instructions = 0;
        Total += Cost;
      }
      if (!Fixed)
        break;
    }
    // Without natural loops, any cycle is irreducible: a block that
    // repeats does not run once per call.
    DenseMap<const BasicBlock *, unsigned> Order;
    for (BasicBlock *BB : ReversePostOrderTraversal<Function *>(&F))
      Order[BB] = Order.size();
    for (BasicBlock &BB : F)
      for (BasicBlock *S : successors(&BB))
        if (Order.count(&BB) && Order.count(S) && Order[S] <= Order[&BB])
          Fixed = false;
    if (Fixed)
      Result = Total;
  }
  Visiting.erase(&F);
  Fixed[&F] = Result;
  return Result;
}

const CostVector *CalleeCounts::fixedCost(const CallBase &CB) const {
  const Function *Callee = calleeOf(CB);
  if (!Callee || forkedBody(CB))
    return nullptr;
  auto It = Fixed.find(Callee);
  return It != Fixed.end() && It->second ? &*It->second : nullptr;
}

std::vector<const CalleeCounts::Block *>
CalleeCounts::measured(const CallBase &CB) const {
  const Function *Callee = countedAs(calleeOf(CB));
  if (!Callee || fixedCost(CB))
    return {};
  auto Own = Component.find(CB.getFunction());
  auto Theirs = Component.find(Callee);
  if (Theirs == Component.end() ||
      (Own != Component.end() && Own->second == Theirs->second))
    return {};
  // The runtime sums one body's blocks over the threads at a time.
  if (forkedBody(CB) && Members.at(Theirs->second).size() != 1)
    return {};
  std::vector<const Block *> Out;
  for (const Function *F : Members.at(Theirs->second)) {
    auto It = Blocks.find(F);
    if (!runsThisCopy(*F))
      return {};
    if (It == Blocks.end())
      return {}; // a member without counters: the call is uncounted
    Out.push_back(&It->second);
  }
  return Out;
}

std::string CalleeCounts::uncounted(const CallBase &CB) const {
  if (callsElsewhere(CB) && !forkedBody(CB))
    return uncountedName(CB);
  const Function *Callee = calleeOf(CB);
  if (!Callee || fixedCost(CB))
    return "";
  auto Own = Component.find(CB.getFunction());
  auto Theirs = Component.find(Callee);
  if (Own != Component.end() && Theirs != Component.end() &&
      Own->second == Theirs->second)
    return ""; // recursion: counted by the outermost call's reader
  return measured(CB).empty() ? uncountedName(CB) : "";
}

} // namespace roofline
