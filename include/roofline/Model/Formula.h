//===- Formula.h - The summary's count formulas -----------------*- C++ -*-===//
//
// Formulas are strings such as "2*M*N*K + M*N" or "256*floor((K - 1)/16)":
// integers, variables (parameter names, blockDim.x, trip_L12), + - * / ^,
// parentheses and floor(). They can be evaluated with values for their
// variables, or read as a Polynomial (floor(...) as an opaque variable) to
// find their behaviour for large sizes.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_MODEL_FORMULA_H
#define ROOFLINE_MODEL_FORMULA_H

#include "roofline/Model/Polynomial.h"
#include "roofline/Model/Result.h"

#include <map>
#include <memory>
#include <set>
#include <string>

namespace roofline {

/// A formula's syntax tree, for code that evaluates it elsewhere (the
/// instrumentation pass emits it as IR). Floor's argument is L; its Name
/// is the argument's text.
struct FormulaTree {
  enum Kind { Number, Variable, Add, Sub, Mul, Div, Pow, Neg, Floor } K;
  double Value = 0;
  std::string Name; // variable name, or floor's argument text
  std::unique_ptr<FormulaTree> L, R;
};
Result<std::unique_ptr<FormulaTree>> parseFormula(const std::string &Text);

/// The value of \p Text with \p Values bound; an error names the formula and
/// the first variable without a value.
Result<double> evaluateFormula(const std::string &Text,
                               const std::map<std::string, double> &Values);

/// A CUDA launch's grid and block dimensions.
struct LaunchDims {
  double Grid[3] = {1, 1, 1};
  double Block[3] = {1, 1, 1};
};

/// Whether \p Text mentions threadIdx, blockIdx or laneid: a per-thread
/// count that differs from thread to thread.
bool mentionsThreadIndex(const std::string &Text);

/// The mean over a launch's threads of the per-thread formula \p Text:
/// blockDim and gridDim are \p Dims unless \p Values binds them; the
/// thread and block indices it mentions (and not \p Values) run through
/// their dimensions, every point up to 2^20 of them, evenly strided beyond.
/// A point's value below 0 counts 0 (a thread that skips a loop).
Result<double> evaluatePerThreadMean(const std::string &Text,
                                     std::map<std::string, double> Values,
                                     const LaunchDims &Dims);

/// The value every size without a given value takes when a formula is
/// judged for large sizes (the report, the compile-time warnings and the
/// audit use this one value).
constexpr double LargeSize = 1048576.0;

/// The one evaluator of the tools: \p Text with \p Values, each other
/// variable at LargeSize (and named in \p Unbound, when given), except the
/// thread and block indices, which run through \p Dims as in
/// evaluatePerThreadMean (the first thread's value with the default Dims).
Result<double> evaluateAtLargeSizes(const std::string &Text,
                                    std::map<std::string, double> Values,
                                    std::set<std::string> *Unbound = nullptr,
                                    const LaunchDims &Dims = LaunchDims());

/// The same for a polynomial, evaluated as one (Polynomial::evaluate),
/// with the thread and block indices at the first thread's 0: no text in
/// between. A value below 0 is 0, as a count is.
Result<double> evaluateAtLargeSizes(const Polynomial &P,
                                    std::map<std::string, double> Values,
                                    std::set<std::string> *Unbound = nullptr);

/// \p Text as a polynomial; floor(E) becomes the variable "floor(E)".
Result<Polynomial> formulaPolynomial(const std::string &Text);

/// The variables \p Text mentions (inside floor() too).
Result<std::set<std::string>> formulaVariables(const std::string &Text);

/// Parses "n=4096,M=512" (or repeated NAME=VALUE items) into \p Values.
Result<std::map<std::string, double>>
parseAssignments(const std::string &Text,
                 std::map<std::string, double> Values = {});

} // namespace roofline

#endif
