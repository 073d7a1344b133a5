//===- FormulaCode.cpp - A summary polynomial as IR -----------------------===//
#include "FormulaCode.h"

#include "llvm/IR/Intrinsics.h"

#include <cmath>
#include <set>

using namespace llvm;

namespace roofline {

bool polynomialUses(const Polynomial &P, const FormulaValues &Known) {
  Condition C = Condition::compare(P, Comparison::GE, Polynomial(0));
  return conditionUses(C, Known);
}

bool conditionUses(const Condition &C, const FormulaValues &Known) {
  std::optional<std::set<std::string>> Vars = C.variables();
  if (!Vars)
    return false;
  for (const std::string &V : *Vars)
    if (!Known.count(V))
      return false;
  return true;
}

namespace {

/// Integer coefficients (small enough for a double to hold exactly) and no
/// floor: cheaper in 64-bit integers than in doubles, on every call.
bool integral(const Polynomial &P) {
  if (!P.isValid())
    return false;
  for (const auto &[M, C] : P.terms()) {
    if (!C.isInteger() || std::fabs(C.toDouble()) >= 9e15)
      return false;
    for (const auto &[A, Exp] : M)
      if (A.kind() == AtomKind::Floor)
        return false;
  }
  return true;
}

/// The value of atom \p Name from \p Args: an integer of at most 64 bits
/// for the integer path (a wider one would wrap), any integer for doubles.
Value *argument(const std::string &Name, const FormulaValues &Args,
                bool Integer) {
  auto It = Args.find(Name);
  if (It == Args.end() || !It->second->getType()->isIntegerTy())
    return nullptr;
  if (Integer && It->second->getType()->getIntegerBitWidth() > 64)
    return nullptr;
  return It->second;
}

Value *emitInteger(IRBuilder<> &B, const Polynomial &P,
                   const FormulaValues &Args) {
  Type *I64 = B.getInt64Ty();
  Value *Sum = nullptr;
  for (const auto &[M, C] : P.terms()) {
    Value *Term = nullptr; // the atoms' product, then the coefficient
    for (const auto &[A, Exp] : M) {
      Value *V = argument(A.name(), Args, /*Integer=*/true);
      if (!V)
        return nullptr;
      V = B.CreateSExt(V, I64);
      for (unsigned E = 0; E < Exp; ++E)
        Term = Term ? B.CreateMul(Term, V) : V;
    }
    Value *Coefficient = ConstantInt::get(I64, C.num(), /*IsSigned=*/true);
    if (!Term || C != Rational(1))
      Term = Term ? B.CreateMul(Coefficient, Term) : Coefficient;
    Sum = Sum ? B.CreateAdd(Sum, Term) : Term;
  }
  return Sum ? Sum : ConstantInt::get(I64, 0);
}

Value *emitDouble(IRBuilder<> &B, const Polynomial &P,
                  const FormulaValues &Args) {
  if (!P.isValid())
    return nullptr;
  Type *D = B.getDoubleTy();
  Value *Sum = nullptr;
  for (const auto &[M, C] : P.terms()) {
    Value *Term = nullptr; // the atoms' product, then the coefficient
    for (const auto &[A, Exp] : M) {
      Value *V = nullptr;
      if (A.kind() == AtomKind::Floor) {
        if (!A.numerator())
          return nullptr;
        Value *N = emitDouble(B, *A.numerator(), Args);
        Value *Den = N ? emitDouble(B, *A.divisor(), Args) : nullptr;
        if (!Den)
          return nullptr;
        // As the formula evaluators do (FloorSlack).
        V = B.CreateUnaryIntrinsic(
            Intrinsic::floor,
            B.CreateFAdd(B.CreateFDiv(N, Den), ConstantFP::get(D, FloorSlack)));
      } else if (Value *Arg = argument(A.name(), Args, /*Integer=*/false)) {
        V = B.CreateSIToFP(Arg, D);
      } else {
        return nullptr;
      }
      for (unsigned E = 0; E < Exp; ++E)
        Term = Term ? B.CreateFMul(Term, V) : V;
    }
    Value *Coefficient = ConstantFP::get(D, C.toDouble());
    if (!Term || C != Rational(1))
      Term = Term ? B.CreateFMul(Coefficient, Term) : Coefficient;
    Sum = Sum ? B.CreateFAdd(Sum, Term) : Term;
  }
  return Sum ? Sum : ConstantFP::get(D, 0.0);
}

CmpInst::Predicate integerPredicate(Comparison Op) {
  switch (Op) {
  case Comparison::GE: return CmpInst::ICMP_SGE;
  case Comparison::LE: return CmpInst::ICMP_SLE;
  case Comparison::GT: return CmpInst::ICMP_SGT;
  case Comparison::LT: return CmpInst::ICMP_SLT;
  case Comparison::EQ: return CmpInst::ICMP_EQ;
  case Comparison::NE: return CmpInst::ICMP_NE;
  }
  return CmpInst::ICMP_EQ;
}

CmpInst::Predicate floatPredicate(Comparison Op) {
  switch (Op) {
  case Comparison::GE: return CmpInst::FCMP_OGE;
  case Comparison::LE: return CmpInst::FCMP_OLE;
  case Comparison::GT: return CmpInst::FCMP_OGT;
  case Comparison::LT: return CmpInst::FCMP_OLT;
  case Comparison::EQ: return CmpInst::FCMP_OEQ;
  case Comparison::NE: return CmpInst::FCMP_ONE;
  }
  return CmpInst::FCMP_OEQ;
}

} // namespace

Value *emitCount(IRBuilder<> &B, const Polynomial &P, const FormulaValues &Args) {
  if (integral(P))
    if (Value *V = emitInteger(B, P, Args)) {
      // A negative value (a loop that does not run) is 0.
      Value *Zero = ConstantInt::get(B.getInt64Ty(), 0);
      return B.CreateSelect(B.CreateICmpSGT(V, Zero), V, Zero);
    }
  Value *V = emitDouble(B, P, Args);
  if (!V)
    return nullptr;
  Type *D = B.getDoubleTy();
  // Into [0, 2^63): NaN and negative values are 0, huge ones saturate
  // (fptoui of a value out of range would be poison).
  Value *Positive = B.CreateFCmpOGT(V, ConstantFP::get(D, 0.0));
  Value *Clamped = B.CreateSelect(Positive, V, ConstantFP::get(D, 0.0));
  Value *Max = ConstantFP::get(D, 9.2e18);
  Clamped = B.CreateSelect(B.CreateFCmpOLT(Clamped, Max), Clamped, Max);
  return B.CreateFPToUI(Clamped, B.getInt64Ty());
}

Value *emitCondition(IRBuilder<> &B, const Condition &C,
                     const FormulaValues &Args) {
  if (C.K != Condition::Kind::Compare) {
    bool All = C.K == Condition::Kind::All;
    Value *Holds = nullptr;
    for (const Condition &P : C.Parts) {
      Value *H = emitCondition(B, P, Args);
      if (!H)
        return nullptr;
      Holds = !Holds ? H : All ? B.CreateAnd(Holds, H) : B.CreateOr(Holds, H);
    }
    return Holds ? Holds : B.getInt1(All);
  }
  // In 64-bit integers where both sides are (the common case: cheaper
  // than doubles, and the test runs on every call).
  if (integral(C.Lhs) && integral(C.Rhs))
    if (Value *X = emitInteger(B, C.Lhs, Args))
      if (Value *Y = emitInteger(B, C.Rhs, Args))
        return B.CreateICmp(integerPredicate(C.Op), X, Y);
  Value *X = emitDouble(B, C.Lhs, Args);
  Value *Y = X ? emitDouble(B, C.Rhs, Args) : nullptr;
  return Y ? B.CreateFCmp(floatPredicate(C.Op), X, Y) : nullptr;
}

Value *emitConditionalCount(IRBuilder<> &B, const Polynomial &P,
                            const std::vector<Condition> &Conditions,
                            const FormulaValues &Args, Value *&Holds) {
  Value *Zero = ConstantInt::get(B.getInt64Ty(), 0);
  if (!Holds) {
    Holds = B.getTrue();
    std::set<std::string> Seen; // the kernel's and the footprint's overlap
    for (const Condition &Test : Conditions) {
      if (!Seen.insert(Test.str()).second)
        continue;
      Value *H = emitCondition(B, Test, Args);
      Holds = B.CreateAnd(Holds, H ? H : B.getFalse());
    }
  }
  Value *N = emitCount(B, P, Args);
  return N ? B.CreateSelect(Holds, N, Zero) : Zero;
}

} // namespace roofline
