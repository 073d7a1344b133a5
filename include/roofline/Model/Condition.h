//===- Condition.h - An assumption of the counts, typed ---------*- C++ -*-===//
//
// The counts hold under assumptions the analysis states ("n > 4 && m > 8
// (guard at f.c:2)", "floor((n - 1)/3) >= 0 (loop 'for.body')", "m - 1 >= 0
// for a", "n > 0 in g"): comparisons of polynomials joined by && and ||,
// then where the assumption comes from. The summary writes them as text;
// Condition is that text read once, by one grammar, so that the code that
// tests an assumption at run time (FormulaCode.cpp) and the tools that
// check one against a launch work on the comparisons, never on the prose.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_MODEL_CONDITION_H
#define ROOFLINE_MODEL_CONDITION_H

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
  std::vector<Condition> Parts; ///< All, Any

  static Condition compare(Polynomial L, Comparison Op, Polynomial R);

  /// The variables it mentions (a floor's operands' too); nullopt when a
  /// side has an opaque floor, the unknown value or is invalid: it cannot
  /// be evaluated from variables.
  std::optional<std::set<std::string>> variables() const;
  /// Whether it holds with \p Values; nullopt when a variable has none.
  std::optional<bool> holds(const std::map<std::string, double> &Values) const;
  /// The comparisons, && and || as the summary writes them (without where
  /// the assumption comes from).
  std::string str() const;
};

/// An assumption as the summary writes it: its condition, and the words
/// after it that say where it comes from (" (guard at f.c:2)", " in g",
/// " for a"; empty when none).
struct Assumption {
  Condition Test;
  std::string Origin;
};

/// Reads \p Text; a failure names the text and what is wrong.
Result<Assumption> parseAssumption(const std::string &Text);

} // namespace roofline

#endif
