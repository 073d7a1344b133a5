//===- TripCounts.cpp - Loop trip counts ----------------------------------===//
//
// ScalarEvolution's backedge-taken count as a polynomial, or the stepped
// formula ceil((bound - first)/step) where it gives up; what each relies
// on (no wrap-around, the test passing on entry) is a range condition,
// stated at the end unless a guard implies it.
//
//===----------------------------------------------------------------------===//
#include "TripCounts.h"
#include "Guards.h"

#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace roofline::detail {

Polynomial TripCounts::tripCount(Loop *L) {
  auto Cached = Trips.find(L);
  if (Cached != Trips.end())
    return Cached->second;
  Translator.clearAssumptions();
  FunctionScope::bindLoops(Translator, L->getParentLoop());
  Polynomial Trip;
  const SCEV *BTC = S.SE.getBackedgeTakenCount(L);
  std::string Why;
  std::optional<Polynomial> Counted = Translator.translate(BTC);
  Why = Counted ? "" : Translator.reason(); // before another translation
  if (Counted) {
    Trip = *Counted + Polynomial(1);
  } else if (Translator.clearAssumptions(); auto Manual = steppedTripCount(L)) {
    Trip = *Manual;
  } else {
    Translator.clearAssumptions();
    // A symbolic maximum helps when it is a formula or a small constant; a
    // constant from the bound's type range (2^31/16) would only mislead.
    const SCEV *Max = S.SE.getSymbolicMaxBackedgeTakenCount(L);
    auto *MaxC = dyn_cast<SCEVConstant>(Max);
    if (MaxC && MaxC->getAPInt().getActiveBits() > 20)
      Max = S.SE.getCouldNotCompute();
    if (auto M = Translator.translate(Max)) {
      Trip = *M + Polynomial(1);
      Found.note(loopText(L) + ": trip count is an upper bound (" + Why +
                 "; the loop may exit early)");
    } else {
      std::string Loc = locationText(L->getStartLoc());
      Atom Unknown = Atom::unknownTrip(
          L->getStartLoc() ? std::to_string(L->getStartLoc().getLine())
                           : L->getHeader()->getName().str());
      const std::string &Name = Unknown.name();
      Trip = Polynomial::atom(Unknown);
      UnknownTrips.insert(L);
      Found.note(loopText(L) + ": trip count unknown (" + Why + "), written " +
                 Name);
    }
    // The count is not exact: the range conditions of the attempts that
    // failed, or of the upper bound, are not assumptions of anything.
    Translator.clearAssumptions();
  }
  recordConditions(L);
  Trips[L] = Trip;
  return Trip;
}

std::optional<std::vector<std::pair<Polynomial, TripCounts::Substitution>>>
TripCounts::atEndpoints(Loop *L, const Polynomial &P) const {
  std::vector<std::pair<Polynomial, Substitution>> Cases{{P, {}}};
  for (Loop *Outer = L; Outer; Outer = Outer->getParentLoop()) {
    std::string IV = FunctionScope::ivName(Outer);
    std::vector<std::pair<Polynomial, Substitution>> Next;
    for (const auto &[Q, Sub] : Cases) {
      if (!Q.mentions(IV)) {
        Next.push_back({Q, Sub});
        continue;
      }
      for (const auto &[M, K] : Q.terms())
        for (const auto &[Var, Exp] : M)
          if (Var.name() == IV && Exp != 1)
            return std::nullopt;
      auto Trip = Trips.find(Outer);
      if (Trip == Trips.end())
        return std::nullopt;
      for (const Polynomial &At : {Polynomial(0), Trip->second - Polynomial(1)}) {
        Substitution Each = Sub;
        Each.push_back({IV, At});
        Next.push_back({Q.substitute({{IV, At}}), Each});
      }
    }
    Cases = std::move(Next);
  }
  return Cases;
}

