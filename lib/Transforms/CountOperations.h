//===- CountOperations.h - A count as an IR operation ------------*- C++ -*-===//
//
// The placement's increments as IR operations, as llvm.instrprof.increment
// is PGO's:
//
//   call void @roofline.count(i32 Counter, i64 Step)      ; counter += Step
//   call void @roofline.count.max(i32 Counter, i64 Value) ; counter >= Value
//
// Counter is the function's counter (its index in the placement); the max
// form keeps a loop nest's most (and, as a complement, fewest) iterations
// an entry. The increments (CounterCode.cpp) emit them; the kept-call
// rewrite moves them (KeptCalls.cpp); lowerCountOperations turns them into
// adds to the counters' stack slots, which the host lowering flushes into
// the thread's block and the device lowering sums per warp. No operation
// outlives the instrumentation pass.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_LIB_TRANSFORMS_COUNTOPERATIONS_H
#define ROOFLINE_LIB_TRANSFORMS_COUNTOPERATIONS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace roofline {

/// Adds \p Step (i64) to counter \p Counter, where \p B inserts.
llvm::CallInst *emitCount(llvm::IRBuilder<> &B, uint32_t Counter,
                          llvm::Value *Step);
/// Raises counter \p Counter to at least \p V (i64), where \p B inserts.
llvm::CallInst *emitCountMax(llvm::IRBuilder<> &B, uint32_t Counter,
                             llvm::Value *V);

/// One count operation, read back.
struct CountOperation {
  llvm::CallInst *Call;
  uint32_t Counter;
  llvm::Value *Step; ///< the step, or the value of a maximum
  bool Maximum;
};

/// \p I as a count operation; none when it is not one, or its counter is
/// not a constant.
std::optional<CountOperation> asCountOperation(llvm::Instruction &I);

/// \p F's count operations, in the order of its blocks.
std::vector<CountOperation> countOperations(llvm::Function &F);

/// Each count operation of \p F as code on its counter's slot:
/// `slot += step`, or `slot = umax(slot, value)`. An operation whose
/// counter has no slot is dropped, with a remark (IR written by hand).
void lowerCountOperations(llvm::Function &F,
                          llvm::ArrayRef<llvm::AllocaInst *> Slots);

} // namespace roofline

#endif
