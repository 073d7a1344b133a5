//===- CudaModules.cpp - CUDA: device buffers, host launches --------------===//
//
// In a CUDA device module each kernel gets a buffer of counts
// (__roofline_counts_<kernel>, filled per warp: DeviceLowering.cpp) and a
// meta string that describes it (__roofline_meta_<kernel>), which the host
// finds by name. In host code every cudaLaunchKernel (the <<<...>>> stubs
// make them too) goes to the runtime's CUDA shim, which reads that buffer
// back per launch.
//
//===----------------------------------------------------------------------===//
#include "CounterPlacement.h"
#include "Descriptors.h"
#include "DeviceLowering.h"
#include "RuntimeNames.h"

#include "roofline/Analysis/DeviceCode.h"
#include "roofline/Runtime/CostKinds.h"

#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

namespace roofline {

/// Host code: every cudaLaunchKernel goes through the runtime's shim,
/// which has the same signature and calls the real one.
bool redirectCudaLaunches(Module &M) {
  bool Changed = false;
  for (const char *Name : {"cudaLaunchKernel", "cudaLaunchKernel_ptsz"}) {
    Function *Launch = M.getFunction(Name);
    if (!Launch)
      continue;
    FunctionCallee Shim = M.getOrInsertFunction(
        std::string("__roofline_") + Name, Launch->getFunctionType());
    for (Use &U : llvm::make_early_inc_range(Launch->uses()))
      if (auto *CB = dyn_cast<CallBase>(U.getUser()))
        if (CB->isCallee(&U)) {
          CB->setCalledOperand(Shim.getCallee());
          Changed = true;
        }
  }
  return Changed;
}

/// Device code: each kernel counts per thread and adds per warp into
/// __roofline_counts_<kernel>; __roofline_meta_<kernel> describes it.
PreservedAnalyses
InstrumentationPass::instrumentDevice(Module &M, ModuleAnalysisManager &MAM) {
  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  LLVMContext &Ctx = M.getContext();
  Type *I64 = Type::getInt64Ty(Ctx);
  ArrayType *BufTy = ArrayType::get(I64, ROOFLINE_DEVICE_SLOTS + NumRunSlots);
  std::vector<Function *> Kernels;
  for (Function &F : M)
    if (!F.isDeclaration() && isDeviceKernel(F) && IsKernel(F))
      Kernels.push_back(&F);
  std::vector<GlobalValue *> Used;
  for (Function *F : Kernels) {
    // Globals the host finds by name (cuModuleGetGlobal): visible, and
    // merged like the kernel when it is a template instance.
    GlobalValue::LinkageTypes Linkage =
        F->hasLinkOnceLinkage() || F->hasWeakLinkage()
            ? GlobalValue::WeakODRLinkage
            : GlobalValue::ExternalLinkage;
    auto *Counts = new GlobalVariable(
        M, BufTy, /*isConstant=*/false, Linkage,
        ConstantAggregateZero::get(BufTy),
        ROOFLINE_DEVICE_COUNTS_PREFIX + F->getName(), nullptr,
        GlobalValue::NotThreadLocal, /*AddressSpace=*/1,
        /*isExternallyInitialized=*/true);
    inlineDeviceCalls(*F);
    FAM.invalidate(*F, PreservedAnalyses::none());
    PlacementInputs PI;
    PI.Host = false; // counts only: no nests, no calls (all inlined)
    ScalarEvolution &SE = FAM.getResult<ScalarEvolutionAnalysis>(*F);
    // A kernel with nothing to count keeps a zero buffer: the host still
    // records its launches and times.
    if (std::optional<PlacedCounters> P =
            CounterPlacement(*F, FAM.getResult<LoopAnalysis>(*F), SE,
                             FAM.getResult<DominatorTreeAnalysis>(*F),
                             FAM.getResult<TargetIRAnalysis>(*F), PI)
                .place()) {
      lowerForDevice(*F, SE, *P, Counts);
      FAM.invalidate(*F, PreservedAnalyses::none());
    }
    StaticFormulas SF = Static(*F);
    auto [File, Line] = sourceLocation(*F);
    std::string Meta;
    raw_string_ostream OS(Meta);
    auto Field = [&](const char *Key, const Twine &Value) {
      OS << Key << "\t" << Value << "\n";
    };
    Field(ROOFLINE_META_KEY_Version, Twine(ROOFLINE_DEVICE_META_VERSION));
    Field(ROOFLINE_META_KEY_Slots, Twine(NumRunSlots));
    Field(ROOFLINE_META_KEY_Params, paramList(*F, SF));
    Field(ROOFLINE_META_KEY_File, File);
    Field(ROOFLINE_META_KEY_Line, Twine(Line));
    Field(ROOFLINE_META_KEY_Flops, SF.Flops);
    Field(ROOFLINE_META_KEY_Load, SF.Load);
    Field(ROOFLINE_META_KEY_Store, SF.Store);
    Field(ROOFLINE_META_KEY_Exact, Twine(SF.Exact ? 1 : 0));
    for (const StaticFormulas::PointerBytes &P : SF.Pointers)
      Field(ROOFLINE_META_KEY_Pointer,
            Twine(P.Index) + "\t" + P.Read + "\t" + P.Written);
    // The host shim evaluates it per launch, with the launch's arguments
    // and dimensions.
    if (!SF.FootprintRead.empty())
      Field(ROOFLINE_META_KEY_Footprint, SF.FootprintRead + "\t" +
                                             SF.FootprintWritten + "\t" +
                                             (SF.FootprintExact ? "1" : "0"));
    Constant *Text = ConstantDataArray::getString(Ctx, Meta);
    auto *MetaVar = new GlobalVariable(
        M, Text->getType(), /*isConstant=*/true, Linkage, Text,
        ROOFLINE_DEVICE_META_PREFIX + F->getName(), nullptr,
        GlobalValue::NotThreadLocal, /*AddressSpace=*/1);
    Used.push_back(Counts);
    Used.push_back(MetaVar);
  }
  if (Used.empty())
    return PreservedAnalyses::all();
  appendToCompilerUsed(M, Used);
  M.getOrInsertNamedMetadata(InstrumentedMarker);
  return PreservedAnalyses::none();
}

} // namespace roofline
