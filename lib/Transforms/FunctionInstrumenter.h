//===- FunctionInstrumenter.h - One function's counters ---------*- C++ -*-===//
//
// Instruments one function, in two steps. Placement (collect) chooses the
// counters and what each costs: a counter per block with a cost, hoisted
// to a preheader by the trip count where ScalarEvolution knows it on entry,
// a callee's growth per measured call, footprints and loop nests with their
// entries, iterations and timers. Lowering adds the counting code: in host
// code (run) counters in registers flushed at each return into a
// thread_local block; in device code (runDevice, DeviceLowering.cpp) a sum
// per warp added to the kernel's buffer. The pass reads the result through
// layout(), block(), accessSites() and callSites().
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_LIB_TRANSFORMS_FUNCTIONINSTRUMENTER_H
#define ROOFLINE_LIB_TRANSFORMS_FUNCTIONINSTRUMENTER_H

#include "CacheTracing.h"
#include "CalleeCounts.h"
#include "CountLayout.h"
#include "KeptCalls.h"
#include "roofline/Analysis/CostModel.h"
#include "roofline/Analysis/InlinedSummaries.h"
#include "roofline/Runtime/Descriptor.h"
#include "roofline/Transforms/InlinedFunctions.h"
#include "roofline/Transforms/Instrumentation.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace roofline {

/// One counter of the function, and what adds to it.
struct Counter {
  llvm::BasicBlock *Block = nullptr;    // counted block (or the transfer's)
  const llvm::Value *Length = nullptr;  // set: counts bytes of a transfer
  llvm::Instruction *At = nullptr;      // the transfer
  llvm::Loop *HoistTo = nullptr;        // counted in this loop's preheader
  const Polynomial *Formula = nullptr; // set: adds its value once per call
  /// With Formula: where to add it instead (before each, with its values):
  /// an inlined kernel's entries.
  std::vector<std::pair<llvm::Instruction *,
                        std::map<std::string, llvm::DbgVariableRecord *>>>
      FormulaSites;
  /// With Formula: the assumptions it holds under; an entry that breaks
  /// one adds 0, and 1 to counter Broken (when >= 0).
  std::vector<Condition> Conditions;
  int Broken = -1;
  std::vector<llvm::Instruction *> Markers; // set: +1 at each entry marker
  bool Timer = false;   // a loop timer's: the timer code adds
  bool Counted = false; // another counter's code adds to it
  bool Maximum = false; // flushed by maximum, not sum
  /// Set: adds how much this counter of a callee's block grew during the
  /// call At (the callee's work, for the caller's inclusive count).
  const CalleeCounts::Block *GrowthOf = nullptr;
  uint32_t GrowthCounter = 0;
};

/// A kernel without reuse (every byte it loads and stores once, before
/// vectorisation) whose code as compiled has no vector memory access (a
/// vectorised strided access loads the gaps): its footprint is its counted
/// bytes, which the runtime has already.
bool footprintIsCounted(const StaticFormulas &SF, const llvm::Function &F);

/// Whether a call is timed: every call until ROOFLINE_TIME_ALL_CALLS, then
/// one in ROOFLINE_TIME_SAMPLE_MASK + 1, by the thread's calls so far.
llvm::Value *timedCall(llvm::IRBuilder<> &B, llvm::Value *CallsSoFar);

class ParallelRegions; // FunctionInstrumenter.cpp

class FunctionInstrumenter {
public:
  /// \p Sources (may be null) attribute inlined code to its own function;
  /// \p RecordSelf: the function itself is a kernel (else only what was
  /// inlined into it is counted).
  FunctionInstrumenter(llvm::Function &F, llvm::LoopInfo &LI,
                       llvm::ScalarEvolution &SE, llvm::DominatorTree &DT,
                       const InlinedFunctions *Sources, bool RecordSelf)
      : F(F), LI(LI), SE(SE), DT(DT), CM(F), Sources(Sources),
        RecordSelf(RecordSelf) {}

