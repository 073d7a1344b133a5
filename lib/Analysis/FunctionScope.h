//===- FunctionScope.h - What each step of the analysis reads ---*- C++ -*-===//
//
// Internal to lib/Analysis. The analysis of one function runs in steps,
// each a class of its own (FunctionAnalyzer.h lists them); these are what
// they all share:
//   FunctionScope  the function, its loops, ScalarEvolution, the cost model
//                  and the names formulas use (read-only);
//   Findings       the log the steps write to: notes, assumptions and the
//                  trip counts' range conditions, in the order found (the
//                  summary keeps that order), like an
//                  OptimizationRemarkEmitter.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_LIB_ANALYSIS_FUNCTIONSCOPE_H
#define ROOFLINE_LIB_ANALYSIS_FUNCTIONSCOPE_H

#include "roofline/Analysis/CostModel.h"
#include "roofline/Analysis/DeviceCode.h"
#include "roofline/Analysis/SCEVPolynomial.h"
#include "roofline/Model/Condition.h"
#include "roofline/Model/Polynomial.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/DebugLoc.h"
#include "llvm/IR/InstrTypes.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace roofline::detail {

using namespace llvm;

/// "file.cpp:12" for a debug location, or "" without one.
std::string locationText(const DebugLoc &DL);

std::string locationText(const Instruction *I);
std::string loopText(const Loop *L);
/// Parameter names from debug info (dbg records and retained nodes), the IR,
/// or the source text; else "argN". Made unique and usable in formulas.
std::vector<std::string> parameterNames(const Function &F);
/// Depends only on parameters, constants and GPU thread/block indices:
/// the same answer whatever the data in memory.
/// With \p SE, induction variables (add recurrences) are accepted too.
bool isParameterOnly(const Value *V, ScalarEvolution *SE = nullptr,
                     unsigned Depth = 0);
/// An equality on the thread index (`threadIdx.x == 0`), alone or as a
/// part of `&&` / `||`: it singles out some threads of a block.
bool singlesOutThreads(const Value *C, unsigned Depth = 0);
/// \p P mentions a loop's or the grid's counter ($iv1, $grid.x), a floor's
/// operands included: it cannot be stated in the parameters.
bool mentionsCounter(const Polynomial &P);

/// The function under analysis and what every step reads of it.
class FunctionScope {
public:
  FunctionScope(Function &F, LoopInfo &LI, ScalarEvolution &SE,
                const CostModel &CM)
      : F(F), LI(LI), SE(SE), CM(CM), Params(parameterNames(F)) {}

  Function &F;
  LoopInfo &LI;
  ScalarEvolution &SE;
  const CostModel &CM;
  /// The parameters' names, by argument number.
  const std::vector<std::string> Params;

  /// A parameter's name, or a GPU index register's ("threadIdx.x").
  std::optional<std::string> nameOf(const Value *V) const;
  /// The counter of \p L in formulas: "$iv<depth>".
  static std::string ivName(const Loop *L) {
    return "$iv" + std::to_string(L->getLoopDepth());
  }
  /// A translator of its own (its own conditions), naming the parameters.
  SCEVPolynomial translator() const;
  /// A fresh translator that also names the counters of \p Around and the
  /// loops around it.
  SCEVPolynomial translatorAround(const Loop *Around) const;
  /// Binds the counters of \p Innermost and the loops around it in \p T.
  static void bindLoops(SCEVPolynomial &T, const Loop *Innermost);
};

/// A trip count's or an inner guard's range condition: the polynomial that
/// must be >= 0, the assumption that states it, and, for one on the thread
/// index, the note it makes instead. Stated at the end unless a guard's
/// fact implies it.
struct RangeCondition {
  Polynomial Value;
  Assumption Stated;
  std::string ThreadNote;
};

/// What the steps found, in the order found.
struct Findings {
  using StringSet =
      SetVector<std::string, std::vector<std::string>, std::set<std::string>>;
  bool Exact = true;
  StringSet Notes;
  /// Each stated once (by its words), in the order found.
  std::vector<Assumption> Assumptions;
  std::vector<RangeCondition> RangeConditions;

  void assume(Assumption A) {
    if (Stated.insert(A.str()).second)
      Assumptions.push_back(std::move(A));
  }

  /// A note that makes the counts inexact.
  void note(const std::string &N) {
    Exact = false;
    Notes.insert(N);
  }
  /// A note that leaves the counts exact.
  void remark(const std::string &N) { Notes.insert(N); }

private:
  std::set<std::string> Stated; ///< Assumptions' words
};

} // namespace roofline::detail

#endif
