//===- CounterPlacement.h - Where one function's counters go ----*- C++ -*-===//
//
// The first step of instrumenting a function, as PGOInstrumentation is
// LLVM's: it decides which counters the function needs and what each
// costs, and changes no code but to give loops the preheaders and exits
// their counters need. A counter per block with a cost, shared by the
// blocks that run once per iteration of a loop and hoisted to its
// preheader where ScalarEvolution knows the trip count on entry; a
// callee's growth per measured call; variable transfers; entries into
// inlined kernels; loop nests with their entries, iterations and timers
// (LoopNests.cpp); footprints (FootprintCounters.cpp).
//
// The result, a PlacedCounters, is what addCounts (CounterCode.h) turns
// into count operations (CountOperations.h), what the lowerings
// (HostLowering.h, DeviceLowering.h) start from, and what the descriptor
// describes (its CountLayout).
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_LIB_TRANSFORMS_COUNTERPLACEMENT_H
#define ROOFLINE_LIB_TRANSFORMS_COUNTERPLACEMENT_H

#include "CacheTracing.h"
#include "CalleeCounts.h"
#include "CountLayout.h"
#include "roofline/Analysis/CostModel.h"
#include "roofline/Analysis/InlinedSummaries.h"
#include "roofline/Model/Condition.h"
#include "roofline/Transforms/InlinedFunctions.h"
#include "roofline/Transforms/Instrumentation.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Dominators.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace roofline {

/// One counter of the function, and what adds to it.
struct Counter {
  /// What adds to it, and so which of the fields below it uses.
  enum class Kind {
    Block,     ///< 1 each time Block runs
    Trip,      ///< Block's loop's trip count, on entry (HoistTo's preheader)
    Transfer,  ///< the bytes (Length) of the variable transfer At
    Markers,   ///< 1 at each of Markers (entries into inlined code)
    Formula,   ///< Formula's value per call, or at each of FormulaSites
    Growth,    ///< a callee's counter's growth (GrowthOf) during the call At
    Timer,     ///< a loop nest's timer: the timer code adds
    Elsewhere, ///< another counter's code adds (a footprint's broken
               ///< assumptions, a nest's fewest and most iterations)
  };
  Kind K = Kind::Block;
  bool Maximum = false; ///< flushed by maximum, not sum
  llvm::BasicBlock *Block = nullptr;   // counted block (or the transfer's)
  const llvm::Value *Length = nullptr; // Transfer: its bytes
  llvm::Instruction *At = nullptr;     // Transfer, Growth: the instruction
  llvm::Loop *HoistTo = nullptr;       // Trip: the loop
  std::optional<Polynomial> Formula;   // Formula: its value
  /// With Formula: where to add it instead (before each, with its values):
  /// an inlined kernel's entries.
  std::vector<std::pair<llvm::Instruction *,
                        std::map<std::string, llvm::DbgVariableRecord *>>>
      FormulaSites;
  /// With Formula: the assumptions it holds under; an entry that breaks
  /// one adds 0, and 1 to counter Broken (when >= 0).
  std::vector<Condition> Conditions;
  int Broken = -1;
  std::vector<llvm::Instruction *> Markers; // Markers: +1 at each
  /// Growth: how much this counter of a callee's block grew during the
  /// call At (the callee's work, for the caller's inclusive count).
  const CalleeCounts::Block *GrowthOf = nullptr;
  uint32_t GrowthCounter = 0;
};

/// Where a function's counters go: the placement step's result.
struct PlacedCounters {
  std::vector<Counter> Counters;
  /// What they count, as the descriptor describes it.
  CountLayout Layout;
  /// Host code: every memory access and where its cache traffic counts.
  std::vector<AccessSite> AccessSites;
  /// Host code: the calls whose callee's work counts here, and where.
  std::vector<CallSite> CallSites;
  /// The values the function's own footprint formulas name (its
  /// arguments), when its calls count it.
  std::map<std::string, llvm::Value *> Arguments;
};

/// What the placement of one function needs besides its analyses.
struct PlacementInputs {
  /// Attribute inlined code to its own function (may be null).
  const InlinedFunctions *Sources = nullptr;
  /// The function itself is a kernel (else only what was inlined into it
  /// is counted).
  bool RecordSelf = true;
  /// Host code: loop nests measured, access and call sites listed for the
  /// traced copy (device code: counts only).
  bool Host = true;
  /// Calls add their callees' work (fixed costs, and the blocks of callees
  /// instrumented already); null: calls add nothing.
  const CalleeCounts *Callees = nullptr;
  /// The function is counted for its callers only; its own record is
  /// hidden.
  bool Helper = false;
  /// The summaries inlined kernels' markers carry: their footprints are
  /// counted at each entry, with the arguments the entry had.
  CarriedSummaries *Carried = nullptr;
  /// The function's own summary, whose footprint its calls count
  /// (evaluated from the arguments at entry) when it can be.
  const StaticFormulas *OwnFootprint = nullptr;
};

/// A kernel without reuse (every byte it loads and stores once, before
/// vectorisation) whose code as compiled has no vector memory access (a
/// vectorised strided access loads the gaps): its footprint is its counted
/// bytes, which the runtime has already.
bool footprintIsCounted(const StaticFormulas &SF, const llvm::Function &F);

