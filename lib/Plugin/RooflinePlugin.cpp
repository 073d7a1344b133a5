//===- RooflinePlugin.cpp - The RooflinePass.so entry point ---------------===//
//
// Registers the Roofline passes with the new pass manager.
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
// (which change how operations are packed, not how many there are). At -O0
// it analyses a register-promoted copy of the module, so loop trip counts
// are visible to ScalarEvolution; the user's module is never changed.
//
//===----------------------------------------------------------------------===//
#include "roofline/Analysis/KernelAnalysis.h"
#include "roofline/Analysis/SummaryWriter.h"
#include "roofline/Analysis/CostModel.h"
#include "roofline/Analysis/KernelJudgement.h"
#include "roofline/Analysis/KernelSelection.h"
#include "roofline/Transforms/Instrumentation.h"
#include "roofline/Model/Formula.h"
#include "roofline/Model/Platform.h"
#include "roofline/Model/Units.h"

#include "llvm/Analysis/BranchProbabilityInfo.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Plugins/PassPlugin.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"

#include <map>

#include <dlfcn.h>

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

static cl::opt<bool> AllFunctions(
    "roofline-all-functions",
    cl::desc("Report every defined function, not only those with work in "
             "loops (CPU code)"),
    cl::init(false));

namespace {

/// -O0 code reads blockDim.x inside the loop that steps by it: the same
/// value for the whole thread, but ScalarEvolution sees a call in the loop
/// and no induction variable. The reads take no operands and do not change:
/// in the analysis copy they move to the entry block, as at -O2.
static void hoistThreadIndexReads(Function &F) {
  BasicBlock &Entry = F.getEntryBlock();
  auto At = Entry.getFirstNonPHIOrDbgOrAlloca();
  SmallVector<CallInst *, 8> Reads;
  for (BasicBlock &BB : F)
    if (&BB != &Entry)
      for (Instruction &I : BB)
        if (auto *CI = dyn_cast<CallInst>(&I))
          if (Function *Callee = CI->getCalledFunction())
            if (Callee->getName().starts_with("llvm.nvvm.read.ptx.sreg.") &&
                CI->arg_empty())
              Reads.push_back(CI);
  for (CallInst *CI : Reads)
    CI->moveBefore(At);
}

/// Collects the summaries of a module's kernels: the shared work of the
/// pipeline pass and of print<roofline>.
class ModuleSummarizer {
public:
  explicit ModuleSummarizer(Module &M, ModuleAnalysisManager &MAM)
      : M(M), MAM(MAM) {}

