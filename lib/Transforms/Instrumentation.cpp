//===- Instrumentation.cpp - Exact dynamic counts -------------------------===//
//
// USAGE:
//   clang++-22 -O2 -fpass-plugin=build/lib/RooflinePass.so \
//       -mllvm -roofline-instrument app.cpp build/lib/libroofline_rt.so
//   opt -load-pass-plugin=build/lib/RooflinePass.so \
//       -passes=roofline-instrument in.ll -S -o out.ll
//
// Three phases, as in SanitizerCoverage: skip what must not be touched,
// collect (counters per block, loop nests, costs), inject with IRBuilder.
//
// A counter per block with a cost counts its executions; blocks that run on
// every iteration of a loop whose trip count ScalarEvolution knows on entry
// are counted once, in the preheader, by the trip count. Counters live in
// allocas promoted to registers; each return adds them, the call and its
// time into a thread_local block of the function, without calling the
// runtime (which reads the blocks when it writes the profile).
//
//===----------------------------------------------------------------------===//
#include "roofline/Transforms/Instrumentation.h"
#include "roofline/Analysis/CostModel.h"
#include "roofline/Runtime/Descriptor.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

#include <map>

using namespace llvm;

namespace roofline {

namespace {

// Names of the runtime's entry points and of generated globals, in one place.
constexpr const char *RegisterFn = "__roofline_register";
constexpr const char *RegisterThreadFn = "__roofline_register_thread";
constexpr const char *CtorName = "roofline.module_ctor";
constexpr const char *Marker = "roofline.instrumented";

struct Counter {
  BasicBlock *Block = nullptr;       // counted block (or the transfer's)
  const Value *Length = nullptr;     // set: counts bytes of a transfer
  Instruction *At = nullptr;         // the transfer
  Loop *HoistTo = nullptr;           // counted in this loop's preheader
  uint32_t Nest = 0;                 // top-level loop nest (0: none)
};

class FunctionInstrumenter {
public:
  FunctionInstrumenter(Function &F, LoopInfo &LI, ScalarEvolution &SE,
                       DominatorTree &DT)
      : F(F), LI(LI), SE(SE), DT(DT), CM(F) {}

  /// Adds counters and the flush; returns the descriptor's contents.
  bool run(GlobalVariable *Desc);

  std::vector<std::tuple<uint32_t, uint32_t, uint64_t>> Costs;
  std::vector<uint32_t> CounterNest;
  std::vector<uint32_t> NestLines;

private:
  bool everyIterationRuns(Loop *L, BasicBlock *BB) const;
  bool canHoist(Loop *L) const;

