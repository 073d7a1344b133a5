//===- FunctionAnalyzer.h - The analysis of one function --------*- C++ -*-===//
//
// Internal to lib/Analysis: the per-function state of KernelAnalysis and the
// helpers its parts share. The parts, one file each:
//   MassFlow.cpp     how often each block runs (regions, loop totals, costs)
//   Guards.cpp       which branches are assumed, and their conditions' text
//   TripCounts.cpp   loop trip counts and the conditions they rely on
//   ParameterNames.cpp, Locations.cpp  the names formulas and notes use
//   KernelAnalysis.cpp  the function's counts, notes and assumptions
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_LIB_ANALYSIS_FUNCTIONANALYZER_H
#define ROOFLINE_LIB_ANALYSIS_FUNCTIONANALYZER_H

#include "roofline/Analysis/AccessSet.h"
#include "roofline/Analysis/KernelAnalysis.h"
#include "roofline/Analysis/CostModel.h"
#include "roofline/Analysis/DeviceCode.h"
#include "roofline/Analysis/SCEVPolynomial.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/DebugLoc.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instructions.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace roofline::detail {

using namespace llvm;

/// "file.cpp:12" for a debug location, or "" without one.
std::string locationText(const DebugLoc &DL);

std::string locationText(const Instruction *I);
std::string loopText(const Loop *L);
/// Parameter names from debug info (dbg records and retained nodes), the IR,
/// or the source text; else "argN". Made unique and usable in formulas.
std::vector<std::string> parameterNames(const Function &F);
/// Depends only on parameters, constants and GPU thread/block indices:
/// the same answer whatever the data in memory.
/// With \p SE, induction variables (add recurrences) are accepted too.
bool isParameterOnly(const Value *V, ScalarEvolution *SE = nullptr,
                     unsigned Depth = 0);
/// An equality on the thread index (`threadIdx.x == 0`), alone or as a
/// part of `&&` / `||`: it singles out some threads of a block.
bool singlesOutThreads(const Value *C, unsigned Depth = 0);
const char *predicateText(CmpInst::Predicate P);

/// The union of pieces of one array in one direction (\p Written or read)
/// when it is known exactly: its bytes and hull (Footprint.cpp).
std::optional<std::pair<Polynomial, FootprintCounts::Hull>>
unitePieces(const std::vector<const FootprintCounts *> &Pieces, bool Written);

class FunctionAnalyzer {
public:
  FunctionAnalyzer(Function &F, FunctionAnalyses A, KernelAnalysis &Owner)
      : F(F), LI(A.LI), SE(A.SE), GetBPI(A.BPI), KeepSE(A.OwnedSE),
        Owner(Owner), CM(F, A.TTI),
        Params(parameterNames(F)),
        Translator(SE, [this](const Value *V) { return nameOf(V); }) {}

  FunctionCounts run();

private:
  /// A node of one loop level's acyclic graph: a block, or an inner loop.
  struct Node {
    BasicBlock *BB = nullptr;
    Loop *Sub = nullptr;
  };
  struct Region {
    Loop *L = nullptr; // null: the function body outside loops
    std::vector<Node> Nodes;
    DenseMap<const void *, unsigned> Index;
    std::vector<unsigned> Order; // reverse post-order from the entry
  };
  static constexpr int Sink = -1;

  std::optional<std::string> nameOf(const Value *V) const {
    if (const auto *A = dyn_cast<Argument>(V))
      if (A->getParent() == &F)
        return Params[A->getArgNo()];
    if (const char *S = sregName(V))
      return std::string(S);
    return std::nullopt;
  }
  static std::string ivName(const Loop *L) {
    return "$iv" + std::to_string(L->getLoopDepth());
  }
  void note(const std::string &N) {
    Exact = false;
    Notes.insert(N);
  }