  std::vector<KernelSummary> run();
  /// Pairs with run()'s result: the user's function of each summary.
  const std::vector<Function *> &originals() const { return Originals; }

private:
  Module &M;
  ModuleAnalysisManager &MAM;
  std::vector<Function *> Originals;
};

std::vector<KernelSummary> ModuleSummarizer::run() {
  // -O0 code keeps every variable in memory, which hides loop trip counts
  // from ScalarEvolution: analyse a copy with the allocas promoted instead.
  bool Unoptimized = false;
  for (Function &F : M)
    Unoptimized |= F.hasOptNone();

  std::unique_ptr<Module> Copy;
  ValueToValueMapTy VMap;
  PassBuilder PB;
  LoopAnalysisManager LAM;
  FunctionAnalysisManager OwnFAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager OwnMAM;
  FunctionAnalysisManager *FAM =
      &MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  if (Unoptimized) {
    Copy = CloneModule(M, VMap);
    PB.registerModuleAnalyses(OwnMAM);
    PB.registerCGSCCAnalyses(CGAM);
    PB.registerFunctionAnalyses(OwnFAM);
    PB.registerLoopAnalyses(LAM);
    PB.crossRegisterProxies(LAM, OwnFAM, CGAM, OwnMAM);
    FunctionPassManager FPM;
    FPM.addPass(SROAPass(SROAOptions::ModifyCFG));
    FPM.addPass(LoopSimplifyPass());
    // CUDA kernels with their device functions inlined, as at -O2: a
    // thread index computed in a helper is then seen as one.
    if (Copy->getTargetTriple().isNVPTX())
      for (Function &F : *Copy)
        if (!F.isDeclaration() && F.getCallingConv() == CallingConv::PTX_Kernel)
          inlineDeviceCalls(F);
    for (Function &F : *Copy) {
      if (F.isDeclaration())
        continue;
      hoistThreadIndexReads(F);
      F.removeFnAttr(Attribute::OptimizeNone);
      // The back end still compiles the original without optimisation
      // (its FMA fusion depends on that): the cost model asks this.
      F.addFnAttr(CostModel::UnoptimizedAttr);
      FPM.run(F, OwnFAM);
    }
    FAM = &OwnFAM;
  }

  KernelAnalysis KA([&](Function &F) {
    return FunctionAnalyses{
        FAM->getResult<LoopAnalysis>(F),
        FAM->getResult<ScalarEvolutionAnalysis>(F),
        [FAM, &F]() -> BranchProbabilityInfo & {
          return FAM->getResult<BranchProbabilityAnalysis>(F);
        }};
  });
  KernelSelector Selector(*FAM, KernelFilter, AllFunctions);
  if (!Selector.filterError().empty())
    M.getContext().diagnose(DiagnosticInfoGeneric(
        "roofline: " + Selector.filterError(), DS_Warning));
  std::vector<KernelSummary> Kernels;
  for (Function &Orig : M) {
    if (Orig.isDeclaration())
      continue;
    Function &F = Copy ? *cast<Function>(VMap[&Orig]) : Orig;
    if (!Selector.isKernel(F))
      continue;
    Kernels.push_back(KA.summarize(F, Orig));
    Originals.push_back(&Orig);
  }
  return Kernels;
}

/// Where platforms are looked up: $ROOFLINE_PLATFORMS, the platforms/ next
/// to the plugin's build tree (build/lib/RooflinePass.so -> platforms/),
/// then the source tree it was built from.
std::vector<std::string> platformDirectories() {
  std::vector<std::string> Dirs = platformSearchPath(ROOFLINE_PLATFORMS_DIR);
  Dl_info Info;
  if (dladdr(reinterpret_cast<void *>(&platformDirectories), &Info) &&
      Info.dli_fname) {
    SmallString<256> Dir(sys::path::parent_path(
        sys::path::parent_path(sys::path::parent_path(Info.dli_fname))));
    sys::path::append(Dir, "platforms");
    Dirs.insert(Dirs.end() - 1, std::string(Dir));
  }
  return Dirs;
}

/// A DiagnosticLocation for a loop row: its line in its own file.
DiagnosticLocation loopLocation(const Function &F, const LoopSummary &L) {
  DISubprogram *SP = F.getSubprogram();
  if (!SP || !L.Line)
    return DiagnosticLocation();
  LLVMContext &Ctx = F.getContext();
  DIScope *Scope = SP;
  if (L.File != SP->getFilename() &&
      L.File != (SP->getDirectory() + "/" + SP->getFilename()).str())
    Scope = DILexicalBlockFile::get(Ctx, SP, DIFile::get(Ctx, L.File, ""), 0);
  return DiagnosticLocation(DILocation::get(Ctx, L.Line, L.Column, Scope));
}

/// The static formulas of the kernels analysed in this process, for the
/// descriptors the instrumentation writes (both passes run in one compile).
std::map<std::string, StaticFormulas> &staticFormulas() {
  static std::map<std::string, StaticFormulas> Map;
  return Map;
}

void rememberStatic(const KernelSummary &K) {
  const CountPolys &C = K.Totals;
  std::vector<std::string> Order = K.variableOrder();
  StaticFormulas SF{C.flops().str(Order), C.bytes(Access::Load).str(Order),
                    C.bytes(Access::Store).str(Order), K.Exact, K.Params, {}};
  for (const auto &[Arg, LS] : C.ArgBytes)
    if (!LS[0].isZero() || !LS[1].isZero())
      SF.Pointers.push_back({Arg, LS[0].str(Order), LS[1].str(Order)});
  staticFormulas()[K.Name] = std::move(SF);
}

/// roofline-instrument with the kernel selection of the analysis.
struct RooflineInstrumentPass : PassInfoMixin<RooflineInstrumentPass> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &MAM) {
    FunctionAnalysisManager &FAM =
        MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
    KernelSelector Selector(FAM, KernelFilter, AllFunctions);
    InstrumentationPass P(
        // A kernel the analysis reported is instrumented even when the
        // optimiser has since unrolled its loops away: the profile must
        // have every kernel the summary has.
        [&](Function &F) {
          return Selector.isKernel(F) ||
                 staticFormulas().count(F.getName().str());
        },
        [](const Function &F) {
          auto It = staticFormulas().find(F.getName().str());
          return It == staticFormulas().end() ? StaticFormulas()
                                              : It->second;
        });
    return P.run(M, MAM);
  }
  static bool isRequired() { return true; }
};

