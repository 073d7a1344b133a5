//===- Instrumentation.cpp - Exact dynamic counts -------------------------===//
//
// USAGE:
//   clang++-22 -O2 -fpass-plugin=build/lib/RooflinePass.so \
//       -mllvm -roofline-instrument app.cpp build/lib/libroofline_rt.so
//   opt -load-pass-plugin=build/lib/RooflinePass.so \
//       -passes=roofline-instrument in.ll -S -o out.ll
//
// The pass: which functions to instrument (kernels, functions holding
// inlined kernels, and the callees their counts need, callees first:
// CalleeCounts.h); each is instrumented (FunctionInstrumenter.h), given its
// traced copy (CacheTracing.h) and its descriptor (Descriptors.h). CUDA
// device modules and host launches: CudaModules.cpp.
//
//===----------------------------------------------------------------------===//
#include "roofline/Transforms/Instrumentation.h"

#include "CacheTracing.h"
#include "CalleeCounts.h"
#include "Descriptors.h"
#include "FunctionInstrumenter.h"
#include "KeptCalls.h"
#include "RuntimeNames.h"
#include "roofline/Analysis/InlinedSummaries.h"
#include "roofline/Analysis/KernelAnalysis.h"
#include "roofline/Analysis/KernelSelection.h"
#include "roofline/Transforms/InlinedFunctions.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <map>
#include <memory>
#include <optional>
#include <set>

using namespace llvm;

