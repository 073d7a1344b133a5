//===- KernelAnalysis.cpp - Per-kernel static counts ----------------------===//
//
// A function's counts: the mass flow over its body (MassFlow.h) with the
// loops' trip counts (TripCounts.h) and the assumed guards (Guards.h), its
// footprint (Footprint.h), then the notes and the assumptions that are not
// implied by others.
//
//===----------------------------------------------------------------------===//
#include "Footprint.h"
#include "FunctionAnalyzer.h"
#include "Guards.h"
#include "MassFlow.h"
#include "TripCounts.h"

#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Path.h"
#include "llvm/TargetParser/Triple.h"

#include <algorithm>

using namespace llvm;

namespace roofline {

namespace detail {

/// Fact >= 0 implies C >= 0: C - Fact is a constant >= 0, or C is
/// k*floor(N/D) + c (k, D > 0, c >= 0) and Fact implies N >= 0 (a
/// lane-stride loop's backedge count floor((n - lane - 1)/4) by the guard
/// lane < n).
static bool implies(const Polynomial &Fact, const Polynomial &C) {
  if (!Fact.isValid() || !C.isValid())
    return false;
  auto Gap = (C - Fact).constantValue();
  if (Gap && Gap->isValid() && Gap->num() >= 0)
    return true;
  std::optional<Atom> Floor;
  for (const auto &[M, K] : C.terms()) {
    if (M.empty()) {
      if (K.num() < 0)
        return false;
      continue;
    }
    if (Floor || M.size() != 1 || M[0].second != 1 || K.num() <= 0 ||
        M[0].first.kind() != AtomKind::Floor || !M[0].first.numerator())
      return false;
    Floor = M[0].first;
  }
  if (!Floor)
    return false;
  auto D = Floor->divisor()->constantValue();
  return D && D->num() > 0 && implies(Fact, *Floor->numerator());
}

/// A range condition that an assumed guard implies (the guard 'n > 0' and
/// the count's 'n - 1 >= 0') is not stated again. Nor one that a condition
/// already stated implies ('n >= 1' and 'n - 1 >= 0').
static void stateRangeConditions(Findings &Found,
                                 const std::vector<Polynomial> &GuardFacts) {
  const std::vector<RangeCondition> &Conditions = Found.RangeConditions;
  auto Implies = implies;
  for (size_t I = 0; I < Conditions.size(); ++I) {
    const Polynomial &C = Conditions[I].Value;
    bool Implied = false;
    for (const Polynomial &Fact : GuardFacts)
      Implied |= Implies(Fact, C);
    if (!Implied && !Conditions[I].ThreadNote.empty()) {
      // A thread-index condition may follow from two facts together: the
      // first step of a grid-stride loop stays in range because the start
      // is below n (the guard) and n + stride is (a stated condition).
      std::vector<Polynomial> Facts = GuardFacts;
      for (const RangeCondition &D : Conditions)
        if (D.ThreadNote.empty())
          Facts.push_back(D.Value);
      for (size_t A = 0; A < Facts.size() && !Implied; ++A)
        for (size_t B = A; B < Facts.size() && !Implied; ++B)
          Implied = Implies(Facts[A], C) || Implies(Facts[A] + Facts[B], C);
      if (!Implied) {
        Found.note(Conditions[I].ThreadNote);
        continue;
      }
    }
    // By another condition: a stronger one, or an equal one stated first.
    for (size_t J = 0; J < Conditions.size() && !Implied; ++J) {
      const Polynomial &D = Conditions[J].Value;
      if (J != I && Conditions[J].ThreadNote.empty() && Implies(D, C) &&
          (!Implies(C, D) || J < I))
        Implied = true;
    }
    if (!Implied)
      Found.assume(Conditions[I].Stated);
  }
}

FunctionCounts FunctionAnalyzer::run() {
  FunctionScope S(F, LI, SE, CM);
  Findings Found;
  ZeroTripGuards ZeroTrip(S);
  TripCounts Trips(S, ZeroTrip, Found);
  GuardAssumptions Guards(S, ZeroTrip, Trips, Found);
  MassFlow::Result Flow =
      MassFlow(S, ZeroTrip, Trips, Guards, Owner, GetBPI, Found).run();

  FunctionCounts FC;
  FC.Params = S.Params;
  FC.Totals = std::move(Flow.Totals);
  // At -O0 the code analysed is an optimised copy: its instructions are
  // not those that run.
  if (!CM.countsInstructions() || F.hasFnAttribute(CostModel::UnoptimizedAttr))
    FC.Totals.Instructions = Polynomial::atom(Atom::unknown());
  FootprintAnalysis Footprint(S, Owner, Trips.counts(), Flow, Guards.asserted(),
                              Found.RangeConditions);
  FC.Footprint.Total = Footprint.footprintOf(nullptr, &FC.Footprint);
  // A nest with all of the function's accesses has its footprint: the
  // common case of one nest, read once.
  std::vector<LoopSummary> &Rows = Flow.TopLoops;
  for (size_t I = 0; I < Rows.size(); ++I)
    Rows[I].Footprint = Footprint.holdsEveryAccess(Flow.TopLoopNests[I])
                            ? FC.Footprint.Total
                            : Footprint.footprintOf(Flow.TopLoopNests[I]);
  std::sort(Rows.begin(), Rows.end(),
            [](const LoopSummary &A, const LoopSummary &B) {
              return std::tie(A.Line, A.Column) < std::tie(B.Line, B.Column);
            });
  FC.Loops = std::move(Rows);
  if (FC.Totals.UpperBound)
    Found.note("masked, gather or scatter accesses count every lane (an "
               "upper bound)");
  if (!FC.Totals.Unknown.empty())
    Found.note("some operations are not understood by the cost model (see "
               "'unknown')");
  stateRangeConditions(Found, Guards.facts());
  FC.Exact = Found.Exact;
  FC.Notes.assign(Found.Notes.begin(), Found.Notes.end());
  FC.Assumptions = std::move(Found.Assumptions);
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
                         Assumption::words("counts are per thread that passes "
                                           "the kernel's index guards"));
  return K;
}

} // namespace roofline
