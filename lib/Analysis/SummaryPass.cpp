//===- SummaryPass.cpp - What a compile reports ---------------------------===//
#include "roofline/Analysis/SummaryPass.h"
#include "roofline/Analysis/DeviceCode.h"

#include "roofline/Analysis/KernelJudgement.h"
#include "roofline/Analysis/RooflineAnalysis.h"
#include "roofline/Analysis/SummaryWriter.h"
#include "roofline/Model/Formula.h"
#include "roofline/Model/Platform.h"
#include "roofline/Model/Units.h"

#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "roofline/Analysis/InlinedSummaries.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstdio>
#include <map>
#include <optional>

#include <dlfcn.h>

using namespace llvm;

namespace roofline {

namespace {

/// Where platforms are looked up: $ROOFLINE_PLATFORMS, those of an
/// installed tree (<prefix>/lib/RooflinePass.so ->
/// <prefix>/share/roofline/platforms), the platforms/ next to the plugin's
/// build tree (build/lib/RooflinePass.so -> platforms/), then the source
/// tree it was built from.
std::vector<std::string> platformDirectories() {
  std::vector<std::string> Dirs = platformSearchPath(ROOFLINE_PLATFORMS_DIR);
  Dl_info Info;
  if (dladdr(reinterpret_cast<void *>(&platformDirectories), &Info) &&
      Info.dli_fname) {
    SmallString<256> Installed(
        sys::path::parent_path(sys::path::parent_path(Info.dli_fname)));
    sys::path::append(Installed, "share", "roofline", "platforms");
    Dirs.insert(Dirs.end() - 1, std::string(Installed));
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

/// A remark with its structured arguments: the named values as
/// ore::NV, so the YAML record (-fsave-optimization-record) keeps them.
OptimizationRemarkAnalysis withArgs(OptimizationRemarkAnalysis R,
                                    const std::vector<RemarkArg> &Args) {
  for (const RemarkArg &A : Args) {
    if (A.Key.empty())
      R << A.Value;
    else
      R << ore::NV(A.Key, A.Value);
  }
  return R;
}

void emitRemarks(Function &F, const KernelSummary &K) {
  OptimizationRemarkEmitter ORE(&F);
  ORE.emit([&] {
    return withArgs(OptimizationRemarkAnalysis("roofline", "KernelSummary",
                                               DiagnosticLocation(F.getSubprogram()),
                                               &F.getEntryBlock()),
                    kernelRemarkArgs(K));
  });
  for (const LoopSummary &L : K.Loops)
    ORE.emit([&] {
      return withArgs(OptimizationRemarkAnalysis("roofline", "LoopSummary",
                                                 loopLocation(F, L), &F.getEntryBlock()),
                      loopRemarkArgs(K, L));
    });
}

void warnAboutKernels(Module &M, const std::vector<KernelSummary> &Kernels,
                    const SummaryPass::Options &Opts) {
  LLVMContext &Ctx = M.getContext();
  auto Warn = [&](const std::string &Msg) {
    Ctx.diagnose(DiagnosticInfoGeneric("roofline: " + Msg, DS_Warning));
  };
  std::optional<double> Threshold;
  if (StringRef(Opts.Warn).starts_with("intensity-below=")) {
    double X;
    if (StringRef(Opts.Warn).drop_front(16).getAsDouble(X) || !(X > 0)) {
      Warn("-roofline-warn: '" + Opts.Warn + "': X must be a positive number");
      return;
    }
    Threshold = X;
  } else if (StringRef(Opts.Warn).starts_with("incore-below=")) {
    // Judged on the machine code, which this pass never sees.
    Warn("-roofline-warn=" + Opts.Warn + " is judged on the object file: "
         "build with roofline-clang (it runs roofline-incore after compiling), "
         "or run 'roofline-incore OBJ --warn-below=" + Opts.Warn.substr(13) + "'");
    return;
  } else if (Opts.Warn != "memory-bound") {
    Warn("-roofline-warn: unknown value '" + Opts.Warn +
         "' (expected memory-bound, intensity-below=X or incore-below=F)");
    return;
  }
  if (Opts.Severity != "warning" && Opts.Severity != "error" &&
      Opts.Severity != "remark" && Opts.Severity != "off") {
    Warn("-roofline-warnings: unknown value '" + Opts.Severity +
         "' (expected warning, error, remark or off)");
    return;
  }
  std::map<std::string, double> Sizes;
  if (!Opts.Assume.empty()) {
    auto Parsed = parseAssignments(Opts.Assume);
    if (!Parsed) {
      Warn("-roofline-assume " + Parsed.error());
      return;
    }
    Sizes = *Parsed;
  }
  std::string Name = !Opts.Platform.empty()
                         ? Opts.Platform
                         : std::string(defaultPlatformFor({kernelKind(M)}));
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
    std::string Kind = std::string(J.Asymptotic ? "asymptotic " : "") +
                       (J.Footprint ? "footprint " : "counted ");
    std::string Attainable = siUnit(J.Attainable, "FLOP/s") + " of " +
                             siUnit(J.Peak, "FLOP/s");
    if (Threshold)
      std::snprintf(Buf, sizeof(Buf),
                    "%s has %sintensity %.3g FLOP/B < %.3g on %s (ridge "
                    "%.3g FLOP/B); attainable %s",
                    Kernels[I].DisplayName.c_str(), Kind.c_str(), J.Intensity,
                    *Threshold, P->Name.c_str(), J.Ridge, Attainable.c_str());
    else
      std::snprintf(Buf, sizeof(Buf),
                    "%s is memory-bound on %s: %sintensity %.3g FLOP/B < "
                    "ridge %.3g FLOP/B; attainable %s",
                    Kernels[I].DisplayName.c_str(), P->Name.c_str(), Kind.c_str(),
                    J.Intensity, J.Ridge, Attainable.c_str());
    std::string Msg = Buf;
    Function *F = M.getFunction(Kernels[I].Name);
    if (!F)
      continue;
    if (Opts.Severity == "off")
      continue;
    if (Opts.Severity == "warning") {
      // An optimization-failure diagnostic: clang prints it as a warning at
      // the kernel's file:line:col (-Wpass-failed, so -Werror fails).
      DiagnosticInfoOptimizationFailure D(
          "roofline", "MemoryBound", DiagnosticLocation(F->getSubprogram()),
          &F->getEntryBlock());
      D << Msg;
      Ctx.diagnose(D);
      continue;
    }
    if (Opts.Severity == "remark") {
      // Shown with the other roofline remarks (-Rpass-analysis=roofline).
      OptimizationRemarkEmitter ORE(F);
      ORE.emit([&] {
        return OptimizationRemarkAnalysis("roofline", "MemoryBound",
                                          DiagnosticLocation(F->getSubprogram()),
                                          &F->getEntryBlock())
               << Msg;
      });
      continue;
    }
    // Roofline's own error: the build fails on it alone.
    std::string Text = "roofline: " + Msg;
    Twine T(Text);
    Ctx.diagnose(DiagnosticInfoGenericWithLoc(
        T, *F, DiagnosticLocation(F->getSubprogram()), DS_Error));
  }
}

void writeJSON(Module &M, const std::vector<KernelSummary> &Kernels,
               const std::vector<nlohmann::json> &Inlined,
               const std::string &SummaryPath) {
  std::string Source = M.getSourceFileName();
  std::string Target = M.getTargetTriple().str();
  for (Function &F : M)
    if (!F.isDeclaration() && F.hasFnAttribute("target-cpu") &&
        isDeviceModule(M)) {
      Target += " " + F.getFnAttribute("target-cpu").getValueAsString().str();
      break;
    }
  std::string Path = SummaryPath;
  if (sys::fs::is_directory(Path) || StringRef(Path).ends_with("/")) {
    sys::fs::create_directories(Path);
    Path = summaryFileInDirectory(Path, Source, Target);
  }
  std::string Error = writeSummaryFile(Path, Source, Target, Kernels, Inlined);
  if (!Error.empty())
    M.getContext().diagnose(
        DiagnosticInfoGeneric("roofline: " + Error, DS_Warning));
}

} // namespace

PreservedAnalyses SummaryPass::run(Module &M, ModuleAnalysisManager &MAM) {
  const auto &R = MAM.getResult<RooflineAnalysis>(M);
  std::vector<std::string> Known;
  for (const KernelSummary &K : R.Kernels) {
    Known.push_back(K.Name);
    if (Function *F = M.getFunction(K.Name))
      emitRemarks(*F, K);
  }
  // Kernels the inliner folded into their callers, as they were before it
  // (their summaries travel with their code: InlinedSummaries.h).
  std::vector<nlohmann::json> InlinedJSON;
  for (const InlinedSummary &S : inlinedSummaries(M, Known)) {
    InlinedJSON.push_back(S.Summary);
    const Instruction *At = S.At;
    std::string Callers;
    for (const auto &C : S.Summary["inlined_into"])
      Callers += (Callers.empty() ? "" : ", ") + C.get<std::string>();
    OptimizationRemarkEmitter ORE(At->getFunction());
    ORE.emit([&] {
      return OptimizationRemarkAnalysis("roofline", "KernelSummary",
                                        At->getDebugLoc(), At->getParent())
             << "(inlined into " << Callers << ") " << S.Remark;
    });
  }
  if (!Opts.JSONPath.empty())
    writeJSON(M, R.Kernels, InlinedJSON, Opts.JSONPath);
  if (!Opts.Warn.empty())
    warnAboutKernels(M, R.Kernels, Opts);
  return PreservedAnalyses::all();
}

} // namespace roofline
