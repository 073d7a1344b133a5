//===- KeptCalls.h - A leaf's counters kept by its calling loop -*- C++ -*-===//
//
// A small function called from a loop a hundred million times pays, per
// call, for adding its counters into its thread_local block, counting the
// call, deciding whether to time it, and (when its caller is a kernel) for
// the caller reading the block before and after the call. Kept calls move
// that work into the calling loop:
//
//  - the kept function F.roofline.kept is a clone of F made once F's counts
//    are placed (count operations, CountOperations.h) and before they are
//    lowered, so its counters are F's one for one; it is lowered as F is,
//    except that it neither counts the call nor registers the block, and
//    takes the thread's count of calls so far as a last argument for its
//    timing sample (it times the same calls F would). It adds its counters to the
//    block itself, one add each (where it counts them, when that is
//    outside its loops). It has no clock at all: it sends its
//    timed calls to a second copy, F.roofline.kept.timed, with F's timers
//    (so no register of the untimed path is kept for the clock, and no
//    branch tests it);
//  - the calling loop counts the calls in a register and adds them (and
//    every counter of F that runs once per call) to F's block once, at
//    each exit of the loop, registering the block on the thread's first
//    calls. A calling kernel, which read F's block before and after each
//    call (the call's work, for its inclusive counts), reads it once on
//    entry to the loop and once at each exit, where the loop's only call
//    of F is the only code that can add to it (F's address is not taken,
//    and every other call in the loop writes only its arguments' memory);
//    else the loop's calls are not kept.
//
// Counts are exact by construction: the kept function runs F's counting
// code; only where the calls are added changes. So that none is lost,
// everything in the loop returns: every call in it is to a kept function,
// an intrinsic, or a function that will return and not throw (no exit(),
// no exception, no longjmp can leave the loop with calls in registers).
//
// F's footprint, a formula of its arguments added per call, is worked out
// by the calling loop too, from the arguments of the call: once on entry
// to the loop when they do not change in it (and added times the calls at
// its exits), else at each call. The kept function then has no code for
// it (F's own entry still has).
//
// ROOFLINE_TRACE and ROOFLINE_CACHE need F's own entry (its argument
// trace, its traced copy): the loop's preheader tests them once and, when
// either is on, passes 0 as the count of calls (and counts none itself),
// which sends every call to the timed form's forward path: it calls F
// itself, which counts the call and adds to the block as always.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_LIB_TRANSFORMS_KEPTCALLS_H
#define ROOFLINE_LIB_TRANSFORMS_KEPTCALLS_H

#include "CalleeCounts.h"
#include "CounterPlacement.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <map>
#include <vector>

