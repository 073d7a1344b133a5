//===- RooflinePlugin.cpp - The RooflinePass.so entry point ---------------===//
//
// Registers the Roofline passes and the analysis with the new pass manager;
// the work is in lib/Analysis (RooflineAnalysis, SummaryPass) and
// lib/Transforms (InstrumentationPass).
//
// USAGE:
//   clang++-22 -O2 -g -fpass-plugin=build/lib/RooflinePass.so \
//       -Rpass-analysis=roofline -c gemm.cpp
//   clang++-22 -x cuda --cuda-gpu-arch=sm_90 -fpass-plugin=... \
//       -mllvm -roofline-json=out/ -c kernels.cu
//   opt -load-pass-plugin=build/lib/RooflinePass.so \
//       -passes='print<roofline>' -disable-output input.ll
//
// In a clang pipeline the analysis runs once per module after inlining and
// the scalar simplifications, before vectorisation and runtime unrolling
// (which change how operations are packed, not how many there are); the
// instrumentation runs last, on the code as it will run, and reads the same
// analysis result.
//
//===----------------------------------------------------------------------===//
#include "roofline/Analysis/RooflineAnalysis.h"
#include "roofline/Analysis/SummaryPass.h"
#include "roofline/Transforms/CountLowering.h"
#include "roofline/Transforms/InlinedFunctions.h"
#include "roofline/Transforms/Instrumentation.h"

#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Plugins/PassPlugin.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace roofline;

static cl::opt<std::string>
    SummaryPath("roofline-json",
                cl::desc("Write the static summary JSON to this file, or to "
                         "one file per compilation in this directory"),
                cl::value_desc("path"));
static cl::opt<std::string>
    KernelFilter("roofline-kernels",
                 cl::desc("Only report kernels whose mangled or demangled "
                          "name matches this regular expression"),
                 cl::value_desc("regex"));

static cl::opt<std::string> PlatformOpt(
    "roofline-platform",
    cl::desc("Platform (name or JSON file) for -roofline-warn; default "
             "h100-sxm for GPU code, intel-xeon-8480 for CPU code"),
    cl::value_desc("name|file"));
static cl::opt<std::string> WarnOpt(
    "roofline-warn",
    cl::desc("Warn at each kernel that is memory-bound on the platform "
             "(memory-bound) or whose intensity is below X "
             "(intensity-below=X)"),
    cl::value_desc("memory-bound|intensity-below=X"));
static cl::opt<std::string> WarningsOpt(
    "roofline-warnings",
    cl::desc("What -roofline-warn's findings are: warning (default; "
             "-Wpass-failed), error (they alone fail the build), remark, or "
             "off"),
    cl::init("warning"), cl::value_desc("warning|error|remark|off"));
static cl::opt<std::string> AssumeOpt(
    "roofline-assume",
    cl::desc("Sizes for -roofline-warn, e.g. n=4096,M=512; kernels whose "
             "formulas need other sizes are judged on their asymptotic "
             "intensity"),
    cl::value_desc("name=value,..."));

static cl::opt<bool> InstrumentOpt(
    "roofline-instrument",
    cl::desc("Instrument the kernels so a run measures their exact dynamic "
             "FLOPs, bytes, calls and time (link libroofline_rt)"),
    cl::init(false));

static cl::opt<bool> InlinedKernels(
    "roofline-inlined-kernels",
    cl::desc("Keep a kernel that the optimiser inlines into its callers as "
             "a kernel of its own, with its own static summary and record "
             "(marks each kernel before inlining; default on)"),
    cl::init(true));

static cl::opt<bool> AllFunctions(
    "roofline-all-functions",
    cl::desc("Report every defined function, not only those with work in "
             "loops (CPU code)"),
    cl::init(false));

namespace {

RooflineAnalysis::Options analysisOptions() {
  return {KernelFilter, AllFunctions};
}

SummaryPass summaryPass() {
  return SummaryPass({SummaryPath, WarnOpt, PlatformOpt, AssumeOpt, WarningsOpt});
}

InstrumentationPass instrumentationPass() {
  return InstrumentationPass(analysisOptions());
}

void registerCallbacks(PassBuilder &PB) {
  PB.registerAnalysisRegistrationCallback([](ModuleAnalysisManager &MAM) {
    MAM.registerPass([] { return RooflineAnalysis(analysisOptions()); });
  });
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == "print<roofline>") {
          MPM.addPass(RooflinePrinterPass(outs()));
          return true;
        }
        if (Name == "roofline") {
          MPM.addPass(summaryPass());
          return true;
        }
        if (Name == "roofline-mark-entries") {
          MPM.addPass(EntryMarkerPass(analysisOptions()));
          return true;
        }
        if (Name == "roofline-instrument") {
          MPM.addPass(instrumentationPass());
          return true;
        }
        if (Name == "roofline-remove-markers") {
          MPM.addPass(MarkerRemovalPass());
          return true;
        }
        return false;
      });
  PB.registerPipelineParsingCallback(
      [](StringRef Name, FunctionPassManager &FPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == "roofline-source-summary") {
          FPM.addPass(SourceSummaryPass());
          return true;
        }
        if (Name == "roofline-lower-counts") {
          FPM.addPass(CountLoweringPass());
          return true;
        }
        return false;
      });
  // Before any inlining: mark each kernel's entry and loops, so that a
  // kernel inlined into its callers is still reported and counted as its
  // own. (-O0 inlines only always_inline functions: no markers.)
  PB.registerPipelineStartEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel Level) {
        if (InlinedKernels && Level != OptimizationLevel::O0)
          MPM.addPass(EntryMarkerPass(analysisOptions(), InstrumentOpt));
      });
  // Inside the inliner's walk (callees first), after each function's own
  // simplification: a marked kernel's own summary, before callers inline it.
  PB.registerScalarOptimizerLateEPCallback(
      [](FunctionPassManager &FPM, OptimizationLevel Level) {
        if (InlinedKernels && Level != OptimizationLevel::O0)
          FPM.addPass(SourceSummaryPass());
      });
  // After inlining and scalar simplification, before vectorisation; at -O0
  // the same extension point runs too. LTO backends analyse nothing: the
  // pre-link compile already did.
  PB.registerOptimizerEarlyEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel, ThinOrFullLTOPhase Phase) {
        if (Phase == ThinOrFullLTOPhase::ThinLTOPostLink ||
            Phase == ThinOrFullLTOPhase::FullLTOPostLink)
          return;
        MPM.addPass(summaryPass());
        // Without instrumentation the markers have done their work.
        if (!InstrumentOpt)
          MPM.addPass(MarkerRemovalPass());
      });
  // Instrumentation counts the code as it will run: after every
  // optimisation. Post-link LTO is skipped (the pre-link compile did it).
  PB.registerOptimizerLastEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel, ThinOrFullLTOPhase Phase) {
        if (!InstrumentOpt || Phase == ThinOrFullLTOPhase::ThinLTOPostLink ||
            Phase == ThinOrFullLTOPhase::FullLTOPostLink)
          return;
        MPM.addPass(instrumentationPass());
      });
}

} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK ::llvm::PassPluginLibraryInfo
llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "Roofline", "0.1.0", registerCallbacks};
}
