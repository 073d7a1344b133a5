//===- IntegerWork.cpp - Which integer operations are the user's work -----===//
//
// Two sets, found once per function:
//  - Data: values derived from memory or floating point (a loaded integer,
//    a masked load's lanes, a call's result, an fcmp). A branch on such a value is the user's logic;
//    a branch on a counter is the loop's.
//  - Work: values that are used as values. A use is one unless it is an
//    address (a GEP index, a pointer operand), a branch on a value not in
//    Data, or an operand of an operation whose own result is not work.
// An operation is counted when its result is work and it is not the step
// of an induction variable. Stack slots that are only loaded and stored
// whole (-O0's variables) pass values through as SSA would, so -O0 and -O2
// code count the same work.
//
// Packing is not integer work: the shifts, byte masks and ors that take
// fp16, bf16 or fp8 values out of a wider integer or put them back (llm.c's
// 128-bit loads of eight bf16s) move floating-point bits to or from a
// conversion, as a vector shuffle would; nor is arithmetic on a float's
// bits alone (a rounding to bf16 done in integers).
//
//===----------------------------------------------------------------------===//
#include "roofline/Analysis/IntegerWork.h"
#include "roofline/Analysis/DeviceCode.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/PatternMatch.h"

using namespace llvm;

namespace roofline {
namespace {

struct IntOp {
  IntKind Kind;
  unsigned Bits;  ///< of the operands
  int64_t Count;  ///< operations, all lanes
};

unsigned lanes(const Type *Ty) {
  if (auto *VT = dyn_cast<VectorType>(Ty))
    return VT->getElementCount().getKnownMinValue();
  return 1;
}

bool isInteger(const Type *Ty) { return Ty->isIntOrIntVectorTy(); }

unsigned bitsOf(const Type *Ty) { return Ty->getScalarSizeInBits(); }

/// Dot-product instructions: {pairs multiplied per result lane, their bits}.
std::optional<std::pair<unsigned, unsigned>> dotShape(StringRef Name) {
  if (Name.starts_with("llvm.x86.")) {
    if (Name.contains(".vpdpb")) // vpdpbusd, vpdpbssd, ...: 4 bytes per dword
      return std::make_pair(4u, 8u);
    if (Name.contains(".vpdpw")) // vpdpwssd, ...: 2 words per dword
      return std::make_pair(2u, 16u);
  }
  if (Name.starts_with("llvm.aarch64.neon.") &&
      (Name.contains(".sdot") || Name.contains(".udot") ||
       Name.contains(".usdot")))
    return std::make_pair(4u, 8u);
  return std::nullopt;
}

/// The integer operation an intrinsic performs, per lane of its result.
std::optional<IntOp> intrinsicOp(const IntrinsicInst &II) {
  Type *Ty = II.getType();
  if (auto *ST = dyn_cast<StructType>(Ty)) // {result, overflow}
    Ty = ST->getElementType(0);
  if (auto Dot = dotShape(II.getCalledFunction()->getName()))
    return IntOp{IntKind::Dot, Dot->second, lanes(Ty) * Dot->first * 2};
  if (!isInteger(Ty))
    return std::nullopt;
  unsigned N = lanes(Ty), Bits = bitsOf(Ty);
  switch (II.getIntrinsicID()) {
  case Intrinsic::sadd_sat:
  case Intrinsic::uadd_sat:
  case Intrinsic::ssub_sat:
  case Intrinsic::usub_sat:
  case Intrinsic::sadd_with_overflow:
  case Intrinsic::uadd_with_overflow:
  case Intrinsic::ssub_with_overflow:
  case Intrinsic::usub_with_overflow:
    return IntOp{IntKind::AddSub, Bits, N};
  case Intrinsic::smul_with_overflow:
  case Intrinsic::umul_with_overflow:
  case Intrinsic::smul_fix:
  case Intrinsic::umul_fix:
    return IntOp{IntKind::Mul, Bits, N};
  case Intrinsic::smax:
  case Intrinsic::smin:
  case Intrinsic::umax:
  case Intrinsic::umin:
  case Intrinsic::abs:
    return IntOp{IntKind::CompareSelect, Bits, N};
  case Intrinsic::ctpop:
  case Intrinsic::ctlz:
  case Intrinsic::cttz:
  case Intrinsic::bswap:
  case Intrinsic::bitreverse:
  case Intrinsic::fshl:
  case Intrinsic::fshr:
    return IntOp{IntKind::Bitwise, Bits, N};
  case Intrinsic::vector_partial_reduce_add: {
    Type *In = II.getArgOperand(1)->getType();
    return IntOp{IntKind::AddSub, Bits, lanes(In)};
  }
  default:
    break;
  }
  // Reductions: lanes - 1 operations on the vector's elements. Counted by
  // the caller only outside a vectorised loop's epilogue (see
  // isReductionEpilogue).
  if (II.arg_size() == 1) {
    Type *In = II.getArgOperand(0)->getType();
    int64_t Steps = int64_t(lanes(In)) - 1;
    switch (II.getIntrinsicID()) {
    case Intrinsic::vector_reduce_add:
      return IntOp{IntKind::AddSub, Bits, Steps};
    case Intrinsic::vector_reduce_mul:
      return IntOp{IntKind::Mul, Bits, Steps};
    case Intrinsic::vector_reduce_and:
    case Intrinsic::vector_reduce_or:
    case Intrinsic::vector_reduce_xor:
      return IntOp{IntKind::Bitwise, Bits, Steps};
    case Intrinsic::vector_reduce_smax:
    case Intrinsic::vector_reduce_smin:
    case Intrinsic::vector_reduce_umax:
    case Intrinsic::vector_reduce_umin:
      return IntOp{IntKind::CompareSelect, Bits, Steps};
    default:
      break;
    }
  }
  return std::nullopt;
}

/// The integer operation \p I performs, if it is one (work or not).
std::optional<IntOp> operationOf(const Instruction &I) {
  Type *Ty = I.getType();
  if (auto *BO = dyn_cast<BinaryOperator>(&I)) {
    if (!isInteger(Ty))
      return std::nullopt;
    IntKind K;
    switch (BO->getOpcode()) {
    case Instruction::Add:
    case Instruction::Sub:
      K = IntKind::AddSub;
      break;
    case Instruction::Mul:
      K = IntKind::Mul;
      break;
    case Instruction::UDiv:
    case Instruction::SDiv:
    case Instruction::URem:
    case Instruction::SRem:
      K = IntKind::DivRem;
      break;
    default: // and, or, xor, shifts
      K = IntKind::Bitwise;
      break;
    }
    return IntOp{K, bitsOf(Ty), lanes(Ty)};
  }
  if (auto *C = dyn_cast<ICmpInst>(&I)) {
    Type *OpTy = C->getOperand(0)->getType();
    if (!isInteger(OpTy))
      return std::nullopt; // pointer compares are addresses
    return IntOp{IntKind::CompareSelect, bitsOf(OpTy), lanes(OpTy)};
  }
  if (isa<SelectInst>(I) && isInteger(Ty))
    return IntOp{IntKind::CompareSelect, bitsOf(Ty), lanes(Ty)};
  if (auto *II = dyn_cast<IntrinsicInst>(&I))
    return intrinsicOp(*II);
  return std::nullopt;
}

/// An instruction whose result is computed from its operands' values only:
/// work flows back through it, data forward.
bool isTransparent(const Instruction &I) {
  if (isa<PHINode>(I) || isa<SelectInst>(I) || isa<FreezeInst>(I) ||
      isa<ExtractElementInst>(I) || isa<InsertElementInst>(I) ||
      isa<ShuffleVectorInst>(I) || isa<ExtractValueInst>(I) ||
      isa<InsertValueInst>(I) || isa<ICmpInst>(I))
    return true;
  if (auto *BO = dyn_cast<BinaryOperator>(&I))
    return isInteger(BO->getType());
  if (isa<TruncInst>(I) || isa<ZExtInst>(I) || isa<SExtInst>(I))
    return true;
  if (auto *BC = dyn_cast<BitCastInst>(&I))
    return isInteger(BC->getType()) && isInteger(BC->getOperand(0)->getType());
  if (auto *II = dyn_cast<IntrinsicInst>(&I))
    return II->getIntrinsicID() == Intrinsic::expect || intrinsicOp(*II);
  return false;
}

/// Uses that are not values: addresses, sizes, masks, bookkeeping.
bool isAddressOrBookkeeping(const Use &U) {
  const auto *I = cast<Instruction>(U.getUser());
  if (isa<GetElementPtrInst>(I) || isa<IntToPtrInst>(I) || isa<PtrToIntInst>(I))
    return true;
  if (auto *LI = dyn_cast<LoadInst>(I))
    return U.get() == LI->getPointerOperand();
  if (auto *SI = dyn_cast<StoreInst>(I))
    return U.get() == SI->getPointerOperand();
  if (auto *RMW = dyn_cast<AtomicRMWInst>(I))
    return U.get() == RMW->getPointerOperand();
  if (auto *CX = dyn_cast<AtomicCmpXchgInst>(I))
    return U.get() == CX->getPointerOperand();
  if (auto *II = dyn_cast<IntrinsicInst>(I)) {
    if (II->isAssumeLikeIntrinsic() || isa<MemTransferInst>(II))
      return true;
    if (isa<MemSetInst>(II))
      return U.getOperandNo() != 1; // the byte value is a value
    switch (II->getIntrinsicID()) {
    case Intrinsic::masked_load:
    case Intrinsic::masked_gather:
    case Intrinsic::prefetch:
    case Intrinsic::objectsize:
      return true;
    case Intrinsic::masked_store:
    case Intrinsic::masked_scatter:
      return U.getOperandNo() != 0; // the stored value is a value
    default:
      return false;
    }
  }
  return false;
}

/// A shift by whole bytes, a mask of whole bytes, or an or: how narrow
/// values packed in a wider integer are taken apart and put together.
bool isLaneMove(const Instruction &I) {
  const auto *BO = dyn_cast<BinaryOperator>(&I);
  if (!BO || !isInteger(BO->getType()))
    return false;
  const APInt *C;
  unsigned Bits = bitsOf(BO->getType());
  switch (BO->getOpcode()) {
  case Instruction::Shl:
  case Instruction::LShr:
  case Instruction::AShr:
    return PatternMatch::match(BO->getOperand(1), PatternMatch::m_APInt(C)) &&
           C->ult(Bits) && C->getZExtValue() % 8 == 0;
  case Instruction::And:
    if (!PatternMatch::match(BO->getOperand(1), PatternMatch::m_APInt(C)))
      return false;
    for (unsigned B = 0; B < Bits; B += 8) {
      uint64_t Byte = C->extractBitsAsZExtValue(std::min(8u, Bits - B), B);
      if (Byte != 0 && Byte != 0xFF)
        return false;
    }
    return true;
  case Instruction::Or:
    return true;
  default:
    return false;
  }
}

/// An operation that carries packed bits unchanged, or moves lanes.
bool carriesBits(const Instruction &I) {
  if (isa<TruncInst>(I) || isa<ZExtInst>(I) || isa<SExtInst>(I) ||
      isa<PHINode>(I) || isa<SelectInst>(I) || isa<FreezeInst>(I) ||
      isa<ExtractElementInst>(I) || isa<InsertElementInst>(I) ||
      isa<ShuffleVectorInst>(I) || isa<ExtractValueInst>(I) ||
      isa<InsertValueInst>(I))
    return true;
  if (auto *BC = dyn_cast<BitCastInst>(&I))
    return isInteger(BC->getType()) && isInteger(BC->getOperand(0)->getType());
  return isLaneMove(I);
}

/// An inline asm that works on fp16, bf16 or fp8 values (cuda_fp16.h's and
/// cuda_bf16.h's conversions and arithmetic): its integer operands and
/// results are floating-point bits.
bool isNarrowFloatAsm(const Instruction &I) {
  const auto *CB = dyn_cast<CallBase>(&I);
  if (!CB || !CB->isInlineAsm())
    return false;
  StringRef Text = cast<InlineAsm>(CB->getCalledOperand())->getAsmString();
  return Text.contains("f16") || Text.contains("e4m3") || Text.contains("e5m2");
}

bool isBranch(const Instruction &I) {
  return isa<BranchInst>(I) || isa<SwitchInst>(I) || isa<IndirectBrInst>(I);
}

} // namespace

IntegerWork::IntegerWork(const Function &F) : F(F) {
  findPromotable(F);
  findData(F);
  findWork(F);
  findFloatPacking(F);
}

void IntegerWork::findFloatPacking(const Function &F) {
  // Forward from where floating-point bits become integers (a bitcast of a
  // float, a narrow-float asm's result), backward from where integers become
  // floating point (a bitcast to a float, a narrow-float asm's operand):
  // what carries them on the way is packing.
  SmallVector<const Instruction *, 32> Worklist;
  DenseSet<const Instruction *> FromFloat, ToFloat;
  // -O0 spells a bit cast as a stack slot stored as one type and loaded
  // as the other (__builtin_bit_cast, a union).
  auto SlotHolds = [&](const Value *Ptr, bool FloatStored) {
    const auto *A = dyn_cast<AllocaInst>(Ptr);
    auto It = A ? StoredTo.find(A) : StoredTo.end();
    if (It == StoredTo.end())
      return false;
    if (FloatStored)
      return any_of(It->second, [](const Value *V) {
        return V->getType()->isFPOrFPVectorTy();
      });
    return any_of(A->users(), [](const User *U) {
      return isa<LoadInst>(U) && U->getType()->isFPOrFPVectorTy();
    });
  };
  auto IsSink = [&](const Use &U) {
    const auto *I = cast<Instruction>(U.getUser());
    if (auto *BC = dyn_cast<BitCastInst>(I))
      return BC->getType()->isFPOrFPVectorTy();
    if (auto *SI = dyn_cast<StoreInst>(I))
      return U.getOperandNo() == 0 && SlotHolds(SI->getPointerOperand(), false);
    return isNarrowFloatAsm(*I);
  };
  for (const Instruction &I : instructions(F)) {
    bool Source = isNarrowFloatAsm(I);
    if (auto *BC = dyn_cast<BitCastInst>(&I))
      Source = BC->getOperand(0)->getType()->isFPOrFPVectorTy();
    if (auto *LI = dyn_cast<LoadInst>(&I))
      Source = isInteger(LI->getType()) && SlotHolds(LI->getPointerOperand(), true);
    if (Source && FromFloat.insert(&I).second)
      Worklist.push_back(&I);
  }
  while (!Worklist.empty())
    for (const User *U : Worklist.pop_back_val()->users())
      if (auto *UI = dyn_cast<Instruction>(U))
        if (carriesBits(*UI) && FromFloat.insert(UI).second)
          Worklist.push_back(UI);
  // Backward: an operation all of whose uses end in floating point.
  for (bool More = true; More;) {
    More = false;
    for (const Instruction &I : instructions(F)) {
      if (!carriesBits(I) || ToFloat.count(&I) || I.use_empty())
        continue;
      if (all_of(I.uses(), [&](const Use &U) {
            return IsSink(U) || ToFloat.count(cast<Instruction>(U.getUser()));
          }))
        More = ToFloat.insert(&I).second;
    }
  }
  for (const Instruction &I : instructions(F))
    if (isLaneMove(I) && (FromFloat.count(&I) || ToFloat.count(&I)))
      FloatPacking.insert(&I);
  // Arithmetic on nothing but a float's bits and constants: a conversion
  // done in integers (ROCm's hip_bfloat16 rounds to nearest even with an
  // add, a shift and a NaN test on the float's bits; the fast inverse
  // square root's magic subtraction), not integer work.
  DenseSet<const Value *> Bits(FromFloat.begin(), FromFloat.end());
  for (bool More = true; More;) {
    More = false;
    for (const Instruction &I : instructions(F)) {
      if (Bits.count(&I) || !(operationOf(I) || carriesBits(I)))
        continue;
      bool All = true, Any = false;
      for (const Use &U : I.operands()) {
        if (isa<SelectInst>(I) && U.getOperandNo() == 0)
          continue; // the choice, not the value
        if (isa<Constant>(U.get()))
          continue;
        Any = true;
        All &= Bits.count(U.get()) > 0;
      }
      if (Any && All)
        More |= Bits.insert(&I).second;
    }
  }
  for (const Value *V : Bits)
    if (const auto *I = dyn_cast<Instruction>(V); I && operationOf(*I))
      FloatPacking.insert(I);
}

IntegerWork::~IntegerWork() = default;

void IntegerWork::findPromotable(const Function &F) {
  for (const Instruction &I : instructions(F)) {
    const auto *A = dyn_cast<AllocaInst>(&I);
    if (!A || A->isArrayAllocation())
      continue;
    SmallVector<const Value *, 2> Stored;
    bool Whole = true;
    for (const Use &U : A->uses()) {
      const auto *UI = cast<Instruction>(U.getUser());
      if (auto *LI = dyn_cast<LoadInst>(UI))
        Whole &= LI->isSimple();
      else if (auto *SI = dyn_cast<StoreInst>(UI))
        Whole &= SI->isSimple() && U.getOperandNo() == 1 &&
                 (Stored.push_back(SI->getValueOperand()), true);
      else if (auto *II = dyn_cast<IntrinsicInst>(UI))
        Whole &= II->isLifetimeStartOrEnd() || II->isDebugOrPseudoInst();
      else
        Whole = false;
    }
    if (Whole)
      StoredTo[A] = std::move(Stored);
  }
}

/// A block entered from a branch on data, other than a loop's header (its
/// back edge is the loop's control): what it does or merges depends on data.
static bool enteredOnData(const BasicBlock &B, const DenseSet<const Value *> &Data,
                          const DominatorTree &DT) {
  bool OnData = false;
  for (const BasicBlock *Pred : predecessors(&B)) {
    if (DT.dominates(&B, Pred))
      return false; // a loop header
    const Instruction *T = Pred->getTerminator();
    if (auto *Br = dyn_cast<BranchInst>(T))
      OnData |= Br->isConditional() && Data.count(Br->getCondition());
    else if (auto *Sw = dyn_cast<SwitchInst>(T))
      OnData |= Data.count(Sw->getCondition()) != 0;
  }
  return OnData;
}

void IntegerWork::findData(const Function &F) {
  SmallVector<const Value *, 32> Worklist;
  auto Mark = [&](const Value *V) {
    if (Data.insert(V).second)
      Worklist.push_back(V);
  };
  auto MarkSlot = [&](const AllocaInst *A) {
    if (Data.insert(A).second)
      for (const User *AU : A->users())
        if (isa<LoadInst>(AU))
          Mark(AU);
  };
  for (const Instruction &I : instructions(F)) {
    if (auto *LI = dyn_cast<LoadInst>(&I)) {
      auto *A = dyn_cast<AllocaInst>(LI->getPointerOperand());
      // (HIP's blockDim is a load: the launch's, not data.)
      if (isInteger(LI->getType()) && !(A && StoredTo.count(A)) &&
          !readsLaunchDimensions(*LI))
        Mark(LI);
    } else if (auto *CB = dyn_cast<CallBase>(&I)) {
      // A call's result; of intrinsics, those that load integers (a masked
      // load or gather: the vectoriser's tail-folded loops).
      if (!isa<IntrinsicInst>(CB) ? !CB->getType()->isVoidTy()
                                  : isInteger(CB->getType()) &&
                                        CB->mayReadFromMemory())
        Mark(CB);
    } else if (isa<FCmpInst>(I) || isa<FPToSIInst>(I) || isa<FPToUIInst>(I) ||
               isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I)) {
      Mark(&I);
    } else if (auto *BC = dyn_cast<BitCastInst>(&I)) {
      if (BC->getOperand(0)->getType()->isFPOrFPVectorTy())
        Mark(BC);
    }
  }
  if (Data.empty())
    return; // no data: nothing to propagate, no dominator tree to build
  if (!DT)
    DT = std::make_unique<DominatorTree>(const_cast<Function &>(F));
  // Forward through operations and stack variables; then what a branch on
  // data decides (a merge's phi, a variable stored under it), until no more.
  for (bool More = true; More;) {
    while (!Worklist.empty()) {
      const Value *V = Worklist.pop_back_val();
      for (const Use &U : V->uses()) {
        const auto *UI = cast<Instruction>(U.getUser());
        if (isTransparent(*UI)) {
          Mark(UI);
        } else if (auto *SI = dyn_cast<StoreInst>(UI)) {
          auto *A = dyn_cast<AllocaInst>(SI->getPointerOperand());
          if (A && StoredTo.count(A) && U.get() == SI->getValueOperand())
            MarkSlot(A);
        }
      }
    }
    for (const BasicBlock &B : F) {
      if (!enteredOnData(B, Data, *DT))
        continue;
      for (const Instruction &I : B) {
        if (isa<PHINode>(I))
          Mark(&I);
        else if (auto *SI = dyn_cast<StoreInst>(&I))
          if (auto *A = dyn_cast<AllocaInst>(SI->getPointerOperand()))
            if (StoredTo.count(A) && !Data.count(A))
              MarkSlot(A);
      }
    }
    More = !Worklist.empty();
  }
}