void TripCounts::recordConditions(Loop *L) {
  for (const SCEVPolynomial::Condition &C : Translator.conditions()) {
    // A condition in an enclosing loop's iteration variable must hold on
    // each of its iterations: when it is linear in it, on the first and the
    // last suffices.
    auto Cases = atEndpoints(L->getParentLoop(), C.Value);
    if (!Cases) {
      Found.note(loopText(L) + ": its count relies on a range condition that "
                               "varies non-linearly with an enclosing loop");
      return;
    }
    for (const auto &[P, Sub] : *Cases) {
      if (!P.isValid()) {
        Found.note(loopText(L) + ": a range condition of its count overflows "
                                 "64-bit coefficients");
        return;
      }
      if (auto V = P.constantValue()) {
        // Decided already: one that fails means the count wraps.
        __int128 X = V->num() / V->den();
        if (V->isInteger() && (C.AtLeast ? X >= C.BoundValue : X <= C.BoundValue))
          continue;
        // A guarded loop not entered on this iteration of the enclosing one
        // (a triangular nest's first): its backedge-taken count -1 makes the
        // trip 0, as it is.
        if (C.Root && C.AtLeast && C.BoundValue == 0 && X == -1 &&
            V->isInteger() && Guards.isGuarded(L))
          continue;
        Found.note(loopText(L) + ": its count wraps around its type's range");
        return;
      }
      if (Translator.provable(P, C.AtLeast, C.BoundValue))
        continue;
      // A count whose range condition is on the thread index differs from
      // thread to thread: no one per-thread number is exact.
      if (mentionsCounter(P)) {
        Found.note(loopText(L) +
                   ": its count relies on a condition the analysis "
                   "cannot state in the parameters");
        return;
      }
      SCEVPolynomial::Condition AtP = C;
      AtP.Value = P;
      // A condition on the thread index that no guard implies (checked at
      // the end, once every guard is known) holds for some threads only:
      // then the per-thread count is an estimate.
      std::string ThreadNote;
      if (SCEVPolynomial::variesWithThread(P))
        ThreadNote = loopText(L) + ": its trip count varies with the thread "
                                   "index (a per-thread count is an estimate)";
      Found.RangeConditions.push_back(
          {AtP.nonNegative(),
           Assumption::of(AtP.stated(), " (" + loopText(L) + ")", S.Params),
           ThreadNote});
    }
  }
}

bool TripCounts::isInvariant(const SCEV *X, const Loop *L,
                             unsigned Depth) const {
  if (S.SE.isLoopInvariant(X, L))
    return true;
  // -O0 code recomputes `K / 16` inside the loop: the same value on every
  // iteration when the instruction only combines invariant values.
  const auto *U = dyn_cast<SCEVUnknown>(X);
  const auto *I = U ? dyn_cast<Instruction>(U->getValue()) : nullptr;
  if (!I || Depth > 8 || I->mayReadOrWriteMemory() || isa<PHINode>(I) ||
      isa<CallBase>(I))
    return false;
  for (const Value *Op : I->operands())
    if (!isa<Constant>(Op) &&
        !isInvariant(S.SE.getSCEV(const_cast<Value *>(Op)), L, Depth + 1))
      return false;
  return true;
}

bool TripCounts::counterCannotWrap(Loop *L, const SCEVAddRecExpr *AR,
                                   const ICmpInst *Cmp, bool Signed) const {
  if (Signed ? AR->hasNoSignedWrap() : AR->hasNoUnsignedWrap())
    return true;
  // ScalarEvolution drops the flag it cannot prove for every iteration;
  // the increment's own flag (C's `k += 16` on an int is nsw) suffices,
  // as the increment runs on every iteration that reaches the test.
  for (const Value *Op : Cmp->operands()) {
    const auto *Phi = dyn_cast<PHINode>(Op);
    const auto *Inc = dyn_cast<BinaryOperator>(Op);
    if (Phi && Phi->getParent() == L->getHeader() && L->getLoopLatch())
      Inc = dyn_cast<BinaryOperator>(
          Phi->getIncomingValueForBlock(L->getLoopLatch()));
    if (Inc &&
        (Inc->getOpcode() == Instruction::Add ||
         Inc->getOpcode() == Instruction::Sub) &&
        S.SE.getSCEV(const_cast<BinaryOperator *>(Inc)) != nullptr &&
        (Signed ? Inc->hasNoSignedWrap() : Inc->hasNoUnsignedWrap()))
      return true;
  }
  return false;
}