/// Chooses one function's counters (changing no code but for loops'
/// preheaders and exits).
class CounterPlacement {
public:
  /// \p TTI sizes the machine instructions the counted blocks run.
  CounterPlacement(llvm::Function &F, llvm::LoopInfo &LI,
                   llvm::ScalarEvolution &SE, llvm::DominatorTree &DT,
                   const llvm::TargetTransformInfo &TTI,
                   const PlacementInputs &In)
      : F(F), LI(LI), SE(SE), DT(DT), CM(F, &TTI), In(In) {}

  /// The counters and their costs; none when nothing is counted.
  std::optional<PlacedCounters> place();
  /// Whether the function's calls count its own footprint (after place).
  bool countsOwnFootprint() const { return OwnFootprint[0].has_value(); }

private:
  llvm::Function &F;
  llvm::LoopInfo &LI;
  llvm::ScalarEvolution &SE;
  llvm::DominatorTree &DT;
  CostModel CM;
  PlacementInputs In;
  PlacedCounters Out;
  // Shorthands into Out.
  std::vector<Counter> &Counters = Out.Counters;
  std::vector<CostEntry> &Costs = Out.Layout.Costs;
  std::vector<Part> &Parts = Out.Layout.Parts;
  std::vector<Nest> &Nests = Out.Layout.Nests;

  std::map<const llvm::Loop *, uint32_t> IterationCounter;
  std::map<const llvm::Loop *, uint32_t> LoopPart;
  std::map<const llvm::Loop *, uint32_t> NestIndex; // top-level nests: 1-based
  /// The function's own footprint formulas (read, written), when its
  /// calls count them, and the assumptions each call tests.
  std::optional<Polynomial> OwnFootprint[2];
  std::vector<Condition> OwnFootprintConditions;

  /// One block's fixed costs per (part, nest, innermost).
  using PartCosts = std::map<std::tuple<uint32_t, uint32_t, bool>, CostVector>;

  uint32_t newCounter(Counter C) {
    Counters.push_back(std::move(C));
    return Counters.size() - 1;
  }
  /// The counters of the function's blocks, transfers and calls.
  bool addBlockCounters();
  bool everyIterationRuns(llvm::Loop *L, llvm::BasicBlock *BB) const;
  bool canHoist(llvm::Loop *L) const;
  /// The counter of a block with costs: its loop's, shared, when it runs
  /// once per iteration (hoisted where the trip is known), else its own.
  uint32_t blockCounter(llvm::BasicBlock &BB);
  /// The source function \p I came from (null: this one).
  const SourceFunction *sourceOf(const llvm::Instruction &I) const;
  const SourceFunction *sourceOf(const llvm::BasicBlock &BB) const;
  /// Where \p I's cache traffic counts: its source's part << 16 | its
  /// loop nest in that part (a source with no part counts for the
  /// function).
  uint32_t siteOf(const llvm::Instruction &I) const;
  /// \p S's part, made when new unless \p Create is false (then NoPart).
  uint32_t partOf(const SourceFunction *S, bool Create = true);
  static constexpr uint32_t NoPart = UINT32_MAX;
  /// The nest of part \p P that \p BB is in (0: none).
  uint32_t nestOf(const llvm::BasicBlock *BB, uint32_t P) const;
  /// The parts (and their nests) an instruction's cost counts for: its
  /// innermost source function's, then each enclosing kernel's.
  std::vector<std::pair<uint32_t, uint32_t>>
  partsOf(const llvm::Instruction &I, bool Create = true);
  /// Instructions of \p Quiet, without other cost, into \p Fixed, for the
  /// parts and nests that exist (machine instructions are not work: they
  /// make no part, nest or record of their own).
  void addInstructions(
      PartCosts &Fixed,
      const std::vector<std::pair<llvm::Instruction *, int64_t>> &Quiet);
  /// The counters that add a measured call's work (its callees' growth).
  bool addCallGrowth(llvm::CallBase &CB,
                     const std::vector<std::pair<uint32_t, uint32_t>> &Parts);
  /// Entries into inlined bodies: one at each of their markers (copies of
  /// a marker, where the optimiser duplicated the code, count each).
  void addEntryMarkers();

  // Loop nests (LoopNests.cpp).
  /// The parts' top-level loop nests; in host code, their entries,
  /// iterations and time.
  void findNests();
  /// Nests: each part's loops that no loop of its own encloses, by part,
  /// then line.
  void listNests();
  /// One source loop's entries counted once, at the markers EntryMarkerPass
  /// put before it (its compiled copies share them).
  void countEntriesByMarkers();
  /// \p N's entries, iterations and timers.
  void addNestCounters(Nest &N, bool ByCall);
  /// The function's loops are its own nests of one source loop, and the
  /// code around them calls nothing and is short: the call's time is the
  /// loop's, and the nests get no timer of their own.
  bool timedByTheCall() const;
  /// Each entry's fewest and most iterations, where one compiled loop is
  /// the whole source loop.
  void addIterationExtremes();
  /// Another nest comes from \p N's source loop (a vector loop and its
  /// remainder, copies in an unrolled outer loop); false without a location.
  bool sharesItsSourceLoop(const Nest &N) const;

  // Footprints (FootprintCounters.cpp).
  /// Whether the function's calls can count the footprint of \p SF,
  /// evaluated from its arguments at entry; if so, takes its formulas.
  bool takeOwnFootprint(const StaticFormulas &SF);
  /// The function's own footprint: one counter per direction, its formula
  /// added per call, and one for calls that break its assumptions.
  void addOwnFootprint();
  /// Counts part \p P's footprint at every entry when each entry has the
  /// values its formulas need.
  void addInlinedFootprint(uint32_t P);
};

} // namespace roofline

#endif
