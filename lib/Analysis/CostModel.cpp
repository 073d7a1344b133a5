//===- CostModel.cpp - FLOPs and bytes of one IR instruction --------------===//
//
// Every rule here has a row in docs/counting.md and a test in test/Analysis.
//
//===----------------------------------------------------------------------===//
#include "roofline/Analysis/CostModel.h"
#include "roofline/Analysis/DeviceCode.h"
#include "roofline/Analysis/InstructionCount.h"
#include "roofline/Analysis/PTXAsm.h"

#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Analysis/VectorUtils.h"
#include "llvm/IR/CallingConv.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace roofline {

Precision precisionOf(const Type *Ty) {
  Ty = Ty->getScalarType();
  if (Ty->isHalfTy())
    return Precision::FP16;
  if (Ty->isBFloatTy())
    return Precision::BF16;
  if (Ty->isFloatTy())
    return Precision::FP32;
  if (Ty->isDoubleTy())
    return Precision::FP64;
  return Precision::Other;
}

unsigned lanesOf(const Type *Ty) {
  if (auto *VT = dyn_cast<VectorType>(Ty))
    return VT->getElementCount().getKnownMinValue();
  return 1;
}

bool mentionsFloat(const CallBase &CB) {
  if (CB.getType()->isFPOrFPVectorTy())
    return true;
  for (const Value *A : CB.args())
    if (A->getType()->isFPOrFPVectorTy())
      return true;
  return false;
}

Type *mathType(const CallBase &CB) {
  if (CB.getType()->isFPOrFPVectorTy())
    return CB.getType();
  for (const Value *A : CB.args())
    if (A->getType()->isFPOrFPVectorTy())
      return A->getType();
  return CB.getType();
}

bool classifyMathFunction(StringRef Name, FlopClass &Class, bool &Free) {
  // libdevice (__nv_expf, __nv_fast_expf) and libm (expf, expl) spellings.
  Name.consume_front("__nv_");
  Name.consume_front("fast_");
  Free = false;
  // Base, or Base with libm's float or long double suffix: the name less
  // that suffix, compared without building strings (every call site of
  // every analysed function asks).
  StringRef Unsuffixed = Name.ends_with("f") || Name.ends_with("l")
                             ? Name.drop_back()
                             : StringRef();
  auto Match = [&](StringRef Base) {
    return Name == Base || Unsuffixed == Base;
  };
  static const char *SpecialNames[] = {
      "exp",   "exp2",  "exp10", "expm1", "log",   "log2",  "log10", "log1p",
      "pow",   "powi",  "sin",   "cos",   "tan",   "sincos", "asin", "acos",
      "atan",  "atan2", "sinh",  "cosh",  "tanh",  "asinh", "acosh", "atanh",
      "erf",   "erfc",  "erfinv", "erfcinv", "tgamma", "lgamma", "cbrt",
      "rcbrt", "hypot", "sinpi", "cospi", "j0",    "j1",    "y0",    "y1",
      "normcdf", "normcdfinv", "sincospi", "logb", "ilogb", "rhypot"};
  static const char *FreeNames[] = {
      "fabs", "floor", "ceil",  "trunc", "round", "rint", "nearbyint",
      "fmin", "fmax",  "copysign", "ldexp", "frexp", "modf", "saturate",
      "lrint", "llrint", "lround", "llround", "scalbn", "nextafter",
      "signbit", "isnan", "isinf", "isfinite", "finite"};
  for (const char *N : SpecialNames)
    if (Match(N)) {
      Class = FlopClass::Special;
      return true;
    }
  for (const char *N : FreeNames)
    if (Match(N)) {
      Free = true;
      return true;
    }
  if (Match("sqrt") || Match("rsqrt")) {
    Class = FlopClass::Sqrt;
    return true;
  }
  if (Match("fma")) {
    Class = FlopClass::FMA;
    return true;
  }
  if (Match("fmod") || Match("remainder") || Match("fdivide") ||
      Name == "fdividef" || Name.starts_with("fdiv_") ||
      Name.starts_with("frcp_") || Name.starts_with("drcp_") ||
      Name.starts_with("ddiv_")) {
    Class = FlopClass::Div;
    return true;
  }
  if (Name.starts_with("fadd_") || Name.starts_with("dadd_") ||
      Name.starts_with("fsub_") || Name.starts_with("dsub_")) {
    Class = FlopClass::Add;
    return true;
  }
  if (Name.starts_with("fmul_") || Name.starts_with("dmul_")) {
    Class = FlopClass::Mul;
    return true;
  }
  if (Name.starts_with("fmaf_") || Name.starts_with("fma_")) {
    Class = FlopClass::FMA;
    return true;
  }
  if (Name.starts_with("fsqrt_") || Name.starts_with("dsqrt_")) {
    Class = FlopClass::Sqrt;
    return true;
  }
  return false;
}

