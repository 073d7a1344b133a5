//===- IntegerWork.h - Which integer operations are the user's work -*- C++ -*-===//
//
// An integer add in a loop is either the user's work (a checksum, a DP cell,
// a histogram bin's count) or the machinery that walks the data (an address,
// an induction variable, the loop's exit test). Only the first is counted:
// docs/counting.md, "Integer operations", states the rules this implements.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_ANALYSIS_INTEGERWORK_H
#define ROOFLINE_ANALYSIS_INTEGERWORK_H

#include "roofline/Runtime/CostKinds.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

#include <memory>

namespace llvm {
class AllocaInst;
class DominatorTree;
class Function;
class Instruction;
class Value;
} // namespace llvm

namespace roofline {

class IntegerWork {
public:
  explicit IntegerWork(const llvm::Function &F);
  ~IntegerWork();

  /// The integer operations one execution of \p I counts, added to \p Cost
  /// (lanes included); nothing for address arithmetic, induction variables
  /// and loop control.
  void addCost(const llvm::Instruction &I, CostVector &Cost) const;

private:
  /// A value whose result is used as a value: stored, returned, passed, or
  /// deciding a branch on data.
  bool isWork(const llvm::Value *V) const { return Work.count(V); }
  /// The horizontal combine after a vectorised reduction.
  bool isReductionEpilogue(const llvm::Instruction &I) const;
  /// The step of an induction variable (i += c, c invariant).
  bool isInductionStep(const llvm::Instruction &I) const;
  /// \p Step has one value in every iteration of the loop around \p At.
  bool isInvariantFor(const llvm::Value *Step, const llvm::Instruction &At) const;
  void findPromotable(const llvm::Function &F);
  void findData(const llvm::Function &F);
  void findWork(const llvm::Function &F);
  /// The shifts, masks and ors that pack or unpack fp16, bf16 and fp8
  /// values: conversions, not integer work.
  void findFloatPacking(const llvm::Function &F);

  /// Stack slots used only by whole loads and stores (-O0's variables):
  /// values flow through them as through SSA.
  llvm::DenseMap<const llvm::AllocaInst *, llvm::SmallVector<const llvm::Value *, 2>>
      StoredTo;
  llvm::DenseSet<const llvm::Value *> Data; ///< derived from loaded data
  llvm::DenseSet<const llvm::Value *> Work;
  llvm::DenseSet<const llvm::Instruction *> FloatPacking;
  const llvm::Function &F;
  mutable std::unique_ptr<llvm::DominatorTree> DT;
};

} // namespace roofline

#endif