namespace roofline {

/// How the calling loop keeps one counter of a kept function.
enum class KeptKind : uint8_t {
  Timer,   ///< a loop timer's: the timed form adds to the block itself
  PerCall, ///< one per call, always: the loop's count of calls
  Flushed, ///< any other: the kept function adds it to the block
  /// A footprint formula of the call's arguments, or the count of calls
  /// that broke its assumptions: the calling loop works it out.
  ByCaller,
};

/// One footprint formula a calling loop works out (KeptKind::ByCaller).
struct KeptFormula {
  uint32_t Counter;                  ///< its counter in the block
  Polynomial Formula;                ///< of the kept function's parameters
  std::vector<Condition> Conditions; ///< a call that breaks one adds 0
  int Broken = -1;                   ///< and then 1 to this counter (>= 0)
};

/// A function whose calls in loops keep its counters, and its kept form.
struct KeptShape {
  llvm::Function *Original = nullptr;
  llvm::Function *Kept = nullptr;
  llvm::GlobalVariable *TLS = nullptr; ///< the original's block
  llvm::ArrayType *BlockType = nullptr;
  llvm::GlobalVariable *Desc = nullptr; ///< the original's descriptor
  std::vector<KeptKind> Kinds;          ///< per counter
  /// The timed form's: where a timed call starts its clock (the forward
  /// path goes in before it), from its lowering.
  llvm::Instruction *TimedStart = nullptr;
  /// The form without the clock (no sample decision, no loop timers): its
  /// timed calls go to the timed form, Timed.
  bool Untimed = false;
  llvm::Function *Timed = nullptr;
  /// The formulas the calling loop works out, and the parameter each of
  /// their variables names (by number).
  std::vector<KeptFormula> Formulas;
  std::map<std::string, unsigned> Parameters;
};

/// A caller's read of a callee's counter around a call (instrumented
/// callers only): the growth a kept call returns instead.
struct GrowthRead {
  llvm::CallBase *Call;
  uint32_t Counter;
  llvm::Instruction *Before, *After, *Growth;
  uint32_t Into; ///< the caller's counter the growth adds to
};

/// Whether calls of \p F may keep its counters (asked of F before it is
/// instrumented): a leaf that always returns to its caller, whose module
/// copy is the one that runs, and that is called somewhere in a loop.
bool mayKeepCounters(llvm::Function &F, const CalleeCounts &Callees);

/// Makes the kept function F.roofline.kept<Suffix> (F: S.Original, its
/// counts placed, not lowered): F's signature and the count of calls so
/// far; F cloned into it, each value's copy in \p VMap. Fills S.Kept.
void makeKeptFunction(KeptShape &S, const llvm::Twine &Suffix,
                      llvm::ValueToValueMapTy &VMap);

/// After the timed kept function is instrumented: its forward path, taken
/// on a timed call when ROOFLINE_TRACE or ROOFLINE_CACHE is on.
void addForwardPath(KeptShape &S);

/// After the untimed kept function is instrumented: its timed calls (by
/// the calls so far it is passed) go to S.Timed.
void addTimedDispatch(KeptShape &S);

/// Rewrites the calls of kept functions in \p G's loops whose every call
/// returns; \p Reads: G's growth reads, moved to the loops' entries and
/// exits with the count operations that add them (not lowered yet).
/// Returns each rewritten call's replacement.
std::map<llvm::CallBase *, llvm::CallInst *>
keepCallsIn(llvm::Function &G,
            const std::map<const llvm::Function *, KeptShape> &Shapes,
            const std::vector<GrowthRead> &Reads);

/// How a calling loop would keep each counter of \p P (asked of \p F
/// before its lowering changes the CFG). A footprint formula of F's
/// arguments (P.Arguments) is ByCaller, as is the counter of calls that
/// broke its assumptions.
std::vector<KeptKind> keptKinds(llvm::Function &F, const llvm::LoopInfo &LI,
                                const PlacedCounters &P);

/// In a kept function \p F: each counter of kind Flushed that one count
/// operation outside loops counts (a trip count in a preheader, say) added
/// to the original's block right there, not carried to the return in a
/// register (with its zeros on the paths that skip it). Returns which
/// counters it took.
std::vector<bool>
addKeptCountersWhereCounted(llvm::Function &F, const KeptShape &S,
                            const std::vector<Counter> &Counters);

/// A kept function's return \p Ret: adds the counters of kind Flushed
/// (\p Slots) to the original's block, but those already added (\p Added);
/// the calling loop adds the others.
void flushKeptCounters(llvm::ReturnInst *Ret, const KeptShape &S,
                       const std::vector<Counter> &Counters,
                       llvm::ArrayRef<llvm::AllocaInst *> Slots,
                       const std::vector<bool> &Added);

/// The formulas of \p P whose kind in \p Kinds is ByCaller, and the
/// parameters they name, into \p S.
void takeKeptFormulas(const PlacedCounters &P,
                      const std::vector<KeptKind> &Kinds, KeptShape &S);

/// -roofline-kept-calls (on by default).
bool keptCallsEnabled();

} // namespace roofline

#endif