CostModel::CostModel(const Function &F, const TargetTransformInfo *TTI)
    : F(F), DL(F.getDataLayout()),
      GPU(isDeviceModule(*F.getParent())), Ints(F),
      FuseShared(GPU && !F.hasOptNone() && !F.hasFnAttribute(UnoptimizedAttr)),
      TTI(TTI), X86(F.getParent()->getTargetTriple().isX86()) {
  if (GPU)
    Shares.emplace(F);
}

MemSpace CostModel::spaceOf(const Value *Ptr) const {
  unsigned AS = Ptr->getType()->getPointerAddressSpace();
  const Value *Obj = getUnderlyingObject(Ptr, /*MaxLookup=*/0);
  if (!GPU) {
    if (auto *AI = dyn_cast<AllocaInst>(Obj))
      if (AI->getFunction() == &F)
        return MemSpace::Stack;
    if (auto *Arg = dyn_cast<Argument>(Obj))
      if (Arg->hasByValAttr())
        return MemSpace::Stack;
    return MemSpace::Memory;
  }
  // NVPTX address spaces: 1 global, 3 shared, 4 constant, 5 local.
  switch (AS) {
  case 1:
    return MemSpace::Global;
  case 3:
    return MemSpace::Shared;
  case 4:
    return MemSpace::Constant;
  case 5:
    return MemSpace::Local;
  default:
    break;
  }
  // A generic pointer: the object it points into often tells the space
  // (InferAddressSpaces does the same later in the NVPTX back end).
  if (auto *GV = dyn_cast<GlobalVariable>(Obj)) {
    switch (GV->getAddressSpace()) {
    case 3:
      return MemSpace::Shared;
    case 4:
      return MemSpace::Constant;
    default:
      return MemSpace::Global;
    }
  }
  if (isa<AllocaInst>(Obj))
    return MemSpace::Local;
  if (auto *Arg = dyn_cast<Argument>(Obj))
    if (isDeviceKernel(*Arg->getParent()))
      return MemSpace::Global; // kernel pointer parameters point to device memory
  return MemSpace::Generic;
}

std::optional<unsigned> CostModel::parameterOf(const Value *Ptr) const {
  if (!Ptr->getType()->isPointerTy())
    return std::nullopt;
  if (const auto *A = dyn_cast<Argument>(getUnderlyingObject(Ptr, 0)))
    if (A->getParent() == &F)
      return A->getArgNo();
  return std::nullopt;
}

SmallVector<unsigned, 2>
CostModel::parameterCandidates(const Value *Ptr) const {
  SmallVector<unsigned, 2> Out;
  if (!Ptr->getType()->isPointerTy())
    return Out;
  // Only a choice (select, phi) can stand for several parameters: the
  // common case, one underlying object, costs one walk, not two.
  const Value *Base = getUnderlyingObject(Ptr, 0);
  if (!isa<SelectInst>(Base) && !isa<PHINode>(Base))
    return Out;
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(Ptr, Objects);
  for (const Value *O : Objects) {
    const auto *A = dyn_cast<Argument>(O);
    if (!A || A->getParent() != &F)
      return {};
    if (!llvm::is_contained(Out, A->getArgNo()))
      Out.push_back(A->getArgNo());
  }
  if (Out.size() < 2)
    Out.clear();
  return Out;
}

MemSpace CostModel::spaceOfLanes(const Value *Ptr) const {
  if (!Ptr->getType()->isVectorTy())
    return spaceOf(Ptr);
  if (const Value *Splat = getSplatValue(Ptr))
    return spaceOf(Splat);
  // A vector of pointers from a GEP on one base points into that base.
  if (auto *GEP = dyn_cast<GetElementPtrInst>(Ptr))
    if (!GEP->getPointerOperandType()->isVectorTy())
      return spaceOf(GEP->getPointerOperand());
  return GPU ? MemSpace::Generic : MemSpace::Memory;
}

