//===- InstructionCount.cpp - Machine instructions of one IR instruction --===//
#include "roofline/Analysis/InstructionCount.h"

#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

#include <algorithm>

using namespace llvm;

namespace roofline {

namespace {

/// Intrinsics that emit no code, whatever a target's table says of them.
bool emitsNothing(const Instruction &I) {
  const auto *II = dyn_cast<IntrinsicInst>(&I);
  if (!II)
    return false;
  if (II->isAssumeLikeIntrinsic())
    return true; // lifetimes, assume, debug, pseudo-probes, sideeffect...
  switch (II->getIntrinsicID()) {
  case Intrinsic::launder_invariant_group:
  case Intrinsic::strip_invariant_group:
  case Intrinsic::expect:
  case Intrinsic::expect_with_probability:
    return true;
  default:
    return false;
  }
}

/// x86 arithmetic takes one memory operand: a load with one use, by an
/// arithmetic or compare instruction in the same block, is folded into it
/// (the second operand, or either of a commutative operation's; of an
/// fmuladd, the addend first). One load per user.
bool foldsIntoItsUser(const LoadInst &L) {
  if (L.isVolatile() || !L.hasOneUse())
    return false;
  const auto *U = dyn_cast<Instruction>(*L.user_begin());
  if (!U || U->getParent() != L.getParent())
    return false;
  auto Candidate = [&](const Value *V) {
    const auto *Op = dyn_cast<LoadInst>(V);
    return Op && Op->hasOneUse() && !Op->isVolatile() &&
           Op->getParent() == U->getParent();
  };
  const Value *Folded = nullptr;
  if (isa<BinaryOperator>(U) || isa<CmpInst>(U)) {
    if (Candidate(U->getOperand(1)))
      Folded = U->getOperand(1);
    else if ((U->isCommutative() || isa<ICmpInst>(U) || isa<FCmpInst>(U)) &&
             Candidate(U->getOperand(0)))
      Folded = U->getOperand(0);
  } else if (const auto *II = dyn_cast<IntrinsicInst>(U);
             II && (II->getIntrinsicID() == Intrinsic::fmuladd ||
                    II->getIntrinsicID() == Intrinsic::fma)) {
    for (unsigned A : {2u, 1u, 0u})
      if (!Folded && Candidate(II->getArgOperand(A)))
        Folded = II->getArgOperand(A);
  }
  return Folded == &L;
}

/// An index plus a constant (`add`, `or disjoint`) that only addresses
/// memory: the constant becomes the addressing mode's displacement.
bool isDisplacement(const Instruction &I) {
  const auto *BO = dyn_cast<BinaryOperator>(&I);
  if (!BO || !I.getType()->isIntegerTy() ||
      !(BO->getOpcode() == Instruction::Add ||
        (BO->getOpcode() == Instruction::Or &&
         cast<PossiblyDisjointInst>(BO)->isDisjoint())) ||
      !isa<ConstantInt>(BO->getOperand(1)) || I.use_empty())
    return false;
  return all_of(I.users(), [](const User *U) { return isa<GetElementPtrInst>(U); });
}

} // namespace

int64_t machineInstructionsOf(const Instruction &I,
                              const TargetTransformInfo &TTI, bool X86) {
  if (emitsNothing(I))
    return 0;
  // Laid out in order, an unconditional branch falls through (a preheader
  // into its loop, a block into its exit); only an if-else join keeps one.
  if (const auto *Br = dyn_cast<BranchInst>(&I); Br && Br->isUnconditional())
    return 0;
  // Free in the target's eyes: a phi, a GEP the addressing mode folds, a
  // no-op cast.
  InstructionCost C =
      TTI.getInstructionCost(&I, TargetTransformInfo::TCK_CodeSize);
  if (C.isValid() && C.getValue() == 0)
    return 0;
  if (const auto *L = dyn_cast<LoadInst>(&I); L && X86 && foldsIntoItsUser(*L))
    return 0;
  if (isDisplacement(I))
    return 0;
  // A load or store: one per register it moves (X86's code-size table
  // prices a scalar store 2).
  if (isa<LoadInst>(I) || isa<StoreInst>(I)) {
    Type *Ty = isa<StoreInst>(I) ? cast<StoreInst>(I).getValueOperand()->getType()
                                 : I.getType();
    return isa<FixedVectorType>(Ty) ? std::max<int64_t>(1, TTI.getNumberOfParts(Ty))
                                    : 1;
  }
  // The rest as the target sizes it: a division by a constant is its
  // multiply-and-shift sequence, a vector wider than the registers one
  // per part, an FMA on a target without one a multiply and an add.
  if (!C.isValid())
    return 1;
  return std::max<int64_t>(1, C.getValue());
}

} // namespace roofline
