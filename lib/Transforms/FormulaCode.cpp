//===- FormulaCode.cpp - A summary formula as IR --------------------------===//
#include "FormulaCode.h"

#include "roofline/Model/Formula.h"

#include "llvm/IR/Intrinsics.h"

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

} // namespace

Value *emitCount(IRBuilder<> &B, const std::string &Text,
                 const std::map<std::string, Value *> &Args) {
  Result<std::unique_ptr<FormulaTree>> T = parseFormula(Text);
  if (!T)
    return nullptr;
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

} // namespace roofline