std::optional<Polynomial> TripCounts::steppedTripCount(Loop *L) {
  // ScalarEvolution gives up on `for (k = 0; k < K; k += 16)` because
  // K + 15 might overflow, and on bounds it cannot see into (`K / 16` with a
  // signed K). For a loop whose only exit test (at the bottom, or at the top
  // in unrotated -O0 code) compares an affine induction variable with a
  // loop-invariant bound, the count is ceil((bound - first)/step) under the
  // language's no-overflow rule.
  BasicBlock *Exiting = L->getExitingBlock();
  if (!Exiting ||
      (Exiting != L->getLoopLatch() && Exiting != L->getHeader()))
    return std::nullopt;
  auto *Br = dyn_cast<BranchInst>(Exiting->getTerminator());
  auto *Cmp = Br && Br->isConditional()
                  ? dyn_cast<ICmpInst>(Br->getCondition())
                  : nullptr;
  if (!Cmp)
    return std::nullopt;
  ICmpInst::Predicate P = Cmp->getPredicate();
  if (!L->contains(Br->getSuccessor(0)))
    P = CmpInst::getInversePredicate(P); // the condition to keep looping
  const SCEV *LHS = S.SE.getSCEV(Cmp->getOperand(0));
  const SCEV *RHS = S.SE.getSCEV(Cmp->getOperand(1));
  if (!isa<SCEVAddRecExpr>(LHS)) {
    std::swap(LHS, RHS);
    P = CmpInst::getSwappedPredicate(P);
  }
  const auto *AR = dyn_cast<SCEVAddRecExpr>(LHS);
  if (!AR || AR->getLoop() != L || !AR->isAffine() || !isInvariant(RHS, L))
    return std::nullopt;
  const SCEV *StepS = AR->getStepRecurrence(S.SE);
  const auto *StepC = dyn_cast<SCEVConstant>(StepS);
  if (StepC && (StepC->getAPInt().getSignificantBits() > 32 ||
                StepC->getAPInt().isZero()))
    return std::nullopt;
  // The count below holds when the counter cannot wrap before the exit:
  // ScalarEvolution's no-wrap flag in the compare's signedness (C's signed
  // overflow rule gives it). Otherwise (an unsigned counter, or `i +=
  // blockDim.x` whose sum is unsigned) the last step must stay in the
  // type's range: stated, as `n + blockDim.x <= 2147483648`.
  bool NoWrap = counterCannotWrap(L, AR, Cmp, ICmpInst::isSigned(P));
  unsigned Width = S.SE.getTypeSizeInBits(AR->getType());
  if (!NoWrap && Width > 64)
    return std::nullopt;
  FunctionScope::bindLoops(Translator, L->getParentLoop());
  using Reading = SCEVPolynomial::Reading;
  Reading As = ICmpInst::isSigned(P) ? Reading::Signed : Reading::Unsigned;
  auto First = Translator.translate(AR->getStart(), As);
  auto Bound = Translator.translate(RHS, As);
  if (!First || !Bound)
    return std::nullopt;
  if (!StepC) {
    auto Trip = symbolicStepTripCount(L, P, StepS, *First, *Bound, As);
    if (Trip && !NoWrap)
      staysInRange(P, *Bound, *Translator.translate(StepS, As), Width);
    return Trip;
  }
  int64_t Step = StepC->getAPInt().getSExtValue();
  if (!NoWrap)
    staysInRange(P, *Bound, Polynomial(Step < 0 ? -Step : Step), Width);
  // Continue while First + Step*k (op) Bound, for k = 0, 1, ...
  Polynomial Span;
  bool Inclusive;
  if (Step > 0 && (ICmpInst::isLT(P) || ICmpInst::isLE(P))) {
    Span = *Bound - *First;
    Inclusive = ICmpInst::isLE(P);
  } else if (Step < 0 && (ICmpInst::isGT(P) || ICmpInst::isGE(P))) {
    Span = *First - *Bound;
    Inclusive = ICmpInst::isGE(P);
    Step = -Step;
  } else {
    return std::nullopt;
  }
  // The test passes for k = 0 .. C-1 and fails at k = C, so the body runs
  // C + 1 times, with C = floor(Span/Step) + 1 when inclusive, else
  // ceil(Span/Step) = floor((Span + Step - 1)/Step) (Span > 0 by the guard).
  Polynomial Num = Inclusive ? Span : Span + Polynomial(Step - 1);
  if (Num.mentions(FunctionScope::ivName(L)))
    return std::nullopt;
  // A quotient of an outer loop's counter cannot be summed over it.
  if (Step != 1)
    for (const std::string &V : Num.variables())
      if (V.rfind("$", 0) == 0)
        return std::nullopt;
  // floor(Num/Step) counts the passes when the test passes at least once
  // (Num >= 0); a do-while loop or an unguarded one may not: stated.
  Translator.addCondition({Num, true, 0});
  Polynomial Passes = Polynomial::floorOf(Num, Step, S.Params);
  return Passes + Polynomial(Inclusive ? 2 : 1);
}