  Region buildRegion(Loop *L);
  int nodeOf(const Region &R, BasicBlock *BB) const;
  std::vector<std::pair<int, double>> exitsOf(const Region &R, Loop *Sub);
  bool reaches(const Region &R, BasicBlock *From, BasicBlock *To) const;
  std::optional<unsigned> assumedSuccessor(const Region &R, BasicBlock *BB);
  /// A fresh translator (its own conditions) that names the counters of
  /// \p Around and the loops around it.
  SCEVPolynomial translatorAround(Loop *Around) {
    SCEVPolynomial T(SE, [this](const Value *V) { return nameOf(V); });
    for (Loop *P = Around; P; P = P->getParentLoop())
      T.bindLoop(P, ivName(P));
    return T;
  }
  /// "A < B", "A < B && C < D": a guard's condition in the parameters (when
  /// \p Holds is false, its negation); nothing when it is not comparisons.
  /// With \p Facts, each comparison the condition asserts is added to it
  /// as a polynomial that is >= 0. With \p Around, the counters of the
  /// loops around it may appear too.
  std::optional<std::string> conditionText(const Value *C, bool Holds,
                                           std::vector<Polynomial> *Facts = nullptr,
                                           Loop *Around = nullptr);
  CountPolys regionTotal(const Region &R, BasicBlock *FinalExit,
                         bool LastIteration);
  /// Records in RunsEveryTime whether node \p Nd, reached by \p Mass of its
  /// region's passes, runs on every one (and is not behind a guard).
  void noteRunsEveryTime(const Node &Nd, double Mass);
  CountPolys loopTotal(Loop *L);
  /// Blocks from \p From up to \p Join (or \p R's header) in GuardedBlocks.
  void markGuarded(const Region &R, BasicBlock *From, BasicBlock *Join);
  /// The row of top-level loop nest \p L: its location, depth, trip count
  /// and \p Totals (its work in one call).
  LoopSummary loopRow(Loop *L, const CountPolys &Totals, bool RowExact);
  void findLoopGuard(Loop *S);
  Polynomial tripCount(Loop *L);
  /// The translator's conditions for \p L's count, as assumptions.
  void recordConditions(Loop *L);
  /// A zero-trip guard of an inner loop that depends on enclosing loops'
  /// counters is assumed taken: that is exact only where its condition
  /// holds or the loop's trip formula is 0. Checked at the enclosing loops'
  /// first and last iterations (linear conditions); false when it fails.
  bool checkInnerGuard(const BranchInst *Br, bool Holds);
  /// \p P at the first and last iteration of each loop around \p L that
  /// it mentions, with the substitutions made; nullopt when it is not
  /// linear in one of them or its trip count is not known yet.
  using Substitution = std::vector<std::pair<std::string, Polynomial>>;
  std::optional<std::vector<std::pair<Polynomial, Substitution>>>
  atEndpoints(Loop *L, const Polynomial &P);
  std::optional<Polynomial> steppedTripCount(Loop *L);
  void staysInRange(ICmpInst::Predicate P, const Polynomial &Bound,
                    const Polynomial &Step, unsigned Width);
  std::optional<Polynomial>
  symbolicStepTripCount(Loop *L, ICmpInst::Predicate P, const SCEV *Step,
                        const Polynomial &First, const Polynomial &Bound,
                        SCEVPolynomial::Reading As);
  /// The compare's counter cannot wrap before the loop exits.
  bool counterCannotWrap(Loop *L, const SCEVAddRecExpr *AR,
                         const ICmpInst *Cmp, bool Signed);
  bool isInvariant(const SCEV *S, const Loop *L, unsigned Depth = 0);
  CountPolys blockCost(BasicBlock *BB, Loop *Context);
  /// A counted call's cost: the callee's totals with its parameters
  /// replaced by the arguments (unknown where the analysis cannot name
  /// one), its pointer traffic moved to the caller's parameters.
  CountPolys calleeCost(CallBase &CB, const FunctionCounts &FC, Loop *Context);
  /// The footprint of the accesses in \p Within (the whole function when
  /// null), per array into \p PerArray when given (Footprint.cpp).
  FootprintCounts footprintOf(const Loop *Within,
                              FootprintSummary *PerArray = nullptr);
  /// Every access and counted call of the function is in \p L (what
  /// accessesIn reads): \p L's footprint is the function's.
  bool holdsEveryAccess(const Loop *L) const;
  /// \p Text, "L >= R", follows from a guard or a trip count's range condition.
  bool impliedByFacts(const std::string &Text) const;
  /// A callee's footprint of an array, and where in the array the pointer
  /// it was passed points (unknown: nullopt).
  struct CallFootprint {
    FootprintCounts Counts;
    std::optional<Polynomial> Offset;
  };
  /// The accesses of a footprint, by array and direction, with what they
  /// assume and what calls bring (Footprint.cpp).
  struct AccessGroups {
    struct Key {
      std::string Array;
      bool Write;
      bool operator<(const Key &O) const {
        return std::tie(Array, Write) < std::tie(O.Array, O.Write);
      }
    };
    std::map<Key, std::vector<AffineAccess>> Accesses;
    std::map<std::string, std::vector<std::string>> Assumed;
    std::map<std::string, std::vector<CallFootprint>> Calls;
    std::map<std::string, std::vector<std::string>> Unknowable;
  };
  /// The accesses in \p Within (the whole function when null).
  AccessGroups accessesIn(const Loop *Within);
  /// One access of \p Size bytes through \p Ptr, over the loops around it.
  void addAccess(AccessGroups &G, Instruction &I, const Value *Ptr,
                 Polynomial Size, bool Write);
  /// Each array's footprint from its accesses and the calls'.
  std::map<std::string, FootprintCounts> arrayFootprints(AccessGroups &G);
  /// Adds the footprints calls bring to \p ByArray.
  static void addCallFootprints(
      std::map<std::string, FootprintCounts> &ByArray,
      const std::map<std::string, std::vector<CallFootprint>> &Calls);
  /// The footprints a call brings, per array of this function, into
  /// \p Calls; arrays whose bytes there are not known into \p Unknowable.
  void callFootprints(CallBase &CB,
                      std::map<std::string, std::vector<CallFootprint>> &Calls,
                      std::map<std::string, std::vector<std::string>> &Unknowable);
  /// Sweeps a callee's footprint \p Sub at \p At over the iterations of a
  /// loop (counter \p IV, \p Trip iterations): the same bytes each time,
  /// or pieces shifted apart; false when they may overlap.
  bool sweepCall(FootprintCounts &Sub, std::optional<Polynomial> &At,
                 const std::string &IV, const Polynomial &Trip);
  /// Replaces the thread and block indices in \p Offset by counters over
  /// the launch, appended to \p Dims; what that assumes goes to \p Assumed.
  void gridDimensions(Polynomial &Offset, std::vector<Dimension> &Dims,
                      std::vector<std::string> &Assumed);
  /// A grid-stride loop (\p OverGrid: the grid counter \p GVar of axis
  /// \p Axis, \p Threads = gridDim*blockDim) or a block-stride one
  /// (threadIdx, blockDim): the thread's counter and the loop's become one
  /// counter over [0, n).
  bool gridStride(Polynomial &Offset, std::vector<Dimension> &Dims,
                  const std::string &GVar, const Polynomial &Coef,
                  const Polynomial &Threads, const char *Axis, bool OverGrid);
  void bindLoops(Loop *Innermost);

