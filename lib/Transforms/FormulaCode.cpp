//===- FormulaCode.cpp - A summary formula as IR --------------------------===//
#include "FormulaCode.h"

#include <cstring>

#include "roofline/Model/Formula.h"

#include "llvm/IR/Intrinsics.h"

#include <cmath>

using namespace llvm;

namespace roofline {

bool formulaUses(const std::string &Text,
                 const std::map<std::string, Value *> &Known) {
  Result<std::set<std::string>> Vars = formulaVariables(Text);
  if (!Vars)
    return false;
  for (const std::string &V : *Vars)
    if (!Known.count(V))
      return false;
  return true;
}

namespace {

Value *emit(IRBuilder<> &B, const FormulaTree &N,
            const std::map<std::string, Value *> &Args) {
  Type *D = B.getDoubleTy();
  auto Both = [&](auto Op) -> Value * {
    Value *L = emit(B, *N.L, Args);
    Value *R = L ? emit(B, *N.R, Args) : nullptr;
    return R ? Op(L, R) : nullptr;
  };
  switch (N.K) {
  case FormulaTree::Number:
    return ConstantFP::get(D, N.Value);
  case FormulaTree::Variable: {
    auto It = Args.find(N.Name);
    if (It == Args.end() || !It->second->getType()->isIntegerTy())
      return nullptr;
    return B.CreateSIToFP(It->second, D);
  }
  case FormulaTree::Add:
    return Both([&](Value *L, Value *R) { return B.CreateFAdd(L, R); });
  case FormulaTree::Sub:
    return Both([&](Value *L, Value *R) { return B.CreateFSub(L, R); });
  case FormulaTree::Mul:
    return Both([&](Value *L, Value *R) { return B.CreateFMul(L, R); });
  case FormulaTree::Div:
    return Both([&](Value *L, Value *R) { return B.CreateFDiv(L, R); });
  case FormulaTree::Neg: {
    Value *L = emit(B, *N.L, Args);
    return L ? B.CreateFNeg(L) : nullptr;
  }
  case FormulaTree::Pow: {
    // Formulas have small integer exponents: repeated products.
    if (N.R->K != FormulaTree::Number || N.R->Value < 0 || N.R->Value > 16 ||
        N.R->Value != double(int(N.R->Value)))
      return nullptr;
    Value *Base = emit(B, *N.L, Args);
    if (!Base)
      return nullptr;
    Value *P = ConstantFP::get(D, 1.0);
    for (int I = 0; I < int(N.R->Value); ++I)
      P = B.CreateFMul(P, Base);
    return P;
  }
  case FormulaTree::Floor: {
    Value *L = emit(B, *N.L, Args);
    // As the formula evaluator does: a quotient a hair below an integer
    // through rounding is that integer.
    return L ? B.CreateUnaryIntrinsic(Intrinsic::floor,
                                      B.CreateFAdd(L, ConstantFP::get(D, 1e-9)))
             : nullptr;
  }
  }
  return nullptr;
}

/// A formula without quotients (the common footprint, 8*n or 4*M*K + ...)
/// in 64-bit integers: cheaper than doubles on every call.
bool integral(const FormulaTree &N) {
  switch (N.K) {
  case FormulaTree::Number:
    return N.Value == double(int64_t(N.Value)) && std::fabs(N.Value) < 9e15;
  case FormulaTree::Variable:
    return true;
  case FormulaTree::Div:
  case FormulaTree::Floor:
    return false;
  case FormulaTree::Pow:
    return N.R->K == FormulaTree::Number && N.R->Value >= 0 &&
           N.R->Value <= 16 && N.R->Value == double(int(N.R->Value)) &&
           integral(*N.L);
  default:
    return integral(*N.L) && (!N.R || integral(*N.R));
  }
}

Value *emitInteger(IRBuilder<> &B, const FormulaTree &N,
                   const std::map<std::string, Value *> &Args) {
  Type *I64 = B.getInt64Ty();
  auto Both = [&](auto Op) -> Value * {
    Value *L = emitInteger(B, *N.L, Args);
    Value *R = L ? emitInteger(B, *N.R, Args) : nullptr;
    return R ? Op(L, R) : nullptr;
  };
  switch (N.K) {
  case FormulaTree::Number:
    return ConstantInt::get(I64, int64_t(N.Value), /*IsSigned=*/true);
  case FormulaTree::Variable: {
    auto It = Args.find(N.Name);
    // Wider than 64 bits: the double path (a truncation would wrap).
    if (It == Args.end() || !It->second->getType()->isIntegerTy() ||
        It->second->getType()->getIntegerBitWidth() > 64)
      return nullptr;
    return B.CreateSExt(It->second, I64);
  }
  case FormulaTree::Add:
    return Both([&](Value *L, Value *R) { return B.CreateAdd(L, R); });
  case FormulaTree::Sub:
    return Both([&](Value *L, Value *R) { return B.CreateSub(L, R); });
  case FormulaTree::Mul:
    return Both([&](Value *L, Value *R) { return B.CreateMul(L, R); });
  case FormulaTree::Neg: {
    Value *L = emitInteger(B, *N.L, Args);
    return L ? B.CreateNeg(L) : nullptr;
  }
  case FormulaTree::Pow: {
    Value *Base = emitInteger(B, *N.L, Args);
    if (!Base)
      return nullptr;
    Value *P = ConstantInt::get(I64, 1);
    for (int I = 0; I < int(N.R->Value); ++I)
      P = B.CreateMul(P, Base);
    return P;
  }
  default:
    return nullptr;
  }
}

} // namespace

Value *emitCount(IRBuilder<> &B, const std::string &Text,
                 const std::map<std::string, Value *> &Args) {
  Result<std::unique_ptr<FormulaTree>> T = parseFormula(Text);
  if (!T)
    return nullptr;
  if (integral(**T))
    if (Value *V = emitInteger(B, **T, Args)) {
      // A negative value (a loop that does not run) is 0.
      Value *Zero = ConstantInt::get(B.getInt64Ty(), 0);
      return B.CreateSelect(B.CreateICmpSGT(V, Zero), V, Zero);
    }
  Value *V = emit(B, **T, Args);
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

namespace {

/// An assumption's two sides and its comparison; false when it is not
/// "L op R" (then where it comes from: " (guard at f.c:12)", " in g",
/// " for a").
bool splitCondition(const std::string &Text, std::string &L, std::string &R,
                    CmpInst::Predicate &Pred) {
  std::string Cond = Text;
  for (const char *Tail : {" (", " in ", " for "})
    Cond = Cond.substr(0, Cond.find(Tail));
  static const std::pair<const char *, CmpInst::Predicate> Ops[] = {
      {" >= ", CmpInst::FCMP_OGE}, {" <= ", CmpInst::FCMP_OLE},
      {" != ", CmpInst::FCMP_ONE}, {" == ", CmpInst::FCMP_OEQ},
      {" > ", CmpInst::FCMP_OGT},  {" < ", CmpInst::FCMP_OLT}};
  for (const auto &[Op, P] : Ops)
    if (size_t At = Cond.find(Op); At != std::string::npos) {
      L = Cond.substr(0, At);
      R = Cond.substr(At + std::strlen(Op));
      Pred = P;
      return true;
    }
  return false;
}

} // namespace

bool conditionUses(const std::string &Text,
                   const std::map<std::string, Value *> &Known) {
  std::string L, R;
  CmpInst::Predicate Pred;
  return splitCondition(Text, L, R, Pred) && formulaUses(L, Known) &&
         formulaUses(R, Known);
}

Value *emitCondition(IRBuilder<> &B, const std::string &Text,
                     const std::map<std::string, Value *> &Args) {
  std::string LText, RText;
  CmpInst::Predicate Pred;
  if (!splitCondition(Text, LText, RText, Pred))
    return nullptr;
  Result<std::unique_ptr<FormulaTree>> L = parseFormula(LText);
  Result<std::unique_ptr<FormulaTree>> R = parseFormula(RText);
  if (!L || !R)
    return nullptr;
  // In 64-bit integers where both sides are (the common case: cheaper
  // than doubles, and the test runs on every call).
  if (integral(**L) && integral(**R))
    if (Value *X = emitInteger(B, **L, Args))
      if (Value *Y = emitInteger(B, **R, Args)) {
        CmpInst::Predicate IPred =
            Pred == CmpInst::FCMP_OGE   ? CmpInst::ICMP_SGE
            : Pred == CmpInst::FCMP_OLE ? CmpInst::ICMP_SLE
            : Pred == CmpInst::FCMP_ONE ? CmpInst::ICMP_NE
            : Pred == CmpInst::FCMP_OEQ ? CmpInst::ICMP_EQ
            : Pred == CmpInst::FCMP_OGT ? CmpInst::ICMP_SGT
                                        : CmpInst::ICMP_SLT;
        return B.CreateICmp(IPred, X, Y);
      }
  Value *X = emit(B, **L, Args), *Y = X ? emit(B, **R, Args) : nullptr;
  return Y ? B.CreateFCmp(Pred, X, Y) : nullptr;
}

} // namespace roofline