bool CostModel::isCountedCallee(const CallBase &CB) {
  const Function *Callee = CB.getCalledFunction();
  if (!Callee || Callee->isDeclaration() || Callee->isIntrinsic())
    return false;
  FlopClass C;
  bool Free;
  if (Callee->getName().starts_with("__nv_") &&
      classifyMathFunction(Callee->getName(), C, Free))
    return false;
  return true;
}

void CostModel::addMemoryTransfer(const CallBase &CB, bool Loads, bool Stores,
                                  OpCost &Cost) const {
  // memcpy/memmove(dst, src, len), memset(dst, val, len): len is operand 2.
  const Value *Len = CB.getArgOperand(2);
  SmallVector<unsigned, 2> Slots;
  SmallVector<std::pair<unsigned, Access>, 2> Args;
  SmallVector<MemSpace, 2> Spaces;
  if (Stores) {
    Spaces.push_back(spaceOf(CB.getArgOperand(0)));
    Slots.push_back(byteSlot(Spaces.back(), Access::Store));
    if (auto A = parameterOf(CB.getArgOperand(0)))
      Args.push_back({*A, Access::Store});
  }
  if (Loads) {
    Spaces.push_back(spaceOf(CB.getArgOperand(1)));
    Slots.push_back(byteSlot(Spaces.back(), Access::Load));
    if (auto A = parameterOf(CB.getArgOperand(1)))
      Args.push_back({*A, Access::Load});
  }
  if (auto *C = dyn_cast<ConstantInt>(Len)) {
    for (unsigned S : Slots)
      Cost.Fixed.Slots[S] += C->getZExtValue();
    for (auto [Arg, Acc] : Args)
      Cost.Fixed.addArgBytes(Arg, Acc, C->getZExtValue());
    if (GPU)
      for (MemSpace S : Spaces)
        Cost.Fixed.addWarpShareable(S, C->getZExtValue());
    return;
  }
  // A run-time length: all of it may be shared (a lower bound at the
  // first level, as it must be).
  if (GPU)
    for (MemSpace S : Spaces)
      Slots.push_back(shareableSlot(S));
  Cost.Variable.push_back({Len, Slots, Args});
}

/// The bytes of a load the program uses. The vectorisers load an interleaved
/// group with gaps (`load <24 x float>` for a[3*i], then a shuffle keeps
/// lanes 0, 3, 6, ...): a vector load used only by shuffles counts the lanes
/// some shuffle keeps, so the count after vectorisation is the count before.
static int64_t usedLoadBytes(const LoadInst &LI, const DataLayout &DL) {
  int64_t All = DL.getTypeStoreSize(LI.getType()).getKnownMinValue();
  auto *VT = dyn_cast<FixedVectorType>(LI.getType());
  if (!VT || LI.use_empty() || DL.getTypeStoreSizeInBits(VT->getElementType()) !=
                                   DL.getTypeSizeInBits(VT->getElementType()))
    return All;
  unsigned N = VT->getNumElements();
  SmallBitVector Used(N);
  for (const User *U : LI.users()) {
    const auto *SV = dyn_cast<ShuffleVectorInst>(U);
    if (!SV || SV->getOperand(0) != &LI || !isa<PoisonValue>(SV->getOperand(1)))
      return All;
    for (int M : SV->getShuffleMask())
      if (M >= 0 && unsigned(M) < N)
        Used.set(M);
  }
  return All / N * Used.count();
}

