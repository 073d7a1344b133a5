//===- CacheTracing.cpp - Traced copies for the run-time cache model ------===//
#include "CacheTracing.h"
#include "CalleeCounts.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <set>

using namespace llvm;

// Off by default: the copies more than doubled the build (the back end
// compiles every instrumented function twice, the copy with a block and a
// call per access) for a model most runs never turn on
// (docs/performance.md, "Instrumented build").
static cl::opt<bool> TracedCopies(
    "roofline-cache-model",
    cl::desc("Give each instrumented function a traced copy for the run-time "
             "cache model (ROOFLINE_CACHE); without it the build is cheaper "
             "and ROOFLINE_CACHE measures nothing"),
    cl::init(false));

namespace roofline {

bool tracedCopiesEnabled() { return TracedCopies; }

namespace {

/// __roofline_cache_access_line's convention: preserve_most where the runtime
/// is built with it (x86-64 and AArch64; see CacheTraffic.cpp).
CallingConv::ID accessCallingConv(const Module &M) {
  Triple T(M.getTargetTriple());
  return T.isX86_64() || T.isAArch64() ? CallingConv::PreserveMost : CallingConv::C;
}

bool isMaskedAccess(Intrinsic::ID ID) {
  return ID == Intrinsic::masked_load || ID == Intrinsic::masked_store ||
         ID == Intrinsic::masked_gather || ID == Intrinsic::masked_scatter;
}

/// Emits the calls for one access of the traced copy.
class AccessTracer {
public:
  /// \p Desc: the record the accesses count for; null: a straight-line
  /// helper's, which count only for the calls they are inside.
  AccessTracer(Function &Copy, GlobalVariable *Desc)
      : M(*Copy.getParent()), Ctx(Copy.getContext()), DL(M.getDataLayout()),
        I32(Type::getInt32Ty(Ctx)), I64(Type::getInt64Ty(Ctx)),
        Ptr(PointerType::getUnqual(Ctx)) {
    this->Desc = Desc ? static_cast<Constant *>(Desc) : ConstantPointerNull::get(Ptr);
    Access = M.getOrInsertFunction("__roofline_cache_access_line", I64, Ptr,
                                   I64, Ptr, I32);
    // The runtime's entry saves the registers it uses itself, so that the
    // loop around a call keeps its values in registers (the call is rare).
    // Called through the GOT, never a lazy PLT slot: the dynamic loader's
    // resolver, run on a slot's first call (every call under LD_BIND_NOT),
    // is plain C and clobbers registers preserve_most promises to keep (r10
    // on x86-64), which crashed programs depending on where ASLR put them.
    // A GOT entry is bound when the object is loaded, however it is linked.
    if (auto *Fn = dyn_cast<Function>(Access.getCallee())) {
      Fn->setCallingConv(accessCallingConv(M));
      Fn->addFnAttr(Attribute::NonLazyBind);
    }
    Range = M.getOrInsertFunction("__roofline_cache_range", Type::getVoidTy(Ctx),
                                  Ptr, I64, I32, Ptr, I32);
    // The sample is set before any constructor of the program registers a
    // kernel; read once per call.
    IRBuilder<> B(&*Copy.getEntryBlock().getFirstNonPHIOrDbgOrAlloca());
    Mask = B.CreateLoad(I64, global("__roofline_cache_sets"), "roofline.sets");
    MaskOrNext = B.CreateLoad(I64, global("__roofline_cache_sets_or_next"),
                              "roofline.sets_or_next");
    IRBuilder<> AB(&*Copy.getEntryBlock().begin());
    LastLine = AB.CreateAlloca(I64, nullptr, "roofline.last_line");
    B.CreateStore(noLine(), LastLine);
  }

