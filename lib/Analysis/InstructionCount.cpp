//===- InstructionCount.cpp - Machine instructions of one IR instruction --===//
#include "roofline/Analysis/InstructionCount.h"

#include "llvm/Analysis/TargetTransformInfo.h"
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

} // namespace

int64_t machineInstructionsOf(const Instruction &I,
                              const TargetTransformInfo &TTI) {
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
  // Otherwise one, or one per register a vector wider than the target's
  // is split into. (The cost itself is not the count: X86's code-size
  // table prices a scalar store 2.)
  Type *Ty = I.getType();
  if (const auto *SI = dyn_cast<StoreInst>(&I))
    Ty = SI->getValueOperand()->getType();
  if (isa<FixedVectorType>(Ty))
    return std::max<int64_t>(1, TTI.getNumberOfParts(Ty));
  return 1;
}

} // namespace roofline
