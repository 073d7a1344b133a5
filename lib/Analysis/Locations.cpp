//===- Locations.cpp - How notes name places in the source ----------------===//
#include "FunctionScope.h"

#include "roofline/Analysis/CostModel.h"
#include "roofline/Analysis/SCEVPolynomial.h"
#include "roofline/Model/SourceFiles.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Analysis/BranchProbabilityInfo.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DebugProgramInstruction.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/Regex.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/TargetParser/Triple.h"
#include <cmath>
#include <set>

using namespace llvm;

namespace roofline::detail {

/// "file.cpp:12" for a debug location, or "" without one. Code inlined
/// from a compiler's or system header (__ldcs is inline PTX in
/// __clang_cuda_intrinsics.h) is named where the user's code calls it.
std::string locationText(const DebugLoc &DL) {
  if (!DL)
    return "";
  const DILocation *At = DL.get();
  auto System = [](const DILocation *L) {
    SmallString<256> Path(L->getDirectory());
    sys::path::append(Path, L->getFilename());
    return isSystemFile(L->getFilename().str()) || isSystemFile(Path.str().str());
  };
  for (const DILocation *L = At; L && System(At); L = L->getInlinedAt())
    if (!System(L))
      At = L;
  return (sys::path::filename(At->getFilename()) + ":" + Twine(At->getLine())).str();
}

std::string locationText(const Instruction *I) {
  std::string L = locationText(I->getDebugLoc());
  if (!L.empty())
    return L;
  const BasicBlock *BB = I->getParent();
  if (BB->hasName())
    return "block '" + BB->getName().str() + "'";
  return BB->isEntryBlock() ? "the entry of " + demangle(BB->getParent()->getName())
                            : "a block of " + demangle(BB->getParent()->getName());
}

std::string loopText(const Loop *L) {
  std::string Loc = locationText(L->getStartLoc());
  return Loc.empty() ? "loop '" + L->getHeader()->getName().str() + "'"
                     : "loop at " + Loc;
}

} // namespace roofline::detail
