//===- CountLowering.h - Count operations into stack slots ------*- C++ -*-===//
//
// roofline-lower-counts: each `@roofline.count` and `@roofline.count.max`
// of a function (lib/Transforms/CountOperations.h) as code on a stack slot
// per counter, zeroed at entry. The instrumenter lowers the operations it
// places itself; this pass is that step alone, for tests that feed it IR.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_TRANSFORMS_COUNTLOWERING_H
#define ROOFLINE_TRANSFORMS_COUNTLOWERING_H

#include "llvm/IR/PassManager.h"

namespace roofline {

struct CountLoweringPass : llvm::PassInfoMixin<CountLoweringPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &);
};

} // namespace roofline

#endif
