//===- FunctionInstrumenter.cpp - One function's counters -----------------===//
//
// Placement (collect: which counters, and what each costs) and the host
// lowering (run: counters in registers flushed into a thread_local block at
// each return). Loop nests are in LoopNests.cpp, footprint counters in
// FootprintCounters.cpp, the device lowering in DeviceLowering.cpp.
//
//===----------------------------------------------------------------------===//
#include "FunctionInstrumenter.h"
#include "ArgumentTrace.h"
#include "FormulaCode.h"
#include "RuntimeNames.h"

#include "roofline/Runtime/CostKinds.h"

#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

using namespace llvm;

namespace roofline {

/// \p C's formula with \p Args, or 0 where one of its conditions fails;
/// \p Holds: whether they all hold (an i1).
/// (\p Holds, when set, is the conditions' test already made at \p B for
/// the same values: the read and written counters share one.)
static Value *conditionalCount(IRBuilder<> &B, const Counter &C,
                               const std::map<std::string, Value *> &Args,
                               Value *&Holds) {
  Value *Zero = ConstantInt::get(B.getInt64Ty(), 0);
  if (!Holds) {
    Holds = B.getTrue();
    std::set<std::string> Seen; // the kernel's and the footprint's overlap
    for (const Condition &Test : C.Conditions) {
      if (!Seen.insert(Test.str()).second)
        continue;
      Value *H = emitCondition(B, Test, Args);
      Holds = B.CreateAnd(Holds, H ? H : B.getFalse());
    }
  }
  Value *N = emitCount(B, *C.Formula, Args);
  return N ? B.CreateSelect(Holds, N, Zero) : Zero;
}

bool FunctionInstrumenter::canHoist(Loop *L) const {
  // One exit, at the latch, with a trip count computable on entry.
  if (!L->getLoopPreheader() || !L->getLoopLatch() ||
      L->getExitingBlock() != L->getLoopLatch())
    return false;
  const SCEV *BTC = SE.getBackedgeTakenCount(L);
  if (isa<SCEVCouldNotCompute>(BTC) || !BTC->getType()->isIntegerTy())
    return false;
  // The counters are 64-bit: a wider trip count (an __int128 IV, or the i128
  // ScalarEvolution uses for `j <= n` exits) is hoisted only when its
  // constant maximum fits, so truncating it loses nothing.
  if (SE.getTypeSizeInBits(BTC->getType()) > 64) {
    const SCEV *Max = SE.getConstantMaxBackedgeTakenCount(L);
    if (isa<SCEVCouldNotCompute>(Max) ||
        !SE.getUnsignedRangeMax(Max).isIntN(63))
      return false;
  }
  SCEVExpander Probe(SE, "roofline.probe");
  return Probe.isSafeToExpand(BTC) &&
         Probe.isSafeToExpandAt(BTC, L->getLoopPreheader()->getTerminator());
}

bool FunctionInstrumenter::everyIterationRuns(Loop *L, BasicBlock *BB) const {
  return DT.dominates(BB, L->getLoopLatch());
}

const SourceFunction *
FunctionInstrumenter::sourceOf(const BasicBlock &BB) const {
  // Hoisted and merged instructions often lose their location; the block's
  // branch (or its first located instruction) says whose code it is.
  if (const DILocation *DL = BB.getTerminator()->getDebugLoc().get())
    return Sources->sourceOf(DL, F);
  for (const Instruction &I : BB)
    if (const DILocation *DL = I.getDebugLoc().get())
      return Sources->sourceOf(DL, F);
  return nullptr;
}

uint32_t FunctionInstrumenter::siteOf(const Instruction &I) const {
  const SourceFunction *Src = sourceOf(I);
  uint32_t P = 0;
  for (uint32_t K = 1; K < Parts.size(); ++K)
    if (Parts[K].Source == Src)
      P = K;
  return P << 16 | nestOf(I.getParent(), P);
}

const SourceFunction *
FunctionInstrumenter::sourceOf(const Instruction &I) const {
  if (!Sources || Sources->empty())
    return nullptr;
  if (const DILocation *DL = I.getDebugLoc().get())
    return Sources->sourceOf(DL, F);
  return sourceOf(*I.getParent());
}

uint32_t FunctionInstrumenter::partOf(const SourceFunction *S) {
  if (!S || S->Subprogram == F.getSubprogram())
    return 0;
  for (uint32_t P = 1; P < Parts.size(); ++P)
    if (Parts[P].Source == S)
      return P;
  Parts.push_back({S, -1, ROOFLINE_PART_INLINED});
  return Parts.size() - 1;
}

uint32_t FunctionInstrumenter::nestOf(const BasicBlock *BB, uint32_t P) const {
  for (const Loop *L = LI.getLoopFor(BB); L; L = L->getParentLoop()) {
    auto It = NestIndex.find(L);
    if (It != NestIndex.end() && Nests[It->second - 1].Part == P)
      return It->second;
  }
  return 0;
}

std::vector<std::pair<uint32_t, uint32_t>>
FunctionInstrumenter::partsOf(const Instruction &I) {
  std::vector<std::pair<uint32_t, uint32_t>> Out;
  const BasicBlock *BB = I.getParent();
  if (Sources && !Sources->empty()) {
    // As sourceOf: the instruction's location, else its block's.
    const DILocation *DL = I.getDebugLoc().get();
    if (!DL)
      DL = BB->getTerminator()->getDebugLoc().get();
    for (auto It = BB->begin(); !DL && It != BB->end(); ++It)
      DL = It->getDebugLoc().get();
    for (const SourceFunction *S : Sources->sourcesOf(DL, F)) {
      uint32_t P = partOf(S);
      if (P && llvm::none_of(Out, [&](auto &W) { return W.first == P; }))
        Out.push_back({P, nestOf(BB, P)});
    }
  }
  // The function's own record includes the inlined code (inclusive counts).
  if (RecordSelf)
    Out.push_back({0, nestOf(BB, 0)});
  return Out;
}

bool FunctionInstrumenter::addCallGrowth(
    CallBase &CB, const std::vector<std::pair<uint32_t, uint32_t>> &Where) {
  // After an invoke, the growth is read at its normal destination, which
  // must be reached from the invoke alone.
  if (auto *Inv = dyn_cast<InvokeInst>(&CB);
      Inv && !Inv->getNormalDest()->getSinglePredecessor()) {
    for (auto [P, N] : Where)
      Uncounted[P].insert(demangle(CB.getCalledFunction()->getName().str()));
    return false;
  }
  for (const CalleeCounts::Block *B : Callees->measured(CB)) {
    std::map<uint32_t, uint32_t> CounterOf;
    for (const CalleeCounts::Block::Cost &C : B->Costs) {
      auto [It, New] = CounterOf.try_emplace(C.Counter, 0);
      if (New) {
        Counter G;
        G.Block = CB.getParent();
        G.At = &CB;
        G.GrowthOf = B;
        G.GrowthCounter = C.Counter;
        It->second = newCounter(G);
      }
      for (size_t K = 0; K < Where.size(); ++K)
        Costs.push_back({It->second, C.Slot, C.PerUnit, Where[K].first,
                         Where[K].second, K == 0});
    }
  }
  return true;
}

CalleeCounts::Block FunctionInstrumenter::block() const {
  CalleeCounts::Block B{TLSBlock, BlockType, Descriptor, {}};
  for (const CostEntry &C : Costs)
    if (C.Innermost && C.Slot != footprintSlot(Access::Load) &&
        C.Slot != footprintSlot(Access::Store))
      B.Costs.push_back({C.Counter, C.Slot, C.PerUnit});
  return B;
}

uint32_t FunctionInstrumenter::blockCounter(BasicBlock &BB) {
  // Blocks that run exactly once per iteration of their loop share one
  // counter (fewer registers live across the loop): the loop's.
  Loop *L = LI.getLoopFor(&BB);
  bool PerIteration = L && L->getLoopLatch() &&
                      L->getExitingBlock() == L->getLoopLatch() &&
                      everyIterationRuns(L, &BB);
  auto Shared = PerIteration ? IterationCounter.find(L) : IterationCounter.end();
  if (Shared != IterationCounter.end())
    return Shared->second;
  Counter C;
  C.Block = &BB;
  if (PerIteration && canHoist(L))
    C.HoistTo = L;
  uint32_t Id = newCounter(C);
  if (PerIteration)
    IterationCounter[L] = Id;
  return Id;
}

void FunctionInstrumenter::addEntryMarkers() {
  // Entries into inlined bodies: one at each of their markers (copies of a
  // marker, where the optimiser duplicated or vectorised the code, count
  // each).
  if (Sources && !Sources->empty())
    for (Instruction &I : instructions(F))
      if (const SourceFunction *S = Sources->markerOf(I)) {
        auto It =
            llvm::find_if(Parts, [&](const Part &P) { return P.Source == S; });
        if (It == Parts.end())
          continue; // none of its code is left here
        if (It->Entries < 0) {
          Counter C;
          C.Block = I.getParent();
          It->Entries = newCounter(C);
        }
        Counters[It->Entries].Markers.push_back(&I);
      }
}

bool FunctionInstrumenter::collect(bool Host) {
  findNests(/*Measure=*/Host);

  // Collect: one counter per block with a cost, one per variable transfer.
  // Keyed (counter, slot, part, nest, innermost).
  std::map<std::tuple<uint32_t, uint32_t, uint32_t, uint32_t, bool>, uint64_t>
      BlockCosts;
  bool OwnWork = false;
  for (BasicBlock &BB : F) {
    // Per (part, nest, innermost): the block's fixed costs.
    std::map<std::tuple<uint32_t, uint32_t, bool>, CostVector> Fixed;
    for (Instruction &I : BB) {
      OpCost C = CM.costOf(I);
      auto *CB = dyn_cast<CallBase>(&I);
      bool CountsCalls = CB && Callees && Host;
      if (CountsCalls)
        if (const CostVector *Call = Callees->fixedCost(*CB))
          C.Fixed += *Call;
      bool Any = !C.Variable.empty();
      for (unsigned S = 0; S < NumSlots && !Any; ++S)
        Any = C.Fixed.Slots[S] != 0;
      bool Measured = CountsCalls && !Callees->measured(*CB).empty();
      if (CountsCalls && !Measured)
        if (std::string Name = Callees->uncounted(*CB); !Name.empty())
          for (auto [P, N] : partsOf(I))
            Uncounted[P].insert(Name);
      if (!Any && !Measured)
        continue;
      // The function's own code when it is not a kernel has no part.
      std::vector<std::pair<uint32_t, uint32_t>> Where = partsOf(I);
      if (Where.empty())
        continue;
      OwnWork |= Where.front().first == 0;
      bool Counted = Measured ? addCallGrowth(*CB, Where)
                              : CountsCalls && Callees->fixedCost(*CB);
      if (Counted && tracedCopiesEnabled())
        CallSites.push_back({CB, siteOf(I), !Measured});
      for (size_t K = 0; K < Where.size(); ++K) {
        auto [P, N] = Where[K];
        Fixed[{P, N, K == 0}] += C.Fixed;
      }
      for (const VariableBytes &VB : C.Variable) {
        Counter VC;
        VC.Block = &BB;
        VC.Length = VB.Length;
        VC.At = &I;
        uint32_t Id = newCounter(VC);
        for (unsigned S : VB.Slots)
          for (size_t K = 0; K < Where.size(); ++K)
            Costs.push_back(
                {Id, S, 1, Where[K].first, Where[K].second, K == 0});
      }
    }
    bool Any = false;
    for (const auto &[Key, CV] : Fixed)
      for (unsigned S = 0; S < NumSlots; ++S)
        Any |= CV.Slots[S] != 0;
    if (!Any)
      continue;
    uint32_t Id = blockCounter(BB);
    for (const auto &[Key, CV] : Fixed)
      for (unsigned S = 0; S < NumSlots; ++S)
        if (CV.Slots[S])
          BlockCosts[{Id, S, std::get<0>(Key), std::get<1>(Key),
                      std::get<2>(Key)}] += uint64_t(CV.Slots[S]);
  }
  for (const auto &[Key, N] : BlockCosts) {
    auto [Id, S, P, Nst, Innermost] = Key;
    Costs.push_back({Id, S, N, P, Nst, Innermost});
  }
  // Every access's part and nest, for the traced copy (an access of a
  // source function with nothing counted here counts for the function).
  if (Host && tracedCopiesEnabled())
    for (BasicBlock &BB : F)
      for (Instruction &I : BB)
        if (isTracedAccess(I))
          AccessSites.push_back({&I, siteOf(I)});
  addEntryMarkers();
  if (Carried)
    for (uint32_t P = 1; P < Parts.size(); ++P)
      addInlinedFootprint(P);
  addOwnFootprint();
  // The function's own record: a kernel's, unless it holds inlined kernels
  // and has no work of its own; a helper's, counted for its callers, is
  // hidden.
  if (!RecordSelf || Helper || (Parts.size() > 1 && !OwnWork))
    Parts[0].Kind = ROOFLINE_PART_HIDDEN;
  if (Parts[0].Kind == ROOFLINE_PART_HIDDEN && Parts.size() == 1 && !Helper)
    return false;
  return !Counters.empty();
}

void FunctionInstrumenter::createSlots(IRBuilder<> &B) {
  Type *I64 = B.getInt64Ty();
  for (size_t I = 0; I < Counters.size(); ++I)
    Slots.push_back(B.CreateAlloca(I64, nullptr, "roofline.counter"));
  for (AllocaInst *A : Slots)
    B.CreateStore(ConstantInt::get(I64, 0), A);
}

/// Adds \p N to the counter in \p A.
static void addTo(IRBuilder<> &IB, AllocaInst *A, Value *N) {
  Type *I64 = IB.getInt64Ty();
  IB.CreateStore(IB.CreateAdd(IB.CreateLoad(I64, A), N), A);
}

/// A parallel region's body's blocks summed over all threads, before the
/// fork and grown by the join (runtime/Counters.cpp); once per fork.
class ParallelRegions {
public:
  struct Totals {
    Value *Whole;       ///< the runtime could sum them (the outermost region)
    AllocaInst *Totals; ///< then, per counter, the growth
    Instruction *End;   ///< the growth is read after it
  };
  explicit ParallelRegions(Function &F) : F(F) {}
  /// The totals of the region \p CB forks (body \p B), its join after
  /// \p After.
  Totals &of(CallBase *CB, Instruction *After, const CalleeCounts::Block *B) {
    auto [It, New] = Regions.try_emplace({CB, B});
    if (!New)
      return It->second;
    Module &M = *F.getParent();
    LLVMContext &Ctx = F.getContext();
    PointerType *Ptr = PointerType::getUnqual(Ctx);
    Type *I32 = Type::getInt32Ty(Ctx), *I64 = Type::getInt64Ty(Ctx);
    uint64_t N = B->Type->getNumElements() - ROOFLINE_BLOCK_COUNTERS;
    AllocaInst *Totals = IRBuilder<>(&*F.getEntryBlock().begin())
                             .CreateAlloca(ArrayType::get(I64, N), nullptr,
                                           "roofline.region.totals");
    FunctionCallee Begin = M.getOrInsertFunction(RegionBeginFn, I32, Ptr, Ptr);
    FunctionCallee End =
        M.getOrInsertFunction(RegionEndFn, Type::getVoidTy(Ctx), Ptr, Ptr, I32);
    IRBuilder<> IB(CB);
    Value *Whole = IB.CreateCall(Begin, {B->Desc, Totals});
    Value *IsWhole = IB.CreateICmpNE(Whole, ConstantInt::get(I32, 0));
    Instruction *Ended =
        IRBuilder<>(After).CreateCall(End, {B->Desc, Totals, Whole});
    It->second = {IsWhole, Totals, Ended};
    return It->second;
  }

private:
  Function &F;
  std::map<std::pair<CallBase *, const CalleeCounts::Block *>, Totals> Regions;
};

void FunctionInstrumenter::addCallGrowth(size_t I, ParallelRegions &Regions) {
  // The callee's counter before and after the call: its growth is the
  // call's work (an invoke's, at its normal destination).
  Counter &C = Counters[I];
  Type *I64 = Type::getInt64Ty(F.getContext());
  auto *CB = cast<CallBase>(C.At);
  IRBuilder<> IB(CB);
  Value *Block = IB.CreateThreadLocalAddress(C.GrowthOf->TLS);
  Value *P = IB.CreateConstGEP2_64(C.GrowthOf->Type, Block, 0,
                                   ROOFLINE_BLOCK_COUNTERS + C.GrowthCounter);
  LoadInst *Before = IB.CreateLoad(I64, P, "roofline.callee.before");
  Instruction *After = CB->getNextNode();
  if (auto *Inv = dyn_cast<InvokeInst>(CB))
    After = &*Inv->getNormalDest()->getFirstInsertionPt();
  // A parallel region's: over all threads, unless it is nested in
  // another (then it runs on this thread alone: its own block's growth).
  ParallelRegions::Totals *R = CalleeCounts::forkedBody(*CB)
                                   ? &Regions.of(CB, After, C.GrowthOf)
                                   : nullptr;
  if (R)
    After = R->End->getNextNode();
  IRBuilder<> AB(After);
  LoadInst *AfterLoad = AB.CreateLoad(I64, P, "roofline.callee.after");
  Value *Growth = AB.CreateSub(AfterLoad, Before);
  // A kept call (KeptCalls.h) returns the growth instead.
  if (!R)
    GrowthReads.push_back({CB, C.GrowthCounter, Before, AfterLoad,
                           cast<Instruction>(Growth), Slots[I]});
  if (R) {
    Value *All = AB.CreateLoad(
        I64, AB.CreateConstGEP2_64(R->Totals->getAllocatedType(), R->Totals, 0,
                                   C.GrowthCounter));
    Growth = AB.CreateSelect(R->Whole, All, Growth, "roofline.region.growth");
  }
  addTo(AB, Slots[I], Growth);
}

void FunctionInstrumenter::recordNestExtremes(
    const std::map<Loop *, Value *> &TripAt) {
  Type *I64 = Type::getInt64Ty(F.getContext());
  for (const Nest &N : Nests) {
    if (N.Most < 0)
      continue;
    auto Record = [&](IRBuilder<> &IB, Value *Trip) {
      auto Max = [&](int S, Value *V) {
        Value *Old = IB.CreateLoad(I64, Slots[S]);
        IB.CreateStore(IB.CreateBinaryIntrinsic(Intrinsic::umax, Old, V),
                       Slots[S]);
      };
      Max(N.Most, Trip);
      Max(N.Fewest, IB.CreateNot(Trip));
    };
    Instruction *OnEntry = N.L->getLoopPreheader()->getTerminator();
    if (Loop *H = Counters[N.Iterations].HoistTo) {
      IRBuilder<> IB(OnEntry);
      Record(IB, TripAt.at(H));
      continue;
    }
    AllocaInst *Before =
        IRBuilder<>(&*F.getEntryBlock().begin())
            .CreateAlloca(I64, nullptr, "roofline.iterations.before");
    Scratch.push_back(Before);
    IRBuilder<> PB(OnEntry);
    PB.CreateStore(PB.CreateLoad(I64, Slots[N.Iterations]), Before);
    SmallVector<BasicBlock *, 4> Exits;
    N.L->getUniqueExitBlocks(Exits);
    for (BasicBlock *E : Exits) {
      IRBuilder<> EB(&*E->getFirstInsertionPt());
      Record(EB, EB.CreateSub(EB.CreateLoad(I64, Slots[N.Iterations]),
                              EB.CreateLoad(I64, Before)));
    }
  }
}

void FunctionInstrumenter::addIncrements(Instruction *AfterPrelude) {
  Type *I64 = Type::getInt64Ty(F.getContext());
  BasicBlock &Entry = F.getEntryBlock();
  std::map<Loop *, Value *> TripAt; // expanded once per preheader
  ParallelRegions Regions(F);
  // A footprint's assumptions, tested once per entry (read and written
  // share them; keyed by the point and the assumptions' text).
  std::map<std::pair<Instruction *, std::string>, Value *> HoldsAt;
  auto Joined = [](const std::vector<Condition> &V) {
    std::string J;
    for (const Condition &T : V)
      J += T.str() + "\n";
    return J;
  };
  for (size_t I = 0; I < Counters.size(); ++I) {
    Counter &C = Counters[I];
    if (C.Timer || C.Counted)
      continue; // the loop timers (the footprint's code) add to it
    if (!C.Markers.empty()) {
      for (Instruction *At : C.Markers) {
        IRBuilder<> IB(At);
        addTo(IB, Slots[I], ConstantInt::get(I64, 1));
      }
    } else if (C.Formula && !C.FormulaSites.empty()) {
      for (auto &[At, Records] : C.FormulaSites) {
        IRBuilder<> IB(At);
        std::map<std::string, Value *> Args;
        for (auto &[Name, R] : Records)
          if (Value *V = InlinedFunctions::argumentValue(IB, *R))
            Args[Name] = V;
        Value *&Holds = HoldsAt[{At, Joined(C.Conditions)}];
        addTo(IB, Slots[I], conditionalCount(IB, C, Args, Holds));
        if (C.Broken >= 0)
          addTo(IB, Slots[C.Broken], IB.CreateZExt(IB.CreateNot(Holds), I64));
      }
    } else if (C.Formula) {
      IRBuilder<> IB(AfterPrelude);
      Value *&Holds = HoldsAt[{AfterPrelude, Joined(C.Conditions)}];
      addTo(IB, Slots[I], conditionalCount(IB, C, ArgByName, Holds));
      if (C.Broken >= 0)
        addTo(IB, Slots[C.Broken], IB.CreateZExt(IB.CreateNot(Holds), I64));
    } else if (C.GrowthOf) {
      addCallGrowth(I, Regions);
    } else if (C.Length) {
      IRBuilder<> IB(C.At);
      Value *Len = IB.CreateZExtOrTrunc(const_cast<Value *>(C.Length), I64);
      addTo(IB, Slots[I], Len);
    } else if (C.HoistTo) {
      BasicBlock *Pre = C.HoistTo->getLoopPreheader();
      Value *&Trip = TripAt[C.HoistTo];
      if (!Trip) {
        SCEVExpander Exp(SE, "roofline.trip");
        const SCEV *BTC = SE.getBackedgeTakenCount(C.HoistTo);
        const SCEV *T =
            SE.getAddExpr(SE.getTruncateOrZeroExtend(BTC, I64), SE.getOne(I64));
        Trip = Exp.expandCodeFor(T, I64, Pre->getTerminator());
      }
      IRBuilder<> IB(Pre->getTerminator());
      addTo(IB, Slots[I], Trip);
    } else {
      // In the entry block, after the allocas the counters are.
      IRBuilder<> IB(C.Block == &Entry ? AfterPrelude
                                       : &*C.Block->getFirstInsertionPt());
      addTo(IB, Slots[I], ConstantInt::get(I64, 1));
    }
  }
  // Each entry's iterations into its nest's fewest and most: the trip count
  // hoisted on entry, or the iteration counter's growth at the exit.
  recordNestExtremes(TripAt);
}

Value *timedCall(IRBuilder<> &B, Value *CallsSoFar) {
  Type *I64 = B.getInt64Ty();
  return B.CreateOr(
      B.CreateICmpULT(CallsSoFar,
                      ConstantInt::get(I64, ROOFLINE_TIME_ALL_CALLS)),
      B.CreateICmpEQ(
          B.CreateAnd(CallsSoFar,
                      ConstantInt::get(I64, ROOFLINE_TIME_SAMPLE_MASK)),
          ConstantInt::get(I64, 0)),
      "roofline.timed");
}

Value *FunctionInstrumenter::emitCallStart(Instruction *At, Value *Block,
                                           ArrayType *BlockTy) {
  // Time every call at first, then one call in 64: a short function called
  // millions of times is not slowed down by reading the clock. A kept
  // function's calling loop passes the thread's calls so far (the block's
  // count lags behind until the loop exits).
  IRBuilder<> B(At);
  Type *I64 = B.getInt64Ty();
  Value *CallsSoFar =
      KeepFor ? static_cast<Value *>(F.getArg(F.arg_size() - 1))
              : B.CreateLoad(I64, B.CreateConstGEP2_64(BlockTy, Block, 0,
                                                       ROOFLINE_BLOCK_CALLS));
  Value *Timed = timedCall(B, CallsSoFar);
  Function *Cycles = Intrinsic::getOrInsertDeclaration(
      F.getParent(), Intrinsic::readcyclecounter);
  Instruction *ThenTerm = SplitBlockAndInsertIfThen(Timed, At, false);
  IRBuilder<> TB(ThenTerm);
  CallInst *Clock = TB.CreateCall(Cycles, {}, "roofline.clock");
  if (KeepFor)
    KeepFor->TimedStart = Clock;
  IRBuilder<> JB(At);
  PHINode *Start = JB.CreatePHI(I64, 2, "roofline.start");
  Start->addIncoming(Clock, ThenTerm->getParent());
  Start->addIncoming(ConstantInt::get(I64, 0),
                     ThenTerm->getParent()->getSinglePredecessor());
  return Start;
}

bool FunctionInstrumenter::run(GlobalVariable *Desc) {
  if (!collect(/*Host=*/true))
    return false;
  if (WantKinds || KeepFor)
    classifyCounters();
  LLVMContext &Ctx = F.getContext();
  Module &M = *F.getParent();
  Type *I64 = Type::getInt64Ty(Ctx);
  BasicBlock &Entry = F.getEntryBlock();
  IRBuilder<> B(&Entry, Entry.getFirstInsertionPt());
  createSlots(B);

  // This thread's block: [calls, ticks, timed calls, counters...].
  ArrayType *BlockTy =
      ArrayType::get(I64, ROOFLINE_BLOCK_COUNTERS + Counters.size());
  bool SharedObject = M.getPICLevel() != PICLevel::NotPIC &&
                      M.getPIELevel() == PIELevel::Default;
  // A kept function's timers add to its original's block.
  GlobalVariable *TLS =
      KeepFor ? KeepFor->TLS
              : new GlobalVariable(M, BlockTy, /*isConstant=*/false,
                                   GlobalValue::InternalLinkage,
                                   ConstantAggregateZero::get(BlockTy),
                                   "__roofline_tls_" + F.getName(), nullptr,
                                   SharedObject
                                       ? GlobalValue::GeneralDynamicTLSModel
                                       : GlobalValue::InitialExecTLSModel);
  if (KeepFor)
    BlockTy = KeepFor->BlockType;
  TLSBlock = TLS;
  BlockType = BlockTy;
  Descriptor = Desc;
  Value *Block = B.CreateThreadLocalAddress(TLS);
  Instruction *AfterPrelude = &*B.GetInsertPoint();
  auto Field = [&](IRBuilder<> &IB, unsigned I) {
    return IB.CreateConstGEP2_64(BlockTy, Block, 0, I);
  };
  addIncrements(AfterPrelude);

  // (The CFG changes only now, after ScalarEvolution has expanded the trip
  // counts.)
  Function *Cycles =
      Intrinsic::getOrInsertDeclaration(&M, Intrinsic::readcyclecounter);
  // A kept function's untimed form (KeptCalls.h) has no clock at all: its
  // timed calls go to the timed form.
  Value *Start = ConstantInt::get(I64, 0);
  if (!KeepFor || !KeepFor->Untimed)
    Start = emitCallStart(AfterPrelude, Block, BlockTy);
  if (!KeepFor || !KeepFor->Untimed)
    emitLoopTimers(Block, BlockTy, Start);

  // At every return: add the call into this thread's block (registering
  // the block with the runtime on the thread's first call).
  FunctionCallee RegisterThread = M.getOrInsertFunction(
      RegisterThreadFn, Type::getVoidTy(Ctx), PointerType::getUnqual(Ctx),
      PointerType::getUnqual(Ctx));
  std::vector<ReturnInst *> Returns;
  for (BasicBlock &BB : F)
    if (auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator()))
      Returns.push_back(Ret);
  // A timed call's ticks, added before \p Ret.
  auto CallTime = [&](ReturnInst *Ret) {
    IRBuilder<> IB(Ret);
    Instruction *TimedTerm = SplitBlockAndInsertIfThen(
        IB.CreateICmpNE(Start, ConstantInt::get(I64, 0)), Ret, false);
    IRBuilder<> TI(TimedTerm);
    Value *Elapsed = TI.CreateSub(TI.CreateCall(Cycles, {}), Start);
    Value *TicksP = Field(TI, ROOFLINE_BLOCK_TICKS);
    TI.CreateStore(TI.CreateAdd(TI.CreateLoad(I64, TicksP), Elapsed), TicksP);
    Value *TimedP = Field(TI, ROOFLINE_BLOCK_TIMED);
    TI.CreateStore(
        TI.CreateAdd(TI.CreateLoad(I64, TimedP), ConstantInt::get(I64, 1)),
        TimedP);
  };
  for (ReturnInst *Ret : Returns) {
    IRBuilder<> IB(Ret);
    if (KeepFor) {
      if (!KeepFor->Untimed)
        CallTime(Ret);
      lowerKeptReturn(Ret);
      continue;
    }
    Value *Calls = IB.CreateLoad(I64, Field(IB, ROOFLINE_BLOCK_CALLS));
    Instruction *First = SplitBlockAndInsertIfThen(
        IB.CreateICmpEQ(Calls, ConstantInt::get(I64, 0)), Ret, false);
    IRBuilder<>(First).CreateCall(RegisterThread, {Desc, Block});
    IB.SetInsertPoint(Ret);
    IB.CreateStore(IB.CreateAdd(Calls, ConstantInt::get(I64, 1)),
                   Field(IB, ROOFLINE_BLOCK_CALLS));
    for (size_t I = 0; I < Slots.size(); ++I) {
      if (Counters[I].Timer)
        continue; // the loop timers add to the block themselves
      Value *P = Field(IB, ROOFLINE_BLOCK_COUNTERS + I);
      Value *Old = IB.CreateLoad(I64, P), *Now = IB.CreateLoad(I64, Slots[I]);
      IB.CreateStore(Counters[I].Maximum
                         ? IB.CreateBinaryIntrinsic(Intrinsic::umax, Old, Now)
                         : IB.CreateAdd(Old, Now),
                     P);
    }
    CallTime(Ret);
  }

  if (RecordSelf && !Helper && !KeepFor)
    emitArgumentTrace(F, Desc);
  // Its calls of kept functions (KeptCalls.h), while its counters are still
  // stack slots that the growth of a loop's calls can be added to.
  if (KeptCallees)
    replaceCalls(keepCallsIn(F, *KeptCallees, GrowthReads));
  // Counters in registers.
  DominatorTree FreshDT(F);
  std::vector<AllocaInst *> Promoted = Slots;
  Promoted.insert(Promoted.end(), Scratch.begin(), Scratch.end());
  PromoteMemToReg(Promoted, FreshDT);
  return true;
}

CountLayout FunctionInstrumenter::layout() const {
  return {Costs, Parts, Nests, Counters.size(), FootprintBroken, Uncounted};
}

} // namespace roofline