  /// Once every access is traced: the thread's last line is unknown after
  /// any call (the callee may have traced accesses of its own), and the
  /// slot becomes a register.
  void finish(Function &Copy) {
    std::vector<CallBase *> Calls;
    for (Instruction &I : instructions(Copy))
      if (auto *CB = dyn_cast<CallBase>(&I);
          CB && !Kept.count(CB) &&
          (!isa<IntrinsicInst>(CB) || isa<MemIntrinsic>(CB)))
        Calls.push_back(CB);
    bool Unplaced = false;
    for (CallBase *CB : Calls) {
      if (!CB->isTerminator()) {
        new StoreInst(noLine(), LastLine, CB->getNextNode()->getIterator());
        continue;
      }
      for (BasicBlock *Succ : successors(CB->getParent()))
        if (Succ->getFirstInsertionPt() != Succ->end())
          new StoreInst(noLine(), LastLine, Succ->getFirstInsertionPt());
        else
          Unplaced = true; // a catchswitch: no line is kept in this copy
    }
    if (Unplaced)
      for (User *U : make_early_inc_range(LastLine->users()))
        if (auto *L = dyn_cast<LoadInst>(U)) {
          L->replaceAllUsesWith(noLine());
          L->eraseFromParent();
        }
    DominatorTree DT(Copy);
    PromoteMemToReg({LastLine}, DT);
  }

  void trace(Instruction *I, uint32_t Site) {
    Value *P = nullptr;
    TypeSize Size = TypeSize::getFixed(0);
    bool Write = false;
    if (auto *L = dyn_cast<LoadInst>(I)) {
      P = L->getPointerOperand();
      Size = DL.getTypeStoreSize(L->getType());
    } else if (auto *S = dyn_cast<StoreInst>(I)) {
      P = S->getPointerOperand();
      Size = DL.getTypeStoreSize(S->getValueOperand()->getType());
      Write = true;
    } else if (auto *A = dyn_cast<AtomicRMWInst>(I)) {
      P = A->getPointerOperand();
      Size = DL.getTypeStoreSize(A->getValOperand()->getType());
      Write = true;
    } else if (auto *X = dyn_cast<AtomicCmpXchgInst>(I)) {
      P = X->getPointerOperand();
      Size = DL.getTypeStoreSize(X->getCompareOperand()->getType());
      Write = true;
    } else if (auto *MT = dyn_cast<MemTransferInst>(I)) {
      range(I, MT->getRawSource(), MT->getLength(), false, Site);
      range(I, MT->getRawDest(), MT->getLength(), true, Site);
      return;
    } else if (auto *MS = dyn_cast<MemSetInst>(I)) {
      range(I, MS->getRawDest(), MS->getLength(), true, Site);
      return;
    } else if (auto *II = dyn_cast<IntrinsicInst>(I)) {
      masked(II, Site);
      return;
    }
    if (!P || Size.isScalable() || Size.getFixedValue() == 0)
      return;
    one(I, P, Size.getFixedValue(), Write, Site, getLoadStoreAlignment(I));
  }

private:
  GlobalVariable *global(StringRef Name) {
    if (GlobalVariable *G = M.getGlobalVariable(Name))
      return G;
    return new GlobalVariable(M, I64, /*isConstant=*/false,
                              GlobalValue::ExternalLinkage, nullptr, Name);
  }

  /// One access of a fixed size: the sample test inline (either of the
  /// lines it touches sampled), then the call.
  /// The test is on 64-byte lines (the runtime samples no sets for other
  /// line sizes, and every access then calls it). An access aligned to its
  /// size lies in one line: the bit of its line. One that may straddle two
  /// lines tests __roofline_cache_sets_or_next, whose bit r says line r or
  /// r + 1 is sampled (the runtime then checks which); a longer one always
  /// calls.
  void one(Instruction *I, Value *P, uint64_t Size, bool Write, uint32_t Site,
           Align Alignment = Align(1)) {
    IRBuilder<> B(I);
    if (Size > 64) {
      call(B, P, Size, Write, Site);
      return;
    }
    bool OneLine = Alignment.value() >= Size;
    Value *Address = B.CreatePtrToInt(P, I64);
    Value *Line = B.CreateLShr(Address, 6);
    Value *Bits =
        B.CreateLShr(OneLine ? Mask : MaskOrNext, B.CreateAnd(Line, 63));
    Value *Sampled =
        B.CreateTrunc(Bits, Type::getInt1Ty(Ctx), "roofline.sampled");
    // One access in 8 is sampled by default, and then mostly hits.
    Instruction *Then = SplitBlockAndInsertIfThen(
        Sampled, I, false, MDBuilder(Ctx).createBranchWeights(1, 7));
    // The line the thread touched last, left as it was (a read, or a write
    // to a line already dirty): skipped. Half of the sampled accesses of
    // a walk along a row are.
    IRBuilder<> TB(Then);
    Value *Last = TB.CreateLoad(I64, LastLine, "roofline.last");
    Value *Same =
        Write ? TB.CreateICmpEQ(Last, TB.CreateOr(TB.CreateShl(Line, 1), 1))
              : TB.CreateICmpEQ(TB.CreateLShr(Last, 1), Line);
    if (!OneLine) {
      Value *End = TB.CreateAdd(Address, ConstantInt::get(I64, Size - 1));
      Same = TB.CreateAnd(Same, TB.CreateICmpEQ(TB.CreateLShr(End, 6), Line));
    }
    Instruction *Pass = SplitBlockAndInsertIfThen(
        TB.CreateNot(Same, "roofline.new_line"), Then, false);
    IRBuilder<> PB(Pass);
    keep(PB, call(PB, P, Size, Write, Site));
  }

