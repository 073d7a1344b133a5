//===- RooflineAudit.cpp - roofline-audit: fusion candidates in host code -===//
//
// USAGE:
//   roofline-audit -p BUILD_DIR FILE... --summary DIR_OR_FILE...
//       [--platform NAME|FILE] [--assume n=4096,...] [--convention fma2|ncu|mac]
//       [--format text|json|sarif] [-o FILE]
//
// BUILD_DIR holds compile_commands.json; the summaries are what the plugin
// wrote with -mllvm -roofline-json=DIR when the kernels were compiled.
// Exit status: 0 fine, 2 bad input (one line naming the file and problem).
//
//===----------------------------------------------------------------------===//
#include "ToolSupport.h"
#include "AuditOutput.h"
#include "SourceFusion.h"
#include "LaunchFinder.h"
#include "Summaries.h"

#include "roofline/Model/Formula.h"

#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CommonOptionsParser.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace llvm;
using namespace roofline;

static cl::OptionCategory Category("roofline-audit options");
static cl::list<std::string>
    Summary("summary",
            cl::desc("Static summary JSON, or a directory of them (from "
                     "-mllvm -roofline-json=DIR); repeatable"),
            cl::value_desc("dir|file"), cl::cat(Category));
static cl::opt<std::string> SourceRoot(
    "source-root",
    cl::desc("SARIF: write the URIs of files under DIR relative to it "
             "(%SRCROOT%), as code scanning wants them"),
    cl::value_desc("dir"), cl::cat(Category));
static cl::opt<std::string>
    PlatformName("platform",
                 cl::desc("Platform name or platform JSON file (default: "
                          "h100-sxm for CUDA launches, intel-xeon-8480 "
                          "otherwise)"),
                 cl::value_desc("name|file"), cl::cat(Category));
static cl::opt<std::string> Format("format",
                                   cl::desc("text (default), json, sarif"),
                                   cl::init("text"), cl::cat(Category));
static cl::opt<std::string> Output("o", cl::desc("Write to FILE"),
                                   cl::value_desc("file"), cl::cat(Category));
static cl::list<std::string>
    Assume("assume",
           cl::desc("Value of a host variable in the formulas, NAME=VALUE[,...]"),
           cl::value_desc("name=value"), cl::cat(Category));
static cl::opt<std::string>
    ConventionName("convention",
                   cl::desc("What a FLOP is: fma2 (default), ncu, mac"),
                   cl::init("fma2"), cl::cat(Category));

[[noreturn]] static void fail(const std::string &Message) {
  errs() << "roofline-audit: error: " << Message << "\n";
  std::exit(2);
}

static std::vector<std::string> searchPath(const char *Argv0) {
  return platformDirectories(Argv0, ROOFLINE_PLATFORMS_DIR);
}

static void writeOutput(const std::string &Text) {
  std::string Error = writeText(Output, Text);
  if (!Error.empty())
    fail(Error);
}

/// The compile command as the audit runs it: clang's builtin headers from
/// its install, CUDA and HIP files as their host half, no warnings.
static clang::tooling::ArgumentsAdjuster commandAdjuster() {
  return [](const clang::tooling::CommandLineArguments &Args,
            StringRef File) {
    clang::tooling::CommandLineArguments Out(Args.begin(), Args.end());
    bool CUDA = File.ends_with(".cu") || File.ends_with(".hip");
    for (size_t I = 0; I + 1 < Out.size(); ++I)
      if (Out[I] == "-x" && (Out[I + 1] == "cuda" || Out[I + 1] == "hip"))
        CUDA = true;
    std::vector<std::string> Extra = {"-resource-dir=" ROOFLINE_CLANG_RESOURCE_DIR,
                                      "-w"};
    if (CUDA)
      Extra.push_back("--cuda-host-only");
    Out.insert(Out.begin() + std::min<size_t>(1, Out.size()), Extra.begin(),
               Extra.end());
    return Out;
  };
}

