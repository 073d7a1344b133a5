//===- HostLowering.cpp - Counters flushed into a thread's block ----------===//
//
// HostLowering.h says what the code does; CounterCode.cpp adds to the
// counters, this file flushes them, times the calls and the loop nests.
//
//===----------------------------------------------------------------------===//
#include "HostLowering.h"
#include "ArgumentTrace.h"
#include "CounterCode.h"
#include "CountOperations.h"
#include "RuntimeNames.h"

#include "roofline/Runtime/CostKinds.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/IntrinsicsX86.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

namespace roofline {

Value *maybeTimed(IRBuilder<> &B, Value *SoFar, uint64_t AllBelow) {
  Type *I64 = B.getInt64Ty();
  return B.CreateOr(
      B.CreateICmpULT(SoFar, ConstantInt::get(I64, AllBelow)),
      B.CreateICmpEQ(
          B.CreateAnd(SoFar, ConstantInt::get(I64, ROOFLINE_TIME_SAMPLE_MASK)),
          ConstantInt::get(I64, 0)),
      "roofline.timed");
}

/// Whether \p SoFar is still in the one-in-64 sample: past
/// ROOFLINE_TIME_SPARSE_CALLS it is thinned to one in 1024.
static Value *denseSample(IRBuilder<> &B, Value *SoFar) {
  return B.CreateICmpULT(
      SoFar, ConstantInt::get(B.getInt64Ty(), ROOFLINE_TIME_SPARSE_CALLS));
}

Value *timedCall(IRBuilder<> &B, Value *SoFar, uint64_t AllBelow) {
  Type *I64 = B.getInt64Ty();
  auto Zero = ConstantInt::get(I64, 0);
  Value *Dense = denseSample(B, SoFar);
  Value *Mask =
      B.CreateSelect(Dense, ConstantInt::get(I64, ROOFLINE_TIME_SAMPLE_MASK),
                     ConstantInt::get(I64, ROOFLINE_TIME_SPARSE_MASK));
  return B.CreateOr(B.CreateICmpULT(SoFar, ConstantInt::get(I64, AllBelow)),
                    B.CreateICmpEQ(B.CreateAnd(SoFar, Mask), Zero),
                    "roofline.timed");
}

Value *sampleWeight(IRBuilder<> &B, Value *SoFar, uint64_t AllBelow) {
  Type *I64 = B.getInt64Ty();
  Value *Stride =
      B.CreateSelect(denseSample(B, SoFar),
                     ConstantInt::get(I64, ROOFLINE_TIME_SAMPLE_MASK + 1),
                     ConstantInt::get(I64, ROOFLINE_TIME_SPARSE_MASK + 1));
  return B.CreateSelect(B.CreateICmpULT(SoFar, ConstantInt::get(I64, AllBelow)),
                        ConstantInt::get(I64, 1), Stride, "roofline.weight");
}

namespace {
/// The tick that ends a timed call or loop entry. An out-of-order core may
/// read a plain counter (rdtsc) before the work ahead of it has executed:
/// a loop of a few iterations of a long dependency chain would end its
/// timer while the chain still drains, and measure faster than the chain
/// allows. On x86, rdtscp waits for every earlier instruction to execute.
Value *stopTick(IRBuilder<> &B) {
  Module *M = B.GetInsertBlock()->getModule();
  if (M->getTargetTriple().isX86()) {
    Value *Pair = B.CreateCall(
        Intrinsic::getOrInsertDeclaration(M, Intrinsic::x86_rdtscp), {});
    return B.CreateExtractValue(Pair, 0, "roofline.stop");
  }
  return B.CreateCall(
      Intrinsic::getOrInsertDeclaration(M, Intrinsic::readcyclecounter), {},
      "roofline.stop");
}

/// The host lowering of one function.
class HostLowerer {
public:
  HostLowerer(Function &F, const PlacedCounters &P, const CounterCode &Code,
              const HostLoweringInputs &In)
      : F(F), P(P), In(In), Code(Code) {}
  HostLowering run();

private:
  /// The thread's block (a kept function's: its original's).
  void createBlock();
  /// Before \p At: the call's start tick when it is timed, else 0.
  Value *emitCallStart(Instruction *At);
  /// Times sampled entries of each measured nest (the first 1024, then one
  /// in 64), as the function's calls are.
  /// (The function's own nests are timed in the calls that are timed:
  /// \p CallStart is nonzero in them.)
  void emitLoopTimers(Value *CallStart);
  /// At \p Ret: the call and its counters added into the block.
  void flushAt(ReturnInst *Ret);
  /// At \p Ret: a timed call's ticks (\p Start nonzero) added; the runtime
  /// adds them, and learns of the block on the thread's first call (which
  /// is always timed).
  void addCallTime(ReturnInst *Ret, Value *Start);
  Value *field(IRBuilder<> &IB, unsigned I) {
    return IB.CreateConstGEP2_64(BlockType, Block, 0, I);
  }

