//===- LoopNests.cpp - Each part's loop nests and their counters ----------===//
//
// A part's top-level loop nests, with counters of their entries, iterations
// and (sampled) time, and the fewest and most iterations of one entry: the
// loop rows of a record. (Placement; the timers' code is HostLowering's.)
//
//===----------------------------------------------------------------------===//
#include "CounterPlacement.h"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/LoopUtils.h"

#include <numeric>

using namespace llvm;

namespace roofline {

void CounterPlacement::findNests() {
  listNests();
  if (!In.Host)
    return;
  countEntriesByMarkers();
  bool ByCall = timedByTheCall();
  for (Nest &N : Nests)
    addNestCounters(N, ByCall);
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

bool CounterPlacement::sharesItsSourceLoop(const Nest &N) const {
  return N.Start && llvm::any_of(Nests, [&](const Nest &O) {
           return &O != &N && O.Start &&
                  InlinedFunctions::sameLocation(O.Start, N.Start,
                                                 /*Columns=*/false);
         });
}

void CounterPlacement::listNests() {
  // A part's top-level nests: its loops that no loop of its own encloses
  // (a kernel inlined into a time-step loop of main has its nests inside
  // main's).
  std::vector<Nest> Found;
  for (Loop *L : LI.getLoopsInPreorder()) {
    DebugLoc Start = L->getStartLoc();
    const SourceFunction *S = !In.Sources || In.Sources->empty() ? nullptr
                              : Start ? In.Sources->sourceOf(Start.get(), F)
                                      : sourceOf(*L->getHeader());
    uint32_t P = S || In.RecordSelf ? partOf(S) : UINT32_MAX;
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

void CounterPlacement::countEntriesByMarkers() {
  // One source loop may have become several compiled ones (a vector loop
  // and its remainder, runtime-check versions, copies in an unrolled outer
  // loop): the marker EntryMarkerPass put before it, copied with the code,
  // counts its entries. Without markers (-O0, or opt alone), a loop that is
  // the only one of its source loop counts its own entries.
  std::vector<std::pair<const DILocation *, std::vector<Instruction *>>>
      MarkersOf;
  if (In.Sources && !In.Sources->empty())
    for (Instruction &I : instructions(F))
      if (const DILocation *At = In.Sources->loopMarkerOf(I)) {
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
    C.K = Counter::Kind::Markers;
    C.Block = Markers[0]->getParent();
    C.Markers = Markers;
    First->Entered = newCounter(C);
  }
}

bool CounterPlacement::timedByTheCall() const {
  // One source loop (its compiled loops: a vector loop, its remainder) is
  // every loop of the function, and what runs around it is its setup: no
  // call, and a bounded block of code (its guards, the vectoriser's
  // checks), so the call's time is the loop's to within a few hundred
  // cycles. Its timer would read the clock beside the call's.
  const unsigned MostAround = 256;
  if (Nests.empty() || LI.getTopLevelLoops().size() != Nests.size())
    return false;
  for (const Nest &N : Nests)
    if (N.Part != 0 || !N.Start || N.L->getParentLoop() ||
        !InlinedFunctions::sameLocation(N.Start, Nests[0].Start,
                                        /*Columns=*/false))
      return false;
  unsigned Around = 0;
  for (BasicBlock &BB : F) {
    if (LI.getLoopFor(&BB))
      continue;
    for (Instruction &I : BB) {
      if (I.isDebugOrPseudoInst())
        continue;
      if (++Around > MostAround)
        return false;
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (!isa<IntrinsicInst>(CB))
          return false;
    }
  }
  return true;
}

void CounterPlacement::addNestCounters(Nest &N, bool ByCall) {
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
  if (Latched && canHoist(L)) {
    C.K = Counter::Kind::Trip;
    C.HoistTo = L;
  }
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
  // is the calls'), or by them (timedByTheCall); inlined ones count their
  // own timed entries.
  if (ByCall) {
    N.Ticks = ROOFLINE_LOOP_CALL_TICKS;
  } else if (Pre && ExitsInsertable) {
    Counter T;
    T.K = Counter::Kind::Timer;
    N.Ticks = newCounter(T);
    if (N.Part != 0)
      N.Timed = newCounter(T);
  }
}

void CounterPlacement::addIterationExtremes() {
  // The fewest and most iterations of one entry: where one compiled loop is
  // the whole source loop (not a vector loop and its remainder) and each
  // entry's count is known on entry or at an exit it cannot unwind past.
  for (Nest &N : Nests) {
    bool Alone = N.Start && !sharesItsSourceLoop(N);
    BasicBlock *Pre = N.L->getLoopPreheader();
    bool OnEntry = Counters[N.Iterations].K == Counter::Kind::Trip;
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
    E.K = Counter::Kind::Elsewhere; // the nest's exits' code
    E.Block = Pre;
    E.Maximum = true;
    N.Fewest = newCounter(E);
    N.Most = newCounter(E);
  }
}

} // namespace roofline
