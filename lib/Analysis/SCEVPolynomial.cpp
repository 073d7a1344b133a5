//===- SCEVPolynomial.cpp - ScalarEvolution to closed forms ---------------===//
#include "roofline/Analysis/SCEVPolynomial.h"
#include "roofline/Analysis/DeviceCode.h"
#include "roofline/Model/Formula.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/ConstantRange.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace roofline {

Polynomial SCEVPolynomial::fail(std::string Why) {
  if (!Failed)
    Reason = std::move(Why);
  Failed = true;
  return Polynomial::invalid();
}

std::optional<Polynomial> SCEVPolynomial::translate(const SCEV *S,
                                                    Reading As) {
  Failed = false;
  Reason.clear();
  Polynomial P = visit(S);
  size_t Inner = Conditions.size();
  P = inRange(P, S, As);
  for (size_t I = Inner; I < Conditions.size(); ++I)
    Conditions[I].Root = true;
  if (Failed)
    return std::nullopt;
  if (!P.isValid()) {
    Reason = "the closed form overflows 64-bit coefficients";
    return std::nullopt;
  }
  return P;
}

roofline::Condition SCEVPolynomial::Condition::stated() const {
  return roofline::Condition::compare(
      Value, AtLeast ? Comparison::GE : Comparison::LE, BoundValue);
}

Polynomial SCEVPolynomial::Condition::nonNegative() const {
  if (BoundValue < INT64_MIN || BoundValue > INT64_MAX)
    return Polynomial::invalid();
  Polynomial B{static_cast<int64_t>(BoundValue)};
  return AtLeast ? Value - B : B - Value;
}

namespace {
using Interval = std::pair<__int128, __int128>;

std::optional<__int128> mul128(__int128 A, __int128 B) {
  __int128 R;
  if (__builtin_mul_overflow(A, B, &R))
    return std::nullopt;
  return R;
}

std::optional<Interval> mulInterval(Interval A, Interval B) {
  std::optional<__int128> C[4] = {mul128(A.first, B.first),
                                  mul128(A.first, B.second),
                                  mul128(A.second, B.first),
                                  mul128(A.second, B.second)};
  for (auto &V : C)
    if (!V)
      return std::nullopt;
  return Interval{std::min(std::min(*C[0], *C[1]), std::min(*C[2], *C[3])),
                  std::max(std::max(*C[0], *C[1]), std::max(*C[2], *C[3]))};
}
} // namespace

std::optional<std::pair<__int128, __int128>>
valueRange(const Polynomial &P,
           const std::map<std::string, std::pair<__int128, __int128>> &Ranges,
           __int128 &Scale) {
  if (!P.isValid())
    return std::nullopt;
  // Scale every coefficient to an integer: Scale * P has integer ones.
  int64_t Den = 1;
  for (const auto &[M, C] : P.terms()) {
    int64_t G = gcd64(Den, C.den());
    auto L = mul128(Den / G, C.den());
    if (!L || *L > INT64_MAX)
      return std::nullopt;
    Den = int64_t(*L);
  }
  Scale = Den;
  Interval Sum{0, 0};
  for (const auto &[M, C] : P.terms()) {
    Interval Term{1, 1};
    for (const auto &[Var, Exp] : M) {
      auto R = Ranges.find(Var.name());
      if (R == Ranges.end())
        return std::nullopt;
      for (unsigned E = 0; E < Exp; ++E) {
        auto T = mulInterval(Term, R->second);
        if (!T)
          return std::nullopt;
        Term = *T;
      }
    }
    __int128 K = __int128(C.num()) * (Den / C.den());
    auto T = mulInterval(Term, {K, K});
    if (!T || __builtin_add_overflow(Sum.first, T->first, &Sum.first) ||
        __builtin_add_overflow(Sum.second, T->second, &Sum.second))
      return std::nullopt;
  }
  return Sum;
}

bool SCEVPolynomial::provable(const Polynomial &P, bool AtLeast,
                              __int128 Bound) const {
  auto Holds = [&](const Polynomial &Q, const auto &Ranges) {
    __int128 Scale = 1;
    auto R = valueRange(Q, Ranges, Scale);
    __int128 Scaled;
    return R && !__builtin_mul_overflow(Bound, Scale, &Scaled) &&
           (AtLeast ? R->first >= Scaled : R->second <= Scaled);
  };
  if (Holds(P, VarRange))
    return true;
  // P = Rest + K*(x - M*floor(x/M)): the residue lies in [0, M).
  for (const Residue &Res : Residues) {
    std::optional<Rational> C;
    for (const auto &[Mono, Coef] : P.terms())
      if (Mono.size() == 1 && Mono[0].second == 1 &&
          Polynomial::atom(Mono[0].first) == Res.Floor)
        C = Coef;
    if (!C)
      continue;
    Polynomial K(-*C * Rational(1, Res.M));
    Polynomial Rest = P - K * (Res.X - Polynomial(Res.M) * Res.Floor);
    auto Ranges = VarRange;
    Ranges["$residue"] = {0, Res.M - 1};
    if (Holds(Rest + K * Polynomial::variable("$residue"), Ranges))
      return true;
  }
  return false;
}