/// A floating-point math intrinsic: true, with the class of its FLOPs per
/// lane in \p Class, or none for those that do no arithmetic (sign, min and
/// max, rounding, conversions, classification).
static bool floatingPointIntrinsic(Intrinsic::ID ID,
                                   std::optional<FlopClass> &Class) {
  switch (ID) {
  case Intrinsic::fma:
  case Intrinsic::fmuladd:
    Class = FlopClass::FMA;
    return true;
  case Intrinsic::sqrt:
    Class = FlopClass::Sqrt;
    return true;
  case Intrinsic::exp:
  case Intrinsic::exp2:
  case Intrinsic::exp10:
  case Intrinsic::log:
  case Intrinsic::log2:
  case Intrinsic::log10:
  case Intrinsic::pow:
  case Intrinsic::powi:
  case Intrinsic::sin:
  case Intrinsic::cos:
  case Intrinsic::tan:
  case Intrinsic::asin:
  case Intrinsic::acos:
  case Intrinsic::atan:
  case Intrinsic::atan2:
  case Intrinsic::sinh:
  case Intrinsic::cosh:
  case Intrinsic::tanh:
  case Intrinsic::sincos:
  case Intrinsic::sincospi:
    Class = FlopClass::Special;
    return true;
  case Intrinsic::fabs:
  case Intrinsic::copysign:
  case Intrinsic::minnum:
  case Intrinsic::maxnum:
  case Intrinsic::minimum:
  case Intrinsic::maximum:
  case Intrinsic::minimumnum:
  case Intrinsic::maximumnum:
  case Intrinsic::floor:
  case Intrinsic::ceil:
  case Intrinsic::trunc:
  case Intrinsic::rint:
  case Intrinsic::nearbyint:
  case Intrinsic::round:
  case Intrinsic::roundeven:
  case Intrinsic::lround:
  case Intrinsic::llround:
  case Intrinsic::lrint:
  case Intrinsic::llrint:
  case Intrinsic::canonicalize:
  case Intrinsic::is_fpclass:
  case Intrinsic::ldexp:
  case Intrinsic::frexp:
  case Intrinsic::arithmetic_fence:
  case Intrinsic::vector_reduce_fmax:
  case Intrinsic::vector_reduce_fmin:
  case Intrinsic::vector_reduce_fmaximum:
  case Intrinsic::vector_reduce_fminimum:
  case Intrinsic::fptosi_sat:
  case Intrinsic::fptoui_sat:
  case Intrinsic::convert_to_fp16:
  case Intrinsic::convert_from_fp16:
    return true;
  default:
    return false;
  }
}

bool CostModel::costOfIntrinsic(const CallBase &CB,
                                OpCost &Cost) const {
  const Function *Callee = CB.getCalledFunction();
  Intrinsic::ID ID = Callee->getIntrinsicID();
  const Type *Ty = mathType(CB);
  unsigned Lanes = lanesOf(Ty);
  if (std::optional<FlopClass> Class; floatingPointIntrinsic(ID, Class)) {
    if (Class)
      Cost.Fixed.addFlops(precisionOf(Ty), *Class, Lanes);
    return true;
  }
  switch (ID) {
  case Intrinsic::vector_reduce_fadd:
  case Intrinsic::vector_reduce_fmul: {
    // reduce(start, <N x T>) folds N lanes into start: N operations.
    const Type *VecTy = CB.getArgOperand(1)->getType();
    Cost.Fixed.addFlops(precisionOf(VecTy),
                        ID == Intrinsic::vector_reduce_fadd ? FlopClass::Add
                                                            : FlopClass::Mul,
                        lanesOf(VecTy));
    return true;
  }
  case Intrinsic::memcpy:
  case Intrinsic::memcpy_inline:
  case Intrinsic::memmove:
  case Intrinsic::memcpy_element_unordered_atomic:
  case Intrinsic::memmove_element_unordered_atomic:
    addMemoryTransfer(CB, /*Loads=*/true, /*Stores=*/true, Cost);
    return true;
  case Intrinsic::memset:
  case Intrinsic::memset_inline:
  case Intrinsic::memset_element_unordered_atomic:
    addMemoryTransfer(CB, /*Loads=*/false, /*Stores=*/true, Cost);
    return true;
  case Intrinsic::masked_load:
  case Intrinsic::masked_gather:
  case Intrinsic::masked_expandload:
    // Every lane is counted: an upper bound on what the mask lets through.
    addAccess(Cost.Fixed, spaceOfLanes(CB.getArgOperand(0)), Access::Load,
              DL.getTypeStoreSize(CB.getType()).getKnownMinValue());
    Cost.Fixed.UpperBound = true;
    return true;
  case Intrinsic::masked_store:
  case Intrinsic::masked_scatter:
  case Intrinsic::masked_compressstore:
    addAccess(Cost.Fixed, spaceOfLanes(CB.getArgOperand(1)), Access::Store,
              DL.getTypeStoreSize(CB.getArgOperand(0)->getType()).getKnownMinValue());
    Cost.Fixed.UpperBound = true;
    return true;
  default:
    break;
  }
  StringRef Name = Callee->getName();
  if (Name.starts_with("llvm.nvvm."))
    return costOfNVVMIntrinsic(CB, Name, Cost);
  if (Name.starts_with("llvm.amdgcn."))
    return costOfAMDGCNIntrinsic(CB, Name, Cost);
  // Bookkeeping intrinsics (debug info, lifetimes, assumptions) and integer
  // intrinsics cost nothing; an unknown one that touches floating point or
  // memory is reported by name rather than priced at zero.
  if (isa<DbgInfoIntrinsic>(CB) || CB.isLifetimeStartOrEnd() ||
      isAssumeLikeIntrinsic(&cast<Instruction>(CB)) ||
      ID == Intrinsic::prefetch || ID == Intrinsic::experimental_noalias_scope_decl ||
      ID == Intrinsic::pseudoprobe)
    return true;
  if (!mentionsFloat(CB) && !CB.mayReadOrWriteMemory())
    return true;
  Cost.Fixed.addUnknown(("intrinsic:" + Name).str());
  return true;
}

