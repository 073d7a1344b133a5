//===- LoopNests.cpp - Each part's loop nests and their counters ----------===//
//
// A part's top-level loop nests, with counters of their entries, iterations
// and (sampled) time, and the fewest and most iterations of one entry: the
// loop rows of a record.
//
//===----------------------------------------------------------------------===//
#include "FunctionInstrumenter.h"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/LoopUtils.h"

#include <numeric>

using namespace llvm;

namespace roofline {

void FunctionInstrumenter::findNests(bool Measure) {
  listNests();
  if (!Measure)
    return;
  countEntriesByMarkers();
  for (Nest &N : Nests)
    addNestCounters(N);
  for (Nest &N : Nests) {
    if (N.Entered != -1)
      continue;
    if (!sharesItsSourceLoop(N))
      N.Entered = N.Entries;
  }
  for (Nest &N : Nests)
    if (N.Entered == -2)
      N.Entered = -1;
  addIterationExtremes();
}

void FunctionInstrumenter::listNests() {
  // A part's top-level nests: its loops that no loop of its own encloses
  // (a kernel inlined into a time-step loop of main has its nests inside
  // main's).
  std::vector<Nest> Found;
  for (Loop *L : LI.getLoopsInPreorder()) {
    DebugLoc Start = L->getStartLoc();
    const SourceFunction *S = !Sources || Sources->empty() ? nullptr
                              : Start ? Sources->sourceOf(Start.get(), F)
                                      : sourceOf(*L->getHeader());
    uint32_t P = S || RecordSelf ? partOf(S) : UINT32_MAX;
    LoopPart[L] = P;
    if (P == UINT32_MAX)
      continue; // the function's own loop, not counted
    bool Top = true;
    for (Loop *A = L->getParentLoop(); A && Top; A = A->getParentLoop())
      Top = LoopPart[A] != P;
    if (Top)
      Found.push_back({L, P, Start ? Start.getLine() : 0, Start.get()});
  }
  // By part, then line; preorder breaks ties.
  std::vector<size_t> Order(Found.size());
  std::iota(Order.begin(), Order.end(), 0);
  std::sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
    return std::tie(Found[A].Part, Found[A].Line, A) <
           std::tie(Found[B].Part, Found[B].Line, B);
  });
  std::vector<Nest> Sorted;
  for (size_t I : Order)
    Sorted.push_back(Found[I]);
  Found = std::move(Sorted);
  Nests = std::move(Found);
  for (size_t I = 0; I < Nests.size(); ++I)
    NestIndex[Nests[I].L] = I + 1;
}

void FunctionInstrumenter::countEntriesByMarkers() {
  // One source loop may have become several compiled ones (a vector loop
  // and its remainder, runtime-check versions, copies in an unrolled outer
  // loop): the marker EntryMarkerPass put before it, copied with the code,
  // counts its entries. Without markers (-O0, or opt alone), a loop that is
  // the only one of its source loop counts its own entries.
  std::vector<std::pair<const DILocation *, std::vector<Instruction *>>>
      MarkersOf;
  if (Sources && !Sources->empty())
    for (Instruction &I : instructions(F))
      if (const DILocation *At = Sources->loopMarkerOf(I)) {
        auto Known = llvm::find_if(MarkersOf, [&](const auto &E) {
          return InlinedFunctions::sameLocation(E.first, At);
        });
        if (Known == MarkersOf.end())
          MarkersOf.push_back({At, {&I}});
        else
          Known->second.push_back(&I);
      }
  for (auto &[At, Markers] : MarkersOf) {
    auto First = llvm::find_if(Nests, [&, At = At](const Nest &N) {
      return N.Start &&
             InlinedFunctions::sameLocation(N.Start, At, /*Columns=*/false);
    });
    if (First == Nests.end())
      continue; // a loop unrolled away, or not counted here
    for (Nest &N : Nests)
      if (&N != &*First && N.Start &&
          InlinedFunctions::sameLocation(N.Start, At, /*Columns=*/false))
        N.Entered = -2; // counted on the first
    // One marker in the entry block of the function's own loop: entered
    // once per call, which the call count says already.
    if (Markers.size() == 1 && Markers[0]->getParent() == &F.getEntryBlock() &&
        First->Part == 0) {
      First->Entered = ROOFLINE_LOOP_ONCE_PER_CALL;
      continue;
    }
    Counter C;
    C.Block = Markers[0]->getParent();
    C.Markers = Markers;
    First->Entered = newCounter(C);
  }
}