namespace {

/// The value of \p P at threadIdx = (0, 0, 0), when the rest of it is
/// constant.
std::optional<double> atFirstThread(const Polynomial &P) {
  std::map<std::string, double> Zero{{"threadIdx.x", 0}, {"threadIdx.y", 0},
                                     {"threadIdx.z", 0}, {"laneid", 0}};
  return P.evaluate(Zero);
}

} // namespace

bool SCEVPolynomial::variesWithThread(const Polynomial &P) {
  // (blockIdx does not vary within a block.)
  for (const Atom &A : P.atoms())
    if (A.involves("threadIdx.x") || A.involves("threadIdx.y") ||
        A.involves("threadIdx.z") || A.involves("laneid"))
      return true;
  return false;
}

void SCEVPolynomial::require(const Polynomial &P, bool AtLeast,
                             __int128 Bound) {
  if (provable(P, AtLeast, Bound))
    return; // holds for every value of the variables' types
  Conditions.push_back({P, AtLeast, Bound});
}

bool SCEVPolynomial::wrapFree(const SCEV *S, Reading As) const {
  bool Signed = As == Reading::Signed;
  switch (S->getSCEVType()) {
  case scConstant:
    return Signed ? cast<SCEVConstant>(S)->getAPInt().isSignedIntN(64)
                  : !cast<SCEVConstant>(S)->getAPInt().isNegative();
  case scUnknown:
    // A parameter is the value C declares; read signed it is that value
    // (a signed type's, or an unsigned one's below 2^(w-1)); read unsigned
    // it is only when not negative (a `long n = -6` compared unsigned is
    // 2^64 - 6).
    return Signed || SE.isKnownNonNegative(S);
  case scZeroExtend:
    return wrapFree(cast<SCEVCastExpr>(S)->getOperand(0), Reading::Unsigned);
  case scSignExtend:
    return Signed &&
           wrapFree(cast<SCEVCastExpr>(S)->getOperand(0), Reading::Signed);
  case scAddExpr:
  case scMulExpr:
  case scAddRecExpr: {
    const auto *N = cast<SCEVNAryExpr>(S);
    if (!(Signed ? N->hasNoSignedWrap() : N->hasNoUnsignedWrap()))
      return false;
    for (const SCEV *Op : N->operands())
      if (!wrapFree(Op, As))
        return false;
    return true;
  }
  case scUDivExpr:
    return !Signed &&
           wrapFree(cast<SCEVUDivExpr>(S)->getLHS(), Reading::Unsigned) &&
           wrapFree(cast<SCEVUDivExpr>(S)->getRHS(), Reading::Unsigned);
  case scUMaxExpr:
  case scUMinExpr:
  case scSMaxExpr:
  case scSMinExpr: {
    bool OpSigned = S->getSCEVType() == scSMaxExpr ||
                    S->getSCEVType() == scSMinExpr;
    if (OpSigned != Signed)
      return false;
    for (const SCEV *Op : cast<SCEVMinMaxExpr>(S)->operands())
      if (!wrapFree(Op, As))
        return false;
    return true;
  }
  default:
    return false;
  }
}

Polynomial SCEVPolynomial::inRange(Polynomial P, const SCEV *S, Reading As) {
  if (Failed || As == Reading::Modular || !P.isValid() ||
      !S->getType()->isIntegerTy())
    return P;
  unsigned W = SE.getTypeSizeInBits(S->getType());
  if (W > 64)
    W = 64; // 128-bit values are read through their low 64 bits' range
  bool Signed = As == Reading::Signed;
  __int128 Lo = Signed ? -(__int128(1) << (W - 1)) : 0;
  __int128 Hi = Signed ? (__int128(1) << (W - 1)) - 1
                       : (__int128(1) << W) - 1;
  if (auto C = P.constantValue()) {
    // A constant is its residue modulo 2^W, read in the range.
    if (!C->isInteger())
      return fail("a fractional constant");
    __int128 V = C->num();
    __int128 Mod = __int128(1) << W;
    V = ((V - Lo) % Mod + Mod) % Mod + Lo;
    if (V < INT64_MIN || V > INT64_MAX)
      return fail("a count of 2^63 or more");
    return Polynomial(int64_t(V));
  }
  if (SE.getTypeSizeInBits(S->getType()) <= 64 && wrapFree(S, As))
    return P;
  require(P, true, Lo);
  require(P, false, Hi);
  return P;
}

