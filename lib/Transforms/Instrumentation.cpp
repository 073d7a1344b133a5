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
// CalleeCounts.h); each is instrumented in steps, each step's result the
// next one's input: its counters placed (CounterPlacement.h), lowered for
// host code (HostLowering.h), its kept form for calling loops (KeptCalls.h),
// its traced copy (CacheTracing.h) and its descriptor (Descriptors.h).
// CUDA device modules and host launches: CudaModules.cpp.
//
//===----------------------------------------------------------------------===//
#include "roofline/Transforms/Instrumentation.h"

#include "CacheTracing.h"
#include "CalleeCounts.h"
#include "Descriptors.h"
#include "CounterPlacement.h"
#include "HostLowering.h"
#include "KeptCalls.h"
#include "RuntimeNames.h"
#include "roofline/Analysis/InlinedSummaries.h"
#include "roofline/Analysis/KernelAnalysis.h"
#include "roofline/Analysis/KernelSelection.h"
#include "roofline/Transforms/InlinedFunctions.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/TargetTransformInfo.h"
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

namespace {
/// One function instrumented for host code: the steps' results.
struct InstrumentedFunction {
  PlacedCounters Placed;
  HostLowering Lowered;
  /// How a calling loop would keep each counter (when asked for).
  std::vector<KeptKind> Kinds;
  /// Its calls count its own footprint (from their arguments).
  bool OwnFootprint = false;
};
} // namespace

/// Places \p F's counters and lowers them for host code; none when it has
/// nothing to count. \p WantKinds: also classify them for calling loops.
static std::optional<InstrumentedFunction>
instrumentForHost(Function &F, const PlacementInputs &PI,
                  const HostLoweringInputs &HI, bool WantKinds,
                  FunctionAnalysisManager &FAM) {
  LoopInfo &LI = FAM.getResult<LoopAnalysis>(F);
  ScalarEvolution &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
  CounterPlacement Placer(F, LI, SE, FAM.getResult<DominatorTreeAnalysis>(F),
                          FAM.getResult<TargetIRAnalysis>(F), PI);
  std::optional<PlacedCounters> P = Placer.place();
  if (!P)
    return std::nullopt;
  InstrumentedFunction R{std::move(*P), {}, {}, Placer.countsOwnFootprint()};
  if (WantKinds || HI.KeepFor)
    R.Kinds = keptKinds(F, LI, R.Placed);
  if (HI.KeepFor) // the calling loop works these out: no code for them here
    for (size_t C = 0; C < R.Kinds.size(); ++C)
      if (R.Kinds[C] == KeptKind::ByCaller)
        R.Placed.Counters[C].Counted = true;
  R.Lowered = lowerForHost(F, SE, R.Placed, HI);
  // The traced copy calls what the lowering left: the kept calls.
  for (CallSite &C : R.Placed.CallSites)
    if (auto It = R.Lowered.Replaced.find(C.Call);
        It != R.Lowered.Replaced.end())
      C.Call = It->second;
  return R;
}

/// The kept function (KeptCalls.h) of \p F, instrumented as \p I, made
/// from \p Copy (the function before instrumentation) and placed as F was
/// (\p PI), in its two forms (untimed, returned, and timed); kept only
/// when the counters of both are the function's, one for one.
static std::optional<KeptShape>
keptFunction(Function &F, Function &Copy, const InstrumentedFunction &I,
             GlobalVariable *Desc, const PlacementInputs &PI,
             FunctionAnalysisManager &FAM) {
  KeptShape Timed{&F,         nullptr, I.Lowered.TLS, I.Lowered.BlockType,
                  Desc,       I.Kinds};
  takeKeptFormulas(I.Placed, I.Kinds, Timed);
  ValueToValueMapTy VMap;
  Function *Copy2 = CloneFunction(&Copy, VMap);
  KeptShape Untimed = Timed;
  Untimed.Untimed = true;
  makeKeptFunction(Copy, Timed, ".timed");
  makeKeptFunction(*Copy2, Untimed, "");
  Untimed.Timed = Timed.Kept;
  auto Instrument = [&](KeptShape &S) {
    HostLoweringInputs HI;
    HI.Desc = Desc;
    HI.KeepFor = &S;
    std::optional<InstrumentedFunction> K =
        instrumentForHost(*S.Kept, PI, HI, /*WantKinds=*/true, FAM);
    return K && sameLayout(I.Placed.Layout, K->Placed.Layout) &&
           K->Kinds == S.Kinds;
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

/// Gives \p F (instrumented as \p I) its traced copy for the cache
/// model; whether the copy sees all of F's traffic (its callees' too, as
/// \p TracedBlocks says), which adds F to them.
static bool tracedCopy(Function &F, GlobalVariable *Desc,
                       const InstrumentedFunction &I,
                       const CalleeCounts &Callees,
                       std::set<const GlobalVariable *> &TracedBlocks) {
  std::string Why = addTracedCopy(F, Desc, I.Placed.AccessSites,
                                  I.Placed.CallSites);
  // Its traffic is whole only where its callees' is too.
  for (const CallSite &C : I.Placed.CallSites)
    if (!C.Fixed && Why.empty())
      for (const CalleeCounts::Block *B : Callees.measured(*C.Call))
        if (!TracedBlocks.count(B->TLS))
          Why = "a callee's traffic is not traced (" +
                demangle(C.Call->getCalledFunction()->getName().str()) + ")";
  if (Why.empty()) {
    TracedBlocks.insert(I.Lowered.TLS);
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
  PlacementInputs PI;
  PI.Sources = &Run.Sources;
  PI.RecordSelf = IsOwnKernel || !IsTargetFn;
  PI.Callees = &Callees;
  PI.Helper = !IsTargetFn;
  PI.Carried = &Run.Carried;
  if (IsOwnKernel && !CountedFootprint)
    PI.OwnFootprint = &SF;
  HostLoweringInputs HI;
  HI.Desc = Desc;
  HI.TraceArguments = IsOwnKernel;
  HI.KeptCallees = &Run.Shapes;
  // The kept function is made from F as it is now.
  ValueToValueMapTy KeptMap;
  Function *KeptCopy =
      mayKeepCounters(*F, Callees) ? CloneFunction(F, KeptMap) : nullptr;
  std::optional<InstrumentedFunction> I =
      instrumentForHost(*F, PI, HI, /*WantKinds=*/KeptCopy, FAM);
  if (!I) {
    if (KeptCopy)
      KeptCopy->eraseFromParent();
    Desc->eraseFromParent();
    Callees.instrumented(*F, {}); // nothing to count: its calls add 0
    return nullptr;
  }
  Callees.instrumented(*F, blockOf(I->Placed.Layout, I->Lowered, Desc));
  forgetMemoryEffects(*F);
  if (KeptCopy)
    if (std::optional<KeptShape> S =
            keptFunction(*F, *KeptCopy, *I, Desc, PI, FAM)) {
      Callees.keptAs(*S->Kept, *F);
      Run.Shapes[F] = *S;
    }
  bool Traced = tracedCopiesEnabled() &&
                tracedCopy(*F, Desc, *I, Callees, Run.TracedBlocks);
  FAM.invalidate(*F, PreservedAnalyses::none());
  fillDescriptor(*Desc, *F, Run.Types, I->Placed.Layout, SF, Run.Sources,
                 Run.Carried,
                 {IsOwnKernel, CountedFootprint, I->OwnFootprint, Traced});
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
  if (Triple(M.getTargetTriple()).isNVPTX() ||
      Triple(M.getTargetTriple()).isAMDGCN())
    return instrumentDevice(M, MAM);
  bool Changed = redirectLaunches(M);
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