int main(int argc, char **argv) {
  setVersionPrinter("roofline-audit");
  auto Parser = clang::tooling::CommonOptionsParser::create(
      argc, const_cast<const char **>(argv), Category, cl::ZeroOrMore,
      "roofline-audit: kernel launches that can be fused, with the bytes and "
      "time fusing saves\n");
  if (!Parser) {
    std::string Message = toString(Parser.takeError());
    while (!Message.empty() && Message.back() == '\n')
      Message.pop_back();
    std::replace(Message.begin(), Message.end(), '\n', ' ');
    fail(Message);
  }
  if (Format != "text" && Format != "json" && Format != "sarif")
    fail("--format: unknown format '" + Format +
         "' (expected text, json or sarif)");
  Result<Convention> Conv = parseConvention(ConventionName);
  if (!Conv)
    fail("--convention: " + Conv.error());
  AuditOptions Options;
  Options.Conv = *Conv;
  for (const std::string &A : Assume) {
    auto Values = parseAssignments(A, Options.Assume);
    if (!Values)
      fail("--assume " + Values.error());
    Options.Assume = *Values;
  }
  if (Summary.empty())
    fail("no --summary: give the static summaries (-mllvm "
         "-roofline-json=DIR) of the kernels");
  Result<KernelTable> Kernels =
      loadSummaries(std::vector<std::string>(Summary.begin(), Summary.end()));
  if (!Kernels)
    fail(Kernels.error());

  // No files named: every file of the compilation database, as
  // run-clang-tidy does.
  std::vector<std::string> Files = Parser->getSourcePathList();
  // (CommonOptionsParser loads no database when no file is named: the one
  // -p names, or the one found from the working directory, is loaded here.)
  std::unique_ptr<clang::tooling::CompilationDatabase> AllFilesDB;
  if (Files.empty()) {
    std::string Error, BuildPath = ".";
    auto &Registered = cl::getRegisteredOptions();
    if (auto It = Registered.find("p"); It != Registered.end())
      if (auto *P = static_cast<cl::opt<std::string> *>(It->second); !P->empty())
        BuildPath = *P;
    AllFilesDB = clang::tooling::CompilationDatabase::autoDetectFromDirectory(BuildPath, Error);
    if (!AllFilesDB)
      fail("no source files named, and no compilation database: " + Error);
    Files = AllFilesDB->getAllFiles();
  }
  const clang::tooling::CompilationDatabase &Compilations =
      AllFilesDB ? *AllFilesDB : Parser->getCompilations();
  if (Files.empty())
    fail("no source files: name them, or give a compilation database (-p "
         "build/) that lists some");
  for (const std::string &File : Files)
    if (!sys::fs::exists(File))
      fail(File + ": no such file");
  // One file at a time, with progress on a terminal.
  bool Progress = sys::Process::StandardErrIsDisplayed() && Files.size() > 1;
  std::vector<HostFunction> Functions;
  std::vector<std::string> Failed;
  for (size_t I = 0; I < Files.size(); ++I) {
    if (Progress)
      errs() << "[" << I + 1 << "/" << Files.size() << "] " << Files[I] << "\n";
    clang::tooling::ClangTool Tool(Compilations, {Files[I]});
    Tool.appendArgumentsAdjuster(commandAdjuster());
    if (Tool.run(newLaunchFinderFactory(*Kernels, Functions).get()) != 0)
      Failed.push_back(Files[I]);
  }
  if (!Failed.empty())
    fail("could not parse " + std::to_string(Failed.size()) + " of " +
         std::to_string(Files.size()) + " source files (" + Failed.front() +
         (Failed.size() > 1 ? ", ..." : "") +
         "; see the compiler's messages above)");

  std::vector<std::string> Dirs = searchPath(argv[0]);
  std::string Note, Name = PlatformName;
  if (Name.empty()) {
    std::set<std::string> Kinds;
    for (const HostFunction &Fn : Functions)
      for (const Launch &L : Fn.Launches)
        Kinds.insert(L.Kernel->isCUDA() && L.Kernel->Record.Kind != "hip-kernel"
                         ? "cuda-kernel"
                         : L.Kernel->Record.Kind);
    Name = defaultPlatformFor(Kinds);
    bool AnyGPU = Name != DefaultCPUPlatform;
    Note = std::string("the default for ") + (AnyGPU ? "GPU" : "CPU") +
           " kernels; choose one with --platform";
  }
  Result<Platform> Plat = findPlatform(Name, Dirs);
  if (!Plat)
    fail("--platform: " + Plat.error());

  Result<FusionAudit> A = auditFusion(Functions, *Plat, Options);
  if (!A)
    fail(A.error());
  A->PlatformNote = Note;
  if (Format == "json")
    writeOutput(auditJSON(*A).dump(2) + "\n");
  else if (Format == "sarif")
    writeOutput(renderAuditSARIF(*A, SourceRoot));
  else
    writeOutput(renderAuditText(*A));
  return 0;
}
