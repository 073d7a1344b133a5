//===- CounterCode.cpp - The code that adds to the counters ---------------===//
//
// Shared by the host and device lowerings (CounterCode.h).
//
//===----------------------------------------------------------------------===//
#include "CounterCode.h"
#include "CountOperations.h"
#include "FormulaCode.h"
#include "RuntimeNames.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

#include <set>

using namespace llvm;

namespace roofline {

CounterCode createCounterSlots(IRBuilder<> &B, size_t NumCounters) {
  CounterCode Code;
  Type *I64 = B.getInt64Ty();
  for (size_t I = 0; I < NumCounters; ++I)
    Code.Slots.push_back(B.CreateAlloca(I64, nullptr, "roofline.counter"));
  for (AllocaInst *A : Code.Slots)
    B.CreateStore(ConstantInt::get(I64, 0), A);
  return Code;
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

namespace {
/// The increments of one function's counters.
class Increments {
public:
  Increments(Function &F, ScalarEvolution &SE, const PlacedCounters &P,
             CounterCode &Code)
      : F(F), SE(SE), P(P), Code(Code), Regions(F) {}
  void run(Instruction *AfterPrelude);

private:
  /// Counter \p I: the callee's counter's growth over its call (summed
  /// over a parallel region's threads where the runtime can).
  void addCallGrowth(size_t I);
  /// Counter \p I, of kind Formula: its value once per call (after the
  /// prelude), or at each of its sites with the values they have there;
  /// an entry that breaks its assumptions adds 0, and 1 to its Broken.
  void addFormula(size_t I, const Counter &C);
  /// Each measured nest's fewest and most iterations an entry: the trip
  /// hoisted on entry, or the iteration counter's growth.
  void recordNestExtremes();

  Function &F;
  ScalarEvolution &SE;
  const PlacedCounters &P;
  CounterCode &Code;
  Instruction *AfterPrelude = nullptr;
  std::map<Loop *, Value *> TripAt; // expanded once per preheader
  /// A footprint's assumptions, tested once per entry (read and written
  /// share them; keyed by the point and the assumptions' text).
  std::map<std::pair<Instruction *, std::string>, Value *> HoldsAt;
  ParallelRegions Regions;
};
} // namespace

void Increments::addCallGrowth(size_t I) {
  // The callee's counter before and after the call: its growth is the
  // call's work (an invoke's, at its normal destination).
  const Counter &C = P.Counters[I];
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
    Code.GrowthReads.push_back({CB, C.GrowthCounter, Before, AfterLoad,
                                cast<Instruction>(Growth), uint32_t(I)});
  if (R) {
    Value *All = AB.CreateLoad(
        I64, AB.CreateConstGEP2_64(R->Totals->getAllocatedType(), R->Totals, 0,
                                   C.GrowthCounter));
    Growth = AB.CreateSelect(R->Whole, All, Growth, "roofline.region.growth");
  }
  emitCount(AB, I, Growth);
}

void Increments::recordNestExtremes() {
  Type *I64 = Type::getInt64Ty(F.getContext());
  for (const Nest &N : P.Layout.Nests) {
    if (N.Most < 0)
      continue;
    auto Record = [&](IRBuilder<> &IB, Value *Trip) {
      emitCountMax(IB, N.Most, Trip);
      emitCountMax(IB, N.Fewest, IB.CreateNot(Trip));
    };
    Instruction *OnEntry = N.L->getLoopPreheader()->getTerminator();
    if (Loop *H = P.Counters[N.Iterations].HoistTo) {
      IRBuilder<> IB(OnEntry);
      Record(IB, TripAt.at(H));
      continue;
    }
    AllocaInst *Before =
        IRBuilder<>(&*F.getEntryBlock().begin())
            .CreateAlloca(I64, nullptr, "roofline.iterations.before");
    Code.Scratch.push_back(Before);
    IRBuilder<> PB(OnEntry);
    PB.CreateStore(PB.CreateLoad(I64, Code.Slots[N.Iterations]), Before);
    SmallVector<BasicBlock *, 4> Exits;
    N.L->getUniqueExitBlocks(Exits);
    for (BasicBlock *E : Exits) {
      IRBuilder<> EB(&*E->getFirstInsertionPt());
      Record(EB, EB.CreateSub(EB.CreateLoad(I64, Code.Slots[N.Iterations]),
                              EB.CreateLoad(I64, Before)));
    }
  }
}

static std::string joined(const std::vector<Condition> &V) {
  std::string J;
  for (const Condition &T : V)
    J += T.str() + "\n";
  return J;
}

void Increments::addFormula(size_t I, const Counter &C) {
  Type *I64 = Type::getInt64Ty(F.getContext());
  if (C.FormulaSites.empty()) {
    IRBuilder<> IB(AfterPrelude);
    Value *&Holds = HoldsAt[{AfterPrelude, joined(C.Conditions)}];
    emitCount(IB, I,
              emitConditionalCount(IB, *C.Formula, C.Conditions, P.Arguments,
                                   Holds));
    if (C.Broken >= 0)
      emitCount(IB, C.Broken, IB.CreateZExt(IB.CreateNot(Holds), I64));
    return;
  }
  for (auto &[At, Records] : C.FormulaSites) {
    IRBuilder<> IB(At);
    std::map<std::string, Value *> Args;
    for (auto &[Name, R] : Records)
      if (Value *V = InlinedFunctions::argumentValue(IB, *R))
        Args[Name] = V;
    Value *&Holds = HoldsAt[{At, joined(C.Conditions)}];
    emitCount(IB, I,
              emitConditionalCount(IB, *C.Formula, C.Conditions, Args, Holds));
    if (C.Broken >= 0)
      emitCount(IB, C.Broken, IB.CreateZExt(IB.CreateNot(Holds), I64));
  }
}

void Increments::run(Instruction *Prelude) {
  AfterPrelude = Prelude;
  Type *I64 = Type::getInt64Ty(F.getContext());
  BasicBlock &Entry = F.getEntryBlock();
  for (size_t I = 0; I < P.Counters.size(); ++I) {
    const Counter &C = P.Counters[I];
    switch (C.K) {
    case Counter::Kind::Timer:
    case Counter::Kind::Elsewhere:
      break; // the loop timers (the footprint's code, a nest's exits) add
    case Counter::Kind::Markers:
      for (Instruction *At : C.Markers) {
        IRBuilder<> IB(At);
        emitCount(IB, I, ConstantInt::get(I64, 1));
      }
      break;
    case Counter::Kind::Formula:
      addFormula(I, C);
      break;
    case Counter::Kind::Growth:
      addCallGrowth(I);
      break;
    case Counter::Kind::Transfer: {
      IRBuilder<> IB(C.At);
      Value *Len = IB.CreateZExtOrTrunc(const_cast<Value *>(C.Length), I64);
      emitCount(IB, I, Len);
      break;
    }
    case Counter::Kind::Trip: {
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
      emitCount(IB, I, Trip);
      break;
    }
    case Counter::Kind::Block: {
      // In the entry block, after the allocas the counters are.
      IRBuilder<> IB(C.Block == &Entry ? AfterPrelude
                                       : &*C.Block->getFirstInsertionPt());
      emitCount(IB, I, ConstantInt::get(I64, 1));
      break;
    }
    }
  }
  // Each entry's iterations into its nest's fewest and most: the trip count
  // hoisted on entry, or the iteration counter's growth at the exit.
  recordNestExtremes();
}

CounterCode addCounts(Function &F, ScalarEvolution &SE,
                      const PlacedCounters &P) {
  BasicBlock &Entry = F.getEntryBlock();
  IRBuilder<> B(&Entry, Entry.getFirstInsertionPt());
  CounterCode Code = createCounterSlots(B, P.Counters.size());
  Code.AfterPrelude = &*B.GetInsertPoint();
  Code.SlotsEnd = Code.AfterPrelude->getPrevNode();
  Increments(F, SE, P, Code).run(Code.AfterPrelude);
  return Code;
}

/// Promotion gives each counter a phi at every join its increments reach
/// before the flush: counters x blocks, which grows with the square of a
/// large function (a whole image decoder inlined), in mem2reg and again in
/// the back end. Past this product the counters stay in stack slots.
static cl::opt<unsigned> PromoteLimit(
    "roofline-promote-limit", cl::init(1u << 20), cl::Hidden,
    cl::desc("Largest counters x blocks of a function whose counters are "
             "promoted to registers (beyond it they stay in memory)"));

bool promoteCounters(Function &F, const CounterCode &Code) {
  std::vector<AllocaInst *> Promoted = Code.Slots;
  Promoted.insert(Promoted.end(), Code.Scratch.begin(), Code.Scratch.end());
  uint64_t Size = uint64_t(Promoted.size()) * F.size();
  if (Size > PromoteLimit) {
    F.getContext().diagnose(DiagnosticInfoGeneric(
        "roofline: " + F.getName() + ": " + Twine(Promoted.size()) +
            " counters over " + Twine(F.size()) +
            " blocks stay in memory (counters x blocks over "
            "-roofline-promote-limit=" + Twine(unsigned(PromoteLimit)) +
            "), so that the build's time stays proportional to the "
            "function's: the counts are the same, the run somewhat slower",
        DS_Remark));
    return false;
  }
  DominatorTree FreshDT(F);
  PromoteMemToReg(Promoted, FreshDT);
  return true;
}

} // namespace roofline