  Value *noLine() { return ConstantInt::getAllOnesValue(I64); }

  /// Keeps the line \p C reports as the thread's last.
  void keep(IRBuilder<> &B, CallInst *C) {
    B.CreateStore(C, LastLine);
    Kept.insert(C);
  }

  CallInst *call(IRBuilder<> &B, Value *P, uint64_t Size, bool Write,
                 uint32_t Site) {
    CallInst *C = B.CreateCall(
        Access, {P, ConstantInt::get(I64, Size | (uint64_t(Write) << 63)), Desc,
                 ConstantInt::get(I32, Site)});
    C->setCallingConv(accessCallingConv(M));
    return C;
  }

  void range(Instruction *I, Value *P, Value *Length, bool Write, uint32_t Site) {
    IRBuilder<> B(I);
    B.CreateCall(Range, {P, B.CreateZExtOrTrunc(Length, I64),
                         ConstantInt::get(I32, Write), Desc,
                         ConstantInt::get(I32, Site)});
  }

  /// Masked loads and stores as their whole vector; gathers and scatters
  /// per active lane.
  void masked(IntrinsicInst *II, uint32_t Site) {
    Intrinsic::ID ID = II->getIntrinsicID();
    bool Write = ID == Intrinsic::masked_store || ID == Intrinsic::masked_scatter;
    Type *DataTy = Write ? II->getArgOperand(0)->getType() : II->getType();
    Value *P = II->getArgOperand(Write ? 1 : 0);
    auto *VT = dyn_cast<FixedVectorType>(DataTy);
    if (!VT)
      return;
    if (ID == Intrinsic::masked_load || ID == Intrinsic::masked_store) {
      one(II, P, DL.getTypeStoreSize(VT).getFixedValue(), Write, Site);
      return;
    }
    // LLVM 22: gather(ptrs, mask, passthru), scatter(value, ptrs, mask).
    Value *MaskV = II->getArgOperand(Write ? 2 : 1);
    uint64_t Elem = DL.getTypeStoreSize(VT->getElementType()).getFixedValue();
    IRBuilder<> B(II);
    for (unsigned Lane = 0; Lane < VT->getNumElements(); ++Lane) {
      Value *LaneP = B.CreateExtractElement(P, Lane);
      Value *On = B.CreateExtractElement(MaskV, Lane);
      Value *Size = B.CreateSelect(On, ConstantInt::get(I64, Elem),
                                   ConstantInt::get(I64, 0));
      B.CreateCall(Access,
                   {LaneP, B.CreateOr(Size, ConstantInt::get(I64, uint64_t(Write) << 63)),
                    Desc, ConstantInt::get(I32, Site)})
          ->setCallingConv(accessCallingConv(M));
    }
  }

