//===- Formula.h - The summary's count formulas -----------------*- C++ -*-===//
//
// Formulas are strings such as "2*M*N*K + M*N" or "256*floor((K - 1)/16)":
// numbers, variables (parameter names, blockDim.x, trip_L12), + - * / ^,
// parentheses and floor(). Text is read once, into a Polynomial (a floor
// of a quotient becomes a floor atom with its operands); every value below
// is that polynomial's Polynomial::evaluate, the one numeric evaluator,
// and FormulaCode.cpp is its IR back end.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_MODEL_FORMULA_H
#define ROOFLINE_MODEL_FORMULA_H

#include "roofline/Model/Polynomial.h"
#include "roofline/Model/Result.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace roofline {

/// The names a formula's text reads as the kernel's parameters, whatever
/// they spell (Atom::named): a kernel's "params". Null: none known, every
/// name typed by its spelling.
using ParamNames = const std::vector<std::string> *;

/// The value of \p Text with \p Values bound; an error names the formula and
/// the first variable without a value.
Result<double> evaluateFormula(const std::string &Text,
                               const std::map<std::string, double> &Values,
                               ParamNames Params = nullptr);

/// A CUDA launch's grid and block dimensions.
struct LaunchDims {
  double Grid[3] = {1, 1, 1};
  double Block[3] = {1, 1, 1};
};

/// Whether \p Text mentions threadIdx, blockIdx or laneid: a per-thread
/// count that differs from thread to thread.
bool mentionsThreadIndex(const std::string &Text, ParamNames Params = nullptr);

/// The mean over a launch's threads of the per-thread formula \p Text:
/// blockDim and gridDim are \p Dims unless \p Values binds them; the
/// thread and block indices it mentions (and not \p Values) run through
/// their dimensions, every point up to 2^20 of them, evenly strided beyond.
/// A point's value below 0 counts 0 (a thread that skips a loop).
Result<double> evaluatePerThreadMean(const std::string &Text,
                                     std::map<std::string, double> Values,
                                     const LaunchDims &Dims,
                                     ParamNames Params = nullptr);

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
                                    const LaunchDims &Dims = LaunchDims(),
                                    ParamNames Params = nullptr);

/// The same for a polynomial (\p Text: its spelling in errors, when it
/// was read from one). A value below 0 is 0, as a count is.
Result<double> evaluateAtLargeSizes(const Polynomial &P,
                                    std::map<std::string, double> Values,
                                    std::set<std::string> *Unbound = nullptr,
                                    const LaunchDims &Dims = LaunchDims(),
                                    const std::string &Text = "");

/// \p P with every atom at LargeSize (the thread indices and floors too),
/// signed: an order for polynomials by their size, as the footprint's
/// sorts use it; 0 when it cannot be evaluated.
double orderAtLargeSizes(const Polynomial &P);

/// \p Text as a polynomial: floor(A/B) becomes a floor atom spelled
/// "floor(A/B)"; a decimal an exact rational; a division by anything but a
/// constant (outside a floor) or a power that is not a small integer is an
/// error.
Result<Polynomial> formulaPolynomial(const std::string &Text,
                                     ParamNames Params = nullptr);

/// The variables \p Text's value is read from (a floor's operands').
Result<std::set<std::string>> formulaVariables(const std::string &Text,
                                               ParamNames Params = nullptr);

/// A count formula as a summary or a profile holds it: read once, where the
/// file is read, into its polynomial (the kernel's parameters typed as
/// parameters whatever they spell); its text is kept as written, for
/// display and for the JSON written back.
struct Formula {
  std::string Text = "0";
  Polynomial Value;
  /// \p Text read; the error names the formula.
  static Result<Formula> read(const std::string &Text, ParamNames Params);
  bool isZero() const { return Value.isZero(); }
};

/// The evaluators above, on a formula already read.
Result<double> evaluateFormula(const Formula &F,
                               const std::map<std::string, double> &Values);
bool mentionsThreadIndex(const Formula &F);
Result<double> evaluatePerThreadMean(const Formula &F,
                                     std::map<std::string, double> Values,
                                     const LaunchDims &Dims);
Result<double> evaluateAtLargeSizes(const Formula &F,
                                    std::map<std::string, double> Values,
                                    std::set<std::string> *Unbound = nullptr,
                                    const LaunchDims &Dims = LaunchDims());

/// Parses "n=4096,M=512" (or repeated NAME=VALUE items) into \p Values.
Result<std::map<std::string, double>>
parseAssignments(const std::string &Text,
                 std::map<std::string, double> Values = {});

} // namespace roofline

#endif