void IntegerWork::findWork(const Function &F) {
  SmallVector<const Value *, 32> Worklist;
  auto Mark = [&](const Value *V) {
    if (Work.insert(V).second)
      Worklist.push_back(V);
  };
  // Seeds: uses as values.
  for (const Instruction &I : instructions(F))
    for (const Use &U : I.operands()) {
      const Value *V = U.get();
      if (!isa<Instruction>(V) || isTransparent(I) || isAddressOrBookkeeping(U))
        continue;
      if (isBranch(I)) {
        if (Data.count(V))
          Mark(V);
        continue;
      }
      if (auto *SI = dyn_cast<StoreInst>(&I))
        if (auto *A = dyn_cast<AllocaInst>(SI->getPointerOperand()))
          if (StoredTo.count(A))
            continue; // a variable: work if a load of it is
      Mark(V);
    }
  // Work flows back through transparent operations and stack variables.
  while (!Worklist.empty()) {
    const Value *V = Worklist.pop_back_val();
    if (const auto *A = dyn_cast<AllocaInst>(V)) {
      for (const Value *S : StoredTo.lookup(A))
        if (isa<Instruction>(S))
          Mark(S);
      continue;
    }
    const auto *I = cast<Instruction>(V);
    if (auto *LI = dyn_cast<LoadInst>(I)) {
      if (auto *A = dyn_cast<AllocaInst>(LI->getPointerOperand()))
        if (StoredTo.count(A))
          Mark(A);
      continue;
    }
    if (!isTransparent(*I))
      continue;
    for (const Value *Op : I->operands())
      if (isa<Instruction>(Op))
        Mark(Op);
  }
}

