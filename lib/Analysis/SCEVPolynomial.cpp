//===- SCEVPolynomial.cpp - ScalarEvolution to closed forms ---------------===//
#include "roofline/Analysis/SCEVPolynomial.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace roofline {

Polynomial SCEVPolynomial::fail(std::string Why) {
  if (!Failed)
    Reason = std::move(Why);
  Failed = true;
  return Polynomial::invalid();
}

std::optional<Polynomial> SCEVPolynomial::translate(const SCEV *S) {
  Failed = false;
  Reason.clear();
  Polynomial P = visit(S);
  if (Failed)
    return std::nullopt;
  if (!P.isValid()) {
    Reason = "the closed form overflows 64-bit coefficients";
    return std::nullopt;
  }
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
  return Polynomial::floorOf(N, Divisor);
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
  return Polynomial::floorOf(N, D);
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
  case scZeroExtend:
  case scSignExtend:
  case scPtrToInt:
    // Parameters are read as mathematical integers: no wraparound.
    return visit(cast<SCEVCastExpr>(S)->getOperand(0));
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
    if (C)
      return floorOf(visit(D->getLHS()), C->getAPInt().getZExtValue());
    // By a run-time value: floor(N/D), an opaque term the evaluator
    // computes from the parameters (H / Hkv heads per group).
    Polynomial N = visit(D->getLHS());
    return floorOf(N, visit(D->getRHS()));
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
  case scUMaxExpr: {
    // (1 smax n): the trip count of a guarded loop. Taking n is exact when
    // n >= 1; that is stated as an assumption.
    const auto *MM = cast<SCEVMinMaxExpr>(S);
    const SCEV *Variable = nullptr;
    std::optional<int64_t> Bound;
    for (const SCEV *Op : MM->operands()) {
      if (const auto *C = dyn_cast<SCEVConstant>(Op)) {
        if (C->getAPInt().getSignificantBits() > 64)
          return fail("a constant wider than 64 bits");
        int64_t V = C->getAPInt().getSExtValue();
        Bound = Bound ? std::max(*Bound, V) : V;
      } else if (Variable) {
        return fail("a maximum of two run-time values");
      } else {
        Variable = Op;
      }
    }
    if (!Variable)
      return Polynomial(Bound.value_or(0));
    Polynomial P = visit(Variable);
    if (Bound && !Failed)
      Assumptions.push_back(P.str() + " >= " + std::to_string(*Bound));
    return P;
  }
  case scSMinExpr:
  case scUMinExpr:
  case scSequentialUMinExpr:
    return fail("a minimum of several exit conditions");
  case scUnknown: {
    const Value *V = cast<SCEVUnknown>(S)->getValue();
    if (auto Name = NameOf(V))
      return Polynomial::variable(*Name);
    // Signed division and shifts by constants are not SCEV expressions, but
    // `K / TILE` trip counts are common: floor(K/TILE), stated for K >= 0.
    if (const auto *BO = dyn_cast<BinaryOperator>(V)) {
      const auto *C = dyn_cast<ConstantInt>(BO->getOperand(1));
      auto Op = BO->getOpcode();
      // A signed division by a parameter: floor(N/D), stated for N >= 0
      // and D > 0 (C rounds toward zero).
      if (!C && Op == Instruction::SDiv) {
        Polynomial N = visit(SE.getSCEV(BO->getOperand(0)));
        Polynomial D = visit(SE.getSCEV(BO->getOperand(1)));
        if (Failed)
          return N;
        if (!N.constantValue())
          Assumptions.push_back(N.str() + " >= 0");
        Assumptions.push_back(D.str() + " > 0");
        return floorOf(N, D);
      }
      if (C && !C->isNegative() && C->getValue().getActiveBits() < 62 &&
          (Op == Instruction::SDiv || Op == Instruction::UDiv ||
           Op == Instruction::AShr || Op == Instruction::LShr)) {
        int64_t Divisor = C->getZExtValue();
        if (Op == Instruction::AShr || Op == Instruction::LShr)
          Divisor = int64_t(1) << Divisor;
        if (Divisor > 0) {
          Polynomial N = visit(SE.getSCEV(BO->getOperand(0)));
          if (!Failed && (Op == Instruction::SDiv || Op == Instruction::AShr) &&
              !N.constantValue())
            Assumptions.push_back(N.str() + " >= 0");
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
  case scVScale:
    return fail("the scalable vector length");
  case scCouldNotCompute:
    return fail("ScalarEvolution could not compute it");
  default:
    return fail("an expression the analysis does not understand");
  }
}

} // namespace roofline