  Function &F;
  LoopInfo &LI;
  ScalarEvolution &SE;
  std::function<BranchProbabilityInfo &()> GetBPI;
  std::shared_ptr<ScalarEvolution> KeepSE; ///< SE, where it is our own
  KernelAnalysis &Owner;
  CostModel CM;
  std::vector<std::string> Params;
  SCEVPolynomial Translator;
  /// Node-based: a CountPolys is kilobytes (a polynomial per slot), and a
  /// DenseMap's first 64 buckets of them were a page-faulting share of
  /// every function's analysis.
  std::map<const Loop *, CountPolys> LoopTotals;
  DenseMap<const Loop *, Polynomial> Trips;
  /// Loops whose trip count is unknown (written as a trip_L<line> variable).
  SmallPtrSet<const Loop *, 4> UnknownTrips;
  DenseMap<const Loop *, Polynomial> Iterations; // body runs, for loop rows
  SmallPtrSet<const Instruction *, 8> LoopGuards;
  SmallPtrSet<const Loop *, 8> GuardedLoops; // those with a zero-trip guard
  DenseMap<const Instruction *, Loop *> GuardOf; // the loop a guard skips
  bool Exact = true;
  using StringSet = SetVector<std::string, std::vector<std::string>, std::set<std::string>>;
  StringSet Notes;
  StringSet Assumptions;
  /// What the assumed guards assert, each as a polynomial >= 0.
  std::vector<Polynomial> GuardFacts;
  /// A count's range condition: the polynomial that must be >= 0, its
  /// text, and, for one on the thread index, the note it makes instead.
  struct LoopCondition {
    Polynomial Value;
    std::string Text;
    std::string ThreadNote;
  };
  /// The trip counts' range conditions: stated at the end unless a guard's
  /// fact implies them.
  std::vector<LoopCondition> LoopConditions;
  std::vector<LoopSummary> TopLoops;
  std::vector<Loop *> TopLoopNests; // TopLoops' loops, in the same order
  /// Blocks and loops that run on every iteration of the loop around them
  /// (once per call outside loops): all the mass of their region reaches
  /// them.
  DenseMap<const void *, bool> RunsEveryTime;
  /// Blocks behind an inner loop's zero-trip guard on an outer counter.
  SmallPtrSet<const BasicBlock *, 8> GuardedBlocks;
};

} // namespace roofline::detail

#endif