/// The pipeline pass: remarks and the summary JSON; changes nothing.
struct RooflineAnalysisPass : PassInfoMixin<RooflineAnalysisPass> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &MAM) {
    ModuleSummarizer S(M, MAM);
    std::vector<KernelSummary> Kernels = S.run();
    for (size_t I = 0; I < Kernels.size(); ++I) {
      Function &F = *S.originals()[I];
      rememberStatic(Kernels[I]);
      OptimizationRemarkEmitter ORE(&F);
      const KernelSummary &K = Kernels[I];
      ORE.emit([&] {
        return OptimizationRemarkAnalysis("roofline", "KernelSummary",
                                          DiagnosticLocation(F.getSubprogram()),
                                          &F.getEntryBlock())
               << kernelRemark(K);
      });
      for (const LoopSummary &L : K.Loops)
        ORE.emit([&] {
          return OptimizationRemarkAnalysis("roofline", "LoopSummary",
                                            loopLocation(F, L),
                                            &F.getEntryBlock())
                 << loopRemark(K, L);
        });
    }
    if (!SummaryPath.empty())
      writeJSON(M, Kernels);
    if (!WarnOpt.empty())
      warnAboutKernels(M, Kernels, S.originals());
    return PreservedAnalyses::all();
  }

  static void warnAboutKernels(Module &M,
                               const std::vector<KernelSummary> &Kernels,
                               const std::vector<Function *> &Originals) {
    LLVMContext &Ctx = M.getContext();
    auto Warn = [&](const std::string &Msg) {
      Ctx.diagnose(DiagnosticInfoGeneric("roofline: " + Msg, DS_Warning));
    };
    std::optional<double> Threshold;
    if (StringRef(WarnOpt).starts_with("intensity-below=")) {
      double X;
      if (StringRef(WarnOpt).drop_front(16).getAsDouble(X) || !(X > 0)) {
        Warn("-roofline-warn: '" + WarnOpt + "': X must be a positive number");
        return;
      }
      Threshold = X;
    } else if (WarnOpt != "memory-bound") {
      Warn("-roofline-warn: unknown value '" + WarnOpt +
           "' (expected memory-bound or intensity-below=X)");
      return;
    }
    std::map<std::string, double> Sizes;
    if (!AssumeOpt.empty()) {
      auto Parsed = parseAssignments(AssumeOpt);
      if (!Parsed) {
        Warn("-roofline-assume " + Parsed.error());
        return;
      }
      Sizes = *Parsed;
    }
    bool GPU = M.getTargetTriple().isNVPTX();
    std::string Name = PlatformOpt.empty()
                           ? (GPU ? "h100-sxm" : "intel-xeon-8480")
                           : PlatformOpt.getValue();
    Result<Platform> P = findPlatform(Name, platformDirectories());
    if (!P) {
      Warn("-roofline-platform: " + P.error());
      return;
    }
    for (size_t I = 0; I < Kernels.size(); ++I) {
      KernelJudgement J = judgeKernel(Kernels[I], *P, Sizes);
      bool Offends = Threshold ? J.Intensity < *Threshold : J.MemoryBound;
      if (!Offends)
        continue;
      char Buf[512];
      const char *Kind = J.Asymptotic ? "asymptotic " : "";
      std::string Attainable = siUnit(J.Attainable, "FLOP/s") + " of " +
                               siUnit(J.Peak, "FLOP/s");
      if (Threshold)
        std::snprintf(Buf, sizeof(Buf),
                      "%s has %sintensity %.3g FLOP/B < %.3g on %s (ridge "
                      "%.3g FLOP/B); attainable %s",
                      Kernels[I].DisplayName.c_str(), Kind, J.Intensity,
                      *Threshold, P->Name.c_str(), J.Ridge, Attainable.c_str());
      else
        std::snprintf(Buf, sizeof(Buf),
                      "%s is memory-bound on %s: %sintensity %.3g FLOP/B < "
                      "ridge %.3g FLOP/B; attainable %s",
                      Kernels[I].DisplayName.c_str(), P->Name.c_str(), Kind,
                      J.Intensity, J.Ridge, Attainable.c_str());
      std::string Msg = Buf;
      Function &F = *Originals[I];
      // An optimization-failure diagnostic: clang prints it as a warning at
      // the kernel's file:line:col (-Wpass-failed, so -Werror fails).
      DiagnosticInfoOptimizationFailure D(
          "roofline", "MemoryBound", DiagnosticLocation(F.getSubprogram()),
          &F.getEntryBlock());
      D << Msg;
      Ctx.diagnose(D);
    }
  }

  static void writeJSON(Module &M, const std::vector<KernelSummary> &Kernels) {
    std::string Source = M.getSourceFileName();
    std::string Target = M.getTargetTriple().str();
    for (Function &F : M)
      if (!F.isDeclaration() && F.hasFnAttribute("target-cpu") &&
          M.getTargetTriple().isNVPTX()) {
        Target += " " + F.getFnAttribute("target-cpu").getValueAsString().str();
        break;
      }
    std::string Path = SummaryPath;
    if (sys::fs::is_directory(Path) || StringRef(Path).ends_with("/")) {
      sys::fs::create_directories(Path);
      Path = summaryFileInDirectory(Path, Source, Target);
    }
    std::string Error = writeSummaryFile(Path, Source, Target, Kernels);
    if (!Error.empty())
      M.getContext().diagnose(
          DiagnosticInfoGeneric("roofline: " + Error, DS_Warning));
  }

  static bool isRequired() { return true; }
};