/// C(X, K) = X*(X-1)*...*(X-K+1)/K!, the value of the K-th operand's
/// contribution to an add recurrence after X iterations.
static Polynomial binomial(const Polynomial &X, unsigned K) {
  Polynomial R(1);
  for (unsigned I = 0; I < K; ++I)
    R = R * (X - Polynomial(int64_t(I))) *
        Polynomial(Rational(1, int64_t(I) + 1));
  return R;
}

Polynomial SCEVPolynomial::floorOf(const Polynomial &N, int64_t Divisor) {
  if (Failed)
    return N;
  for (const std::string &V : N.variables())
    if (V.rfind("$", 0) == 0)
      return fail("a division of a loop-variant value");
  Polynomial Q = Polynomial::floorOf(N, Divisor);
  if (Divisor > 0)
    rangeOfQuotient(Q, N, [&](__int128 A) {
      return A >= 0 ? A / Divisor : -((-A + Divisor - 1) / Divisor);
    });
  return Q;
}

Polynomial SCEVPolynomial::floorOf(const Polynomial &N, const Polynomial &D) {
  if (Failed)
    return N;
  for (const Polynomial *P : {&N, &D})
    for (const std::string &V : P->variables())
      if (V.rfind("$", 0) == 0)
        return fail("a division of a loop-variant value");
  if (D.isZero())
    return fail("a division by zero");
  Polynomial Q = Polynomial::floorOf(N, D);
  // For D >= 1 (required where the division is read), the quotient lies
  // between min(N, 0) and max(N, 0).
  rangeOfQuotient(Q, N, [](__int128 A) {
    return A; // bounds of N; the 0 is added below
  });
  return Q;
}

void SCEVPolynomial::rangeOfQuotient(
    const Polynomial &Q, const Polynomial &N,
    llvm::function_ref<__int128(__int128)> BoundOf) {
  // Only an opaque term gets a range (a constant quotient needs none).
  std::set<std::string> Vars = Q.variables();
  __int128 Scale = 1;
  auto R = valueRange(N, VarRange, Scale);
  if (!R || Scale != 1 || Vars.size() != 1 ||
      Q != Polynomial::variable(*Vars.begin()))
    return;
  __int128 Lo = BoundOf(R->first), Hi = BoundOf(R->second);
  VarRange[*Vars.begin()] = {std::min<__int128>(Lo, 0), std::max<__int128>(Hi, 0)};
}

/// (1 smax n): the trip count of a guarded loop. Taking n is exact when
/// n >= 1; that is stated as an assumption.
Polynomial SCEVPolynomial::visitMax(const SCEVMinMaxExpr *MM) {
  bool Signed = MM->getSCEVType() == scSMaxExpr;
  if (SE.getTypeSizeInBits(MM->getType()) > 64)
    return fail("a maximum of 128-bit values");
  const SCEV *Variable = nullptr;
  std::optional<int64_t> Bound;
  for (const SCEV *Op : MM->operands()) {
    if (const auto *C = dyn_cast<SCEVConstant>(Op)) {
      const APInt &A = C->getAPInt();
      if (Signed ? !A.isSignedIntN(64) : !A.isIntN(63))
        return fail("a constant wider than 64 bits");
      int64_t V = Signed ? A.getSExtValue() : int64_t(A.getZExtValue());
      Bound = Bound ? std::max(*Bound, V) : V;
    } else if (Variable) {
      return fail("a maximum of two run-time values");
    } else {
      Variable = Op;
    }
  }
  if (!Variable)
    return Polynomial(Bound.value_or(0));
  Polynomial P = inRange(visit(Variable), Variable,
                         Signed ? Reading::Signed : Reading::Unsigned);
  // A side that varies with the thread: take the one that holds at the
  // block's first thread, so that the per-thread formula is right there;
  // the condition (a thread-varying one, so the count is an estimate)
  // names the threads where it is not.
  if (Bound && !Failed && variesWithThread(P))
    if (auto First = atFirstThread(P); First && *First < double(*Bound)) {
      require(P, false, *Bound);
      return Polynomial(*Bound);
    }
  if (Bound && !Failed)
    require(P, true, *Bound);
  return P;
}

