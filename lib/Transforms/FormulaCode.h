//===- FormulaCode.h - A summary polynomial as IR ---------------*- C++ -*-===//
//
// The instrumented code evaluates some static formulas at run time (a
// call's footprint from its arguments, and the assumptions it holds under):
// this emits a Polynomial (roofline/Model/Polynomial.h), its atoms mapped
// to values, and a Condition (roofline/Model/Condition.h) as IR.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_LIB_TRANSFORMS_FORMULACODE_H
#define ROOFLINE_LIB_TRANSFORMS_FORMULACODE_H

#include "roofline/Model/Condition.h"

#include "llvm/IR/IRBuilder.h"

#include <map>
#include <string>

namespace roofline {

/// Values for a formula's variables, by name.
using FormulaValues = std::map<std::string, llvm::Value *>;

/// Every variable of \p P (a floor's operands' too) is in \p Known, and it
/// has no unknown value or floor it cannot evaluate.
bool polynomialUses(const Polynomial &P, const FormulaValues &Known);

/// IR at \p B computing \p P as a non-negative integer (i64; a negative
/// value is 0), its variables read from \p Args (integers, read as signed):
/// in 64-bit integers when \p P has integer coefficients and no floor, else
/// in doubles. Null when it mentions a variable Args lacks.
llvm::Value *emitCount(llvm::IRBuilder<> &B, const Polynomial &P,
                       const FormulaValues &Args);

/// The same for each comparison of \p C.
bool conditionUses(const Condition &C, const FormulaValues &Known);

/// IR at \p B testing \p C with \p Args: an i1; null when it mentions a
/// variable Args lacks.
llvm::Value *emitCondition(llvm::IRBuilder<> &B, const Condition &C,
                           const FormulaValues &Args);

/// \p P with \p Args, or 0 where one of \p Conditions fails; \p Holds:
/// whether they all hold (an i1). (\p Holds, when set, is the conditions'
/// test already made at \p B for the same values: a footprint's read and
/// written formulas share one.)
llvm::Value *emitConditionalCount(llvm::IRBuilder<> &B, const Polynomial &P,
                                  const std::vector<Condition> &Conditions,
                                  const FormulaValues &Args,
                                  llvm::Value *&Holds);

} // namespace roofline

#endif