  Module &M;
  LLVMContext &Ctx;
  const DataLayout &DL;
  Constant *Desc;
  Type *I32, *I64;
  PointerType *Ptr;
  FunctionCallee Access, Range;
  Value *Mask, *MaskOrNext;
  /// The line the thread's model touched last, as __roofline_cache_access_line
  /// returns it (~0: unknown).
  AllocaInst *LastLine;
  /// The calls whose result is kept in LastLine.
  SmallPtrSet<const CallBase *, 16> Kept;
};

} // namespace

bool isTracedAccess(const Instruction &I) {
  if (isa<LoadInst>(I) || isa<StoreInst>(I) || isa<AtomicRMWInst>(I) ||
      isa<AtomicCmpXchgInst>(I) || isa<MemTransferInst>(I) || isa<MemSetInst>(I))
    return true;
  if (const auto *II = dyn_cast<IntrinsicInst>(&I))
    return isMaskedAccess(II->getIntrinsicID());
  return false;
}

/// Why \p F cannot be given a copy, or "".
static std::string whyNoCopy(const Function &F) {
  if (F.isVarArg())
    return "it is variadic";
  if (F.hasFnAttribute(Attribute::Naked))
    return "it is naked";
  for (const Argument &A : F.args())
    if (A.hasInAllocaAttr() || A.hasPreallocatedAttr() || A.hasSwiftErrorAttr())
      return "an argument cannot be forwarded";
  // Computed goto: a table of label addresses (static void *t[] = {&&a})
  // names the original's blocks, which a copy would jump into.
  for (const BasicBlock &BB : F)
    if (BB.hasAddressTaken())
      return "it takes the address of a label (computed goto)";
  for (const Instruction &I : instructions(F))
    if (const auto *CB = dyn_cast<CallBase>(&I))
      if (CB->getIntrinsicID() == Intrinsic::localescape ||
          CB->getIntrinsicID() == Intrinsic::vastart ||
          CB->hasFnAttr(Attribute::ReturnsTwice))
        return "its frame cannot be moved to a copy";
  return "";
}

static Function *cloneForTracing(Function &F, ValueToValueMapTy &VMap) {
  Function *Copy = CloneFunction(&F, VMap);
  Copy->setName(F.getName() + ".roofline.traced");
  Copy->setLinkage(GlobalValue::InternalLinkage);
  Copy->setVisibility(GlobalValue::DefaultVisibility);
  Copy->setComdat(nullptr);
  Copy->setDLLStorageClass(GlobalValue::DefaultStorageClass);
  return Copy;
}

/// The defined callees of \p F (a fixed helper's are fixed helpers too).
static std::vector<CallBase *> definedCalls(Function &F) {
  std::vector<CallBase *> Out;
  for (Instruction &I : instructions(F))
    if (auto *CB = dyn_cast<CallBase>(&I);
        CB && CB->getCalledFunction() && !CB->getCalledFunction()->isDeclaration())
      Out.push_back(CB);
  return Out;
}

/// Why \p F or a helper it calls cannot be copied, or "".
static std::string whyNoHelperCopy(Function &F, std::set<Function *> &Seen) {
  if (!Seen.insert(&F).second)
    return "";
  if (std::string Why = whyNoCopy(F); !Why.empty())
    return F.getName().str() + ": " + Why;
  for (CallBase *CB : definedCalls(F))
    if (std::string Why = whyNoHelperCopy(*CB->getCalledFunction(), Seen); !Why.empty())
      return Why;
  return "";
}

/// The traced form of a straight-line helper (CalleeCounts' fixed cost):
/// its accesses count only for the calls they are inside, and it calls
/// its own callees in their traced forms. Made once per module; the caller
/// has checked whyNoHelperCopy.
static Function *tracedHelper(Function &F) {
  if (Function *Done = F.getParent()->getFunction(F.getName().str() + ".roofline.traced"))
    return Done;
  ValueToValueMapTy VMap;
  Function *Copy = cloneForTracing(F, VMap);
  std::vector<Instruction *> Accesses;
  for (Instruction &I : instructions(*Copy))
    if (isTracedAccess(I))
      Accesses.push_back(&I);
  std::vector<CallBase *> Calls = definedCalls(*Copy);
  AccessTracer Tracer(*Copy, nullptr);
  for (Instruction *I : Accesses)
    Tracer.trace(I, 0);
  Tracer.finish(*Copy);
  for (CallBase *CB : Calls)
    CB->setCalledFunction(tracedHelper(*CB->getCalledFunction()));
  return Copy;
}

/// In a traced copy: the callee's traffic counts at \p Site of \p Desc
/// too, for the duration of the call. Returns false where the call cannot
/// be bracketed (a musttail call, an invoke whose normal destination is
/// shared).
static bool bracket(CallBase &CB, GlobalVariable *Desc, uint32_t Site) {
  if (auto *CI = dyn_cast<CallInst>(&CB); CI && CI->isMustTailCall())
    return false;
  Instruction *After = nullptr;
  if (auto *Inv = dyn_cast<InvokeInst>(&CB)) {
    BasicBlock *Normal = Inv->getNormalDest();
    if (!Normal->getSinglePredecessor())
      return false;
    After = &*Normal->getFirstInsertionPt();
  } else {
    After = CB.getNextNode();
  }
  Module &M = *CB.getModule();
  LLVMContext &Ctx = M.getContext();
  Type *I32 = Type::getInt32Ty(Ctx);
  // A parallel region's team counts for the caller too (fork and join).
  bool Fork = CalleeCounts::forkedBody(CB) != nullptr;
  FunctionCallee Enter =
      M.getOrInsertFunction(Fork ? "__roofline_cache_fork" : "__roofline_cache_enter",
                            I32, PointerType::getUnqual(Ctx), I32);
  FunctionCallee Leave = M.getOrInsertFunction(
      Fork ? "__roofline_cache_join" : "__roofline_cache_leave",
      Type::getVoidTy(Ctx), I32);
  IRBuilder<> B(&CB);
  Value *Depth = B.CreateCall(Enter, {Desc, ConstantInt::get(I32, Site)});
  IRBuilder<> A(After);
  A.CreateCall(Leave, {Depth});
  return true;
}

std::string addTracedCopy(Function &F, GlobalVariable *Desc,
                          const std::vector<AccessSite> &Sites,
                          const std::vector<CallSite> &Calls) {
  if (std::string Why = whyNoCopy(F); !Why.empty())
    return Why;

  ValueToValueMapTy VMap;
  Function *Copy = cloneForTracing(F, VMap);
  {
    AccessTracer Tracer(*Copy, Desc);
    for (const auto &[I, Site] : Sites)
      if (auto *C = dyn_cast_or_null<Instruction>(VMap.lookup(I)))
        Tracer.trace(C, Site);
    Tracer.finish(*Copy);
  }
  // Callees' traffic counts for the caller, as their work does.
  std::string Missed;
  for (const CallSite &C : Calls) {
    auto *CB = dyn_cast_or_null<CallBase>(VMap.lookup(C.Call));
    if (!CB)
      continue;
    if (C.Fixed) {
      std::set<Function *> Seen;
      if (std::string Why = whyNoHelperCopy(*CB->getCalledFunction(), Seen);
          !Why.empty()) {
        Missed = "a callee has no traced form (" + Why + ")";
        continue;
      }
      CB->setCalledFunction(tracedHelper(*CB->getCalledFunction()));
    }
    if (!bracket(*CB, Desc, C.Site))
      Missed = "a call's traffic cannot be counted for the caller (" +
               CB->getCalledFunction()->getName().str() + ")";
  }

  // At entry: the traced copy when the model is on.
  LLVMContext &Ctx = F.getContext();
  Module &M = *F.getParent();
  Type *I32 = Type::getInt32Ty(Ctx);
  GlobalVariable *On = M.getGlobalVariable("__roofline_cache_on");
  if (!On)
    On = new GlobalVariable(M, I32, /*isConstant=*/false,
                            GlobalValue::ExternalLinkage, nullptr,
                            "__roofline_cache_on");
  BasicBlock &Entry = F.getEntryBlock();
  Instruction *At = &*Entry.getFirstNonPHIOrDbgOrAlloca();
  IRBuilder<> B(At);
  Value *Traced = B.CreateICmpNE(B.CreateLoad(I32, On), ConstantInt::get(I32, 0),
                                 "roofline.cache_on");
  Instruction *Then = SplitBlockAndInsertIfThen(Traced, At, /*Unreachable=*/true);
  IRBuilder<> TB(Then);
  std::vector<Value *> Args;
  for (Argument &A : F.args())
    Args.push_back(&A);
  CallInst *Call = TB.CreateCall(Copy, Args);
  Call->setCallingConv(F.getCallingConv());
  AttributeList Attrs = F.getAttributes();
  std::vector<AttributeSet> Params;
  for (unsigned I = 0; I < F.arg_size(); ++I)
    Params.push_back(Attrs.getParamAttrs(I));
  Call->setAttributes(AttributeList::get(Ctx, AttributeSet(), Attrs.getRetAttrs(), Params));
  Call->setTailCall();
  if (DISubprogram *SP = F.getSubprogram())
    Call->setDebugLoc(DILocation::get(Ctx, SP->getLine(), 0, SP));
  if (F.getReturnType()->isVoidTy())
    TB.CreateRetVoid();
  else
    TB.CreateRet(Call);
  Then->eraseFromParent();
  return Missed;
}

} // namespace roofline