/// A value ScalarEvolution does not take apart: a parameter or launch
/// index by its name, HIP's grid size, a division or shift by a
/// constant or by a parameter (a floor, with what it assumes); else why not.
Polynomial SCEVPolynomial::visitUnknown(const SCEVUnknown *U) {
  const Value *V = U->getValue();
  if (const char *Axis = gridSizeAxis(V)) // HIP: the grid in work-items
    return Polynomial::variable(std::string("gridDim.") + Axis) *
           Polynomial::variable(std::string("blockDim.") + Axis);
  if (auto Name = NameOf(V)) {
    // Either reading of the parameter's bits: its signed and unsigned
    // ranges together.
    if (V->getType()->isIntegerTy() &&
        V->getType()->getIntegerBitWidth() <= 64) {
      ConstantRange SR = SE.getSignedRange(U), UR = SE.getUnsignedRange(U);
      __int128 Lo = std::min<__int128>(SR.getSignedMin().getSExtValue(),
                                       UR.getUnsignedMin().getZExtValue());
      __int128 Hi = std::max<__int128>(SR.getSignedMax().getSExtValue(),
                                       UR.getUnsignedMax().getZExtValue());
      VarRange[*Name] = {Lo, Hi};
    }
    // A parameter is one whatever it is called; a GPU built-in is typed by
    // the name it is given (threadIdx.x, laneid).
    return isa<Argument>(V) ? Polynomial::atom(Atom::parameter(*Name))
                            : Polynomial::variable(*Name);
  }
  // Signed division and shifts by constants are not SCEV expressions, but
  // `K / TILE` trip counts are common: floor(K/TILE), stated for K >= 0.
  if (const auto *BO = dyn_cast<BinaryOperator>(V)) {
    const auto *C = dyn_cast<ConstantInt>(BO->getOperand(1));
    auto Op = BO->getOpcode();
    auto Operand = [&](unsigned I, Reading As) {
      const SCEV *O = SE.getSCEV(BO->getOperand(I));
      return inRange(visit(O), O, As);
    };
    bool SignedOp = Op == Instruction::SDiv || Op == Instruction::AShr;
    Reading As = SignedOp ? Reading::Signed : Reading::Unsigned;
    // A signed division by a parameter, floor(N/D), or a remainder by
    // anything, N - D*floor(N/D) (llm.c's c = idx % C, t = bt % T of the
    // thread's element): stated for N >= 0 and D > 0 (C rounds toward zero).
    bool Rem = Op == Instruction::SRem || Op == Instruction::URem;
    if ((!C && Op == Instruction::SDiv) || Rem) {
      Reading R = Op == Instruction::URem ? Reading::Unsigned : Reading::Signed;
      Polynomial N = Operand(0, R);
      Polynomial D = Operand(1, R);
      if (Failed)
        return N;
      if (!N.constantValue())
        require(N, true, 0);
      std::optional<Rational> K = D.constantValue();
      if (!K)
        require(D, true, 1);
      else if (K->num() <= 0 || !K->isInteger())
        return fail("a remainder by a constant that is not positive");
      Polynomial Q = K ? floorOf(N, int64_t(K->num())) : floorOf(N, D);
      return Rem ? N - D * Q : Q;
    }
    if (C && !C->isNegative() && C->getValue().getActiveBits() < 62 &&
        (Op == Instruction::SDiv || Op == Instruction::UDiv ||
         Op == Instruction::AShr || Op == Instruction::LShr)) {
      int64_t Divisor = C->getZExtValue();
      if (Op == Instruction::AShr || Op == Instruction::LShr)
        Divisor = int64_t(1) << Divisor;
      if (Divisor > 0) {
        Polynomial N = Operand(0, As);
        if (!Failed && SignedOp &&
            !N.constantValue())
          require(N, true, 0);
        return floorOf(N, Divisor);
      }
    }
  }
  if (isa<LoadInst>(V))
    return fail("a value loaded from memory");
  if (isa<PHINode>(V))
    return fail("a value that depends on the path taken");
  if (isa<CallBase>(V))
    return fail("the result of a call");
  return fail("a value the analysis cannot name");
}