  Function &F;
  LoopInfo &LI;
  ScalarEvolution &SE;
  DominatorTree &DT;
  CostModel CM;
  std::vector<Counter> Counters;
  std::map<const Loop *, uint32_t> IterationCounter;
  std::map<std::pair<uint32_t, uint32_t>, uint64_t> BlockCosts;
};

bool FunctionInstrumenter::canHoist(Loop *L) const {
  // One exit, at the latch, with a trip count computable on entry.
  if (!L->getLoopPreheader() || !L->getLoopLatch() ||
      L->getExitingBlock() != L->getLoopLatch())
    return false;
  const SCEV *BTC = SE.getBackedgeTakenCount(L);
  if (isa<SCEVCouldNotCompute>(BTC) || !BTC->getType()->isIntegerTy())
    return false;
  SCEVExpander Probe(SE, "roofline.probe");
  return Probe.isSafeToExpand(BTC) &&
         Probe.isSafeToExpandAt(BTC, L->getLoopPreheader()->getTerminator());
}

bool FunctionInstrumenter::everyIterationRuns(Loop *L, BasicBlock *BB) const {
  return DT.dominates(BB, L->getLoopLatch());
}

bool FunctionInstrumenter::run(GlobalVariable *Desc) {
  // Top-level loop nests in source order.
  auto LineOf = [](Loop *L) -> uint32_t {
    DebugLoc DL = L->getStartLoc();
    return DL ? DL.getLine() : 0; // no line tables: loops are unnamed
  };
  std::vector<Loop *> Tops(LI.begin(), LI.end());
  std::stable_sort(Tops.begin(), Tops.end(), [&](Loop *A, Loop *B) {
    return LineOf(A) < LineOf(B);
  });
  std::map<Loop *, uint32_t> NestOf;
  for (size_t I = 0; I < Tops.size(); ++I) {
    NestOf[Tops[I]] = I + 1;
    NestLines.push_back(LineOf(Tops[I]));
  }
  auto NestFor = [&](BasicBlock *BB) -> uint32_t {
    Loop *L = LI.getLoopFor(BB);
    if (!L)
      return 0;
    return NestOf[L->getOutermostLoop()];
  };

  // Collect: one counter per block with a cost, one per variable transfer.
  for (BasicBlock &BB : F) {
    CostVector Fixed;
    for (Instruction &I : BB) {
      OpCost C = CM.costOf(I);
      Fixed += C.Fixed;
      for (const VariableBytes &VB : C.Variable) {
        uint32_t Id = Counters.size();
        Counters.push_back({&BB, VB.Length, &I, nullptr, NestFor(&BB)});
        for (unsigned S : VB.Slots)
          Costs.emplace_back(Id, S, 1);
      }
    }
    bool Any = false;
    for (unsigned S = 0; S < NumSlots; ++S)
      Any |= Fixed.Slots[S] != 0;
    if (!Any)
      continue;
    // Blocks that run exactly once per iteration of their loop share one
    // counter (fewer registers live across the loop): the loop's.
    Loop *L = LI.getLoopFor(&BB);
    bool PerIteration = L && L->getLoopLatch() &&
                        L->getExitingBlock() == L->getLoopLatch() &&
                        everyIterationRuns(L, &BB);
    uint32_t Id;
    auto Shared = PerIteration ? IterationCounter.find(L) : IterationCounter.end();
    if (Shared != IterationCounter.end()) {
      Id = Shared->second;
    } else {
      Id = Counters.size();
      Counter C;
      C.Block = &BB;
      C.Nest = NestFor(&BB);
      if (PerIteration && canHoist(L))
        C.HoistTo = L;
      Counters.push_back(C);
      if (PerIteration)
        IterationCounter[L] = Id;
    }
    for (unsigned S = 0; S < NumSlots; ++S)
      if (Fixed.Slots[S])
        BlockCosts[{Id, S}] += uint64_t(Fixed.Slots[S]);
  }
  for (const auto &[Key, N] : BlockCosts)
    Costs.emplace_back(Key.first, Key.second, N);
  if (Counters.empty())
    return false;
  for (const Counter &C : Counters)
    CounterNest.push_back(C.Nest);

  // Inject: counters as allocas (promoted to registers below).
  LLVMContext &Ctx = F.getContext();
  Module &M = *F.getParent();
  Type *I64 = Type::getInt64Ty(Ctx);
  BasicBlock &Entry = F.getEntryBlock();
  IRBuilder<> B(&Entry, Entry.getFirstInsertionPt());
  std::vector<AllocaInst *> Slots;
  for (size_t I = 0; I < Counters.size(); ++I) {
    AllocaInst *A = B.CreateAlloca(I64, nullptr, "roofline.counter");
    Slots.push_back(A);
  }
  for (AllocaInst *A : Slots)
    B.CreateStore(ConstantInt::get(I64, 0), A);

  // This thread's block: [calls, ticks, timed calls, counters...].
  ArrayType *BlockTy =
      ArrayType::get(I64, ROOFLINE_BLOCK_COUNTERS + Counters.size());
  bool SharedObject = M.getPICLevel() != PICLevel::NotPIC &&
                      M.getPIELevel() == PIELevel::Default;
  auto *TLS = new GlobalVariable(
      M, BlockTy, /*isConstant=*/false, GlobalValue::InternalLinkage,
      ConstantAggregateZero::get(BlockTy), "__roofline_tls_" + F.getName(),
      nullptr,
      SharedObject ? GlobalValue::GeneralDynamicTLSModel
                   : GlobalValue::InitialExecTLSModel);
  Value *Block = B.CreateThreadLocalAddress(TLS);
  Instruction *AfterPrelude = &*B.GetInsertPoint();
  auto Field = [&](IRBuilder<> &IB, unsigned I) {
    return IB.CreateConstGEP2_64(BlockTy, Block, 0, I);
  };

  auto Add = [&](IRBuilder<> &IB, AllocaInst *A, Value *N) {
    Value *Old = IB.CreateLoad(I64, A);
    IB.CreateStore(IB.CreateAdd(Old, N), A);
  };
  std::map<Loop *, Value *> TripAt; // expanded once per preheader
  for (size_t I = 0; I < Counters.size(); ++I) {
    Counter &C = Counters[I];
    if (C.Length) {
      IRBuilder<> IB(C.At);
      Value *Len = IB.CreateZExtOrTrunc(const_cast<Value *>(C.Length), I64);
      Add(IB, Slots[I], Len);
    } else if (C.HoistTo) {
      BasicBlock *Pre = C.HoistTo->getLoopPreheader();
      Value *&Trip = TripAt[C.HoistTo];
      if (!Trip) {
        SCEVExpander Exp(SE, "roofline.trip");
        const SCEV *BTC = SE.getBackedgeTakenCount(C.HoistTo);
        const SCEV *T = SE.getAddExpr(SE.getNoopOrZeroExtend(BTC, I64),
                                      SE.getOne(I64));
        Trip = Exp.expandCodeFor(T, I64, Pre->getTerminator());
      }
      IRBuilder<> IB(Pre->getTerminator());
      Add(IB, Slots[I], Trip);
    } else {
      // In the entry block, after the allocas the counters are.
      IRBuilder<> IB(C.Block == &Entry ? AfterPrelude
                                       : &*C.Block->getFirstInsertionPt());
      Add(IB, Slots[I], ConstantInt::get(I64, 1));
    }
  }

  // Time every call at first, then one call in 64: a short function called
  // millions of times is not slowed down by reading the clock. (The CFG
  // changes only now, after ScalarEvolution has expanded the trip counts.)
  B.SetInsertPoint(AfterPrelude);
  Value *CallsSoFar = B.CreateLoad(I64, Field(B, ROOFLINE_BLOCK_CALLS));
  Value *Timed = B.CreateOr(
      B.CreateICmpULT(CallsSoFar,
                      ConstantInt::get(I64, ROOFLINE_TIME_ALL_CALLS)),
      B.CreateICmpEQ(
          B.CreateAnd(CallsSoFar,
                      ConstantInt::get(I64, ROOFLINE_TIME_SAMPLE_MASK)),
          ConstantInt::get(I64, 0)),
      "roofline.timed");
  Function *Cycles =
      Intrinsic::getOrInsertDeclaration(&M, Intrinsic::readcyclecounter);
  Instruction *SplitAt = &*B.GetInsertPoint();
  Instruction *ThenTerm = SplitBlockAndInsertIfThen(Timed, SplitAt, false);
  IRBuilder<> TB(ThenTerm);
  Value *Clock = TB.CreateCall(Cycles, {}, "roofline.clock");
  IRBuilder<> JB(SplitAt);
  PHINode *Start = JB.CreatePHI(I64, 2, "roofline.start");
  Start->addIncoming(Clock, ThenTerm->getParent());
  Start->addIncoming(ConstantInt::get(I64, 0), &Entry);

  // At every return: add the call into this thread's block (registering
  // the block with the runtime on the thread's first call).
  FunctionCallee RegisterThread = M.getOrInsertFunction(
      RegisterThreadFn, Type::getVoidTy(Ctx), PointerType::getUnqual(Ctx),
      PointerType::getUnqual(Ctx));
  std::vector<ReturnInst *> Returns;
  for (BasicBlock &BB : F)
    if (auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator()))
      Returns.push_back(Ret);
  for (ReturnInst *Ret : Returns) {
    IRBuilder<> IB(Ret);
    Value *Calls = IB.CreateLoad(I64, Field(IB, ROOFLINE_BLOCK_CALLS));
    Instruction *First = SplitBlockAndInsertIfThen(
        IB.CreateICmpEQ(Calls, ConstantInt::get(I64, 0)), Ret, false);
    IRBuilder<>(First).CreateCall(RegisterThread, {Desc, Block});
    IB.SetInsertPoint(Ret);
    IB.CreateStore(IB.CreateAdd(Calls, ConstantInt::get(I64, 1)),
                   Field(IB, ROOFLINE_BLOCK_CALLS));
    for (size_t I = 0; I < Slots.size(); ++I) {
      Value *P = Field(IB, ROOFLINE_BLOCK_COUNTERS + I);
      IB.CreateStore(IB.CreateAdd(IB.CreateLoad(I64, P),
                                  IB.CreateLoad(I64, Slots[I])),
                     P);
    }
    Instruction *TimedTerm = SplitBlockAndInsertIfThen(
        IB.CreateICmpNE(Start, ConstantInt::get(I64, 0)), Ret, false);
    IRBuilder<> TI(TimedTerm);
    Value *Elapsed = TI.CreateSub(TI.CreateCall(Cycles, {}), Start);
    Value *TicksP = Field(TI, ROOFLINE_BLOCK_TICKS);
    TI.CreateStore(TI.CreateAdd(TI.CreateLoad(I64, TicksP), Elapsed), TicksP);
    Value *TimedP = Field(TI, ROOFLINE_BLOCK_TIMED);
    TI.CreateStore(TI.CreateAdd(TI.CreateLoad(I64, TimedP),
                                ConstantInt::get(I64, 1)),
                   TimedP);
  }

