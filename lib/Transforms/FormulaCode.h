//===- FormulaCode.h - A summary formula as IR ------------------*- C++ -*-===//
//
// The instrumented code evaluates some static formulas at run time (a
// call's footprint from its arguments): this emits a formula's syntax tree
// (roofline/Model/Formula.h) as double arithmetic.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_LIB_TRANSFORMS_FORMULACODE_H
#define ROOFLINE_LIB_TRANSFORMS_FORMULACODE_H

#include "llvm/IR/IRBuilder.h"

#include <map>
#include <string>

namespace roofline {

/// The variables \p Text mentions are all in \p Known.
bool formulaUses(const std::string &Text,
                 const std::map<std::string, llvm::Value *> &Known);

/// IR at \p B computing \p Text as a non-negative integer (i64; a negative
/// value is 0), its variables read from \p Args (integers, read as signed):
/// in 64-bit integers when the formula has no quotient, else in doubles.
/// Null when the formula does not parse or mentions a variable Args lacks.
llvm::Value *emitCount(llvm::IRBuilder<> &B, const std::string &Text,
                       const std::map<std::string, llvm::Value *> &Args);

/// The assumption \p Text is "L op R" over variables all in \p Known.
bool conditionUses(const std::string &Text,
                   const std::map<std::string, llvm::Value *> &Known);

/// IR at \p B testing an assumption of the analysis ("n > 1 (guard at
/// f.c:3)", "m + 2 <= 4294967295 (loop at f.c:4) in g", "n - 4 >= 0 for
/// a") with \p Args: an
/// i1; null when it does not parse or mentions a variable Args lacks.
llvm::Value *emitCondition(llvm::IRBuilder<> &B, const std::string &Text,
                           const std::map<std::string, llvm::Value *> &Args);

} // namespace roofline

#endif