void CostModel::costOfCall(const CallBase &CB, OpCost &Cost) const {
  if (CB.isInlineAsm()) {
    const auto *IA = cast<InlineAsm>(CB.getCalledOperand());
    if (GPU && F.getParent()->getTargetTriple().isNVPTX()) {
      Cost.Fixed += costOfPTXAsm(IA->getAsmString());
      // The bytes through each pointer argument, as a load's or a store's.
      for (const auto &[A, Ptr] : asmMemoryOperands(CB))
        if (auto Arg = Ptr ? parameterOf(Ptr) : std::nullopt) {
          if (A.Loads)
            Cost.Fixed.addArgBytes(*Arg, Access::Load, A.Bytes);
          if (A.Stores)
            Cost.Fixed.addArgBytes(*Arg, Access::Store, A.Bytes);
        }
      return;
    }
    StringRef Text = IA->getAsmString();
    Text = Text.ltrim();
    if (Text.empty())
      return; // an empty asm is a compiler barrier
    Cost.Fixed.addUnknown(("asm:" + Text.take_until([](char C) {
                             return C == ' ' || C == '\t' || C == '\n' ||
                                    C == ';';
                           })).str());
    return;
  }
  const Function *Callee = CB.getCalledFunction();
  if (!Callee) {
    Cost.Fixed.addUnknown("call:<indirect>");
    return;
  }
  if (Callee->isIntrinsic()) {
    costOfIntrinsic(CB, Cost);
    return;
  }
  FlopClass C;
  bool Free;
  if (classifyMathFunction(Callee->getName(), C, Free)) {
    if (!Free) {
      const Type *Ty = mathType(CB);
      Cost.Fixed.addFlops(precisionOf(Ty), C, lanesOf(Ty));
    }
    return;
  }
  if (isCountedCallee(CB))
    return; // KernelAnalysis adds the callee's own totals
  if (GPU && isDeviceLibraryFence(*Callee))
    return;
  Cost.Fixed.addUnknown(("call:" + Callee->getName()).str());
}

/// FMA fusion, as the back ends do it (checked against llc's PTX output in
/// test/CUDA/fma-fusion.cu): an fadd/fsub and an fmul operand that both
/// carry `contract` (CUDA device code's default) become one FMA. Of two
/// products added (`a*b + c*d`) only one fuses: the DAG combiner tries the
/// first operand, then the second (one FMA and one multiply, 3 FLOPs). A
/// product with several uses is fused only by NVPTX with optimisation, into
/// each of up to four adds (NVPTXISelLowering's FADD combine); a use that
/// does not fuse it keeps the multiply.
bool CostModel::fusesInto(const Value *V, const Instruction &Add) const {
  const auto *Mul = dyn_cast<Instruction>(V);
  if (!Mul || Mul->getOpcode() != Instruction::FMul ||
      !Mul->hasAllowContract() || Mul->getType() != Add.getType())
    return false;
  if (Mul->hasOneUse())
    return true;
  if (!FuseShared || Mul->getNumUses() > 4)
    return false;
  for (const User *U : Mul->users()) {
    const auto *UI = dyn_cast<Instruction>(U);
    if (!UI || (UI->getOpcode() != Instruction::FAdd &&
                UI->getOpcode() != Instruction::FSub) ||
        !UI->hasAllowContract())
      return false;
  }
  return true;
}

