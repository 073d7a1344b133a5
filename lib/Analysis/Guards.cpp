//===- Guards.cpp - Assumed branches and their conditions -----------------===//
//
// A branch whose condition depends only on parameters and GPU indices and
// that merely skips work is a guard: the work is assumed to run and the
// condition, a Condition in the parameters, is an assumption of the counts.
// Equalities on the thread index and conditions nobody could check are
// never assumed.
//
//===----------------------------------------------------------------------===//
#include "Guards.h"

#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/PatternMatch.h"

using namespace llvm;

namespace roofline::detail {

/// Depends only on parameters, constants and GPU thread/block indices:
/// the same answer whatever the data in memory.
/// With \p SE, induction variables (add recurrences) are accepted too.
bool isParameterOnly(const Value *V, ScalarEvolution *SE, unsigned Depth) {
  if (isa<Constant>(V) || isa<Argument>(V))
    return true;
  if (Depth > 12)
    return false;
  if (SE && isa<PHINode>(V) && SE->isSCEVable(V->getType()) &&
      isa<SCEVAddRecExpr>(SE->getSCEV(const_cast<Value *>(V))))
    return true;
  const auto *I = dyn_cast<Instruction>(V);
  if (!I || isa<PHINode>(I) || I->mayReadOrWriteMemory()) {
    // A special register, or (HIP) a load of the launch's dimensions.
    if (I && (isa<CallBase>(I) || isa<LoadInst>(I)))
      return sregName(I) != nullptr || gridSizeAxis(I) != nullptr;
    return false;
  }
  if (const auto *CB = dyn_cast<CallBase>(I)) {
    if (sregName(CB))
      return true;
    if (!isa<IntrinsicInst>(CB))
      return false;
  }
  for (const Value *Op : I->operands())
    if (!isParameterOnly(Op, SE, Depth + 1))
      return false;
  return true;
}

/// An equality on the thread index (`threadIdx.x == 0`), alone or as a
/// part of `&&` / `||`: it singles out some threads of a block.
bool singlesOutThreads(const Value *C, unsigned Depth) {
  using namespace PatternMatch;
  if (Depth > 8)
    return false;
  if (const auto *Cmp = dyn_cast<ICmpInst>(C)) {
    if (!Cmp->isEquality())
      return false;
    for (const Value *Op : Cmp->operands()) {
      // Through every cast: HIP's threadIdx.x at -O0, its wrappers inlined,
      // is the 32-bit truncation of a 64-bit widening of the intrinsic.
      const Value *Index = Op->stripPointerCasts();
      while (const auto *Cast = dyn_cast<CastInst>(Index))
        Index = Cast->getOperand(0);
      if (const char *Name = sregName(Index))
        if (StringRef(Name).starts_with("threadIdx") ||
            StringRef(Name).starts_with("laneid"))
          return true;
    }
    return false;
  }
  const Value *X, *Y;
  if (match(C, m_LogicalAnd(m_Value(X), m_Value(Y))) ||
      match(C, m_LogicalOr(m_Value(X), m_Value(Y))))
    return singlesOutThreads(X, Depth + 1) || singlesOutThreads(Y, Depth + 1);
  return false;
}

void ZeroTripGuards::find(Loop *L) {
  // The nearest conditional branch above the loop's entry, when its
  // condition is affine in parameters and induction variables: the loop's
  // zero-trip test (LoopSimplify form is not required, unlike
  // Loop::getLoopGuardBranch).
  BasicBlock *G = L->getLoopPredecessor();
  for (unsigned Step = 0; G && Step < 3; ++Step) {
    auto *Br = dyn_cast<BranchInst>(G->getTerminator());
    if (Br && Br->isConditional()) {
      // A data-dependent test guards a loop whose trip count is itself
      // unknown (a rotated while loop): its named trip count includes zero.
      if (isParameterOnly(Br->getCondition(), &S.SE) ||
          (isa<SCEVCouldNotCompute>(S.SE.getBackedgeTakenCount(L)) &&
           isa<SCEVCouldNotCompute>(
               S.SE.getSymbolicMaxBackedgeTakenCount(L)))) {
        Guards.insert(Br);
        GuardedLoops.insert(L);
        GuardOf[Br] = L;
      }
      return;
    }
    G = G->getUniquePredecessor();
  }
}

/// The deepest loop nesting among the blocks only \p From reaches, not
/// \p Other, counted from \p R's level.
static unsigned exclusiveDepth(const FunctionScope &S, const Region &R,
                               BasicBlock *From, BasicBlock *Other) {
  auto Mine = R.reachableFrom(From), Theirs = R.reachableFrom(Other);
  unsigned Base = R.L ? R.L->getLoopDepth() : 0, Deepest = Base;
  for (BasicBlock *BB : Mine)
    if (!Theirs.count(BB) && (!R.L || R.L->contains(BB)))
      Deepest = std::max(Deepest, S.LI.getLoopDepth(BB));
  return Deepest - Base;
}

/// A parameter test whose two sides rejoin without one passing through the
/// other: the optimiser's twin of a nest (loop unswitching makes the
/// `n <= 0` copy of `for i: { for j < n: ...; out[i] = s; }` a memset, or a
/// loop one level shallower), or an early exit that does something first.
/// The side with the deeper loop nest is the work (0: the true side);
/// nothing when the sides are equally deep.
static std::optional<unsigned> deeperSide(const FunctionScope &S,
                                          const Region &R, BasicBlock *T,
                                          BasicBlock *E) {
  unsigned DT = exclusiveDepth(S, R, T, E), DE = exclusiveDepth(S, R, E, T);
  if (DT == DE)
    return std::nullopt;
  return DT > DE ? 0u : 1u;
}

std::optional<unsigned> GuardAssumptions::assumedSuccessor(const Region &R,
                                                           BasicBlock *BB) {
  auto *Br = dyn_cast<BranchInst>(BB->getTerminator());
  if (!Br || !Br->isConditional())
    return std::nullopt;
  bool ParameterOnly = isParameterOnly(Br->getCondition());
  if (!ParameterOnly && !ZeroTrip.isGuard(Br))
    return std::nullopt;
  // An assertion: the side that fails it never returns, so the other side
  // is the one taken, and the assertion's condition is what is assumed.
  auto Fails = [](BasicBlock *BB) {
    for (Instruction &I : *BB)
      if (auto *CB = dyn_cast<CallBase>(&I)) {
        Function *Callee = CB->getCalledFunction();
        if (CB->doesNotReturn() ||
            (Callee && (Callee->getName() == "__assertfail" ||
                        Callee->getName() == "__assert_fail" ||
                        Callee->doesNotReturn())))
          return true;
      }
    return false;
  };
  BasicBlock *T = Br->getSuccessor(0), *E = Br->getSuccessor(1);
  // A thread-index equality (`threadIdx.x == 0`) singles out some threads
  // of a block: a per-thread count cannot assume it either way.
  if (singlesOutThreads(Br->getCondition()) && !Fails(T) && !Fails(E))
    return std::nullopt;
  // -O0 code leaves empty blocks on the way (`if (i >= n) return;` jumps
  // to a block that only jumps to the return): look through them.
  auto Through = [](BasicBlock *BB) {
    for (unsigned Hops = 0; Hops < 8 && BB->size() == 1; ++Hops) {
      auto *Jump = dyn_cast<BranchInst>(BB->getTerminator());
      if (!Jump || Jump->isConditional())
        break;
      BB = Jump->getSuccessor(0);
    }
    return BB;
  };
  unsigned Work;
  if (Fails(T) != Fails(E))
    Work = Fails(T) ? 1 : 0;
  else if (R.reaches(T, E) || R.reaches(T, Through(E)))
    Work = 0;
  else if (R.reaches(E, T) || R.reaches(E, Through(T)))
    Work = 1;
  else if (auto Deeper =
               ParameterOnly ? deeperSide(S, R, T, E) : std::nullopt)
    Work = *Deeper;
  else
    return std::nullopt;
  if (!ParameterOnly && ZeroTrip.isGuard(Br))
    checkInnerGuard(Br, Work == 0);
  if (ParameterOnly) {
    std::optional<Condition> Cond = conditionOf(Br->getCondition(), Work == 0,
                                                &Asserted.Facts, nullptr, &Asserted.Tests);
    Asserted.Where.resize(Asserted.Facts.size(), Br->getSuccessor(Work));
    Asserted.TestWhere.resize(Asserted.Tests.size(), Br->getSuccessor(Work));
    if (!Cond) // an assumption nobody can check is no assumption: split
      return std::nullopt;
    Found.assume(Assumption::of(
        std::move(*Cond), " (guard at " + locationText(Br) + ")", S.Params));
  }
  return Work;
}

/// The comparison \p P is.
static Comparison comparisonOf(CmpInst::Predicate P) {
  if (P == CmpInst::ICMP_EQ)
    return Comparison::EQ;
  if (P == CmpInst::ICMP_NE)
    return Comparison::NE;
  if (ICmpInst::isLT(P))
    return Comparison::LT;
  if (ICmpInst::isLE(P))
    return Comparison::LE;
  return ICmpInst::isGT(P) ? Comparison::GT : Comparison::GE;
}

std::optional<Condition>
GuardAssumptions::conditionOf(const Value *C, bool Holds,
                              std::vector<Polynomial> *Asserted,
                              Loop *Around, std::vector<Polynomial> *Tests) const {
  using namespace PatternMatch;
  if (auto *Cmp = dyn_cast<ICmpInst>(C)) {
    SCEVPolynomial Plain = S.translatorAround(Around);
    if (!S.SE.isSCEVable(Cmp->getOperand(0)->getType()))
      return std::nullopt;
    // The compare reads both sides as numbers, signed or unsigned.
    using Reading = SCEVPolynomial::Reading;
    Reading As = Cmp->isEquality() ? Reading::Modular
                 : Cmp->isSigned() ? Reading::Signed
                                   : Reading::Unsigned;
    auto A = Plain.translate(S.SE.getSCEV(Cmp->getOperand(0)), As);
    auto B = Plain.translate(S.SE.getSCEV(Cmp->getOperand(1)), As);
    if (!A || !B)
      return std::nullopt;
    CmpInst::Predicate P =
        Holds ? Cmp->getPredicate() : Cmp->getInversePredicate();
    std::vector<Condition> Parts{Condition::compare(*A, comparisonOf(P), *B)};
    if (Asserted && !CmpInst::isEquality(P)) {
      bool Less = ICmpInst::isLT(P) || ICmpInst::isLE(P);
      bool Strict = ICmpInst::isLT(P) || ICmpInst::isGT(P);
      Polynomial D = Less ? *B - *A : *A - *B;
      Asserted->push_back(Strict ? D - Polynomial(1) : D);
    }
    if (Tests && CmpInst::isEquality(P))
      Tests->push_back(*A - *B);
    for (const SCEVPolynomial::Condition &R : Plain.conditions()) {
      Parts.push_back(R.stated());
      if (Asserted && R.nonNegative().isValid())
        Asserted->push_back(R.nonNegative());
    }
    if (Parts.size() == 1)
      return Parts.front();
    return Condition::junction(true, std::move(Parts));
  }
  // a && b holds: both do; it fails: one of them fails (De Morgan).
  const Value *X, *Y;
  bool And = match(C, m_LogicalAnd(m_Value(X), m_Value(Y)));
  if (!And && !match(C, m_LogicalOr(m_Value(X), m_Value(Y))))
    return std::nullopt;
  bool Conjunction = And == Holds;
  std::vector<Condition> Parts;
  for (const Value *Part : {X, Y}) {
    std::optional<Condition> T =
        conditionOf(Part, Holds, Conjunction ? Asserted : nullptr, Around, Tests);
    if (!T)
      return std::nullopt;
    Parts.push_back(std::move(*T));
  }
  return Condition::junction(Conjunction, std::move(Parts));
}

bool GuardAssumptions::checkInnerGuard(const BranchInst *Br, bool Holds) {
  Loop *Guarded = ZeroTrip.loopOf(Br);
  Loop *Around = S.LI.getLoopFor(Br->getParent());
  if (!Guarded || !Around)
    return true;
  std::vector<Polynomial> Asserted;
  std::string Where = "the guard of " + loopText(Guarded);
  Polynomial Trip = Trips.tripCount(Guarded);
  // `i != c` (LLVM's form of `i > 0` for a counter it knows is not
  // negative): the loop is skipped only where i == c, which for i linear
  // in the enclosing counter is one iteration: exact when the trip formula
  // is 0 there.
  if (auto *Cmp = dyn_cast<ICmpInst>(Br->getCondition()))
    if (Cmp->isEquality() && S.SE.isSCEVable(Cmp->getOperand(0)->getType())) {
      bool EnteredWhenDiffer =
          (Cmp->getPredicate() == ICmpInst::ICMP_NE) == Holds;
      SCEVPolynomial Plain = S.translatorAround(Around);
      using Reading = SCEVPolynomial::Reading;
      auto A =
          Plain.translate(S.SE.getSCEV(Cmp->getOperand(0)), Reading::Modular);
      auto B =
          Plain.translate(S.SE.getSCEV(Cmp->getOperand(1)), Reading::Modular);
      std::string IV = FunctionScope::ivName(Around);
      if (EnteredWhenDiffer && A && B) {
        Polynomial D = *A - *B;
        Polynomial K = D.substitute({{IV, Polynomial(1)}}) -
                       D.substitute({{IV, Polynomial(0)}});
        auto Slope = K.constantValue();
        bool Linear = true;
        for (const auto &[M, C] : D.terms())
          for (const auto &[Var, Exp] : M)
            Linear &= Var.name() != IV || Exp == 1;
        if (Linear && Slope && !Slope->isZero()) {
          // D == 0 at IV = -(D at IV = 0) / slope.
          Polynomial At = D.substitute({{IV, Polynomial(0)}}) *
                          Polynomial(Rational(-1) / *Slope);
          if (Trip.substitute({{IV, At}}).isZero())
            return true;
        }
      }
      Found.note(Where + ": skips it where an equality holds, which the trip "
                         "formula does not count as 0");
      return false;
    }
  if (!conditionOf(Br->getCondition(), Holds, &Asserted, Around)) {
    Found.note(Where + ": its condition cannot be checked on every iteration");
    return false;
  }
  if (Asserted.empty()) { // a disjunction: no bound to check
    Found.note(Where + ": its condition cannot be checked on every iteration");
    return false;
  }
  for (const Polynomial &F : Asserted) {
    auto Cases = Trips.atEndpoints(Around, F);
    if (!Cases) {
      Found.note(Where +
                 ": its condition varies non-linearly with an enclosing loop");
      return false;
    }
    for (const auto &[Value, Sub] : *Cases) {
      if (!Value.isValid()) {
        Found.note(Where + ": its condition overflows 64-bit coefficients");
        return false;
      }
      if (auto V = Value.constantValue()) {
        if (V->isValid() && V->num() >= 0)
          continue; // taken there
        // Not taken there: exact only if the formula counts 0 as well.
        Polynomial T = Trip;
        for (const auto &[IV, At] : Sub)
          T = T.substitute({{IV, At}});
        auto Zero = T.constantValue();
        if (Zero && Zero->isZero())
          continue;
        Found.note(Where +
                   ": skips it on some iterations, where its trip formula "
                   "is not 0");
        return false;
      }
      if (mentionsCounter(Value)) {
        Found.note(Where +
                   ": its condition cannot be stated in the parameters");
        return false;
      }
      Found.RangeConditions.push_back(
          {Value,
           Assumption::of(
               Condition::compare(Value, Comparison::GE, Polynomial(0)),
               " (" + Where + ")", S.Params),
           ""});
    }
  }
  return true;
}

} // namespace roofline::detail