bool IntegerWork::isInvariantFor(const Value *Step, const Instruction &At) const {
  if (isa<Constant>(Step) || isa<Argument>(Step))
    return true;
  if (!DT)
    DT = std::make_unique<DominatorTree>(const_cast<Function &>(F));
  // -O0: a variable stored only before the loop (a parameter's copy).
  if (auto *LI = dyn_cast<LoadInst>(Step))
    if (auto *A = dyn_cast<AllocaInst>(LI->getPointerOperand()))
      if (StoredTo.count(A))
        return all_of(A->users(), [&](const User *U) {
          const auto *S = dyn_cast<StoreInst>(U);
          return !S || (DT->dominates(S, &At) &&
                        !isPotentiallyReachable(&At, S, nullptr, DT.get()));
        });
  const auto *S = dyn_cast<Instruction>(Step);
  if (!S || Data.count(S))
    return false;
  return DT->properlyDominates(S->getParent(), At.getParent());
}

bool IntegerWork::isReductionEpilogue(const Instruction &I) const {
  // The horizontal combine of a vectorised reduction's accumulators (their
  // adds, then llvm.vector.reduce.*): the scalar loop did those operations
  // element by element, and the vector loop's lanes already count them.
  if (auto *II = dyn_cast<IntrinsicInst>(&I))
    return II->arg_size() == 1 && isa<VectorType>(II->getArgOperand(0)->getType()) &&
           !isa<VectorType>(II->getType());
  if (!isa<BinaryOperator>(I) || !isa<VectorType>(I.getType()) || I.use_empty())
    return false;
  return all_of(I.users(), [&](const User *U) {
    auto *UI = dyn_cast<Instruction>(U);
    return UI && UI->getParent() == I.getParent() &&
           (isReductionEpilogue(*UI) && (isa<IntrinsicInst>(UI) ||
                                         UI->getOpcode() == I.getOpcode()));
  });
}