const Instruction *CostModel::fusedProduct(const Instruction &Add) const {
  if ((Add.getOpcode() != Instruction::FAdd &&
       Add.getOpcode() != Instruction::FSub) ||
      !Add.hasAllowContract())
    return nullptr;
  for (const Value *Op : Add.operands())
    if (fusesInto(Op, Add))
      return cast<Instruction>(Op);
  return nullptr;
}

OpCost CostModel::costOf(const Instruction &I) const {
  OpCost Cost;
  Type *Ty = I.getType();
  switch (I.getOpcode()) {
  case Instruction::FAdd:
  case Instruction::FSub:
    Cost.Fixed.addFlops(precisionOf(Ty),
                        fusedProduct(I) ? FlopClass::FMA : FlopClass::Add,
                        lanesOf(Ty));
    break;
  case Instruction::FMul: {
    // Counted in the FMAs of the adds that fuse it, unless one does not.
    bool Kept = I.use_empty();
    for (const User *U : I.users()) {
      const auto *UI = dyn_cast<Instruction>(U);
      Kept |= !UI || fusedProduct(*UI) != &I;
    }
    if (Kept)
      Cost.Fixed.addFlops(precisionOf(Ty), FlopClass::Mul, lanesOf(Ty));
    break;
  }
  case Instruction::FDiv:
  case Instruction::FRem:
    Cost.Fixed.addFlops(precisionOf(Ty), FlopClass::Div, lanesOf(Ty));
    break;
  case Instruction::Load: {
    const auto &LI = cast<LoadInst>(I);
    if (readsLaunchDimensions(LI))
      break; // HIP's blockDim: the launch's, as CUDA's special registers
    int64_t Bytes = usedLoadBytes(LI, DL);
    addAccess(Cost.Fixed, spaceOf(LI.getPointerOperand()), Access::Load, Bytes, &LI);
    if (auto A = parameterOf(LI.getPointerOperand()))
      Cost.Fixed.addArgBytes(*A, Access::Load, Bytes);
    break;
  }
  case Instruction::Store: {
    const auto &SI = cast<StoreInst>(I);
    int64_t Bytes =
        DL.getTypeStoreSize(SI.getValueOperand()->getType()).getKnownMinValue();
    addAccess(Cost.Fixed, spaceOf(SI.getPointerOperand()), Access::Store, Bytes, &SI);
    if (auto A = parameterOf(SI.getPointerOperand()))
      Cost.Fixed.addArgBytes(*A, Access::Store, Bytes);
    break;
  }
  case Instruction::AtomicRMW: {
    const auto &RMW = cast<AtomicRMWInst>(I);
    unsigned Size = DL.getTypeStoreSize(Ty).getKnownMinValue();
    MemSpace S = spaceOf(RMW.getPointerOperand());
    addAtomic(Cost.Fixed, S, Size);
    if (auto A = parameterOf(RMW.getPointerOperand())) {
      Cost.Fixed.addArgBytes(*A, Access::Load, Size);
      Cost.Fixed.addArgBytes(*A, Access::Store, Size);
    }
    if (RMW.getOperation() == AtomicRMWInst::FAdd ||
        RMW.getOperation() == AtomicRMWInst::FSub)
      Cost.Fixed.addFlops(precisionOf(Ty), FlopClass::Add, lanesOf(Ty));
    break;
  }
  case Instruction::AtomicCmpXchg: {
    const auto &CX = cast<AtomicCmpXchgInst>(I);
    unsigned Size =
        DL.getTypeStoreSize(CX.getCompareOperand()->getType()).getFixedValue();
    MemSpace S = spaceOf(CX.getPointerOperand());
    addAtomic(Cost.Fixed, S, Size);
    if (auto A = parameterOf(CX.getPointerOperand())) {
      Cost.Fixed.addArgBytes(*A, Access::Load, Size);
      Cost.Fixed.addArgBytes(*A, Access::Store, Size);
    }
    break;
  }
  case Instruction::Call:
  case Instruction::Invoke:
  case Instruction::CallBr:
    costOfCall(cast<CallBase>(I), Cost);
    break;
  case Instruction::VAArg:
    Cost.Fixed.addUnknown("va_arg");
    break;
  default:
    break; // casts, control flow: no FLOPs
  }
  Ints.addCost(I, Cost.Fixed);
  if (TTI)
    Cost.Fixed.Instructions = machineInstructionsOf(I, *TTI, X86);
  return Cost;
}

} // namespace roofline