Polynomial SCEVPolynomial::visit(const SCEV *S) {
  if (Failed)
    return Polynomial::invalid();
  switch (S->getSCEVType()) {
  case scConstant: {
    const APInt &V = cast<SCEVConstant>(S)->getAPInt();
    if (V.getSignificantBits() > 64)
      return fail("a constant wider than 64 bits");
    return Polynomial(V.getSExtValue());
  }
  case scTruncate:
  case scPtrToInt:
    // Agrees modulo 2^width: nothing is read as a number here.
    return visit(cast<SCEVCastExpr>(S)->getOperand(0));
  case scZeroExtend:
  case scSignExtend: {
    // The extension reads its operand as a number: it must be in range.
    const SCEV *Op = cast<SCEVCastExpr>(S)->getOperand(0);
    // x & (2^k - 1), x % 2^k unsigned: zext(trunc x to ik), the low k bits
    // of x: x - 2^k*floor(x/2^k), for any x that agrees with the value
    // modulo 2^k (so x is read modulo its width). A lane, threadIdx.x % 32,
    // runs through 0..31 in every warp; it is not threadIdx.x. ScalarEvolution
    // may push the truncation into the operands ((g % 32) as zext(trunc tid
    // + trunc bdim * trunc bid)): any truncation inside reads the operand
    // modulo 2^k, and the k-bit range SCEV gives it says nothing of x.
    bool Truncated = SCEVExprContains(Op, [](const SCEV *E) {
      return isa<SCEVTruncateExpr>(E);
    });
    if (Truncated && S->getSCEVType() == scZeroExtend) {
      unsigned K = SE.getTypeSizeInBits(Op->getType());
      std::vector<Condition> Before = Conditions;
      Polynomial P = visit(Op);
      int64_t Mod = K < 62 ? int64_t(1) << K : 0;
      bool LoopVariant = false; // a floor of a counter is not a polynomial
      for (const std::string &V : P.variables())
        LoopVariant |= V.rfind("$", 0) == 0;
      bool InRange = P.isValid() && !Failed &&
                     (P.constantValue() ||
                      (provable(P, true, 0) && provable(P, false, Mod - 1)));
      if (Mod && !Failed && P.isValid() && !InRange && !LoopVariant) {
        Polynomial Q = floorOf(P, Mod);
        Residues.push_back({P, Q, Mod});
        return P - Polynomial(Mod) * Q;
      }
      // The low bits of a counter (i % 4 in a loop) are no polynomial of
      // it; the k-bit range ScalarEvolution gives them says nothing of i.
      if (!Failed && P.isValid() && !InRange && LoopVariant)
        return fail("the low bits of a loop-variant value (x % 2^k)");
      Conditions = std::move(Before);
      Failed = false;
    }
    return inRange(visit(Op), Op,
                   S->getSCEVType() == scZeroExtend ? Reading::Unsigned
                                                    : Reading::Signed);
  }
  case scAddExpr: {
    Polynomial Sum;
    for (const SCEV *Op : cast<SCEVAddExpr>(S)->operands())
      Sum += visit(Op);
    return Sum;
  }
  case scMulExpr: {
    Polynomial Prod(1);
    for (const SCEV *Op : cast<SCEVMulExpr>(S)->operands())
      Prod = Prod * visit(Op);
    return Prod;
  }
  case scUDivExpr: {
    const auto *D = cast<SCEVUDivExpr>(S);
    const auto *C = dyn_cast<SCEVConstant>(D->getRHS());
    if (C && (C->getAPInt().isZero() || C->getAPInt().getActiveBits() > 62))
      return fail("a division by zero or by a huge constant");
    Polynomial N = inRange(visit(D->getLHS()), D->getLHS(), Reading::Unsigned);
    if (C)
      return floorOf(N, C->getAPInt().getZExtValue());
    // By a run-time value: floor(N/D), an opaque term the evaluator
    // computes from the parameters (H / Hkv heads per group).
    return floorOf(N, inRange(visit(D->getRHS()), D->getRHS(),
                              Reading::Unsigned));
  }
  case scAddRecExpr: {
    const auto *AR = cast<SCEVAddRecExpr>(S);
    auto It = IVs.find(AR->getLoop());
    if (It == IVs.end())
      return fail("an induction variable of a loop outside the nest");
    Polynomial IV = Polynomial::variable(It->second);
    Polynomial Sum;
    for (unsigned K = 0; K < AR->getNumOperands(); ++K)
      Sum += visit(AR->getOperand(K)) * binomial(IV, K);
    return Sum;
  }
  case scSMaxExpr:
  case scUMaxExpr:
    return visitMax(cast<SCEVMinMaxExpr>(S));
  case scSMinExpr:
  case scUMinExpr:
  case scSequentialUMinExpr:
    return fail("a minimum of several exit conditions");
  case scUnknown:
    return visitUnknown(cast<SCEVUnknown>(S));
  case scVScale:
    return fail("the scalable vector length");
  case scCouldNotCompute:
    return fail("ScalarEvolution could not compute it");
  default:
    return fail("an expression the analysis does not understand");
  }
}

} // namespace roofline