bool IntegerWork::isInductionStep(const Instruction &I) const {
  if (I.getOpcode() != Instruction::Add && I.getOpcode() != Instruction::Sub)
    return false;
  for (unsigned Op = 0; Op < 2; ++Op) {
    if (Op == 1 && I.getOpcode() == Instruction::Sub)
      break; // step - i is not a step
    const Value *From = I.getOperand(Op), *Step = I.getOperand(1 - Op);
    // i.next = i + step, with i a phi that takes i.next back.
    if (auto *P = dyn_cast<PHINode>(From))
      if (is_contained(P->incoming_values(), &I) && isInvariantFor(Step, *P))
        return true;
    // -O0: store (load %i.addr) + step, %i.addr.
    if (auto *LI = dyn_cast<LoadInst>(From))
      if (auto *A = dyn_cast<AllocaInst>(LI->getPointerOperand()))
        if (StoredTo.count(A) && is_contained(StoredTo.lookup(A), &I) &&
            isInvariantFor(Step, *LI))
          return true;
  }
  return false;
}

void IntegerWork::addCost(const Instruction &I, CostVector &Cost) const {
  if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
    // An atomic update always stores its result: the user's work.
    std::optional<IntKind> K;
    switch (RMW->getOperation()) {
    case AtomicRMWInst::Add:
    case AtomicRMWInst::Sub:
    case AtomicRMWInst::UIncWrap:
    case AtomicRMWInst::UDecWrap:
      K = IntKind::AddSub;
      break;
    case AtomicRMWInst::And:
    case AtomicRMWInst::Nand:
    case AtomicRMWInst::Or:
    case AtomicRMWInst::Xor:
      K = IntKind::Bitwise;
      break;
    case AtomicRMWInst::Max:
    case AtomicRMWInst::Min:
    case AtomicRMWInst::UMax:
    case AtomicRMWInst::UMin:
      K = IntKind::CompareSelect;
      break;
    default:
      break;
    }
    if (K && isInteger(RMW->getType()))
      Cost.addIntOps(intWidthOf(bitsOf(RMW->getType())), *K, 1);
    return;
  }
  std::optional<IntOp> Op = operationOf(I);
  if (!Op || !Data.count(&I) || !isWork(&I) || isInductionStep(I) ||
      isReductionEpilogue(I) || FloatPacking.count(&I))
    return;
  // A compare only selects between values: one operation with its select
  // (as smax is), so -O0's and -O2's spellings of a max count alike.
  if (isa<ICmpInst>(I) && !I.use_empty() &&
      all_of(I.uses(), [](const Use &U) {
        auto *S = dyn_cast<SelectInst>(U.getUser());
        return S && U.getOperandNo() == 0 && isInteger(S->getType());
      }))
    return;
  Cost.addIntOps(intWidthOf(Op->Bits), Op->Kind, Op->Count);
}

} // namespace roofline
