//===- TripCounts.h - Loop trip counts as polynomials -----------*- C++ -*-===//
//
// Internal to lib/Analysis. Each loop's trip count in the parameters and the
// counters of the loops around it, computed on first request; what a count
// relies on (no wrap-around, the test passing on entry) goes to the range
// conditions of Findings.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_LIB_ANALYSIS_TRIPCOUNTS_H
#define ROOFLINE_LIB_ANALYSIS_TRIPCOUNTS_H

#include "FunctionScope.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace roofline::detail {

class ZeroTripGuards;

class TripCounts {
public:
  TripCounts(const FunctionScope &S, const ZeroTripGuards &Guards,
             Findings &Found)
      : S(S), Guards(Guards), Found(Found), Translator(S.translator()) {}

  /// \p L's trip count (a trip_L<line> variable when it is unknown).
  Polynomial tripCount(Loop *L);
  /// The counts computed so far.
  const DenseMap<const Loop *, Polynomial> &counts() const { return Trips; }
  /// \p L's count is known (not a trip_L<line> variable).
  bool known(const Loop *L) const { return !UnknownTrips.count(L); }

  /// \p P at the first and last iteration of each loop around \p L (and L)
  /// that it mentions, with the substitutions made; nullopt when it is not
  /// linear in one of them or its trip count is not known yet.
  using Substitution = std::vector<std::pair<std::string, Polynomial>>;
  std::optional<std::vector<std::pair<Polynomial, Substitution>>>
  atEndpoints(Loop *L, const Polynomial &P) const;

private:
  /// The translator's conditions for \p L's count, as range conditions.
  void recordConditions(Loop *L);
  std::optional<Polynomial> steppedTripCount(Loop *L);
  void staysInRange(ICmpInst::Predicate P, const Polynomial &Bound,
                    const Polynomial &Step, unsigned Width);
  std::optional<Polynomial>
  symbolicStepTripCount(Loop *L, ICmpInst::Predicate P, const SCEV *Step,
                        const Polynomial &First, const Polynomial &Bound,
                        SCEVPolynomial::Reading As);
  /// The compare's counter cannot wrap before the loop exits.
  bool counterCannotWrap(Loop *L, const SCEVAddRecExpr *AR, const ICmpInst *Cmp,
                         bool Signed) const;
  bool isInvariant(const SCEV *X, const Loop *L, unsigned Depth = 0) const;

  const FunctionScope &S;
  const ZeroTripGuards &Guards;
  Findings &Found;
  /// Collects the conditions of the count being computed.
  SCEVPolynomial Translator;
  DenseMap<const Loop *, Polynomial> Trips;
  /// Loops whose trip count is unknown (written as a trip_L<line> variable).
  SmallPtrSet<const Loop *, 4> UnknownTrips;
};

} // namespace roofline::detail

#endif
