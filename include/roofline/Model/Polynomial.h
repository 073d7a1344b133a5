//===- Polynomial.h - Closed-form count formulas ----------------*- C++ -*-===//
//
// A multivariate polynomial with exact rational coefficients over typed
// atoms (Atom.h: kernel parameters such as `n`, CUDA built-ins such as
// `blockDim.x`, unknown trip counts, floors such as `floor(n/4)`). The static pass builds a
// kernel's FLOP and byte totals as Polynomials: a loop's total is the sum of
// its body over the iteration variable (Faulhaber's formulas), which is how
// triangular nests become n*(n-1)/2-style closed forms.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_MODEL_POLYNOMIAL_H
#define ROOFLINE_MODEL_POLYNOMIAL_H

#include "roofline/Model/Atom.h"
#include "roofline/Model/Monomial.h"
#include "roofline/Model/Rational.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace roofline {

class Polynomial {
public:
  /// Atoms with exponents, sorted by name; empty for the constant term.
  using Monomial = roofline::Monomial;

  Polynomial() = default; ///< The zero polynomial.
  Polynomial(int64_t C) : Polynomial(Rational(C)) {}
  Polynomial(Rational C);
  /// The atom \p Name spells (Atom::named types it).
  static Polynomial variable(const std::string &Name);
  static Polynomial atom(const Atom &A);
  /// A polynomial that stands for "could not be represented" (overflow, or a
  /// failed operation); every operation on it stays invalid.
  static Polynomial invalid();
  /// floor(N / Divisor): the exact value for a constant N, otherwise a
  /// floor atom spelled "floor(N/Divisor)" (strip-mined loops usually
  /// cancel it against their remainder loop). \p Order as in str().
  static Polynomial floorOf(const Polynomial &N, int64_t Divisor,
                            const std::vector<std::string> &Order = {});
  /// floor(N / D) for a divisor that is not a constant: a floor atom
  /// "floor(N/D)" (evaluated from N's and D's values); a constant D goes to
  /// the overload above.
  static Polynomial floorOf(const Polynomial &N, const Polynomial &D,
                            const std::vector<std::string> &Order = {});

  bool isValid() const { return Valid; }
  bool isZero() const { return Valid && Terms.empty(); }
  /// The value when the polynomial mentions no variable.
  std::optional<Rational> constantValue() const;
  /// (monomial, coefficient) pairs, sorted by monomial, none zero.
  using Term = std::pair<Monomial, Rational>;
  const std::vector<Term> &terms() const { return Terms; }
  /// This polynomial less its constant term: the part that grows with the
  /// variables.
  Polynomial withoutConstant() const;

  Polynomial operator+(const Polynomial &O) const;
  Polynomial operator-(const Polynomial &O) const;
  Polynomial operator*(const Polynomial &O) const;
  /// In place: no copy of this polynomial's terms.
  Polynomial &operator+=(const Polynomial &O);
  /// *this += Scale * O, without building the product.
  Polynomial &addScaled(const Polynomial &O, const Rational &Scale);
  bool operator==(const Polynomial &O) const {
    return Valid == O.Valid && Terms == O.Terms;
  }
  bool operator!=(const Polynomial &O) const { return !(*this == O); }

  /// Replaces each variable in \p Values by its polynomial, simultaneously,
  /// in floors' operands too (a floor named in \p Values is replaced whole):
  /// the one substitution of the analysis, the footprints and the audit.
  Polynomial substitute(const std::map<std::string, Polynomial> &Values) const;
  /// The sum of this polynomial for Var = 0, 1, ..., Count-1, as a polynomial
  /// in Count's variables and this polynomial's other variables.
  Polynomial sumOver(const std::string &Var, const Polynomial &Count) const;
  /// The same, reusing \p PowerSums: entry k, once computed, is
  /// sum_{i<Count} i^k, for one Count shared by many sums (a loop's counts).
  Polynomial sumOver(const std::string &Var, const Polynomial &Count,
                     std::vector<Polynomial> &PowerSums) const;

  /// Var is one of its atoms (not looking into floors: Atom::involves does).
  bool mentions(const std::string &Var) const;
  /// Its atoms' names.
  std::set<std::string> variables() const;
  /// The variables its value depends on: its atoms, a floor's operands'
  /// instead of the floor; none when it cannot be evaluated from variables
  /// (invalid, the unknown value, a floor without its operands).
  std::optional<std::set<std::string>> leafVariables() const;
  /// Its atoms, by name.
  std::vector<Atom> atoms() const;
  /// An atom of kind \p K, or a floor with one inside.
  bool involves(AtomKind K) const;
  /// Highest total degree (0 for constants and zero).
  unsigned degree() const;
  /// The terms of the highest total degree: the asymptotic behaviour.
  Polynomial leadingTerms() const;
  /// C such that *this == C * O, when one exists (O non-zero).
  std::optional<Rational> ratioTo(const Polynomial &O) const;

  /// Value with every variable bound (a floor not bound by its name is
  /// computed from its operands); nullopt when one is missing.
  std::optional<double>
  evaluate(const std::map<std::string, double> &Values) const;

  /// Readable and evaluable text: "2*M*N*K + M*N", "(n^2 - n)/2". Variables
  /// are printed in \p Order first (e.g. the kernel's parameter order), any
  /// others by name.
  std::string str(const std::vector<std::string> &Order = {}) const;

private:
  void addTerm(const Monomial &M, const Rational &C);
  /// P + Scale * O.
  static Polynomial sum(const Polynomial &P, const Polynomial &O,
                        const Rational &Scale);
  /// Sums equal monomials of \p Unsorted into this (zero) polynomial.
  void collect(std::vector<Term> Unsorted);
  /// Terms sorted by monomial: a few terms each, built and summed per block
  /// and loop, where a vector costs one allocation and a map one per term.
  std::vector<Term> Terms;
  bool Valid = true;
};

} // namespace roofline

#endif