  Function &F;
  const PlacedCounters &P;
  const HostLoweringInputs &In;
  const CounterCode &Code;
  HostLowering Out;
  ArrayType *BlockType = nullptr;
  Value *Block = nullptr; ///< the block's address, at entry
  /// A timed call's weight (sampleWeight), written where it is decided.
  llvm::AllocaInst *CallWeight = nullptr;
};
} // namespace

Value *HostLowerer::emitCallStart(Instruction *At) {
  // Time every call at first, then a sample: a short function called
  // millions of times is not slowed down by reading the clock. The hot
  // path tests only "every call, or one in 64"; the cold block thins that
  // further past ROOFLINE_TIME_SPARSE_CALLS and keeps the call's weight. A
  // kept function's calling loop passes the thread's calls so far (the
  // block's count lags behind until the loop exits). A kernel's arguments
  // go to ROOFLINE_TRACE from the same cold block: one test on the hot path.
  IRBuilder<> B(At);
  Type *I64 = B.getInt64Ty();
  CallWeight = IRBuilder<>(&*F.getEntryBlock().begin())
                   .CreateAlloca(I64, nullptr, "roofline.call.weight");
  Value *CallsSoFar = In.KeepFor
                          ? static_cast<Value *>(F.getArg(F.arg_size() - 1))
                          : B.CreateLoad(I64, field(B, ROOFLINE_BLOCK_CALLS));
  Value *Maybe = maybeTimed(B, CallsSoFar, ROOFLINE_TIME_ALL_CALLS);
  bool Trace = In.TraceArguments && !In.KeepFor && !F.arg_empty();
  Value *Cold = Trace ? B.CreateOr(Maybe, tracingOn(B)) : Maybe;
  Function *Cycles = Intrinsic::getOrInsertDeclaration(
      F.getParent(), Intrinsic::readcyclecounter);
  Instruction *ThenTerm = SplitBlockAndInsertIfThen(Cold, At, false);
  BasicBlock *Hot = ThenTerm->getParent()->getSinglePredecessor();
  IRBuilder<> TB(ThenTerm);
  if (Trace)
    emitArgumentTrace(TB, In.Desc);
  Instruction *ClockTerm = SplitBlockAndInsertIfThen(
      timedCall(TB, CallsSoFar, ROOFLINE_TIME_ALL_CALLS), ThenTerm, false);
  BasicBlock *Untimed = ClockTerm->getParent()->getSinglePredecessor();
  IRBuilder<> CB(ClockTerm);
  CB.CreateStore(sampleWeight(CB, CallsSoFar, ROOFLINE_TIME_ALL_CALLS),
                 CallWeight);
  CallInst *Clock = CB.CreateCall(Cycles, {}, "roofline.clock");
  if (In.KeepFor)
    Out.TimedStart = Clock;
  IRBuilder<> SB(ThenTerm);
  PHINode *Started = SB.CreatePHI(I64, 2, "roofline.started");
  Started->addIncoming(Clock, ClockTerm->getParent());
  Started->addIncoming(ConstantInt::get(I64, 0), Untimed);
  IRBuilder<> JB(At);
  PHINode *Start = JB.CreatePHI(I64, 2, "roofline.start");
  Start->addIncoming(Started, ThenTerm->getParent());
  Start->addIncoming(ConstantInt::get(I64, 0), Hot);
  return Start;
}

void HostLowerer::emitLoopTimers(Value *CallStart) {
  LLVMContext &Ctx = F.getContext();
  Type *I64 = Type::getInt64Ty(Ctx);
  Function *Cycles = Intrinsic::getOrInsertDeclaration(
      F.getParent(), Intrinsic::readcyclecounter);
  auto Zero = ConstantInt::get(I64, 0);
  for (const Nest &N : P.Layout.Nests) {
    if (N.Ticks < 0)
      continue;
    // Where the timer starts and stops, before any block is split.
    Instruction *StartAt = N.L->getLoopPreheader()->getTerminator();
    SmallVector<BasicBlock *, 4> Exits;
    N.L->getUniqueExitBlocks(Exits);
    std::vector<Instruction *> StopAt;
    for (BasicBlock *E : Exits)
      StopAt.push_back(&*E->getFirstInsertionPt());
    // The start tick lives in a stack slot, not a register: it is written
    // and read only on the timed entries, and costs the others nothing.
    AllocaInst *StartTick =
        IRBuilder<>(&*F.getEntryBlock().begin())
            .CreateAlloca(I64, nullptr, "roofline.loop.start");
    auto InBlock = [&](IRBuilder<> &B, int Counter) {
      return B.CreateConstGEP2_64(BlockType, Block, 0,
                                  ROOFLINE_BLOCK_COUNTERS + Counter);
    };
    auto AddToBlock = [&](IRBuilder<> &B, int Counter, Value *N) {
      Value *P = InBlock(B, Counter);
      B.CreateStore(B.CreateAdd(B.CreateLoad(I64, P), N), P);
    };

    IRBuilder<> B(StartAt);
    Value *Timed, *Seen = nullptr;
    if (N.Part == 0) {
      // The function's own nest: timed when the call is (a short function
      // called a hundred million times pays one branch, not a sample
      // decision per entry).
      Timed = B.CreateICmpNE(CallStart, Zero);
    } else {
      // An inlined nest, entered many times per call of the function it
      // is in: entries so far (this thread's earlier calls and this
      // call's) decide, as calls do.
      Seen = B.CreateAdd(B.CreateLoad(I64, InBlock(B, N.Entries)),
                         B.CreateLoad(I64, Code.Slots[N.Entries]));
      Timed = timedCall(B, Seen, ROOFLINE_TIME_ALL_CALLS + 1);
      B.CreateStore(Zero, StartTick);
    }
    Instruction *Then = SplitBlockAndInsertIfThen(Timed, StartAt, false);
    IRBuilder<> TB(Then);
    // The entries this one stands for (a nest timed by calls: the call's).
    AllocaInst *Weight = CallWeight;
    if (Seen) {
      Weight = IRBuilder<>(&*F.getEntryBlock().begin())
                   .CreateAlloca(I64, nullptr, "roofline.loop.weight");
      TB.CreateStore(sampleWeight(TB, Seen, ROOFLINE_TIME_ALL_CALLS + 1),
                     Weight);
    }
    TB.CreateStore(TB.CreateCall(Cycles, {}), StartTick);

    // At each exit, a timed entry adds its ticks straight into this
    // thread's block (the counters are not carried to the return).
    for (Instruction *At : StopAt) {
      IRBuilder<> EB(At);
      Value *WasTimed =
          N.Part == 0 ? EB.CreateICmpNE(CallStart, Zero)
                      : EB.CreateICmpNE(EB.CreateLoad(I64, StartTick), Zero);
      Instruction *Stop = SplitBlockAndInsertIfThen(WasTimed, At, false);
      IRBuilder<> SB(Stop);
      Value *Elapsed = SB.CreateSub(stopTick(SB), SB.CreateLoad(I64, StartTick));
      Value *W = SB.CreateLoad(I64, Weight);
      AddToBlock(SB, N.Ticks, SB.CreateMul(Elapsed, W));
      if (N.Timed >= 0)
        AddToBlock(SB, N.Timed, W);
    }
  }
}

void HostLowerer::createBlock() {
  Module &M = *F.getParent();
  Type *I64 = Type::getInt64Ty(F.getContext());
  // This thread's block: [calls, ticks, timed calls, counters...].
  BlockType = ArrayType::get(I64, ROOFLINE_BLOCK_COUNTERS + P.Counters.size());
  bool SharedObject = M.getPICLevel() != PICLevel::NotPIC &&
                      M.getPIELevel() == PIELevel::Default;
  // A kept function's timers add to its original's block.
  if (In.KeepFor) {
    Out.TLS = In.KeepFor->TLS;
    BlockType = In.KeepFor->BlockType;
  } else {
    Out.TLS = new GlobalVariable(
        M, BlockType, /*isConstant=*/false, GlobalValue::InternalLinkage,
        ConstantAggregateZero::get(BlockType), "__roofline_tls_" + F.getName(),
        nullptr,
        SharedObject ? GlobalValue::GeneralDynamicTLSModel
                     : GlobalValue::InitialExecTLSModel);
  }
  Out.BlockType = BlockType;
}

void HostLowerer::addCallTime(ReturnInst *Ret, Value *Start) {
  Type *I64 = Type::getInt64Ty(F.getContext());
  IRBuilder<> IB(Ret);
  Instruction *TimedTerm = SplitBlockAndInsertIfThen(
      IB.CreateICmpNE(Start, ConstantInt::get(I64, 0)), Ret, false);
  IRBuilder<> TI(TimedTerm);
  Value *Elapsed = TI.CreateSub(stopTick(TI), Start);
  Value *Weight = TI.CreateLoad(I64, CallWeight);
  if (!In.KeepFor) {
    // The rest is the runtime's, out of line: a timed call is rare.
    LLVMContext &Ctx = F.getContext();
    FunctionCallee TimedReturn = F.getParent()->getOrInsertFunction(
        TimedReturnFn, Type::getVoidTy(Ctx), PointerType::getUnqual(Ctx),
        PointerType::getUnqual(Ctx), I64, I64);
    TI.CreateCall(TimedReturn, {In.Desc, Block, Elapsed, Weight});
    return;
  }
  Value *TicksP = field(TI, ROOFLINE_BLOCK_TICKS);
  TI.CreateStore(
      TI.CreateAdd(TI.CreateLoad(I64, TicksP), TI.CreateMul(Elapsed, Weight)),
      TicksP);
  Value *TimedP = field(TI, ROOFLINE_BLOCK_TIMED);
  TI.CreateStore(TI.CreateAdd(TI.CreateLoad(I64, TimedP), Weight), TimedP);
}

void HostLowerer::flushAt(ReturnInst *Ret) {
  Type *I64 = Type::getInt64Ty(F.getContext());
  IRBuilder<> IB(Ret);
  Value *Calls = IB.CreateLoad(I64, field(IB, ROOFLINE_BLOCK_CALLS));
  IB.CreateStore(IB.CreateAdd(Calls, ConstantInt::get(I64, 1)),
                 field(IB, ROOFLINE_BLOCK_CALLS));
  for (size_t I = 0; I < Code.Slots.size(); ++I) {
    if (P.Counters[I].K == Counter::Kind::Timer)
      continue; // the loop timers add to the block themselves
    Value *At = field(IB, ROOFLINE_BLOCK_COUNTERS + I);
    Value *Old = IB.CreateLoad(I64, At);
    Value *Now = IB.CreateLoad(I64, Code.Slots[I]);
    IB.CreateStore(P.Counters[I].Maximum
                       ? IB.CreateBinaryIntrinsic(Intrinsic::umax, Old, Now)
                       : IB.CreateAdd(Old, Now),
                   At);
  }
}

HostLowering HostLowerer::run() {
  Type *I64 = Type::getInt64Ty(F.getContext());
  BasicBlock &Entry = F.getEntryBlock();
  // The block's address once, between the slots and the counts at entry.
  IRBuilder<> B(Code.SlotsEnd ? Code.SlotsEnd->getNextNode()
                              : &*Entry.getFirstInsertionPt());
  createBlock();
  Block = B.CreateThreadLocalAddress(Out.TLS);
  Instruction *AfterPrelude = Code.AfterPrelude;

  // A kept function's untimed form (KeptCalls.h) has no clock at all: its
  // timed calls go to the timed form.
  bool Timed = !In.KeepFor || !In.KeepFor->Untimed;
  Value *Start = ConstantInt::get(I64, 0);
  if (Timed) {
    Start = emitCallStart(AfterPrelude);
    emitLoopTimers(Start);
  }
  // At every return: add the call into this thread's block (registering
  // the block with the runtime on the thread's first call), and its time.
  std::vector<ReturnInst *> Returns;
  for (BasicBlock &BB : F)
    if (auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator()))
      Returns.push_back(Ret);
  std::vector<bool> AddedEarly;
  if (In.KeepFor)
    AddedEarly =
        addKeptCountersWhereCounted(F, *In.KeepFor, P.Counters);
  for (ReturnInst *Ret : Returns) {
    if (In.KeepFor) {
      if (Timed)
        addCallTime(Ret, Start);
      flushKeptCounters(Ret, *In.KeepFor, P.Counters, Code.Slots, AddedEarly);
      continue;
    }
    flushAt(Ret);
    addCallTime(Ret, Start);
  }

  // Its calls of kept functions (KeptCalls.h), which move the count
  // operations of their callee's growth to the loops' exits; then every
  // count operation as an add to its counter's slot.
  if (In.KeptCallees)
    Out.Replaced = keepCallsIn(F, *In.KeptCallees, Code.GrowthReads);
  lowerCountOperations(F, Code.Slots);
  promoteCounters(F, Code);
  return Out;
}

HostLowering lowerForHost(Function &F, const PlacedCounters &P,
                          const CounterCode &Code,
                          const HostLoweringInputs &In) {
  return HostLowerer(F, P, Code, In).run();
}

CalleeCounts::Block blockOf(const CountLayout &Layout, const HostLowering &H,
                            GlobalVariable *Desc) {
  CalleeCounts::Block B{H.TLS, H.BlockType, Desc, {}};
  for (const CostEntry &C : Layout.Costs)
    if (C.Innermost && C.Slot != footprintSlot(Access::Load) &&
        C.Slot != footprintSlot(Access::Store))
      B.Costs.push_back({C.Counter, C.Slot, C.PerUnit});
  return B;
}

} // namespace roofline
