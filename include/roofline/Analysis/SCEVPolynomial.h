//===- SCEVPolynomial.h - ScalarEvolution to closed forms -------*- C++ -*-===//
//
// Turns a SCEV (a trip count, a memcpy length) into a Polynomial over the
// kernel's parameter names. Add recurrences of enclosing loops become
// polynomials in those loops' iteration variables, so a triangular inner trip
// count {0,+,1}<outer> becomes `iv`, which KernelAnalysis then sums away.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_ANALYSIS_SCEVPOLYNOMIAL_H
#define ROOFLINE_ANALYSIS_SCEVPOLYNOMIAL_H

#include "roofline/Model/Condition.h"
#include "roofline/Model/Polynomial.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class Loop;
class SCEV;
class SCEVMinMaxExpr;
class SCEVUnknown;
class ScalarEvolution;
class Value;
} // namespace llvm

namespace roofline {

class SCEVPolynomial {
public:
  /// \p NameOf names the values a formula may mention (parameters, GPU
  /// built-ins) and returns nullopt for anything else.
  using Namer = std::function<std::optional<std::string>(const llvm::Value *)>;

  SCEVPolynomial(llvm::ScalarEvolution &SE, Namer NameOf)
      : SE(SE), NameOf(std::move(NameOf)) {}

  /// Lets add recurrences of \p L appear, as the variable \p IV.
  void bindLoop(const llvm::Loop *L, std::string IV) { IVs[L] = std::move(IV); }

  /// How the value of the SCEV translated is read: as the bits of a count
  /// or an unsigned compare, as a signed compare reads them, or not at all
  /// (only its residue modulo 2^width matters, e.g. inside an address).
  enum class Reading { Unsigned, Signed, Modular };

  /// The polynomial, or nullopt with reason() saying why not. The
  /// polynomial is computed over the integers; ScalarEvolution's value
  /// wraps modulo 2^width. They agree modulo 2^width through additions and
  /// multiplications, so only where a value is read as a number (\p As, and
  /// inside extensions, divisions, minima and maxima) must the integer lie
  /// in the type's range: what cannot be proved is added to conditions().
  std::optional<Polynomial> translate(const llvm::SCEV *S,
                                      Reading As = Reading::Unsigned);

  const std::string &reason() const { return Reason; }

  /// A fact the polynomial relies on: Value >= Bound, or Value <= Bound.
  struct Condition {
    Polynomial Value;
    bool AtLeast = true;
    __int128 BoundValue = 0;
    /// On the value translated itself (a backedge-taken count), not inside.
    bool Root = false;
    /// Value - Bound (or Bound - Value): >= 0 when the condition holds;
    /// invalid when Bound does not fit 64 bits.
    Polynomial nonNegative() const;
    /// Value >= BoundValue (or <= BoundValue).
    roofline::Condition stated() const;
  };
  /// Facts the polynomial relies on, e.g. "n >= 1" for a (1 smax n), or
  /// "n <= 255" for an 8-bit counter whose bound is n.
  const std::vector<Condition> &conditions() const { return Conditions; }
  void clearAssumptions() { Conditions.clear(); }
  void addCondition(Condition C) { Conditions.push_back(std::move(C)); }
  /// True when \p P >= Bound (or <= Bound) for every value of the
  /// parameters' types.
  bool provable(const Polynomial &P, bool AtLeast, __int128 Bound) const;
  /// States \p P >= Bound (or <= Bound) unless it is provable.
  void require(const Polynomial &P, bool AtLeast, __int128 Bound);
  /// Whether \p P mentions a thread index (threadIdx, laneid), inside a
  /// floor too.
  static bool variesWithThread(const Polynomial &P);

private:
  Polynomial fail(std::string Why);
  Polynomial visit(const llvm::SCEV *S);
  Polynomial visitMax(const llvm::SCEVMinMaxExpr *MM);
  Polynomial visitUnknown(const llvm::SCEVUnknown *U);
  Polynomial floorOf(const Polynomial &N, int64_t Divisor);
  Polynomial floorOf(const Polynomial &N, const Polynomial &D);
  /// \p P, the integer translation of \p S, read as \p As: a constant is
  /// reduced into the type's range; otherwise the range is required (stated
  /// as conditions unless the no-wrap flags or the variables' ranges prove it).
  Polynomial inRange(Polynomial P, const llvm::SCEV *S, Reading As);
  /// True when the integer translation of \p S provably equals its value
  /// read as \p As: no-wrap flags down to the parameters.
  bool wrapFree(const llvm::SCEV *S, Reading As) const;
  /// Gives the opaque term \p Q = floor(N/...) the range of \p BoundOf
  /// applied to N's bounds (widened to include 0).
  void rangeOfQuotient(const Polynomial &Q, const Polynomial &N,
                       llvm::function_ref<__int128(__int128)> BoundOf);

  llvm::ScalarEvolution &SE;
  Namer NameOf;
  llvm::DenseMap<const llvm::Loop *, std::string> IVs;
  /// Each parameter variable's possible values (from its type's width).
  std::map<std::string, std::pair<__int128, __int128>> VarRange;
  /// The residues x - M*floor(x/M) made of x % M: each lies in [0, M).
  struct Residue {
    Polynomial X, Floor;
    int64_t M;
  };
  std::vector<Residue> Residues;
  std::string Reason;
  std::vector<Condition> Conditions;
  bool Failed = false;
};

/// The least and greatest values of \p P when each variable lies in its
/// range in \p Ranges; nullopt when a variable has no range or the bounds
/// overflow 128 bits. The bounds are scaled: the real bounds are these
/// divided by \p Scale (the common denominator of the coefficients).
std::optional<std::pair<__int128, __int128>>
valueRange(const Polynomial &P,
           const std::map<std::string, std::pair<__int128, __int128>> &Ranges,
           __int128 &Scale);

} // namespace roofline

#endif
