//===- Guards.h - Zero-trip guards and assumed branches ---------*- C++ -*-===//
//
// Internal to lib/Analysis.
//   ZeroTripGuards    the branch above each loop that skips it (its
//                     zero-trip test), found on request;
//   GuardAssumptions  which branches are assumed to take the side with the
//                     work, and what that asserts: an assumption (a typed
//                     Condition) and the facts (polynomials >= 0) later
//                     steps may rely on.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_LIB_ANALYSIS_GUARDS_H
#define ROOFLINE_LIB_ANALYSIS_GUARDS_H

#include "FunctionScope.h"
#include "Region.h"
#include "TripCounts.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <optional>
#include <string>
#include <vector>

namespace roofline::detail {

class ZeroTripGuards {
public:
  explicit ZeroTripGuards(const FunctionScope &S) : S(S) {}

  /// Finds \p L's zero-trip guard: the nearest conditional branch above its
  /// entry, when its condition is affine in parameters and counters (or
  /// when L's count is unknown).
  void find(Loop *L);
  bool isGuard(const Instruction *Br) const { return Guards.count(Br); }
  /// The loop \p Br guards (null: none).
  Loop *loopOf(const Instruction *Br) const { return GuardOf.lookup(Br); }
  bool isGuarded(const Loop *L) const { return GuardedLoops.count(L); }

private:
  const FunctionScope &S;
  SmallPtrSet<const Instruction *, 8> Guards;
  SmallPtrSet<const Loop *, 8> GuardedLoops;
  DenseMap<const Instruction *, Loop *> GuardOf;
};

/// What the assumed guards assert, and where it holds.
struct AssertedFacts {
  std::vector<Polynomial> Facts;         ///< each a polynomial >= 0
  std::vector<const BasicBlock *> Where; ///< per fact: its guard's work side
  /// A - B of each == or != test (read modulo the width: no fact), which
  /// singles out threads when it involves their index.
  std::vector<Polynomial> Tests;
  std::vector<const BasicBlock *> TestWhere; ///< per test, as Where
};

class GuardAssumptions {
public:
  GuardAssumptions(const FunctionScope &S, const ZeroTripGuards &ZeroTrip,
                   TripCounts &Trips, Findings &Found)
      : S(S), ZeroTrip(ZeroTrip), Trips(Trips), Found(Found) {}

  /// The successor of \p BB's branch assumed taken in \p R (its assumption
  /// recorded), or nothing when the branch is not a guard.
  std::optional<unsigned> assumedSuccessor(const Region &R, BasicBlock *BB);
  /// What the assumed guards assert, each as a polynomial >= 0.
  const std::vector<Polynomial> &facts() const { return Asserted.Facts; }
  /// The same with where each holds (wherever its block dominates), and
  /// the guards' equality tests.
  const AssertedFacts &asserted() const { return Asserted; }

private:
  /// "A < B", "A < B && C < D": a guard's condition in the parameters (when
  /// \p Holds is false, its negation), with the range conditions its
  /// operands rely on; nothing when it is not comparisons. With \p Asserted,
  /// each comparison the condition asserts is added to it as a polynomial
  /// that is >= 0; with \p Tests, each == or != comparison's A - B. With \p Around, the counters of the loops around it may
  /// appear too.
  std::optional<Condition>
  conditionOf(const Value *C, bool Holds,
              std::vector<Polynomial> *Asserted = nullptr,
              Loop *Around = nullptr,
              std::vector<Polynomial> *Tests = nullptr) const;
  /// A zero-trip guard of an inner loop that depends on enclosing loops'
  /// counters is assumed taken: that is exact only where its condition
  /// holds or the loop's trip formula is 0. Checked at the enclosing loops'
  /// first and last iterations (linear conditions); false when it fails.
  bool checkInnerGuard(const BranchInst *Br, bool Holds);

  const FunctionScope &S;
  const ZeroTripGuards &ZeroTrip;
  TripCounts &Trips;
  Findings &Found;
  AssertedFacts Asserted;
};

} // namespace roofline::detail

#endif