  /// Calls add their callees' work (\p Callees: fixed costs, and the
  /// blocks of callees instrumented already). \p Helper: the function is
  /// counted for its callers only; its own record is hidden.
  void countCalls(const CalleeCounts &C, bool IsHelper) {
    Callees = &C;
    Helper = IsHelper;
  }
  /// After run: this function's block, as its callers read it.
  CalleeCounts::Block block() const;
  /// After run: what it counts, for its descriptor.
  CountLayout layout() const;
  /// Host code: every memory access and where its cache traffic counts.
  const std::vector<AccessSite> &accessSites() const { return AccessSites; }
  /// Host code: the calls whose callee's work counts here, and where.
  const std::vector<CallSite> &callSites() const { return CallSites; }

  /// Host code: counters flushed into a thread_local block per call.
  bool run(llvm::GlobalVariable *Desc);
  /// Also counts the call's footprint, evaluated from its arguments at
  /// entry (before run); false when the formulas need more than them.
  bool countFootprint(const StaticFormulas &SF);
  /// Device code: counters reduced per warp into \p Counts at kernel exit.
  bool runDevice(llvm::GlobalVariable *Counts);
  /// The summaries inlined kernels' markers carry: their footprints are
  /// counted at each entry, with the arguments the entry had.
  void countInlinedFootprints(CarriedSummaries &C) { Carried = &C; }

  /// Before run: also say how a calling loop would keep each counter
  /// (keptKinds(), after run; KeptCalls.h).
  void classifyForCallers() { WantKinds = true; }
  const std::vector<KeptKind> &keptKinds() const { return Kinds; }
  /// Before run: the function is \p S's kept function, whose returns give
  /// the counters to the calling loop instead of adding them to S's block.
  void keepForCaller(KeptShape &S) { KeepFor = &S; }
  /// Before run: its loops' calls of these functions are kept calls.
  void keepCallsOf(const std::map<const llvm::Function *, KeptShape> &S) {
    KeptCallees = &S;
  }

private:
  std::vector<CostEntry> Costs;
  std::vector<Part> Parts{Part{nullptr}};
  std::vector<AccessSite> AccessSites;
  std::vector<CallSite> CallSites;
  std::vector<Nest> Nests;
  /// Per part: the calls whose work is not in its counts (a library, a
  /// function pointer).
  std::map<uint32_t, std::set<std::string>> Uncounted;
  bool everyIterationRuns(llvm::Loop *L, llvm::BasicBlock *BB) const;
  /// Another nest comes from \p N's source loop (a vector loop and its
  /// remainder, copies in an unrolled outer loop); false without a location.
  bool sharesItsSourceLoop(const Nest &N) const {
    return N.Start && llvm::any_of(Nests, [&](const Nest &O) {
             return &O != &N && O.Start &&
                    InlinedFunctions::sameLocation(O.Start, N.Start,
                                                   /*Columns=*/false);
           });
  }
  bool canHoist(llvm::Loop *L) const;
  /// The source function \p I came from (null: this one).
  const SourceFunction *sourceOf(const llvm::Instruction &I) const;
  /// Where \p I's cache traffic counts: its source's part << 16 | its
  /// loop nest in that part (a source with no part counts for the
  /// function).
  uint32_t siteOf(const llvm::Instruction &I) const;
  const SourceFunction *sourceOf(const llvm::BasicBlock &BB) const;
  uint32_t partOf(const SourceFunction *S);
  /// The nest of part \p P that \p BB is in (0: none).
  uint32_t nestOf(const llvm::BasicBlock *BB, uint32_t P) const;
  /// The parts' top-level loop nests; with \p Measure, their entries,
  /// iterations and time.
  void findNests(bool Measure);
  /// Nests: each part's loops that no loop of its own encloses, by part,
  /// then line.
  void listNests();
  /// One source loop's entries counted once, at the markers EntryMarkerPass
  /// put before it (its compiled copies share them).
  void countEntriesByMarkers();
  /// \p N's entries, iterations and timers.
  void addNestCounters(Nest &N);
  /// Each entry's fewest and most iterations, where one compiled loop is
  /// the whole source loop.
  void addIterationExtremes();
  uint32_t newCounter(Counter C) {
    Counters.push_back(std::move(C));
    return Counters.size() - 1;
  }
  /// Chooses the counters and their costs; false when nothing is counted.
  bool collect(bool Host);
  /// The counter of a block with costs: its loop's, shared, when it runs
  /// once per iteration (hoisted where the trip is known), else its own.
  uint32_t blockCounter(llvm::BasicBlock &BB);
  /// Entries into inlined bodies: one at each of their markers (copies of
  /// a marker, where the optimiser duplicated the code, count each).
  void addEntryMarkers();
  /// The function's own footprint: one counter per direction, its formula
  /// added per call, and one for calls that break its assumptions.
  void addOwnFootprint();
  /// Counters as allocas zeroed at entry (promoted to registers at the end).
  void createSlots(llvm::IRBuilder<> &B);
  /// The counting code: per block, per preheader, per transfer.
  void addIncrements(llvm::Instruction *AfterPrelude);
  /// Counter \p I: the callee's counter's growth over its call (summed
  /// over a parallel region's threads where \p Regions can).
  void addCallGrowth(size_t I, ParallelRegions &Regions);
  /// Each measured nest's fewest and most iterations an entry: the trip
  /// hoisted on entry (\p TripAt), or the iteration counter's growth.
  void recordNestExtremes(const std::map<llvm::Loop *, llvm::Value *> &TripAt);
  /// Times sampled entries of each measured nest (the first 1024, then one
  /// in 64), as the function's calls are.
  /// (The function's own nests are timed in the calls that are timed:
  /// \p CallStart is nonzero in them.)
  void emitLoopTimers(llvm::Value *Block, llvm::ArrayType *BlockTy,
                      llvm::Value *CallStart);
  void emitWarpFlush(llvm::GlobalVariable *Counts);
  /// Before \p At: the call's start tick when it is timed, else 0.
  llvm::Value *emitCallStart(llvm::Instruction *At, llvm::Value *Block,
                             llvm::ArrayType *BlockTy);
  /// Fills Kinds (KeptCalls.cpp), before the lowering changes the CFG.
  void classifyCounters();
  /// Calls a kept-call rewrite replaced (for the traced copy's call sites).
  void replaceCalls(const std::map<llvm::CallBase *, llvm::CallInst *> &New);
  /// A kept function's return: F's result and the counters (KeptCalls.cpp).
  void lowerKeptReturn(llvm::ReturnInst *Ret);

