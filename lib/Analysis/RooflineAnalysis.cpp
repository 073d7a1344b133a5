//===- RooflineAnalysis.cpp - The module's kernel summaries ---------------===//
#include "roofline/Analysis/RooflineAnalysis.h"

#include "roofline/Analysis/CostModel.h"
#include "roofline/Analysis/DeviceCode.h"
#include "roofline/Analysis/KernelAnalysis.h"
#include "roofline/Analysis/KernelSelection.h"
#include "roofline/Analysis/PipelineAnalyses.h"
#include "roofline/Analysis/SummaryWriter.h"

#include "llvm/Analysis/BranchProbabilityInfo.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"

#include <memory>

using namespace llvm;

namespace roofline {

AnalysisKey RooflineAnalysis::Key;

namespace {

/// What the analysis reads: the module itself, or at -O0 a copy with the
/// allocas promoted (every variable is in memory there, which hides loop
/// trip counts from ScalarEvolution), with its own analysis managers.
class AnalysedModule {
public:
  AnalysedModule(Module &M, ModuleAnalysisManager &MAM);

  FunctionAnalysisManager &functionAnalyses() { return *FAM; }
  /// The function the analysis reads for the user's \p F.
  Function &of(Function &F) { return Copy ? *cast<Function>(VMap[&F]) : F; }

private:
  std::unique_ptr<Module> Copy;
  ValueToValueMapTy VMap;
  PassBuilder PB;
  LoopAnalysisManager LAM;
  FunctionAnalysisManager OwnFAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager OwnMAM;
  FunctionAnalysisManager *FAM;
};

AnalysedModule::AnalysedModule(Module &M, ModuleAnalysisManager &MAM)
    : FAM(&MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager()) {
  bool Unoptimized = false;
  for (Function &F : M)
    Unoptimized |= F.hasOptNone();
  if (!Unoptimized)
    return;
  Copy = CloneModule(M, VMap);
  PB.registerModuleAnalyses(OwnMAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(OwnFAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, OwnFAM, CGAM, OwnMAM);
  FunctionPassManager FPM;
  FPM.addPass(SROAPass(SROAOptions::ModifyCFG));
  FPM.addPass(LoopSimplifyPass());
  // CUDA kernels with their device functions inlined, as at -O2: a thread
  // index computed in a helper is then seen as one.
  if (isDeviceModule(*Copy))
    for (Function &F : *Copy)
      if (!F.isDeclaration() && isDeviceKernel(F))
        inlineDeviceCalls(F);
  // HIP: variables used through flat pointers, and index functions
  // (__ockl_get_local_id, inlined) that switch on the dimension they are
  // passed: promote the one and fold the other first, or threadIdx.x is a
  // phi of three reads.
  FunctionPassManager Promote, FoldDimensions;
  Promote.addPass(SROAPass(SROAOptions::ModifyCFG));
  FoldDimensions.addPass(SimplifyCFGPass());
  bool HIP = Copy->getTargetTriple().isAMDGCN();
  for (Function &F : *Copy) {
    if (F.isDeclaration())
      continue;
    if (HIP) {
      F.removeFnAttr(Attribute::OptimizeNone);
      useScratchDirectly(F);
      Promote.run(F, OwnFAM);
      tidyPromotedDeviceCode(F);
      OwnFAM.invalidate(F, PreservedAnalyses::none());
      FoldDimensions.run(F, OwnFAM);
      OwnFAM.invalidate(F, PreservedAnalyses::none());
    }
    hoistThreadIndexReads(F);
    F.removeFnAttr(Attribute::OptimizeNone);
    // The back end still compiles the original without optimisation (its
    // FMA fusion depends on that): the cost model asks this.
    F.addFnAttr(CostModel::UnoptimizedAttr);
    FPM.run(F, OwnFAM);
  }
  FAM = &OwnFAM;
}

} // namespace

const KernelSummary *RooflineAnalysis::Result::find(StringRef Name) const {
  for (const KernelSummary &K : Kernels)
    if (K.Name == Name)
      return &K;
  return nullptr;
}

RooflineAnalysis::Result RooflineAnalysis::run(Module &M,
                                               ModuleAnalysisManager &MAM) {
  AnalysedModule A(M, MAM);
  FunctionAnalysisManager &FAM = A.functionAnalyses();
  PipelineAnalyses Analyses(FAM);
  KernelAnalysis KA([&Analyses](Function &F) { return Analyses(F); });
  KernelSelector Selector(FAM, Opts.KernelFilter, Opts.AllFunctions);
  if (!Selector.filterError().empty())
    M.getContext().diagnose(DiagnosticInfoGeneric(
        "roofline: " + Selector.filterError(), DS_Warning));
  Result R;
  for (Function &Orig : M) {
    if (Orig.isDeclaration())
      continue;
    Function &F = A.of(Orig);
    if (Selector.isKernel(F))
      R.Kernels.push_back(KA.summarize(F, Orig));
  }
  return R;
}

PreservedAnalyses RooflinePrinterPass::run(Module &M,
                                           ModuleAnalysisManager &MAM) {
  const auto &R = MAM.getResult<RooflineAnalysis>(M);
  OS << "roofline: module '" << M.getModuleIdentifier() << "' ("
     << M.getTargetTriple().str() << "), " << R.Kernels.size() << " kernel"
     << (R.Kernels.size() == 1 ? "" : "s") << "\n";
  for (const KernelSummary &K : R.Kernels)
    OS << kernelText(K);
  return PreservedAnalyses::all();
}

} // namespace roofline