namespace roofline {

/// Two instrumentations of the same code count the same way.
static bool sameLayout(const CountLayout &A, const CountLayout &B) {
  auto Cost = [](const CostEntry &C) {
    return std::tie(C.Counter, C.Slot, C.PerUnit, C.Part, C.Nest, C.Innermost);
  };
  auto NestOf = [](const Nest &N) {
    return std::tie(N.Part, N.Line, N.Entries, N.Iterations, N.Ticks, N.Timed,
                    N.Entered, N.Fewest, N.Most);
  };
  if (A.NumCounters != B.NumCounters || A.Costs.size() != B.Costs.size() ||
      A.Nests.size() != B.Nests.size() || A.Parts.size() != B.Parts.size() ||
      A.FootprintBroken != B.FootprintBroken || A.Uncounted != B.Uncounted)
    return false;
  for (size_t I = 0; I < A.Costs.size(); ++I)
    if (Cost(A.Costs[I]) != Cost(B.Costs[I]))
      return false;
  for (size_t I = 0; I < A.Nests.size(); ++I)
    if (NestOf(A.Nests[I]) != NestOf(B.Nests[I]))
      return false;
  for (size_t I = 0; I < A.Parts.size(); ++I)
    if (A.Parts[I].Kind != B.Parts[I].Kind ||
        A.Parts[I].Entries != B.Parts[I].Entries)
      return false;
  return true;
}

/// The kept function (KeptCalls.h) of \p F, which \p FI instrumented,
/// made from \p Copy (the function before instrumentation) and
/// instrumented as it was (\p Instrumenter: the same set-up), in its two
/// forms (untimed, returned, and timed); kept only when the counters of
/// both are the function's, one for one.
template <typename InstrumenterFor>
static std::optional<KeptShape>
keptFunction(Function &F, Function &Copy, const FunctionInstrumenter &FI,
             GlobalVariable *Desc, InstrumenterFor &Instrumenter,
             FunctionAnalysisManager &FAM) {
  CalleeCounts::Block B = FI.block();
  KeptShape Timed{&F, nullptr, B.TLS, B.Type, Desc, FI.keptKinds()};
  ValueToValueMapTy VMap;
  Function *Copy2 = CloneFunction(&Copy, VMap);
  KeptShape Untimed = Timed;
  Untimed.Untimed = true;
  makeKeptFunction(Copy, Timed, ".timed");
  makeKeptFunction(*Copy2, Untimed, "");
  Untimed.Timed = Timed.Kept;
  auto Instrument = [&](KeptShape &S) {
    std::unique_ptr<FunctionInstrumenter> KFI = Instrumenter(*S.Kept);
    KFI->keepForCaller(S);
    return KFI->run(Desc) && sameLayout(FI.layout(), KFI->layout()) &&
           KFI->keptKinds() == S.Kinds;
  };
  if (Instrument(Timed) && Instrument(Untimed)) {
    addForwardPath(Timed);
    addTimedDispatch(Untimed);
    for (Function *K : {Timed.Kept, Untimed.Kept})
      FAM.invalidate(*K, PreservedAnalyses::none());
    return Untimed;
  }
  for (Function *K : {Timed.Kept, Untimed.Kept}) {
    FAM.clear(*K, K->getName());
    K->eraseFromParent();
  }
  return std::nullopt;
}

/// \p F's code writes its block now: whatever the optimiser inferred of
/// its memory effects (none, read only) no longer holds.
static void forgetMemoryEffects(Function &F) {
  F.setMemoryEffects(MemoryEffects::unknown());
  for (User *U : F.users())
    if (auto *CB = dyn_cast<CallBase>(U))
      CB->removeFnAttr(Attribute::Memory);
}

/// Gives \p F (which \p FI instrumented) its traced copy for the cache
/// model; whether the copy sees all of F's traffic (its callees' too, as
/// \p TracedBlocks says), which adds F to them.
static bool tracedCopy(Function &F, GlobalVariable *Desc,
                       const FunctionInstrumenter &FI,
                       const CalleeCounts &Callees,
                       std::set<const GlobalVariable *> &TracedBlocks) {
  std::string Why = addTracedCopy(F, Desc, FI.accessSites(), FI.callSites());
  // Its traffic is whole only where its callees' is too.
  for (const CallSite &C : FI.callSites())
    if (!C.Fixed && Why.empty())
      for (const CalleeCounts::Block *B : Callees.measured(*C.Call))
        if (!TracedBlocks.count(B->TLS))
          Why = "a callee's traffic is not traced (" +
                demangle(C.Call->getCalledFunction()->getName().str()) + ")";
  if (Why.empty()) {
    TracedBlocks.insert(FI.block().TLS);
    return true;
  }
  F.getContext().diagnose(DiagnosticInfoGeneric(
      "roofline: " + F.getName() +
          " has no cache traffic from the model (ROOFLINE_CACHE): " + Why,
      DS_Remark));
  return false;
}

namespace {
/// What instrumenting one function of a module needs of the module's run.
struct HostRun {
  FunctionAnalysisManager &FAM;
  DescriptorTypes &Types;
  InlinedFunctions &Sources;
  CarriedSummaries &Carried;
  CalleeCounts &Callees;
  /// Kept calls (KeptCalls.h): the functions whose loops' calls keep their
  /// counters.
  std::map<const Function *, KeptShape> &Shapes;
  std::set<const GlobalVariable *> &TracedBlocks; ///< whole traffic
};
} // namespace

/// Instruments \p Fn (a target, or a helper whose calls need counting) and
/// returns its descriptor; null when it has nothing to count.
static GlobalVariable *instrumentFunction(Function *F, bool IsTargetFn,
                                          bool IsOwnKernel,
                                          const StaticFormulas &SF,
                                          HostRun &Run) {
  FunctionAnalysisManager &FAM = Run.FAM;
  CalleeCounts &Callees = Run.Callees;
  auto *Desc = new GlobalVariable(*F->getParent(), Run.Types.Kernel,
                                  /*isConstant=*/false,
                                  GlobalValue::PrivateLinkage, nullptr,
                                  "__roofline_desc_" + F->getName());
  // Decided once, on the code before instrumentation: the counters and
  // the descriptor's footprint field must agree.
  bool CountedFootprint = IsOwnKernel && footprintIsCounted(SF, *F);
  bool Footprint = false;
  // The kept function is made from F as it is now.
  ValueToValueMapTy KeptMap;
  Function *KeptCopy =
      mayKeepCounters(*F, Callees) ? CloneFunction(F, KeptMap) : nullptr;
  auto Instrumenter = [&](Function &Fn) {
    auto FI = std::make_unique<FunctionInstrumenter>(
        Fn, FAM.getResult<LoopAnalysis>(Fn),
        FAM.getResult<ScalarEvolutionAnalysis>(Fn),
        FAM.getResult<DominatorTreeAnalysis>(Fn), &Run.Sources,
        IsOwnKernel || !IsTargetFn);
    Footprint = IsOwnKernel && !CountedFootprint && FI->countFootprint(SF);
    FI->countInlinedFootprints(Run.Carried);
    FI->countCalls(Callees, /*IsHelper=*/!IsTargetFn);
    return FI;
  };
  std::unique_ptr<FunctionInstrumenter> FI = Instrumenter(*F);
  if (KeptCopy)
    FI->classifyForCallers();
  FI->keepCallsOf(Run.Shapes);
  if (!FI->run(Desc)) {
    if (KeptCopy)
      KeptCopy->eraseFromParent();
    Desc->eraseFromParent();
    Callees.instrumented(*F, {}); // nothing to count: its calls add 0
    return nullptr;
  }
  Callees.instrumented(*F, FI->block());
  forgetMemoryEffects(*F);
  if (KeptCopy)
    if (std::optional<KeptShape> S =
            keptFunction(*F, *KeptCopy, *FI, Desc, Instrumenter, FAM)) {
      Callees.keptAs(*S->Kept, *F);
      Run.Shapes[F] = *S;
    }
  bool Traced = tracedCopiesEnabled() &&
                tracedCopy(*F, Desc, *FI, Callees, Run.TracedBlocks);
  FAM.invalidate(*F, PreservedAnalyses::none());
  fillDescriptor(*Desc, *F, Run.Types, FI->layout(), SF, Run.Sources,
                 Run.Carried,
                 {IsOwnKernel, CountedFootprint, Footprint, Traced});
  return Desc;
}

PreservedAnalyses InstrumentationPass::run(Module &M,
                                           ModuleAnalysisManager &MAM) {
  if (M.getNamedMetadata(InstrumentedMarker))
    return PreservedAnalyses::all(); // already instrumented (LTO)
  // The summaries of the analysis (computed now when no pass asked for
  // them earlier in the pipeline, as under `opt -passes=roofline-instrument`).
  const auto &Summaries = MAM.getResult<RooflineAnalysis>(M);
  auto Selector = std::make_shared<KernelSelector>(
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager(),
      Opts.KernelFilter, Opts.AllFunctions);
  // A kernel the analysis reported is instrumented even when the optimiser
  // has since unrolled its loops away: the profile has every kernel the
  // summary has.
  IsKernel = [Selector, &Summaries](Function &F) {
    if (!Selector->isKernel(F) && !Summaries.find(F.getName()))
      return false;
    std::string Why = KernelSelector::whyNotInstrumented(F);
    if (!Why.empty())
      F.getContext().diagnose(DiagnosticInfoGeneric(
          "roofline: " + F.getName() + " is not instrumented: " + Why,
          DS_Remark));
    return Why.empty();
  };
  Static = [&Summaries](const Function &F) {
    return formulasOf(Summaries.find(F.getName()));
  };
  if (Triple(M.getTargetTriple()).isNVPTX())
    return instrumentDevice(M, MAM);
  bool Changed = redirectCudaLaunches(M);
  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  LLVMContext &Ctx = M.getContext();
  DescriptorTypes Types(Ctx);

  InlinedFunctions Sources(M);
  CarriedSummaries Carried;
  // Kernels, and functions that hold kernels inlined into them (markers of
  // other functions say so); then, callees first, the helpers their calls
  // need counted (CalleeCounts.h).
  std::map<const Function *, bool> OwnKernel;
  auto IsTarget = [&](Function &F) {
    bool Kernel = IsKernel(F);
    OwnKernel[&F] = Kernel;
    if (Kernel)
      return true;
    if (!Sources.empty())
      for (Instruction &I : instructions(F))
        if (const SourceFunction *S = Sources.markerOf(I))
          if (S->Subprogram != F.getSubprogram())
            return KernelSelector::whyNotInstrumented(F).empty();
    return false;
  };
  auto CanInstrument = [](Function &F) {
    return KernelAnalysis::isKernel(F) &&
           KernelSelector::whyNotInstrumented(F).empty();
  };
  CalleeCounts Callees(M, FAM, IsTarget, CanInstrument);

  std::vector<GlobalVariable *> Descs;
  std::set<const GlobalVariable *> TracedBlocks;
  std::map<const Function *, KeptShape> Shapes;
  HostRun Run{FAM, Types, Sources, Carried, Callees, Shapes, TracedBlocks};
  std::set<const Function *> Rewritten; // calls of kept functions rewritten
  for (auto [F, IsTargetFn] : Callees.order()) {
    bool IsOwnKernel = IsTargetFn && OwnKernel[F];
    StaticFormulas SF = IsOwnKernel ? Static(*F) : StaticFormulas();
    if (GlobalVariable *Desc =
            instrumentFunction(F, IsTargetFn, IsOwnKernel, SF, Run)) {
      Descs.push_back(Desc);
      Rewritten.insert(F); // its calls of kept functions too
    }
  }
  // Callers that are not instrumented (main, say) keep counters too.
  for (Function &G : M)
    if (!Rewritten.count(&G) && !G.getName().ends_with(".roofline.traced") &&
        !G.getName().contains(".roofline.kept"))
      Changed |= !keepCallsIn(G, Shapes, {}).empty();
  Changed |= InlinedFunctions::eraseMarkers(M);
  if (Descs.empty())
    return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();

  registerDescriptors(M, Descs);
  M.getOrInsertNamedMetadata(InstrumentedMarker);
  return PreservedAnalyses::none();
}

} // namespace roofline
