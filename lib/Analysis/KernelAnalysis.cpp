//===- KernelAnalysis.cpp - Per-kernel static counts ----------------------===//
//
// A function's counts: the mass flow over its body (MassFlow.cpp) with the
// loops' trip counts (TripCounts.cpp) and the assumed guards (Guards.cpp),
// then the notes and the assumptions that are not implied by others.
//
//===----------------------------------------------------------------------===//
#include "FunctionAnalyzer.h"

#include "roofline/Analysis/CostModel.h"
#include "roofline/Analysis/DeviceCode.h"
#include "roofline/Analysis/SCEVPolynomial.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Analysis/BranchProbabilityInfo.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DebugProgramInstruction.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/Regex.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/TargetParser/Triple.h"
#include <cmath>
#include <set>

using namespace llvm;

namespace roofline {

namespace detail {

FunctionCounts FunctionAnalyzer::run() {
  FunctionCounts FC;
  FC.Params = Params;
  for (Loop *Top : LI)
    findLoopGuard(Top);
  Region R = buildRegion(nullptr);
  FC.Totals = regionTotal(R, nullptr, false);
  // At -O0 the code analysed is an optimised copy: its instructions are
  // not those that run.
  if (!CM.countsInstructions() || F.hasFnAttribute(CostModel::UnoptimizedAttr))
    FC.Totals.Instructions = Polynomial::atom(Atom::unknown());
  FC.Footprint.Total = footprintOf(nullptr, &FC.Footprint);
  // A nest with all of the function's accesses has its footprint: the
  // common case of one nest, read once.
  for (size_t I = 0; I < TopLoops.size(); ++I)
    TopLoops[I].Footprint = holdsEveryAccess(TopLoopNests[I])
                                ? FC.Footprint.Total
                                : footprintOf(TopLoopNests[I]);
  std::sort(TopLoops.begin(), TopLoops.end(),
            [](const LoopSummary &A, const LoopSummary &B) {
              return std::tie(A.Line, A.Column) < std::tie(B.Line, B.Column);
            });
  FC.Loops = std::move(TopLoops);
  if (FC.Totals.UpperBound)
    note("masked, gather or scatter accesses count every lane (an upper "
         "bound)");
  if (!FC.Totals.Unknown.empty())
    note("some operations are not understood by the cost model (see "
         "'unknown')");
  // A trip count's range condition that an assumed guard implies (the
  // guard 'n > 0' and the count's 'n - 1 >= 0') is not stated again.
  // Nor one that a condition already stated implies ('n >= 1' and
  // 'n - 1 >= 0').
  auto Implies = [](const Polynomial &Fact, const Polynomial &C) {
    if (!Fact.isValid() || !C.isValid())
      return false;
    auto Gap = (C - Fact).constantValue();
    return Gap && Gap->isValid() && Gap->num() >= 0;
  };
  for (size_t I = 0; I < LoopConditions.size(); ++I) {
    const Polynomial &C = LoopConditions[I].Value;
    bool Implied = false;
    for (const Polynomial &Fact : GuardFacts)
      Implied |= Implies(Fact, C);
    if (!Implied && !LoopConditions[I].ThreadNote.empty()) {
      // A thread-index condition may follow from two facts together: the
      // first step of a grid-stride loop stays in range because the start
      // is below n (the guard) and n + stride is (a stated condition).
      std::vector<Polynomial> Facts = GuardFacts;
      for (const LoopCondition &D : LoopConditions)
        if (D.ThreadNote.empty())
          Facts.push_back(D.Value);
      for (size_t A = 0; A < Facts.size() && !Implied; ++A)
        for (size_t B = A; B < Facts.size() && !Implied; ++B)
          Implied = Implies(Facts[A], C) || Implies(Facts[A] + Facts[B], C);
      if (!Implied) {
        note(LoopConditions[I].ThreadNote);
        continue;
      }
    }
    // By another condition: a stronger one, or an equal one stated first.
    for (size_t J = 0; J < LoopConditions.size() && !Implied; ++J) {
      const Polynomial &D = LoopConditions[J].Value;
      if (J != I && LoopConditions[J].ThreadNote.empty() && Implies(D, C) &&
          (!Implies(C, D) || J < I))
        Implied = true;
    }
    if (!Implied)
      Assumptions.insert(LoopConditions[I].Text);
  }
  FC.Exact = Exact;
  FC.Notes.assign(Notes.begin(), Notes.end());
  FC.Assumptions.assign(Assumptions.begin(), Assumptions.end());
  return FC;
}

} // namespace detail

using detail::FunctionAnalyzer;

KernelAnalysis::~KernelAnalysis() = default;

const FunctionCounts *KernelAnalysis::counts(Function &F) {
  auto It = Cache.find(&F);
  if (It != Cache.end())
    return It->second.get(); // null while F is on the stack: recursion
  Cache[&F] = nullptr;
  FunctionAnalyzer A(F, Get(F), *this);
  auto FC = std::make_unique<FunctionCounts>(A.run());
  const FunctionCounts *Result = FC.get();
  Cache[&F] = std::move(FC);
  return Result;
}

bool KernelAnalysis::isKernel(const Function &F) {
  if (F.isDeclaration() || F.hasAvailableExternallyLinkage())
    return false;
  StringRef Name = F.getName();
  if (Name.starts_with("__roofline") || Name.starts_with("__nv_") ||
      Name.starts_with("__cuda") || Name.starts_with("__clang") ||
      F.hasFnAttribute(Attribute::Naked))
    return false;
  if (isDeviceModule(*F.getParent()))
    return isDeviceKernel(F);
  return true; // the caller checks for work in loops
}

KernelSummary KernelAnalysis::summarize(Function &F,
                                        const Function &Original) {
  const FunctionCounts *FC = counts(F);
  KernelSummary K;
  K.Name = Original.getName().str();
  K.DisplayName = demangle(K.Name);
  Triple T(Original.getParent()->getTargetTriple());
  K.IsGPU = isDeviceModule(*Original.getParent());
  K.Kind = kernelKind(*Original.getParent());
  K.Per = K.IsGPU ? "thread" : "call";
  K.Target = T.str();
  if (K.IsGPU) {
    Attribute CPU = Original.getFnAttribute("target-cpu");
    if (CPU.isValid())
      K.Target += " " + CPU.getValueAsString().str();
  }
  if (const DISubprogram *SP = Original.getSubprogram()) {
    K.File = SP->getFilename().str();
    if (!SP->getDirectory().empty() && !sys::path::is_absolute(K.File))
      K.File = (SP->getDirectory() + "/" + K.File).str();
    K.Line = SP->getLine();
  }
  K.Params = FC->Params;
  K.Totals = FC->Totals;
  K.Exact = FC->Exact;
  K.Notes = FC->Notes;
  K.Assumptions = FC->Assumptions;
  K.Loops = FC->Loops;
  K.Footprint = FC->Footprint;
  if (K.IsGPU)
    K.Assumptions.insert(K.Assumptions.begin(),
                         "counts are per thread that passes the kernel's "
                         "index guards");
  return K;
}

} // namespace roofline
