//===- FootprintCounters.cpp - A call's distinct bytes, counted ----------===//
//
// Which footprint a function's calls count (docs/counting.md, "Footprints"):
// none when its counted bytes are its footprint already; its own formulas,
// evaluated from the arguments at each entry; and an inlined kernel's,
// from the summary its entry marker carries and the argument values its
// debug records give.
//
//===----------------------------------------------------------------------===//
#include "CounterPlacement.h"
#include "Descriptors.h"
#include "FormulaCode.h"

#include "roofline/Runtime/CostKinds.h"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace roofline {

bool footprintIsCounted(const StaticFormulas &SF, const Function &F) {
  // Equal formulas under the footprint's own assumptions are not equal
  // bytes in a call that breaks one (overlapping rows): that call must
  // test them.
  if (!SF.FootprintExact || SF.FootprintAssumes ||
      SF.FootprintRead != SF.Load || SF.FootprintWritten != SF.Store)
    return false;
  for (const Instruction &I : instructions(F)) {
    Type *T = nullptr;
    if (auto *L = dyn_cast<LoadInst>(&I))
      T = L->getType();
    else if (auto *St = dyn_cast<StoreInst>(&I))
      T = St->getValueOperand()->getType();
    else if (isa<MemIntrinsic>(&I))
      return false; // a memcpy's length is counted, its bytes maybe twice
    else if (auto *CB = dyn_cast<CallBase>(&I))
      T = CB->getType(); // a masked load or gather returns a vector
    if (T && T->isVectorTy())
      return false;
    if (auto *CB = dyn_cast<CallBase>(&I))
      for (const Value *A : CB->args())
        if (A->getType()->isVectorTy())
          return false; // a masked store or scatter takes one
  }
  return true;
}

bool CounterPlacement::takeOwnFootprint(const StaticFormulas &SF) {
  if (!SF.FootprintFormula[0] || !SF.FootprintFormula[1] || !SF.FootprintTests)
    return false;
  std::map<std::string, Value *> Arguments;
  for (unsigned A = 0; A < SF.Params.size() && A < F.arg_size(); ++A)
    Arguments[SF.Params[A]] = F.getArg(A);
  if (!polynomialUses(*SF.FootprintFormula[0], Arguments) ||
      !polynomialUses(*SF.FootprintFormula[1], Arguments))
    return false; // an unknown trip, say: not from the arguments alone
  // Each call tests the assumptions the formulas hold under; a call that
  // breaks one adds 0 (the sum is then a lower bound).
  for (const Condition &C : *SF.FootprintTests)
    if (!conditionUses(C, Arguments))
      return false;
  OwnFootprint[0] = SF.FootprintFormula[0];
  OwnFootprint[1] = SF.FootprintFormula[1];
  OwnFootprintConditions = *SF.FootprintTests;
  Out.Arguments = std::move(Arguments);
  return true;
}

void CounterPlacement::addInlinedFootprint(uint32_t P) {
  Part &Pt = Parts[P];
  if (Pt.Entries < 0 || Counters[Pt.Entries].Markers.empty())
    return;
  std::vector<
      std::pair<Instruction *, std::map<std::string, DbgVariableRecord *>>>
      Sites;
  const CarriedKernel *First = nullptr;
  for (Instruction *M : Counters[Pt.Entries].Markers) {
    const CarriedKernel *K = In.Carried->kernelOf(*M);
    if (!K || (First && K != First))
      return; // no summary, or copies that disagree
    First = K;
    InlinedFunctions::EntryArguments Args =
        InlinedFunctions::entryArguments(*M);
    if (!Args.Use)
      return; // an entry without its values: none of its footprint
    std::vector<std::string> Names = carriedParameterNames(*M);
    std::map<std::string, DbgVariableRecord *> ByName;
    for (const auto &[No, R] : Args.ByNumber) {
      // A debug record may name a value that no longer dominates it (the
      // optimiser moved its definition): not a value the code can use.
      bool Dominates = llvm::all_of(R->location_ops(), [&](Value *V) {
        auto *I = dyn_cast_or_null<Instruction>(V);
        return !I || DT.dominates(I, Args.Use);
      });
      if (No < Names.size() && Dominates)
        ByName[Names[No]] = R;
    }
    Sites.push_back({Args.Use, std::move(ByName)});
  }
  bool Exact = First->FootprintExact;
  // The formulas hold under the analysis's assumptions (a guard's bound):
  // each entry tests them, and one that breaks them adds 0, so the sum is
  // a lower bound.
  std::optional<std::vector<Condition>> Conditions =
      conditionsOf(First->Assumptions);
  if (!Conditions)
    return; // an assumption that is not a condition: none can test it
  const std::optional<Polynomial> *Formula = First->Footprint;
  for (unsigned A = 0; A < 2; ++A) {
    if (!Formula[A])
      return;
    for (const auto &Site : Sites) {
      FormulaValues Known;
      for (const auto &[Name, R] : Site.second)
        Known[Name] = R->getVariableLocationOp(0);
      if (!polynomialUses(*Formula[A], Known))
        return; // an unknown trip, say: not from the arguments alone
      for (const Condition &C : *Conditions)
        if (!conditionUses(C, Known))
          return; // an assumption the entry cannot test
    }
  }
  Pt.FootprintKind = Exact ? 1 : 2;
  if (!Conditions->empty()) {
    Counter B;
    B.K = Counter::Kind::Elsewhere; // by the footprint's code
    B.Block = Sites.front().first->getParent();
    Pt.FootprintBroken = newCounter(B);
  }
  for (Access A : {Access::Load, Access::Store}) {
    Pt.Footprint[unsigned(A)] = *Formula[unsigned(A)];
    Counter C;
    C.K = Counter::Kind::Formula;
    C.Block = Sites.front().first->getParent();
    C.Formula = *Formula[unsigned(A)];
    C.FormulaSites = Sites;
    C.Conditions = *Conditions;
    C.Broken = A == Access::Load ? Pt.FootprintBroken : -1;
    Costs.push_back({uint32_t(Counters.size()), footprintSlot(A), 1, P, 0});
    newCounter(C);
  }
}

void CounterPlacement::addOwnFootprint() {
  // The footprint: one counter per direction, its formula added per call.
  int &Broken = Out.Layout.FootprintBroken;
  if (OwnFootprint[0] && !OwnFootprintConditions.empty()) {
    Counter B;
    B.K = Counter::Kind::Elsewhere; // by the footprint's code
    B.Block = &F.getEntryBlock();
    Broken = newCounter(B);
  }
  for (Access A : {Access::Load, Access::Store})
    if (OwnFootprint[unsigned(A)]) {
      Counter C;
      C.K = Counter::Kind::Formula;
      C.Block = &F.getEntryBlock();
      C.Formula = OwnFootprint[unsigned(A)];
      C.Conditions = OwnFootprintConditions;
      C.Broken = A == Access::Load ? Broken : -1;
      Costs.push_back({uint32_t(Counters.size()), footprintSlot(A), 1, 0, 0});
      newCounter(C);
    }
}

} // namespace roofline