/// print<roofline>: the analysis as text on stdout, for tests and users.
struct RooflinePrinterPass : PassInfoMixin<RooflinePrinterPass> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &MAM) {
    ModuleSummarizer S(M, MAM);
    std::vector<KernelSummary> Kernels = S.run();
    outs() << "roofline: module '" << M.getModuleIdentifier() << "' ("
           << M.getTargetTriple().str() << "), " << Kernels.size()
           << " kernel" << (Kernels.size() == 1 ? "" : "s") << "\n";
    for (const KernelSummary &K : Kernels)
      outs() << kernelText(K);
    return PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
};

void registerCallbacks(PassBuilder &PB) {
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == "print<roofline>") {
          MPM.addPass(RooflinePrinterPass());
          return true;
        }
        if (Name == "roofline") {
          MPM.addPass(RooflineAnalysisPass());
          return true;
        }
        if (Name == "roofline-instrument") {
          MPM.addPass(RooflineInstrumentPass());
          return true;
        }
        return false;
      });
  // After inlining and scalar simplification, before vectorisation; at -O0
  // the same extension point runs too. LTO backends analyse nothing: the
  // pre-link compile already did.
  PB.registerOptimizerEarlyEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel, ThinOrFullLTOPhase Phase) {
        if (Phase == ThinOrFullLTOPhase::ThinLTOPostLink ||
            Phase == ThinOrFullLTOPhase::FullLTOPostLink)
          return;
        MPM.addPass(RooflineAnalysisPass());
      });
  // Instrumentation counts the code as it will run: after every
  // optimisation. Post-link LTO is skipped (the pre-link compile did it).
  PB.registerOptimizerLastEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel, ThinOrFullLTOPhase Phase) {
        if (!InstrumentOpt || Phase == ThinOrFullLTOPhase::ThinLTOPostLink ||
            Phase == ThinOrFullLTOPhase::FullLTOPostLink)
          return;
        MPM.addPass(RooflineInstrumentPass());
      });
}

} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK ::llvm::PassPluginLibraryInfo
llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "Roofline", "0.1.0", registerCallbacks};
}
