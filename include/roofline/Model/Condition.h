//===- Condition.h - An assumption of the counts, typed ---------*- C++ -*-===//
//
// The counts hold under assumptions the analysis states ("n > 4 && m > 8
// (guard at f.c:2)", "floor((n - 1)/3) >= 0 (loop 'for.body')", "m - 1 >= 0
// for a", "n > 0 in g"): comparisons of polynomials joined by && and ||,
// then where the assumption comes from. The analysis makes them typed, and
// they stay typed through the summary, the instrumenter's tests and the
// footprint's checks; text is made only where a summary, a remark or a
// descriptor is written (Assumption::str), and read back only where a
// summary comes back from JSON (parseAssumption, one grammar).
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_MODEL_CONDITION_H
#define ROOFLINE_MODEL_CONDITION_H

#include "roofline/Model/Formula.h"
#include "roofline/Model/Polynomial.h"
#include "roofline/Model/Result.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace roofline {

enum class Comparison { GE, LE, GT, LT, EQ, NE };

/// \p X Op \p Y.
bool compare(double X, Comparison Op, double Y);

/// A comparison of two polynomials, or a conjunction or disjunction of
/// conditions (an empty conjunction always holds).
struct Condition {
  enum class Kind { Compare, All, Any };
  Kind K = Kind::All;
  Polynomial Lhs, Rhs; ///< Compare
  Comparison Op = Comparison::GE;
  /// Compare with a constant past 64 bits instead of Rhs: the end of an
  /// unsigned 64-bit range, 18446744073709551615.
  std::optional<__int128> WideRhs;
  std::vector<Condition> Parts; ///< All, Any

  static Condition compare(Polynomial L, Comparison Op, Polynomial R);
  /// \p L Op \p R, with R in Rhs when it fits 64 bits, else in WideRhs.
  static Condition compare(Polynomial L, Comparison Op, __int128 R);
  /// Parts joined by && (\p All) or ||.
  static Condition junction(bool All, std::vector<Condition> Parts);

  /// The variables it mentions (a floor's operands' too); nullopt when a
  /// side has an opaque floor, the unknown value or is invalid: it cannot
  /// be evaluated from variables.
  std::optional<std::set<std::string>> variables() const;
  /// Whether it holds with \p Values; nullopt when a variable has none.
  std::optional<bool> holds(const std::map<std::string, double> &Values) const;
  /// The comparisons, && and || as the summary writes them (without where
  /// the assumption comes from), variables ordered by \p Order (others after,
  /// by name). A part with the other junction in it is parenthesised.
  std::string str(const std::vector<std::string> &Order = {}) const;
  /// Some comparison's right side is past 64 bits (WideRhs).
  bool hasWideConstant() const;
};

/// An assumption: its condition, and the words after it that say where it
/// comes from (" (guard at f.c:2)", " in g", " for a"; empty when none).
/// One that is not comparisons (a GPU kernel's counts are per thread that
/// passes its index guards) is words alone.
struct Assumption {
  Condition Test;
  std::string Origin;
  /// Set for an assumption of words alone; then Test is empty.
  std::string Words;
  /// The variables' order in its text: the parameters of the function that
  /// states it (a callee's, for an assumption of a call).
  std::vector<std::string> Order;

  static Assumption of(Condition Test, std::string Origin,
                       std::vector<std::string> Order);
  static Assumption words(std::string Words);
  /// \p P >= 0, in no particular order of variables.
  static Assumption nonNegative(Polynomial P);
  bool isCondition() const { return Words.empty(); }
  /// As the summary writes it.
  std::string str() const;
  /// The same assumption: the same words.
  bool operator==(const Assumption &O) const { return str() == O.str(); }
};

/// Each as the summary writes it.
std::vector<std::string> texts(const std::vector<Assumption> &List);

/// Reads \p Text; a failure names the text and what is wrong.
Result<Assumption> parseAssumption(const std::string &Text,
                                   ParamNames Params = nullptr);

} // namespace roofline

#endif