  llvm::Function &F;
  llvm::LoopInfo &LI;
  llvm::ScalarEvolution &SE;
  llvm::DominatorTree &DT;
  CostModel CM;
  const InlinedFunctions *Sources;
  bool RecordSelf;
  std::vector<Counter> Counters;
  std::map<const llvm::Loop *, uint32_t> IterationCounter;
  std::map<const llvm::Loop *, uint32_t> LoopPart;
  std::map<const llvm::Loop *, uint32_t> NestIndex; // top-level nests: 1-based
  std::vector<llvm::AllocaInst *> Slots;
  std::vector<llvm::AllocaInst *> Scratch; ///< promoted with the slots
  /// The function's own footprint formulas (read, written), when its
  /// calls count them, and the assumptions each call tests.
  std::optional<Polynomial> FootprintFormula[2];
  std::vector<Condition> FootprintConditions;
  std::map<std::string, llvm::Value *> ArgByName;
  int FootprintBroken = -1; ///< counter of calls that broke an assumption
  CarriedSummaries *Carried = nullptr;
  const CalleeCounts *Callees = nullptr;
  bool Helper = false;
  bool WantKinds = false;
  std::vector<KeptKind> Kinds;
  KeptShape *KeepFor = nullptr;
  std::vector<GrowthRead> GrowthReads;
  const std::map<const llvm::Function *, KeptShape> *KeptCallees = nullptr;
  llvm::GlobalVariable *TLSBlock = nullptr;
  llvm::ArrayType *BlockType = nullptr;
  llvm::GlobalVariable *Descriptor = nullptr;
  /// The parts (and their nests) an instruction's cost counts for: its
  /// innermost source function's, then each enclosing kernel's.
  std::vector<std::pair<uint32_t, uint32_t>>
  partsOf(const llvm::Instruction &I);
  /// The counters that add a measured call's work (its callees' growth).
  bool addCallGrowth(llvm::CallBase &CB,
                     const std::vector<std::pair<uint32_t, uint32_t>> &Parts);
  /// Counts part \p P's footprint at every entry when each entry has the
  /// values its formulas need.
  void addInlinedFootprint(uint32_t P);
};

} // namespace roofline

#endif
