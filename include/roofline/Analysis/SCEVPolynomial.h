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

#include "roofline/Model/Polynomial.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class Loop;
class SCEV;
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

  /// The polynomial, or nullopt with reason() saying why not.
  std::optional<Polynomial> translate(const llvm::SCEV *S);

  const std::string &reason() const { return Reason; }
  /// Facts the polynomial relies on, e.g. "n >= 1" for a (1 smax n).
  const std::vector<std::string> &assumptions() const { return Assumptions; }
  void clearAssumptions() { Assumptions.clear(); }

private:
  Polynomial fail(std::string Why);
  Polynomial visit(const llvm::SCEV *S);
  Polynomial floorOf(const Polynomial &N, int64_t Divisor);
  Polynomial floorOf(const Polynomial &N, const Polynomial &D);

  llvm::ScalarEvolution &SE;
  Namer NameOf;
  llvm::DenseMap<const llvm::Loop *, std::string> IVs;
  std::string Reason;
  std::vector<std::string> Assumptions;
  bool Failed = false;
};

} // namespace roofline

#endif