void FunctionInstrumenter::addNestCounters(Nest &N) {
  Loop *L = N.L;
  // The optimiser leaves loops out of simplified form (vectorised ones,
  // say): give them back the preheader and exits their counters need.
  if (!L->getLoopPreheader())
    InsertPreheaderForLoop(L, &DT, &LI, nullptr, /*PreserveLCSSA=*/false);
  if (!L->hasDedicatedExits())
    formDedicatedExitBlocks(L, &DT, &LI, nullptr, /*PreserveLCSSA=*/false);
  BasicBlock *Pre = L->getLoopPreheader();
  // Its own entries: for an inlined nest's sampling, or where no marker
  // counts the source loop's.
  if (Pre && (N.Part != 0 || N.Entered == -1)) {
    Counter C;
    C.Block = Pre;
    N.Entries = newCounter(C);
  }
  // Iterations of the outermost loop: the counter that blocks running
  // once per iteration share, counted by the trip count where it can be.
  Counter C;
  C.Block = L->getHeader();
  bool Latched =
      L->getLoopLatch() && L->getExitingBlock() == L->getLoopLatch();
  if (Latched && canHoist(L))
    C.HoistTo = L;
  N.Iterations = newCounter(C);
  if (Latched)
    IterationCounter[L] = N.Iterations;
  bool ExitsInsertable = L->hasDedicatedExits();
  SmallVector<BasicBlock *, 4> Exits;
  L->getExitBlocks(Exits);
  for (BasicBlock *E : Exits)
    ExitsInsertable &= E->getFirstInsertionPt() != E->end();
  N.ExitsInsertable = ExitsInsertable;
  // The function's own nests are timed in the timed calls (their sample
  // is the calls'); inlined ones count their own timed entries.
  if (Pre && ExitsInsertable) {
    Counter T;
    T.Timer = true;
    N.Ticks = newCounter(T);
    if (N.Part != 0)
      N.Timed = newCounter(T);
  }
}

void FunctionInstrumenter::addIterationExtremes() {
  // The fewest and most iterations of one entry: where one compiled loop is
  // the whole source loop (not a vector loop and its remainder) and each
  // entry's count is known on entry or at an exit it cannot unwind past.
  for (Nest &N : Nests) {
    bool Alone = N.Start && !sharesItsSourceLoop(N);
    BasicBlock *Pre = N.L->getLoopPreheader();
    bool OnEntry = Counters[N.Iterations].HoistTo != nullptr;
    bool AtExits =
        N.ExitsInsertable && llvm::none_of(N.L->blocks(), [](BasicBlock *BB) {
          return llvm::any_of(*BB, [](Instruction &I) { return I.mayThrow(); });
        });
    if (!Alone || !Pre || !(OnEntry || AtExits))
      continue;
    // Entries of the compiled loop too: source entries it never reached
    // (a guard skipped it) ran no iteration.
    if (N.Entries < 0) {
      Counter C;
      C.Block = Pre;
      N.Entries = newCounter(C);
    }
    Counter E;
    E.Block = Pre;
    E.Counted = E.Maximum = true;
    N.Fewest = newCounter(E);
    N.Most = newCounter(E);
  }
}

void FunctionInstrumenter::emitLoopTimers(Value *Block, ArrayType *BlockTy,
                                          Value *CallStart) {
  LLVMContext &Ctx = F.getContext();
  Type *I64 = Type::getInt64Ty(Ctx);
  Function *Cycles = Intrinsic::getOrInsertDeclaration(
      F.getParent(), Intrinsic::readcyclecounter);
  auto Zero = ConstantInt::get(I64, 0);
  for (const Nest &N : Nests) {
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
      return B.CreateConstGEP2_64(BlockTy, Block, 0,
                                  ROOFLINE_BLOCK_COUNTERS + Counter);
    };
    auto AddToBlock = [&](IRBuilder<> &B, int Counter, Value *N) {
      Value *P = InBlock(B, Counter);
      B.CreateStore(B.CreateAdd(B.CreateLoad(I64, P), N), P);
    };

    IRBuilder<> B(StartAt);
    Value *Timed;
    if (N.Part == 0) {
      // The function's own nest: timed when the call is (a short function
      // called a hundred million times pays one branch, not a sample
      // decision per entry).
      Timed = B.CreateICmpNE(CallStart, Zero);
    } else {
      // An inlined nest, entered many times per call of the function it
      // is in: entries so far (this thread's earlier calls and this
      // call's) decide, as calls do.
      Value *Seen = B.CreateAdd(B.CreateLoad(I64, InBlock(B, N.Entries)),
                                B.CreateLoad(I64, Slots[N.Entries]));
      Timed = B.CreateOr(
          B.CreateICmpULE(Seen, ConstantInt::get(I64, ROOFLINE_TIME_ALL_CALLS)),
          B.CreateICmpEQ(B.CreateAnd(Seen, ConstantInt::get(
                                               I64, ROOFLINE_TIME_SAMPLE_MASK)),
                         Zero));
      B.CreateStore(Zero, StartTick);
    }
    Instruction *Then = SplitBlockAndInsertIfThen(Timed, StartAt, false);
    IRBuilder<> TB(Then);
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
      Value *Elapsed = SB.CreateSub(SB.CreateCall(Cycles, {}),
                                    SB.CreateLoad(I64, StartTick));
      AddToBlock(SB, N.Ticks, Elapsed);
      if (N.Timed >= 0)
        AddToBlock(SB, N.Timed, ConstantInt::get(I64, 1));
    }
  }
}

} // namespace roofline
