//===- CudaModules.cpp - GPU code: device buffers, host launches ----------===//
//
// In a CUDA or HIP device module each kernel gets a buffer of counts
// (__roofline_counts_<kernel>, filled per warp: DeviceLowering.cpp) and a
// meta string that describes it (__roofline_meta_<kernel>), which the host
// finds by name (HIP: through __roofline_metaref_<kernel>). In host code
// every cudaLaunchKernel and hipLaunchKernel (the <<<...>>> stubs make
// them too) goes to the runtime's shim, which reads that buffer back per
// launch.
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
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

namespace roofline {

/// Host code: every cudaLaunchKernel and hipLaunchKernel goes through the
/// runtime's shim, which has the same signature and calls the real one;
/// after each __hipRegisterFunction the HIP shim registers the kernel's
/// counter variables (HipLaunch.cpp).
bool redirectLaunches(Module &M) {
  bool Changed = false;
  for (const char *Name :
       {"cudaLaunchKernel", "cudaLaunchKernel_ptsz", "hipLaunchKernel"}) {
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
  // __hipRegisterFunction(module, kernel handle, host name, device name, ...)
  Function *Register = M.getFunction("__hipRegisterFunction");
  if (!Register || Register->arg_size() < 4)
    return Changed;
  Type *Ptr = PointerType::getUnqual(M.getContext());
  FunctionCallee Shim = M.getOrInsertFunction(
      "__roofline_hip_register_kernel", Type::getVoidTy(M.getContext()), Ptr,
      Ptr, Ptr);
  for (User *U : Register->users())
    if (auto *CB = dyn_cast<CallBase>(U))
      if (CB->getCalledOperand() == Register &&
          CB->getArgOperand(0)->getType()->isPointerTy() &&
          CB->getArgOperand(1)->getType()->isPointerTy() &&
          CB->getArgOperand(3)->getType()->isPointerTy()) {
        IRBuilder<> B(CB->getNextNode());
        B.CreateCall(Shim, {CB->getArgOperand(0), CB->getArgOperand(1),
                            CB->getArgOperand(3)});
        Changed = true;
      }
  return Changed;
}

/// HIP: __roofline_metaref_<kernel>, the meta string's address and bytes
/// (HipLaunch.cpp reads it: HIP gives a variable's address only for a size
/// the host knows beforehand).
static GlobalVariable *metaRef(GlobalVariable &Meta, uint64_t Bytes,
                               GlobalValue::LinkageTypes Linkage,
                               Function &Kernel) {
  Module &M = *Meta.getParent();
  Type *I64 = Type::getInt64Ty(M.getContext());
  StructType *Ty = StructType::get(Meta.getType(), I64);
  Constant *Init =
      ConstantStruct::get(Ty, {&Meta, ConstantInt::get(I64, Bytes)});
  return new GlobalVariable(M, Ty, /*isConstant=*/true, Linkage, Init,
                            ROOFLINE_DEVICE_METAREF_PREFIX + Kernel.getName(),
                            nullptr, GlobalValue::NotThreadLocal,
                            /*AddressSpace=*/1);
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
  bool AMD = Triple(M.getTargetTriple()).isAMDGCN();
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
    if (AMD)
      Field(ROOFLINE_META_KEY_Device, "hip");
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
    if (AMD)
      Used.push_back(metaRef(*MetaVar, Meta.size() + 1, Linkage, *F));
  }
  if (AMD) // as clang makes HIP's __device__ variables
    for (GlobalValue *G : Used)
      G->setVisibility(GlobalValue::ProtectedVisibility);
  if (Used.empty())
    return PreservedAnalyses::all();
  appendToCompilerUsed(M, Used);
  M.getOrInsertNamedMetadata(InstrumentedMarker);
  return PreservedAnalyses::none();
}

} // namespace roofline
