//===- InlinedFunctions.cpp - Source functions after inlining -------------===//
#include "roofline/Transforms/InlinedFunctions.h"
#include "roofline/Model/SourceFiles.h"
#include "roofline/Analysis/InlinedSummaries.h"
#include "roofline/Analysis/KernelAnalysis.h"
#include "roofline/Analysis/KernelSelection.h"

#include "llvm/Analysis/BranchProbabilityInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

#include <limits>

using namespace llvm;

namespace roofline {

namespace {

/// The markers' pseudo-probe index ("roof"), told apart from the probes of
/// -fpseudo-probe-for-profiling, whose indices count blocks from 1.
constexpr uint64_t MarkerIndex = 0x726f6f66;
/// Loop markers' ("roop"); their location is the loop's.
constexpr uint64_t LoopMarkerIndex = 0x726f6f70;
/// The marked functions, in marker-id order: !{DISubprogram, !"name"}.
constexpr const char *TableName = "roofline.sources";
/// The llvm.sideeffect calls beside the markers.
constexpr const char *KeepAliveName = "roofline.marker";

std::string fileOf(const DISubprogram &SP) {
  return InlinedFunctions::sourcePath(SP.getDirectory(), SP.getFilename());
}

} // namespace

std::string InlinedFunctions::sourcePath(StringRef Directory, StringRef File) {
  if (Directory.empty() || File.empty() || File.starts_with("/"))
    return File.str();
  return (Directory + "/" + File).str();
}

PreservedAnalyses EntryMarkerPass::run(Module &M, ModuleAnalysisManager &MAM) {
  // Device code is inlined into its kernels on purpose; it keeps one record
  // per kernel.
  if (Triple(M.getTargetTriple()).isNVPTX())
    return PreservedAnalyses::all();
  LLVMContext &Ctx = M.getContext();
  NamedMDNode *Table = M.getOrInsertNamedMetadata(TableName);
  if (Table->getNumOperands())
    return PreservedAnalyses::all(); // marked already
  Type *I32 = Type::getInt32Ty(Ctx), *I64 = Type::getInt64Ty(Ctx);
  Function *Probe = Intrinsic::getOrInsertDeclaration(&M, Intrinsic::pseudoprobe);
  Function *SideEffect = Intrinsic::getOrInsertDeclaration(&M, Intrinsic::sideeffect);
  unsigned KeepAliveKind = Ctx.getMDKindID(KeepAliveName);
  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  KernelSelector Selector(FAM, Opts.KernelFilter, Opts.AllFunctions);
  for (Function &F : M) {
    DISubprogram *SP = F.getSubprogram();
    if (F.isDeclaration() || !SP || isSystemFile(fileOf(*SP)))
      continue;
    if (!Selector.isKernelByOwnCode(F))
      continue;
    unsigned Id = Table->getNumOperands();
    Table->addOperand(MDNode::get(Ctx, {SP, MDString::get(Ctx, F.getName())}));
    auto Mark = [&](Instruction *Before, uint64_t Index, const DILocation *DL) {
      IRBuilder<> B(Before);
      B.SetCurrentDebugLocation(DL);
      B.CreateCall(Probe, {ConstantInt::get(I64, Id), ConstantInt::get(I64, Index),
                           ConstantInt::get(I32, 0),
                           ConstantInt::get(I64, std::numeric_limits<uint64_t>::max())});
      // SimplifyCFG folds a block that holds only pseudo probes into its
      // successor, and drops them: a side effect keeps the block, and
      // costs nothing (the vectoriser, too, ignores it).
      B.CreateCall(SideEffect, {})->setMetadata(KeepAliveKind, MDNode::get(Ctx, {}));
    };
    for (Loop *L : FAM.getResult<LoopAnalysis>(F))
      if (BasicBlock *Pre = L->getLoopPreheader())
        if (DebugLoc Start = L->getStartLoc())
          Mark(Pre->getTerminator(), LoopMarkerIndex, Start.get());
    Mark(&*F.getEntryBlock().getFirstInsertionPt(), MarkerIndex,
         DILocation::get(Ctx, SP->getScopeLine() ? SP->getScopeLine() : SP->getLine(),
                         0, SP));
  }
  if (!Table->getNumOperands()) {
    // No kernel to mark: leave the module as it was.
    Table->eraseFromParent();
    for (Function *Decl : {Probe, SideEffect})
      if (Decl->use_empty())
        Decl->eraseFromParent();
    return PreservedAnalyses::all();
  }
  return PreservedAnalyses::none();
}

InlinedFunctions::InlinedFunctions(const Module &M) {
  const NamedMDNode *Table = M.getNamedMetadata(TableName);
  if (!Table)
    return;
  for (const MDNode *N : Table->operands()) {
    auto *SP = N->getNumOperands() == 2
                   ? dyn_cast_or_null<DISubprogram>(N->getOperand(0))
                   : nullptr;
    auto *Name = SP ? dyn_cast_or_null<MDString>(N->getOperand(1)) : nullptr;
    unsigned Id = Sources.size();
    Sources.push_back({Id, Name ? Name->getString().str() : "",
                       SP ? fileOf(*SP) : "", SP ? SP->getLine() : 0, SP});
    if (SP && Name)
      BySubprogram[SP] = Id;
  }
}

const SourceFunction *InlinedFunctions::sourceOf(const DILocation *DL,
                                                 const Function &In) const {
  const DISubprogram *Own = In.getSubprogram();
  for (; DL; DL = DL->getInlinedAt()) {
    const DISubprogram *SP = DL->getScope()->getSubprogram();
    if (SP == Own)
      return nullptr;
    auto It = BySubprogram.find(SP);
    if (It != BySubprogram.end())
      return &Sources[It->second];
  }
  return nullptr;
}

const SourceFunction *InlinedFunctions::markerOf(const Instruction &I) const {
  const auto *P = dyn_cast<PseudoProbeInst>(&I);
  if (!P || P->getIndex()->getZExtValue() != MarkerIndex)
    return nullptr;
  uint64_t Id = P->getFuncGuid()->getZExtValue();
  if (Id >= Sources.size() || Sources[Id].Name.empty())
    return nullptr;
  return &Sources[Id];
}

const DILocation *InlinedFunctions::loopMarkerOf(const Instruction &I) const {
  const auto *P = dyn_cast<PseudoProbeInst>(&I);
  if (!P || P->getIndex()->getZExtValue() != LoopMarkerIndex)
    return nullptr;
  return I.getDebugLoc().get();
}

bool InlinedFunctions::sameLocation(const DILocation *A, const DILocation *B,
                                    bool Columns) {
  // Discriminators (a vector loop's remainder, unrolled copies) live in
  // lexical block files wrapping the scope: compared without them.
  // Columns are ignored (when asked) in the innermost frame only: calls on
  // one line at different columns are different inlined copies.
  for (bool Inner = true; A && B; A = A->getInlinedAt(), B = B->getInlinedAt(), Inner = false)
    if (A != B && (A->getLine() != B->getLine() ||
                   ((Columns || !Inner) && A->getColumn() != B->getColumn()) ||
                   A->getScope()->getNonLexicalBlockFileScope() !=
                       B->getScope()->getNonLexicalBlockFileScope()))
      return false;
  return !A && !B;
}

Instruction *InlinedFunctions::ownEntryMarker(Function &F) {
  for (Instruction &I : instructions(F))
    if (auto *P = dyn_cast<PseudoProbeInst>(&I))
      if (P->getIndex()->getZExtValue() == MarkerIndex && I.getDebugLoc() &&
          !I.getDebugLoc()->getInlinedAt() &&
          I.getDebugLoc()->getScope()->getSubprogram() == F.getSubprogram())
        return &I;
  return nullptr;
}

PreservedAnalyses SourceSummaryPass::run(Function &F, FunctionAnalysisManager &FAM) {
  // Only a function that can disappear (static, inline, a template
  // instance) needs it: one that stays out of line is summarised as it is
  // at the summary pass, which then covers its inlined copies too.
  if (!F.isDiscardableIfUnused())
    return PreservedAnalyses::all();
  Instruction *Marker = InlinedFunctions::ownEntryMarker(F);
  if (!Marker || carriesSummary(*Marker))
    return PreservedAnalyses::all(); // not a marked kernel, or done
  KernelAnalysis KA([&FAM](Function &G) {
    return FunctionAnalyses{
        FAM.getResult<LoopAnalysis>(G), FAM.getResult<ScalarEvolutionAnalysis>(G),
        [&FAM, &G]() -> BranchProbabilityInfo & {
          return FAM.getResult<BranchProbabilityAnalysis>(G);
        }};
  });
  attachSummary(*Marker, KA.summarize(F, F));
  return PreservedAnalyses::all(); // metadata only
}

PreservedAnalyses MarkerRemovalPass::run(Module &M, ModuleAnalysisManager &) {
  return InlinedFunctions::eraseMarkers(M) ? PreservedAnalyses::none()
                                           : PreservedAnalyses::all();
}

bool InlinedFunctions::eraseMarkers(Module &M) {
  bool Erased = false;
  if (Function *Probe =
          Intrinsic::getDeclarationIfExists(&M, Intrinsic::pseudoprobe)) {
    for (User *U : make_early_inc_range(Probe->users()))
      if (auto *P = dyn_cast<PseudoProbeInst>(U))
        if (P->getIndex()->getZExtValue() == MarkerIndex ||
            P->getIndex()->getZExtValue() == LoopMarkerIndex) {
          P->eraseFromParent();
          Erased = true;
        }
    if (Probe->use_empty())
      Probe->eraseFromParent();
  }
  if (Function *SideEffect =
          Intrinsic::getDeclarationIfExists(&M, Intrinsic::sideeffect)) {
    unsigned KeepAliveKind = M.getContext().getMDKindID(KeepAliveName);
    for (User *U : make_early_inc_range(SideEffect->users()))
      if (auto *I = dyn_cast<Instruction>(U); I && I->getMetadata(KeepAliveKind)) {
        I->eraseFromParent();
        Erased = true;
      }
    if (SideEffect->use_empty())
      SideEffect->eraseFromParent();
  }
  if (NamedMDNode *Table = M.getNamedMetadata(TableName)) {
    Table->eraseFromParent();
    Erased = true;
  }
  return Erased;
}

} // namespace roofline