void TripCounts::staysInRange(ICmpInst::Predicate P, const Polynomial &Bound,
                              const Polynomial &Step, unsigned Width) {
  // The last value that passes the test is at most Bound (Bound - 1 for a
  // strict test); one step past it must not leave the type's range.
  bool Signed = ICmpInst::isSigned(P);
  bool Strict = !ICmpInst::isLE(P) && !ICmpInst::isGE(P);
  Polynomial Slack(Strict ? 1 : 0);
  __int128 Max = Signed ? (__int128(1) << (Width - 1)) - 1 : (__int128(1) << Width) - 1;
  __int128 Min = Signed ? -(__int128(1) << (Width - 1)) : 0;
  if (ICmpInst::isLT(P) || ICmpInst::isLE(P))
    Translator.require(Bound + Step - Slack, false, Max);
  else
    Translator.require(Bound - Step + Slack, true, Min);
}

std::optional<Polynomial> TripCounts::symbolicStepTripCount(
    Loop *L, ICmpInst::Predicate P, const SCEV *StepS, const Polynomial &First,
    const Polynomial &Bound, SCEVPolynomial::Reading As) {
  // A grid-stride loop, `for (i = tid; i < n; i += blockDim.x * gridDim.x)`:
  // a step that is loop-invariant and at least 1 (blockDim and gridDim are;
  // a parameter's is stated) counts ceil((n - first)/step).
  if (!(ICmpInst::isLT(P) || ICmpInst::isLE(P)) || !isInvariant(StepS, L))
    return std::nullopt;
  auto Step = Translator.translate(StepS, As);
  if (!Step || Step->mentions(FunctionScope::ivName(L)))
    return std::nullopt;
  for (const std::string &V : Step->variables())
    if (V.rfind("$", 0) == 0)
      return std::nullopt; // a step that changes with an outer loop
  if (!Translator.provable(*Step, true, 1))
    Translator.addCondition({*Step - Polynomial(1), true, 0});
  bool Inclusive = ICmpInst::isLE(P);
  Polynomial Span = Bound - First;
  Polynomial Num = Inclusive ? Span : Span + *Step - Polynomial(1);
  if (Num.mentions(FunctionScope::ivName(L)))
    return std::nullopt;
  for (const std::string &V : Num.variables())
    if (V.rfind("$", 0) == 0)
      return std::nullopt;
  Translator.addCondition({Num, true, 0});
  return Polynomial::floorOf(Num, *Step, S.Params) +
         Polynomial(Inclusive ? 2 : 1);
}

} // namespace roofline::detail
