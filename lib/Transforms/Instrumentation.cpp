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
#include "CountOperations.h"
#include "CounterCode.h"
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
#include "llvm/Transforms/Utils/Local.h"

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <tuple>

using namespace llvm;

namespace roofline {

namespace {
/// One function's counts placed (CounterPlacement.h, CounterCode.h): what
/// its lowering, and its kept forms', start from.
struct CountedFunction {
  PlacedCounters Placed;
  CounterCode Code;
  /// How a calling loop would keep each counter (when asked for).
  std::vector<KeptKind> Kinds;
  /// Its calls count its own footprint (from their arguments).
  bool OwnFootprint = false;
};
} // namespace

/// Places \p F's counters and their count operations; none when it has
/// nothing to count. \p WantKinds: also classify them for calling loops.
static std::optional<CountedFunction>
placeCounts(Function &F, const PlacementInputs &PI, bool WantKinds,
            FunctionAnalysisManager &FAM) {
  LoopInfo &LI = FAM.getResult<LoopAnalysis>(F);
  ScalarEvolution &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
  CounterPlacement Placer(F, LI, SE, FAM.getResult<DominatorTreeAnalysis>(F),
                          FAM.getResult<TargetIRAnalysis>(F), PI);
  std::optional<PlacedCounters> P = Placer.place();
  if (!P)
    return std::nullopt;
  CountedFunction C{std::move(*P), {}, {}, Placer.countsOwnFootprint()};
  if (WantKinds)
    C.Kinds = keptKinds(F, LI, C.Placed);
  C.Code = addCounts(F, SE, C.Placed);
  return C;
}

/// \p C (counted for \p F) as the clone of F that \p VMap maps to: its
/// loop nests the clone's, its slots and count operations the clone's,
/// and no reference into F (the counters' blocks and sites are in its
/// count operations now).
static CountedFunction countedClone(const CountedFunction &C,
                                    ValueToValueMapTy &VMap, LoopInfo &LI) {
  CountedFunction K = C;
  for (Nest &N : K.Placed.Layout.Nests)
    N.L = LI.getLoopFor(cast<BasicBlock>(VMap[N.L->getHeader()]));
  for (Counter &Ct : K.Placed.Counters) {
    Ct.Block = nullptr, Ct.Length = nullptr, Ct.At = nullptr;
    Ct.HoistTo = nullptr;
    Ct.FormulaSites.clear();
    Ct.Markers.clear();
  }
  K.Placed.AccessSites.clear();
  K.Placed.CallSites.clear();
  for (auto &[Name, V] : K.Placed.Arguments)
    V = VMap[V];
  for (auto *Slots : {&K.Code.Slots, &K.Code.Scratch})
    for (AllocaInst *&A : *Slots)
      A = cast<AllocaInst>(VMap[A]);
  K.Code.GrowthReads.clear(); // a leaf's: none
  if (K.Code.SlotsEnd)
    K.Code.SlotsEnd = cast<Instruction>(VMap[K.Code.SlotsEnd]);
  K.Code.AfterPrelude = cast<Instruction>(VMap[K.Code.AfterPrelude]);
  return K;
}

/// In a kept form: no count of the counters its calling loop works out
/// (KeptKind::ByCaller), nor the code that computed their steps.
static void dropCallersCounts(Function &K, const std::vector<KeptKind> &Kinds) {
  for (const CountOperation &Op : countOperations(K))
    if (Op.Counter < Kinds.size() && Kinds[Op.Counter] == KeptKind::ByCaller) {
      Value *Step = Op.Step;
      Op.Call->eraseFromParent();
      RecursivelyDeleteTriviallyDeadInstructions(Step);
    }
}

namespace {
/// A function's kept forms (KeptCalls.h), timed and untimed, cloned from
/// it once its counts are placed, and their counts.
struct KeptForms {
  KeptShape Timed, Untimed;
  CountedFunction TimedCounts, UntimedCounts;
};
} // namespace

/// The kept forms of \p F, counted as \p C and not lowered yet: clones of
/// it, so their counters are F's one for one. lowerKeptForms lowers them
/// once F's block exists.
static KeptForms cloneKeptForms(Function &F, const CountedFunction &C,
                                GlobalVariable *Desc,
                                FunctionAnalysisManager &FAM) {
  KeptForms K;
  K.Timed = {&F, nullptr, nullptr, nullptr, Desc, C.Kinds};
  takeKeptFormulas(C.Placed, C.Kinds, K.Timed);
  K.Untimed = K.Timed;
  K.Untimed.Untimed = true;
  for (auto [S, Counts, Suffix] :
       {std::tuple(&K.Timed, &K.TimedCounts, ".timed"),
        std::tuple(&K.Untimed, &K.UntimedCounts, "")}) {
    ValueToValueMapTy VMap;
    makeKeptFunction(*S, Suffix, VMap);
    *Counts = countedClone(C, VMap, FAM.getResult<LoopAnalysis>(*S->Kept));
    dropCallersCounts(*S->Kept, C.Kinds);
  }
  K.Untimed.Timed = K.Timed.Kept;
  return K;
}

/// Lowers the kept forms \p K, adding to the block of their function's
/// lowering \p L; returns the untimed form, the one calling loops call.
static KeptShape lowerKeptForms(KeptForms &K, const HostLowering &L,
                                FunctionAnalysisManager &FAM) {
  for (auto [S, Counts] : {std::pair(&K.Timed, &K.TimedCounts),
                           std::pair(&K.Untimed, &K.UntimedCounts)}) {
    S->TLS = L.TLS;
    S->BlockType = L.BlockType;
    HostLoweringInputs HI;
    HI.Desc = S->Desc;
    HI.KeepFor = S;
    S->TimedStart =
        lowerForHost(*S->Kept, Counts->Placed, Counts->Code, HI).TimedStart;
  }
  addForwardPath(K.Timed);
  addTimedDispatch(K.Untimed);
  for (Function *Fn : {K.Timed.Kept, K.Untimed.Kept})
    FAM.invalidate(*Fn, PreservedAnalyses::none());
  return K.Untimed;
}

/// \p F's code writes its block now: whatever the optimiser inferred of
/// its memory effects (none, read only) no longer holds.
static void forgetMemoryEffects(Function &F) {
  F.setMemoryEffects(MemoryEffects::unknown());
  for (User *U : F.users())
    if (auto *CB = dyn_cast<CallBase>(U))
      CB->removeFnAttr(Attribute::Memory);
}

/// Gives \p F (placed as \p P, its block \p TLS) its traced copy for the
/// cache model; whether the copy sees all of F's traffic (its callees' too,
/// as \p TracedBlocks says), which adds F to them.
static bool tracedCopy(Function &F, GlobalVariable *Desc,
                       const PlacedCounters &P, const GlobalVariable *TLS,
                       const CalleeCounts &Callees,
                       std::set<const GlobalVariable *> &TracedBlocks) {
  std::string Why = addTracedCopy(F, Desc, P.AccessSites, P.CallSites);
  // Its traffic is whole only where its callees' is too.
  for (const CallSite &C : P.CallSites)
    if (!C.Fixed && Why.empty())
      for (const CalleeCounts::Block *B : Callees.measured(*C.Call))
        if (!TracedBlocks.count(B->TLS))
          Why = "a callee's traffic is not traced (" +
                demangle(C.Call->getCalledFunction()->getName().str()) + ")";
  if (Why.empty()) {
    TracedBlocks.insert(TLS);
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
  bool Keep = mayKeepCounters(*F, Callees); // asked of F as it is now
  std::optional<CountedFunction> C = placeCounts(*F, PI, Keep, FAM);
  if (!C) {
    Desc->eraseFromParent();
    Callees.instrumented(*F, {}); // nothing to count: its calls add 0
    return nullptr;
  }
  // The kept forms are F's clones now, with F's counts, before F's lowering.
  std::optional<KeptForms> Forms;
  if (Keep)
    Forms = cloneKeptForms(*F, *C, Desc, FAM);
  HostLoweringInputs HI;
  HI.Desc = Desc;
  HI.TraceArguments = IsOwnKernel;
  HI.KeptCallees = &Run.Shapes;
  HostLowering L = lowerForHost(*F, C->Placed, C->Code, HI);
  // The traced copy calls what the lowering left: the kept calls.
  for (CallSite &Site : C->Placed.CallSites)
    if (auto It = L.Replaced.find(Site.Call); It != L.Replaced.end())
      Site.Call = It->second;
  Callees.instrumented(*F, blockOf(C->Placed.Layout, L, Desc));
  forgetMemoryEffects(*F);
  if (Forms) {
    KeptShape S = lowerKeptForms(*Forms, L, FAM);
    Callees.keptAs(*S.Kept, *F);
    Run.Shapes[F] = S;
  }
  bool Traced = tracedCopiesEnabled() &&
                tracedCopy(*F, Desc, C->Placed, L.TLS, Callees,
                           Run.TracedBlocks);
  FAM.invalidate(*F, PreservedAnalyses::none());
  fillDescriptor(*Desc, *F, Run.Types, C->Placed.Layout, SF, Run.Sources,
                 Run.Carried,
                 {IsOwnKernel, CountedFootprint, C->OwnFootprint, Traced});
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

  std::vector<Function *> Program; // the module's functions, before
  for (Function &G : M)
    Program.push_back(&G);
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
  // The program's callers that are not instrumented (main, say) keep
  // counters too; not the functions the instrumenter made (kept forms,
  // traced copies).
  for (Function *G : Program)
    if (!Rewritten.count(G))
      Changed |= !keepCallsIn(*G, Shapes, {}).empty();
  Changed |= InlinedFunctions::eraseMarkers(M);
  if (Descs.empty())
    return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();

  registerDescriptors(M, Descs);
  M.getOrInsertNamedMetadata(InstrumentedMarker);
  return PreservedAnalyses::none();
}

} // namespace roofline
