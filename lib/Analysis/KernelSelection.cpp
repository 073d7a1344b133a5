//===- KernelSelection.cpp - Which functions are kernels ------------------===//
#include "roofline/Analysis/KernelSelection.h"
#include "roofline/Analysis/DeviceCode.h"
#include "roofline/Analysis/CostModel.h"
#include "roofline/Analysis/KernelAnalysis.h"
#include "roofline/Model/SourceFiles.h"

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Dominators.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/InstIterator.h"

using namespace llvm;

namespace roofline {

KernelSelector::KernelSelector(FunctionAnalysisManager &FAM,
                               const std::string &FilterText, bool All)
    : FAM(FAM), All(All) {
  if (FilterText.empty())
    return;
  Filter.emplace(FilterText);
  std::string Error;
  if (!Filter->isValid(Error)) {
    FilterError = "invalid -roofline-kernels regex '" + FilterText + "': " + Error;
    Filter.reset();
  }
}

bool KernelSelector::passesFilter(const Function &F) const {
  return !Filter || Filter->match(F.getName()) ||
         Filter->match(demangle(F.getName()));
}

/// A function whose debug location is a system header (libstdc++'s
/// algorithms instantiated in the user's code): nobody's kernel.
static bool fromSystemHeader(const Function &F) {
  const DISubprogram *SP = F.getSubprogram();
  if (!SP)
    return false;
  std::string File = SP->getFilename().str();
  if (!File.empty() && File[0] != '/' && !SP->getDirectory().empty())
    File = (SP->getDirectory() + "/" + File).str();
  return isSystemFile(File);
}

bool KernelSelector::isKernel(Function &F) {
  if (!KernelAnalysis::isKernel(F) || !passesFilter(F))
    return false;
  if (!All && fromSystemHeader(F))
    return false;
  if (isDeviceKernel(F) || All)
    return true;
  return hasWorkInLoops(F);
}

bool KernelSelector::isKernelByOwnCode(Function &F) {
  if (!KernelAnalysis::isKernel(F) || !passesFilter(F))
    return false;
  if (!All && fromSystemHeader(F))
    return false;
  return All || hasOwnWorkInLoops(F);
}

std::string KernelSelector::whyNotInstrumented(const Function &F) {
  if (F.hasFnAttribute(Attribute::DisableSanitizerInstrumentation))
    return "it opts out (disable_sanitizer_instrumentation)";
  if (F.hasFnAttribute(Attribute::NoProfile) ||
      F.hasFnAttribute(Attribute::SkipProfile))
    return "it opts out (no_profile_instrument_function)";
  for (const BasicBlock &BB : F)
    if (BB.getTerminatingMustTailCall())
      return "it ends in a musttail call";
  return "";
}

bool KernelSelector::hasWorkInLoops(Function &F) {
  auto [It, New] = WorkInLoops.try_emplace(&F, false);
  if (!New)
    return It->second; // known, or being decided (recursion: no)
  bool Found = false;
  // A call to a function with loop work is loop work, wherever it is.
  for (Instruction &I : instructions(F))
    if (auto *CB = dyn_cast<CallBase>(&I))
      if (CostModel::isCountedCallee(*CB) &&
          hasWorkInLoops(*CB->getCalledFunction()))
        Found = true;
  Found = Found || hasOwnWorkInLoops(F);
  WorkInLoops[&F] = Found;
  return Found;
}

/// A cycle that is not a natural loop (entered at two places): LoopInfo
/// does not see it, but its blocks repeat as a loop's do.
static bool hasIrreducibleCycle(Function &F, DominatorTree &DT) {
  DenseMap<const BasicBlock *, unsigned> Order;
  for (BasicBlock *BB : ReversePostOrderTraversal<Function *>(&F))
    Order[BB] = Order.size();
  for (BasicBlock &BB : F)
    for (BasicBlock *S : successors(&BB))
      if (Order.count(S) && Order.count(&BB) && Order[S] <= Order[&BB] &&
          !DT.dominates(S, &BB))
        return true; // a retreating edge that is not a back edge
  return false;
}

bool KernelSelector::hasOwnWorkInLoops(Function &F) {
  LoopInfo &LI = FAM.getResult<LoopAnalysis>(F);
  bool Irreducible =
      hasIrreducibleCycle(F, FAM.getResult<DominatorTreeAnalysis>(F));
  if (LI.empty() && !Irreducible)
    return false;
  std::vector<BasicBlock *> Blocks;
  for (Loop *L : LI.getLoopsInPreorder())
    Blocks.insert(Blocks.end(), L->block_begin(), L->block_end());
  if (Irreducible) // which blocks are in the cycle is not known: all of them
    for (BasicBlock &BB : F)
      Blocks.push_back(&BB);
  CostModel CM(F);
  for (BasicBlock *BB : Blocks)
    for (Instruction &I : *BB) {
      OpCost C = CM.costOf(I);
      if (!C.Variable.empty() || !C.Fixed.Unknown.empty())
        return true;
      for (unsigned S = 0; S < NumSlots; ++S)
        if (C.Fixed.Slots[S] &&
            S != byteSlot(MemSpace::Stack, Access::Load) &&
            S != byteSlot(MemSpace::Stack, Access::Store))
          return true;
    }
  return false;
}

} // namespace roofline
