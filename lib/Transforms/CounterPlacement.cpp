//===- CounterPlacement.cpp - Where one function's counters go -----------===//
//
// The counters of blocks, transfers, calls and inlined entries, and the
// parts (source functions) their costs count for. Loop nests are in
// LoopNests.cpp, footprints in FootprintCounters.cpp.
//
//===----------------------------------------------------------------------===//
#include "CounterPlacement.h"

#include "roofline/Runtime/CostKinds.h"

#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

using namespace llvm;

namespace roofline {

bool CounterPlacement::canHoist(Loop *L) const {
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

bool CounterPlacement::everyIterationRuns(Loop *L, BasicBlock *BB) const {
  return DT.dominates(BB, L->getLoopLatch());
}

const SourceFunction *CounterPlacement::sourceOf(const BasicBlock &BB) const {
  // Hoisted and merged instructions often lose their location; the block's
  // branch (or its first located instruction) says whose code it is.
  if (const DILocation *DL = BB.getTerminator()->getDebugLoc().get())
    return In.Sources->sourceOf(DL, F);
  for (const Instruction &I : BB)
    if (const DILocation *DL = I.getDebugLoc().get())
      return In.Sources->sourceOf(DL, F);
  return nullptr;
}

const SourceFunction *CounterPlacement::sourceOf(const Instruction &I) const {
  if (!In.Sources || In.Sources->empty())
    return nullptr;
  if (const DILocation *DL = I.getDebugLoc().get())
    return In.Sources->sourceOf(DL, F);
  return sourceOf(*I.getParent());
}

uint32_t CounterPlacement::siteOf(const Instruction &I) const {
  const SourceFunction *Src = sourceOf(I);
  uint32_t P = 0;
  for (uint32_t K = 1; K < Parts.size(); ++K)
    if (Parts[K].Source == Src)
      P = K;
  return P << 16 | nestOf(I.getParent(), P);
}

uint32_t CounterPlacement::partOf(const SourceFunction *S, bool Create) {
  if (!S || S->Subprogram == F.getSubprogram())
    return 0;
  for (uint32_t P = 1; P < Parts.size(); ++P)
    if (Parts[P].Source == S)
      return P;
  if (!Create)
    return NoPart;
  Parts.push_back({S, -1, ROOFLINE_PART_INLINED});
  return Parts.size() - 1;
}

uint32_t CounterPlacement::nestOf(const BasicBlock *BB, uint32_t P) const {
  for (const Loop *L = LI.getLoopFor(BB); L; L = L->getParentLoop()) {
    auto It = NestIndex.find(L);
    if (It != NestIndex.end() && Nests[It->second - 1].Part == P)
      return It->second;
  }
  return 0;
}

std::vector<std::pair<uint32_t, uint32_t>>
CounterPlacement::partsOf(const Instruction &I, bool Create) {
  std::vector<std::pair<uint32_t, uint32_t>> Where;
  const BasicBlock *BB = I.getParent();
  if (In.Sources && !In.Sources->empty()) {
    // As sourceOf: the instruction's location, else its block's.
    const DILocation *DL = I.getDebugLoc().get();
    if (!DL)
      DL = BB->getTerminator()->getDebugLoc().get();
    for (auto It = BB->begin(); !DL && It != BB->end(); ++It)
      DL = It->getDebugLoc().get();
    for (const SourceFunction *S : In.Sources->sourcesOf(DL, F)) {
      uint32_t P = partOf(S, Create);
      if (P && P != NoPart && llvm::none_of(Where, [&](auto &W) { return W.first == P; }))
        Where.push_back({P, nestOf(BB, P)});
    }
  }
  // The function's own record includes the inlined code (inclusive counts).
  if (In.RecordSelf)
    Where.push_back({0, nestOf(BB, 0)});
  return Where;
}

bool CounterPlacement::addCallGrowth(
    CallBase &CB, const std::vector<std::pair<uint32_t, uint32_t>> &Where) {
  // After an invoke, the growth is read at its normal destination, which
  // must be reached from the invoke alone.
  if (auto *Inv = dyn_cast<InvokeInst>(&CB);
      Inv && !Inv->getNormalDest()->getSinglePredecessor()) {
    for (auto [P, N] : Where)
      Out.Layout.Uncounted[P].insert(
          demangle(CB.getCalledFunction()->getName().str()));
    return false;
  }
  for (const CalleeCounts::Block *B : In.Callees->measured(CB)) {
    std::map<uint32_t, uint32_t> CounterOf;
    for (const CalleeCounts::Block::Cost &C : B->Costs) {
      auto [It, New] = CounterOf.try_emplace(C.Counter, 0);
      if (New) {
        Counter G;
        G.K = Counter::Kind::Growth;
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

uint32_t CounterPlacement::blockCounter(BasicBlock &BB) {
  // Blocks that run exactly once per iteration of their loop share one
  // counter (fewer registers live across the loop): the loop's.
  Loop *L = LI.getLoopFor(&BB);
  bool PerIteration = L && L->getLoopLatch() &&
                      L->getExitingBlock() == L->getLoopLatch() &&
                      everyIterationRuns(L, &BB);
  auto Shared =
      PerIteration ? IterationCounter.find(L) : IterationCounter.end();
  if (Shared != IterationCounter.end())
    return Shared->second;
  Counter C;
  C.Block = &BB;
  if (PerIteration && canHoist(L)) {
    C.K = Counter::Kind::Trip;
    C.HoistTo = L;
  }
  uint32_t Id = newCounter(C);
  if (PerIteration)
    IterationCounter[L] = Id;
  return Id;
}

void CounterPlacement::addEntryMarkers() {
  // Entries into inlined bodies: one at each of their markers (copies of a
  // marker, where the optimiser duplicated or vectorised the code, count
  // each).
  if (In.Sources && !In.Sources->empty())
    for (Instruction &I : instructions(F))
      if (const SourceFunction *S = In.Sources->markerOf(I)) {
        auto It =
            llvm::find_if(Parts, [&](const Part &P) { return P.Source == S; });
        if (It == Parts.end())
          continue; // none of its code is left here
        if (It->Entries < 0) {
          Counter C;
          C.K = Counter::Kind::Markers;
          C.Block = I.getParent();
          It->Entries = newCounter(C);
        }
        Counters[It->Entries].Markers.push_back(&I);
      }
}

bool CounterPlacement::addBlockCounters() {
  // One counter per block with a cost, one per variable transfer.
  // Keyed (counter, slot, part, nest, innermost).
  std::map<std::tuple<uint32_t, uint32_t, uint32_t, uint32_t, bool>, uint64_t>
      BlockCosts;
  bool OwnWork = false;
  const CalleeCounts *Callees = In.Host ? In.Callees : nullptr;
  // Blocks of control alone in innermost loops (a latch after an if), with
  // their instructions: counted once the function counts anything.
  // Elsewhere (an inner loop's preheader or exit, a function's entry test
  // and return) they run a few instructions per entry or call: a counter
  // there would cost an outer loop or a small hot function more than they
  // weigh (bench/overhead.py's conv: 1.16x with them, not without).
  std::vector<std::pair<BasicBlock *, std::vector<std::pair<Instruction *, int64_t>>>>
      ControlOnly;
  auto Record = [&](uint32_t Id, const PartCosts &Fixed) {
    for (const auto &[Key, CV] : Fixed) {
      auto [P, N, Innermost] = Key;
      for (unsigned S = 0; S < NumSlots; ++S)
        if (CV.Slots[S])
          BlockCosts[{Id, S, P, N, Innermost}] += uint64_t(CV.Slots[S]);
      if (CV.Instructions)
        BlockCosts[{Id, InstructionSlot, P, N, Innermost}] +=
            uint64_t(CV.Instructions);
    }
  };
  for (BasicBlock &BB : F) {
    PartCosts Fixed;
    std::vector<std::pair<Instruction *, int64_t>> Quiet; // no work
    for (Instruction &I : BB) {
      OpCost C = CM.costOf(I);
      auto *CB = dyn_cast<CallBase>(&I);
      bool CountsCalls = CB && Callees;
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
            Out.Layout.Uncounted[P].insert(Name);
      if (!Any && !Measured) {
        if (C.Fixed.Instructions)
          Quiet.push_back({&I, C.Fixed.Instructions});
        continue;
      }
      // The function's own code when it is not a kernel has no part.
      std::vector<std::pair<uint32_t, uint32_t>> Where = partsOf(I);
      if (Where.empty())
        continue;
      OwnWork |= Where.front().first == 0;
      bool Counted = Measured ? addCallGrowth(*CB, Where)
                              : CountsCalls && Callees->fixedCost(*CB);
      if (Counted && tracedCopiesEnabled())
        Out.CallSites.push_back({CB, siteOf(I), !Measured});
      for (size_t K = 0; K < Where.size(); ++K) {
        auto [P, N] = Where[K];
        Fixed[{P, N, K == 0}] += C.Fixed;
      }
      for (const VariableBytes &VB : C.Variable) {
        Counter VC;
        VC.K = Counter::Kind::Transfer;
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
    if (!Any) {
      if (const Loop *L = LI.getLoopFor(&BB); !Quiet.empty() && L && L->isInnermost())
        ControlOnly.push_back({&BB, std::move(Quiet)});
      continue;
    }
    addInstructions(Fixed, Quiet);
    Record(blockCounter(BB), Fixed);
  }
  if (!BlockCosts.empty() || !Costs.empty())
    for (auto &[BB, Quiet] : ControlOnly) {
      PartCosts Fixed;
      addInstructions(Fixed, Quiet);
      if (!Fixed.empty())
        Record(blockCounter(*BB), Fixed);
    }
  for (const auto &[Key, N] : BlockCosts) {
    auto [Id, S, P, Nst, Innermost] = Key;
    Costs.push_back({Id, S, N, P, Nst, Innermost});
  }
  return OwnWork;
}

void CounterPlacement::addInstructions(
    PartCosts &Fixed, const std::vector<std::pair<Instruction *, int64_t>> &Quiet) {
  for (auto [I, N] : Quiet) {
    std::vector<std::pair<uint32_t, uint32_t>> Where =
        partsOf(*I, /*Create=*/false);
    for (size_t K = 0; K < Where.size(); ++K)
      Fixed[{Where[K].first, Where[K].second, K == 0}].Instructions += N;
  }
}

std::optional<PlacedCounters> CounterPlacement::place() {
  Parts = {Part{nullptr}};
  if (In.OwnFootprint && In.RecordSelf)
    takeOwnFootprint(*In.OwnFootprint);
  findNests();
  bool OwnWork = addBlockCounters();
  // Every access's part and nest, for the traced copy (an access of a
  // source function with nothing counted here counts for the function).
  if (In.Host && tracedCopiesEnabled())
    for (BasicBlock &BB : F)
      for (Instruction &I : BB)
        if (isTracedAccess(I))
          Out.AccessSites.push_back({&I, siteOf(I)});
  addEntryMarkers();
  if (In.Carried)
    for (uint32_t P = 1; P < Parts.size(); ++P)
      addInlinedFootprint(P);
  addOwnFootprint();
  // The function's own record: a kernel's, unless it holds inlined kernels
  // and has no work of its own; a helper's, counted for its callers, is
  // hidden.
  if (!In.RecordSelf || In.Helper || (Parts.size() > 1 && !OwnWork))
    Parts[0].Kind = ROOFLINE_PART_HIDDEN;
  if (Parts[0].Kind == ROOFLINE_PART_HIDDEN && Parts.size() == 1 && !In.Helper)
    return std::nullopt;
  if (Counters.empty())
    return std::nullopt;
  Out.Layout.NumCounters = Counters.size();
  return std::move(Out);
}

} // namespace roofline