  // Counters in registers.
  DominatorTree FreshDT(F);
  PromoteMemToReg(Slots, FreshDT);
  return true;
}

Constant *stringConstant(Module &M, StringRef S, const Twine &Name) {
  return IRBuilder<>(M.getContext())
      .CreateGlobalString(S, Name, 0, &M);
}

} // namespace

PreservedAnalyses InstrumentationPass::run(Module &M,
                                           ModuleAnalysisManager &MAM) {
  if (M.getNamedMetadata(Marker))
    return PreservedAnalyses::all(); // already instrumented (LTO)
  if (Triple(M.getTargetTriple()).isNVPTX())
    return PreservedAnalyses::all(); // device code: see docs/instrumentation.md
  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  LLVMContext &Ctx = M.getContext();
  Type *I32 = Type::getInt32Ty(Ctx), *I64 = Type::getInt64Ty(Ctx);
  PointerType *Ptr = PointerType::getUnqual(Ctx);
  // Must match roofline_kernel in roofline/Runtime/Descriptor.h.
  StructType *DescTy = StructType::create(
      Ctx,
      {I32, I32, I32, I32, Ptr, Ptr, I32, I32, Ptr, Ptr, Ptr, Ptr, Ptr, Ptr,
       I32, I32},
      "roofline.kernel");
  StructType *CostTy =
      StructType::create(Ctx, {I32, I32, I64}, "roofline.cost");

  // A musttail call must stay right before its return: no code can go
  // between them, so such functions are left alone (and said so).
  auto HasMustTail = [](Function &F) {
    for (BasicBlock &BB : F)
      if (CallInst *CI = BB.getTerminatingMustTailCall())
        return CI != nullptr;
    return false;
  };
  std::vector<Function *> Targets;
  for (Function &F : M) {
    if (F.isDeclaration() || !IsKernel(F))
      continue;
    if (HasMustTail(F)) {
      F.getContext().diagnose(DiagnosticInfoGeneric(
          "roofline: " + F.getName() +
              " is not instrumented: it ends in a musttail call",
          DS_Remark));
      continue;
    }
    Targets.push_back(&F);
  }

  std::vector<GlobalVariable *> Descs;
  for (Function *F : Targets) {
    auto *Desc = new GlobalVariable(M, DescTy, /*isConstant=*/false,
                                    GlobalValue::PrivateLinkage, nullptr,
                                    "__roofline_desc_" + F->getName());
    FunctionInstrumenter FI(*F, FAM.getResult<LoopAnalysis>(*F),
                            FAM.getResult<ScalarEvolutionAnalysis>(*F),
                            FAM.getResult<DominatorTreeAnalysis>(*F));
    if (!FI.run(Desc)) {
      Desc->eraseFromParent();
      continue;
    }
    FAM.invalidate(*F, PreservedAnalyses::none());

    std::vector<Constant *> Costs;
    for (auto [C, S, N] : FI.Costs)
      Costs.push_back(ConstantStruct::get(
          CostTy, {ConstantInt::get(I32, C), ConstantInt::get(I32, S),
                   ConstantInt::get(I64, N)}));
    auto Array = [&](Type *ElemTy, ArrayRef<Constant *> Elems,
                     const Twine &Name) -> Constant * {
      if (Elems.empty())
        return ConstantPointerNull::get(Ptr);
      ArrayType *T = ArrayType::get(ElemTy, Elems.size());
      return new GlobalVariable(M, T, true, GlobalValue::PrivateLinkage,
                                ConstantArray::get(T, Elems), Name);
    };
    std::vector<Constant *> Nest, Lines;
    for (uint32_t N : FI.CounterNest)
      Nest.push_back(ConstantInt::get(I32, N));
    for (uint32_t L : FI.NestLines)
      Lines.push_back(ConstantInt::get(I32, L));

    StaticFormulas SF = Static(*F);
    std::string File;
    unsigned Line = 0;
    if (DISubprogram *SP = F->getSubprogram()) {
      File = SP->getFilename().str();
      if (!SP->getDirectory().empty() && !File.empty() && File[0] != '/')
        File = (SP->getDirectory() + "/" + File).str();
      Line = SP->getLine();
    }
    std::string Base = "__roofline_" + F->getName().str();
    Desc->setInitializer(ConstantStruct::get(
        DescTy,
        {ConstantInt::get(I32, ROOFLINE_DESCRIPTOR_VERSION),
         ConstantInt::get(I32, FI.CounterNest.size()),
         ConstantInt::get(I32, FI.Costs.size()),
         ConstantInt::get(I32, FI.NestLines.size()),
         stringConstant(M, F->getName(), Base + ".name"),
         stringConstant(M, File, Base + ".file"), ConstantInt::get(I32, Line),
         ConstantInt::get(I32, uint32_t(-1)),
         Array(CostTy, Costs, Base + ".costs"),
         Array(I32, Nest, Base + ".nest"), Array(I32, Lines, Base + ".lines"),
         stringConstant(M, SF.Flops, Base + ".flops"),
         stringConstant(M, SF.Load, Base + ".load"),
         stringConstant(M, SF.Store, Base + ".store"),
         ConstantInt::get(I32, SF.Exact), ConstantInt::get(I32, NumSlots)}));
    Descs.push_back(Desc);
  }
  if (Descs.empty())
    return PreservedAnalyses::all();

  // One constructor registers every descriptor of the module.
  Function *Ctor = Function::Create(FunctionType::get(Type::getVoidTy(Ctx), false),
                                    GlobalValue::InternalLinkage, CtorName, &M);
  IRBuilder<> B(BasicBlock::Create(Ctx, "", Ctor));
  FunctionCallee Register =
      M.getOrInsertFunction(RegisterFn, Type::getVoidTy(Ctx), Ptr);
  for (GlobalVariable *D : Descs)
    B.CreateCall(Register, {D});
  B.CreateRetVoid();
  appendToGlobalCtors(M, Ctor, 0);
  std::vector<GlobalValue *> Used(Descs.begin(), Descs.end());
  appendToCompilerUsed(M, Used);
  M.getOrInsertNamedMetadata(Marker);
  return PreservedAnalyses::none();
}

} // namespace roofline
