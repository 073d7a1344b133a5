//===- RooflineReport.cpp - roofline-report: kernels on a roofline --------===//
//
// USAGE (llvm-profdata's shape: a subcommand, the report without one):
//   roofline-report [report] summary.json... [--platform h100-sxm]
//       [--format table|json|csv|svg|html|sarif|markdown] [-o FILE]
//       [--assume n=4096] [--convention fma2|ncu|mac] [--check memory-bound|
//       min-intensity=X|min-efficiency=X] [--traffic cache-model-run.json]
//   roofline-report merge rank0.json rank1.json... -o all.json
//   roofline-report compare before.json after.json [--assume ...]
//   roofline-report fusion traced-profile.json [--platform NAME] [--format json]
//   roofline-report calc --platform gtx1080ti --flops 15.5e9 --bytes 600e6
//   roofline-report calc --peak-flops 100e12 --peak-bw 2e12 --flops 5 --bytes 1
//   roofline-report --list-platforms
//   roofline-report SUBCOMMAND --help          # its options
// The spellings before the subcommands keep working: --compare, --fusion,
// --flops/--bytes without `calc`.
//
// Exit status: 0 fine, 1 a --check found violations, 2 bad input.
//
//===----------------------------------------------------------------------===//
#include "ToolSupport.h"
#include "LocalPlatform.h"
#include "Chart.h"
#include "Compare.h"
#include "FusionOutput.h"
#include "Formats.h"
#include "Report.h"
#include "OptionValues.h"

#include "roofline/InCore/InCoreAnalysis.h"
#include "roofline/Model/Formula.h"
#include "roofline/Model/Profile.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

#include <algorithm>
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstdio>

using namespace llvm;
using namespace roofline;

static cl::OptionCategory Category("roofline-report options");

// Subcommands, as llvm-profdata has them. Without one, the report: every
// option of every subcommand is also the top level's, so the spellings
// before them (--compare, --fusion, --flops/--bytes) keep working.
static cl::SubCommand ReportCmd(
    "report", "Place each kernel of summaries and profiles on a platform's "
              "roofline (what roofline-report does without a subcommand)");
static cl::SubCommand MergeCmd(
    "merge", "Sum the profiles of one program's processes (MPI ranks) into "
             "one: roofline-report merge A.json B.json... -o all.json");
static cl::SubCommand CompareCmd(
    "compare", "Two inputs, before.json after.json: per kernel and in total "
               "the change in bytes, intensity, bound, predicted and measured "
               "time");
static cl::SubCommand FusionCmd(
    "fusion", "One profile of a run with ROOFLINE_TRACE=1: producer -> "
              "consumer kernels sharing a buffer, the bytes fusing them saves, "
              "and the estimated gain");
static cl::SubCommand CalcCmd(
    "calc", "The roofline by hand: work W (--flops) and traffic Q (--bytes) "
            "on a platform");

// Which subcommands take each option (the top level takes them all).
static cl::SubCommand &Top = cl::SubCommand::getTopLevel();
static cl::SubCommandGroup AllCmds({&Top, &ReportCmd, &MergeCmd, &CompareCmd,
                                    &FusionCmd, &CalcCmd});
static cl::SubCommandGroup ReadCmds({&Top, &ReportCmd, &MergeCmd, &CompareCmd,
                                     &FusionCmd});
static cl::SubCommandGroup PlaceCmds({&Top, &ReportCmd, &CompareCmd, &FusionCmd,
                                      &CalcCmd});
static cl::SubCommandGroup KernelCmds({&Top, &ReportCmd, &CompareCmd});
static cl::SubCommandGroup ReportCmds({&Top, &ReportCmd});
static cl::SubCommandGroup AdHocCmds({&Top, &ReportCmd, &CalcCmd});
static cl::SubCommandGroup CalcCmds({&Top, &CalcCmd});

static cl::list<std::string> Inputs(cl::Positional,
                                    cl::desc("<static summary or profile JSON>..."),
                                    cl::sub(ReadCmds), cl::cat(Category));
static cl::opt<std::string>
    PlatformName("platform", cl::desc("Platform name or platform JSON file"),
                 cl::value_desc("name|file"), cl::sub(PlaceCmds),
                 cl::cat(Category));
static cl::opt<std::string> ComparePlatform(
    "compare-platform",
    cl::desc("A second platform whose roofs the SVG/HTML chart also draws "
             "(e.g. roofline-probe's measured one)"),
    cl::value_desc("name|file"), cl::sub(ReportCmds), cl::cat(Category));
static cl::opt<double> PeakFlops("peak-flops",
                                 cl::desc("Ad-hoc platform: peak FLOP/s"),
                                 cl::sub(AdHocCmds), cl::cat(Category));
static cl::opt<double> PeakBandwidth("peak-bw",
                                     cl::desc("Ad-hoc platform: bandwidth B/s"),
                                     cl::sub(AdHocCmds), cl::cat(Category));
enum class OutputFormat { Table, JSON, CSV, SVG, HTML, SARIF, Markdown };
static cl::opt<OutputFormat, false, NamedValues<OutputFormat>> Format(
    "format", cl::desc("Output format"),
    cl::values(
        clEnumValN(OutputFormat::Table, "table", "columns for a terminal (default)"),
        clEnumValN(OutputFormat::JSON, "json", "docs/report-schema.md"),
        clEnumValN(OutputFormat::CSV, "csv", "one row per kernel"),
        clEnumValN(OutputFormat::SVG, "svg", "the roofline chart"),
        clEnumValN(OutputFormat::HTML, "html", "the chart and the table, one page"),
        clEnumValN(OutputFormat::SARIF, "sarif", "--check's findings for code scanning"),
        clEnumValN(OutputFormat::Markdown, "markdown", "a table for a pull request")),
    cl::init(OutputFormat::Table), cl::sub(PlaceCmds), cl::cat(Category));
static cl::opt<bool> AllRoofs(
    "all-roofs",
    cl::desc("Chart: draw every compute roof of the platform, not only those "
             "the kernels are judged against"),
    cl::sub(ReportCmds), cl::cat(Category));
static cl::opt<bool> AllKernels(
    "all-kernels",
    cl::desc("Also show functions without floating-point work and functions "
             "from system headers (listed, not shown, by default)"),
    cl::sub(ReportCmds), cl::cat(Category));
static cl::opt<std::string> SourceRoot(
    "source-root",
    cl::desc("SARIF: write the URIs of files under DIR relative to it "
             "(%SRCROOT%), as code scanning wants them"),
    cl::value_desc("dir"), cl::sub(ReportCmds), cl::cat(Category));
static cl::opt<std::string> Output("o", cl::desc("Write to FILE (default: stdout)"),
                                   cl::value_desc("file"), cl::sub(AllCmds),
                                   cl::cat(Category));
static cl::opt<Convention, false, NamedValues<Convention>> Conv(
    "convention", cl::desc("What a FLOP is"),
    cl::values(clEnumValN(Convention::FMA2, "fma2",
                          "an FMA is two FLOPs (default)"),
               clEnumValN(Convention::NCU, "ncu",
                          "Nsight Compute's: add + mul + 2*fma"),
               clEnumValN(Convention::MAC, "mac",
                          "a multiply-accumulate is one operation")),
    cl::init(Convention::FMA2), cl::sub(PlaceCmds), cl::cat(Category));
static cl::opt<RoofChoice, false, NamedValues<RoofChoice>> Roof(
    "roof", cl::desc("Which work places a kernel"),
    cl::values(clEnumValN(RoofChoice::Auto, "auto",
                          "integer operations when they outnumber the FLOPs, "
                          "machine instructions when there is neither (default)"),
               clEnumValN(RoofChoice::Flops, "flops", "FLOPs"),
               clEnumValN(RoofChoice::IntOps, "intops", "integer operations"),
               clEnumValN(RoofChoice::Instructions, "instructions",
                          "machine instructions")),
    cl::init(RoofChoice::Auto), cl::sub(KernelCmds), cl::cat(Category));
static cl::list<std::string>
    Assume("assume", cl::desc("Value of a formula variable, NAME=VALUE[,...]; "
                              "threads=N turns per-thread counts into a launch"),
           cl::value_desc("name=value"), cl::sub(KernelCmds), cl::cat(Category));
static cl::opt<std::string>
    Check("check",
          cl::desc("Exit 1 when a kernel is memory-bound, has intensity below "
                   "X or efficiency below X: memory-bound, min-intensity=X, "
                   "min-efficiency=X"),
          cl::sub(ReportCmds), cl::cat(Category));
static cl::opt<double> CalcFlops("flops",
                                 cl::desc("Calculator: work W in FLOPs"),
                                 cl::sub(CalcCmds), cl::cat(Category));
static cl::opt<double> CalcBytes("bytes",
                                 cl::desc("Calculator: traffic Q in bytes"),
                                 cl::sub(CalcCmds), cl::cat(Category));
static cl::opt<bool> CompareMode(
    "compare", cl::desc("The compare subcommand (this spelling kept)"),
    cl::cat(Category));
static cl::opt<std::string> KernelFilter(
    "kernels",
    cl::desc("Only the kernels whose mangled or display name matches this "
             "regular expression (e.g. '^gemm|conv')"),
    cl::value_desc("regex"), cl::sub(KernelCmds), cl::cat(Category));
static cl::opt<bool> FusionMode(
    "fusion", cl::desc("The fusion subcommand (this spelling kept)"),
    cl::cat(Category));
static cl::opt<RowsBy, false, NamedValues<RowsBy>> By(
    "by", cl::desc("What a row is (default: function)"),
    cl::values(clEnumValN(RowsBy::Function, "function",
                          "each kernel, inlined or not"),
               clEnumValN(RowsBy::Loop, "loop",
                          "each measured top-level loop nest (needs a profile)")),
    cl::init(RowsBy::Function), cl::sub(ReportCmds), cl::cat(Category));
static cl::opt<std::string> TrafficFile(
    "traffic",
    cl::desc("Per-level traffic from this ROOFLINE_CACHE run of the same "
             "binary; counts and times from the inputs (a run without the "
             "cache model)"),
    cl::value_desc("FILE"), cl::sub(ReportCmds), cl::cat(Category));
static cl::opt<std::string> BinaryFile(
    "binary",
    cl::desc("In-core ceilings from this program's machine code (default: the "
             "executable the profile names)"),
    cl::value_desc("FILE"), cl::sub(KernelCmds), cl::cat(Category));
static cl::opt<std::string> InCoreFile(
    "incore",
    cl::desc("In-core ceilings from this roofline-incore --format json output"),
    cl::value_desc("FILE"), cl::sub(KernelCmds), cl::cat(Category));
static cl::opt<std::string> McpuName(
    "mcpu",
    cl::desc("The CPU whose LLVM scheduling model gives the in-core ceilings "
             "(default: the platform's llvm_cpu, else this host's)"),
    cl::value_desc("name"), cl::sub(KernelCmds), cl::cat(Category));
static cl::opt<bool> NoInCore("no-incore",
                              cl::desc("No in-core ceilings: roofs only"),
                              cl::sub(KernelCmds), cl::cat(Category));
static cl::opt<bool> ListPlatforms("list-platforms",
                                   cl::desc("List known platforms and exit"),
                                   cl::sub(ReportCmds), cl::cat(Category));


[[noreturn]] static void fail(const std::string &Message) {
  errs() << "roofline-report: error: " << Message << "\n";
  std::exit(2);
}

/// --format's value as the renderers take it ("table", "json", ...).
static std::string formatName(OutputFormat F) {
  switch (F) {
  case OutputFormat::Table: return "table";
  case OutputFormat::JSON: return "json";
  case OutputFormat::CSV: return "csv";
  case OutputFormat::SVG: return "svg";
  case OutputFormat::HTML: return "html";
  case OutputFormat::SARIF: return "sarif";
  case OutputFormat::Markdown: return "markdown";
  }
  return "table";
}

static std::vector<std::string> searchPath(const char *Argv0) {
  return platformDirectories(Argv0, ROOFLINE_PLATFORMS_DIR);
}

static Platform adHocPlatform() {
  if (!(PeakFlops > 0) || !(PeakBandwidth > 0))
    fail("--peak-flops and --peak-bw must both be positive numbers");
  Platform P;
  P.Name = "ad-hoc";
  P.DisplayName = "ad-hoc platform (" + siUnit(PeakFlops, "FLOP/s") + ", " +
                  siUnit(PeakBandwidth, "B/s") + ")";
  P.Kind = "gpu";
  P.Path = "<command line>";
  P.Compute.push_back({"fp32", "vector", PeakFlops, false, "--peak-flops"});
  P.Memory.push_back({"dram", "", PeakBandwidth, "--peak-bw"});
  return P;
}

static void writeOutput(const std::string &Text) {
  std::string Error = writeText(Output, Text);
  if (!Error.empty())
    fail(Error);
}

static int listPlatforms(const std::vector<std::string> &Dirs) {
  std::string S;
  raw_string_ostream OS(S);
  OS << format("%-18s %-44s %12s %12s %8s\n", "name", "product",
               "fp32 FLOP/s", "DRAM B/s", "ridge");
  for (const std::string &Name : platformNames(Dirs)) {
    Result<Platform> P = findPlatform(Name, Dirs);
    if (!P) {
      errs() << "roofline-report: warning: " << P.error() << "\n";
      continue;
    }
    const ComputePeak &H = P->headlinePeak();
    double BW = P->dram().BytesPerSecond;
    OS << format("%-18s %-44s %12s %12s %8.3g\n", Name.c_str(),
                 P->DisplayName.substr(0, 44).c_str(),
                 siNumber(H.FlopsPerSecond).c_str(), siNumber(BW).c_str(),
                 H.FlopsPerSecond / BW);
  }
  writeOutput(S);
  return 0;
}

static int calculator(const Platform &P, Convention C) {
  if (!CalcFlops.getNumOccurrences() || !CalcBytes.getNumOccurrences())
    fail("the calculator needs both the work and the traffic: --flops W --bytes Q");
  if (!(CalcFlops >= 0) || !(CalcBytes > 0))
    fail("--flops must be >= 0 and --bytes > 0");
  Work W = Work::fromTotal(CalcFlops);
  Placement Pl = place(P, W, {{"dram", CalcBytes}}, C);
  if (Format == OutputFormat::JSON) {
    nlohmann::json J = {{"platform", P.Name},
                        {"flops", CalcFlops.getValue()},
                        {"bytes", CalcBytes.getValue()},
                        {"intensity", Pl.Intensity},
                        {"ridge", Pl.Ridge},
                        {"bound", Pl.MemoryBound ? "memory" : "compute"},
                        {"attainable_flops_per_s", Pl.Attainable},
                        {"min_seconds", Pl.MinSeconds},
                        {"peak_flops_per_s", Pl.PeakFlops},
                        {"bandwidth_bytes_per_s", Pl.Bandwidth}};
    writeOutput(J.dump(2) + "\n");
    return 0;
  }
  if (Format == OutputFormat::SVG || Format == OutputFormat::HTML) {
    // The point W/Q on the platform's chart.
    Report R;
    R.Plat = peaksUnder(P, C);
    R.Options.Conv = C;
    KernelRow Row;
    Row.Kernel.Name = Row.Kernel.DisplayName = "W/Q";
    Row.Kernel.Origin = "<command line>";
    Row.Place = Pl;
    R.Rows.push_back(Row);
    writeOutput(Format == OutputFormat::SVG ? renderSVG(R) : renderHTML(R));
    return 0;
  }
  if (Format != OutputFormat::Table)
    fail("--format " + formatName(Format) +
         ": the calculator writes table, json, svg or html");
  std::string S;
  raw_string_ostream OS(S);
  OS << "platform: " << P.Name << " (" << P.DisplayName << ")\n"
     << "roofs: pi = " << siUnit(Pl.PeakFlops, "FLOP/s") << " (" << Pl.Roof
     << "), beta = " << siUnit(Pl.Bandwidth, "B/s") << "\n"
     << "work W = " << siUnit(CalcFlops, "FLOP") << ", traffic Q = "
     << siUnit(CalcBytes, "B") << "\n"
     << format("intensity I = W/Q = %.4g FLOP/B\n", Pl.Intensity)
     << format("ridge I_max = pi/beta = %.4g FLOP/B\n", Pl.Ridge)
     << "bound: " << (Pl.MemoryBound ? "memory (I < I_max)" : "compute (I >= I_max)")
     << "\n"
     << "attainable P = min(pi, beta*I) = " << siUnit(Pl.Attainable, "FLOP/s", 4)
     << "\n"
     << "minimum time = max(W/pi, Q/beta) = " << secondsText(Pl.MinSeconds)
     << "\n";
  writeOutput(S);
  return 0;
}

/// roofline-report merge A.json B.json... -o all.json
static int merge() {
  if (Inputs.empty())
    fail("merge: no profiles to merge (usage: roofline-report merge A.json "
         "B.json... -o all.json)");
  std::vector<std::string> In(Inputs.begin(), Inputs.end());
  std::string Out = Output.empty() ? "-" : std::string(Output);
  Result<MergedProfile> M = mergeProfiles(In);
  if (!M)
    fail(M.error());
  // Written as the launch rows are read again: never whole in memory.
  auto Write = [&](raw_ostream &OS) {
    return writeMergedProfile(
        *M, [&OS](const char *P, size_t N) { OS.write(P, N); });
  };
  if (Out == "-") {
    if (std::string Error = Write(outs()); !Error.empty())
      fail(Error);
    return 0;
  }
  std::string Error;
  {
    // Not kept (removed when it goes out of scope) unless all was written.
    std::error_code EC;
    ToolOutputFile File(Out, EC, sys::fs::OF_None);
    if (EC)
      fail("cannot write '" + Out + "': " + EC.message());
    Error = Write(File.os());
    File.os().close();
    if (Error.empty() && File.os().has_error())
      Error = "cannot write '" + Out + "': " + File.os().error().message();
    if (Error.empty())
      File.keep();
  }
  if (!Error.empty())
    fail(Error);
  return 0;
}

static int run(int argc, char **argv);

// No input ends in an uncaught exception: whatever escapes is one error.
int main(int argc, char **argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception &E) {
    WithColor::error(errs(), "roofline-report") << E.what() << "\n";
    return 2;
  }
}

/// The input files: a directory (what -roofline-json=DIR/ wrote) stands
/// for its JSON files.
static std::vector<std::string> inputFiles() {
  std::vector<std::string> Files;
  for (const std::string &In : Inputs) {
    if (!sys::fs::is_directory(In)) {
      Files.push_back(In);
      continue;
    }
    std::vector<std::string> Found;
    std::error_code EC;
    for (sys::fs::directory_iterator It(In, EC), End; It != End && !EC;
         It.increment(EC))
      if (sys::path::extension(It->path()) == ".json" &&
          !sys::fs::is_directory(It->path()))
        Found.push_back(It->path());
    if (EC)
      fail(In + ": cannot list the directory: " + EC.message());
    if (Found.empty())
      fail(In + ": a directory with no .json files");
    std::sort(Found.begin(), Found.end());
    Files.insert(Files.end(), Found.begin(), Found.end());
  }
  return Files;
}

/// The kernel records of \p Files (with --compare, of the two sides),
/// those --kernels keeps.
static void loadKernels(const std::vector<std::string> &Files, bool Comparing,
                        std::vector<KernelRecord> &Kernels,
                        std::vector<KernelRecord> &AfterKernels) {
  if (Comparing) {
    auto Sides = loadComparison(Files);
    if (!Sides)
      fail(Sides.error());
    Kernels = Sides->first;
    AfterKernels = Sides->second;
  } else if (!Files.empty()) {
    Result<std::vector<KernelRecord>> K = loadInputs(Files, By, TrafficFile);
    if (!K)
      fail(K.error());
    Kernels = *K;
    if (std::any_of(Kernels.begin(), Kernels.end(), [](const KernelRecord &R) {
          return R.Measured && R.Measured->TimeFromCacheModel;
        }))
      WithColor::warning(errs(), "roofline-report")
          << "the times are from a ROOFLINE_CACHE run, several times slower than "
             "the program: FLOP/s and efficiency are low for that; give a run "
             "without the cache model and this one with --traffic\n";
    if (By == RowsBy::Loop && Kernels.empty())
      fail("--by loop: the inputs have no measured loop nests (loops are "
           "records of a profile from an instrumented run)");
  }
  if (KernelFilter.empty())
    return;
  Regex Filter(KernelFilter);
  std::string Why;
  if (!Filter.isValid(Why))
    fail("--kernels: '" + KernelFilter + "': " + Why);
  auto Drop = [&](std::vector<KernelRecord> &Records) {
    llvm::erase_if(Records, [&](const KernelRecord &K) {
      return !Filter.match(K.Name) && !Filter.match(K.DisplayName);
    });
  };
  Drop(Kernels);
  Drop(AfterKernels);
  if (Kernels.empty() && AfterKernels.empty())
    fail("--kernels: no kernel matches '" + KernelFilter + "'");
}

/// The platform: --peak-flops/--peak-bw, --platform, or by default the
/// GPU datasheet for GPU kernels and this machine's roofs for a CPU run.
static Platform choosePlatform(const std::vector<KernelRecord> &Kernels, bool Calc,
                               const std::vector<std::string> &Dirs,
                               const char *Argv0, ReportOptions &Options) {
  bool AdHoc = PeakFlops.getNumOccurrences() || PeakBandwidth.getNumOccurrences();
  if (AdHoc)
    return adHocPlatform();
  Platform Plat;
  std::string Name = PlatformName;
  if (Name.empty()) {
    std::set<std::string> Kinds;
    for (const KernelRecord &K : Kernels)
      Kinds.insert(K.Kind);
    if (Calc) // the calculator's numbers are a GPU's
      Kinds.insert("cuda-kernel");
    bool AnyRun = std::any_of(Kernels.begin(), Kernels.end(),
                              [](const KernelRecord &K) { return bool(K.Measured); });
    Name = defaultPlatformFor(Kinds);
    bool AnyGPU = Name != DefaultCPUPlatform;
    Options.PlatformNote = std::string("the default for ") +
                           (AnyGPU ? "GPU" : "CPU") +
                           " kernels; choose one with --platform";
    // A CPU run is placed on the machine it most likely ran on: this one
    // (ROOFLINE_PLATFORM names another).
    if (!Calc && !AnyGPU && AnyRun) {
      if (const char *Env = std::getenv("ROOFLINE_PLATFORM"); Env && *Env) {
        Name = Env;
        Options.PlatformNote = "from ROOFLINE_PLATFORM; choose another with --platform";
      } else {
        std::string Note;
        Result<Platform> Local = localPlatform(Argv0, Note);
        if (Local) {
          Plat = *Local;
          Options.PlatformNote = Note;
          Options.ThisMachine = true;
          Name.clear();
        } else {
          WithColor::warning(errs(), "roofline-report")
              << "this machine's roofs are not known (" << Local.error()
              << "): placing the run on " << Name << "'s datasheet\n";
        }
      }
    }
  }
  if (!Name.empty()) {
    Result<Platform> P = findPlatform(Name, Dirs);
    if (!P)
      fail("--platform: " + P.error());
    Plat = *P;
    // roofline-probe's default name: a platform probed here.
    Options.ThisMachine = Plat.Name == "local";
  }
  // The run's own clock (the profile's clock_hz), when faster than the
  // probe's: a turbo core or a shared VM's busy minute moves both the core
  // and its caches.
  double RunClock = 0;
  for (const KernelRecord &K : Kernels)
    if (K.Measured)
      RunClock = std::max(RunClock, K.Measured->RunClockHz);
  if (Options.ThisMachine && Plat.ClockHz > 0 && RunClock > Plat.ClockHz) {
    Options.PlatformNote += (Options.PlatformNote.empty() ? "" : "; ") +
                            std::string("compute and cache roofs at the run's clock, ") +
                            siUnit(RunClock, "Hz") + " (probed at " +
                            siUnit(Plat.ClockHz, "Hz") + ")";
    Plat = atClock(Plat, RunClock);
  }
  return Plat;
}

/// In-core ceilings of a program's loops, by executable ("": the one
/// --binary or --incore named), each analysed once.
using InCoreCache = std::map<std::string, std::optional<InCoreReport>>;

/// In-core ceilings: the machine code of the program that ran (or the one
/// named), analysed once per executable on the platform's CPU model.
static void setUpInCore(const Platform &Plat, InCoreCache &Cache,
                        ReportOptions &Options) {
  std::string Cpu = !McpuName.empty() ? std::string(McpuName)
                    : !Plat.LLVMCpu.empty() ? Plat.LLVMCpu
                                            : hostCpuName();
  if (!InCoreFile.empty()) {
    Result<nlohmann::json> J = readJSONFile(InCoreFile);
    if (!J)
      fail("--incore: " + J.error());
    Result<InCoreReport> IR = parseInCoreJSON(J->dump(), InCoreFile);
    if (!IR)
      fail("--incore: " + IR.error());
    Cache[""] = *IR;
  } else if (!BinaryFile.empty()) {
    if (!sys::fs::exists(BinaryFile) || sys::fs::is_directory(BinaryFile))
      fail("--binary: " + BinaryFile + ": not a file");
    Expected<InCoreReport> IR = analyzeBinary(BinaryFile, Cpu, measurementsOf(Plat));
    if (!IR)
      fail("--binary: " + toString(IR.takeError()));
    Cache[""] = std::move(*IR);
  }
  if (NoInCore || Plat.Kind != "cpu")
    return;
  bool Given = !InCoreFile.empty() || !BinaryFile.empty();
  CoreMeasurements Measured = measurementsOf(Plat);
  Options.InCoreOf = [&Cache, Given, Cpu, Measured](const std::string &Exe)
      -> const InCoreReport * {
    std::string Key = Given ? "" : Exe;
    auto It = Cache.find(Key);
    if (It == Cache.end()) {
      std::optional<InCoreReport> R;
      if (!Exe.empty() && sys::fs::exists(Exe)) {
        Expected<InCoreReport> IR = analyzeBinary(Exe, Cpu, Measured);
        if (IR)
          R = std::move(*IR);
        else
          WithColor::warning(errs(), "roofline-report")
              << "no in-core ceilings: " << toString(IR.takeError()) << "\n";
      }
      It = Cache.emplace(Key, std::move(R)).first;
      if (It->second)
        for (const std::string &N : It->second->Notes)
          WithColor::note(errs(), "roofline-report") << N << "\n";
    }
    return It->second ? &*It->second : nullptr;
  };
  Options.NoInCoreNote = "no in-core bound: the profile names no executable "
                         "that is here (give --binary)";
}

/// --fusion: the producer -> consumer pairs of one traced profile.
static int fusion(const std::vector<std::string> &Files, const Platform &Plat,
                  const ReportOptions &Options) {
  if (Files.size() != 1)
    fail("--fusion takes one profile (of a run with ROOFLINE_TRACE=1)");
  Result<nlohmann::json> J = readJSONFile(Files[0]);
  if (!J)
    fail(J.error());
  Result<FusionAnalysis> A = findFusions(*J, Files[0], Plat, Options.Conv);
  if (!A)
    fail(A.error());
  Result<std::string> Text = renderFusion(*A, Plat, Options, formatName(Format));
  if (!Text)
    fail(Text.error());
  writeOutput(*Text);
  return 0;
}

/// A run above its bound means a roof is wrong: said on stderr as well.
static void warnAboveBound(const Report &R) {
  for (const KernelRow &K : R.Rows)
    if (auto E = K.efficiency(); E && *E > 1.0)
      WithColor::warning(errs(), "roofline-report")
          << K.Kernel.DisplayName << ": " << K.Notes.front() << "\n";
}

/// --compare: the two sides' reports, kernel by kernel. Needs every
/// kernel: a fused-away one without FLOPs (a ReLU) is part of what changed.
static int compare(const Platform &Plat, const std::vector<KernelRecord> &Before,
                   const std::vector<KernelRecord> &After, ReportOptions Options) {
  Options.AllKernels = true;
  Result<Report> R = buildReport(Plat, Before, Options);
  if (!R)
    fail(R.error());
  warnAboveBound(*R);
  Result<Report> A = buildReport(Plat, After, Options);
  if (!A)
    fail(A.error());
  Result<std::string> Text =
      renderComparison(compareReports(*R, *A), formatName(Format));
  if (!Text)
    fail(Text.error());
  writeOutput(*Text);
  return 0;
}

/// The report in --format, its --check run; exit status 1 on violations.
static int writeReport(Report &R, const Platform &Plat,
                       const std::vector<std::string> &Files,
                       const std::vector<std::string> &Dirs,
                       const ReportOptions &Options) {
  if (!ComparePlatform.empty()) {
    Result<Platform> Q = findPlatform(ComparePlatform, Dirs);
    if (!Q)
      fail("--compare-platform: " + Q.error());
    R.Second = *Q;
  }
  std::vector<std::string> Violations;
  if (!Check.empty()) {
    auto V = runCheck(R, Check);
    if (!V)
      fail(V.error());
    Violations = *V;
  }
  // Colour only on a terminal.
  bool Color = (Output.empty() || Output == "-") &&
               sys::Process::StandardOutIsDisplayed();
  std::string Text;
  switch (Format) {
  case OutputFormat::Table:
    Text = renderTable(R, Color);
    break;
  case OutputFormat::JSON:
    Text = reportJSON(R).dump(2) + "\n";
    break;
  case OutputFormat::CSV:
    Text = renderCSV(R);
    break;
  case OutputFormat::SVG:
    Text = renderSVG(R);
    break;
  case OutputFormat::HTML:
    // Grouped function -> loops: each function's measured loop nests
    // under it.
    if (By == RowsBy::Function)
      if (auto Loops = loadInputs(Files, RowsBy::Loop, TrafficFile);
          Loops && !Loops->empty())
        if (auto LR = buildReport(Plat, *Loops, Options))
          R.LoopRows = LR->Rows;
    Text = renderHTML(R);
    break;
  case OutputFormat::SARIF:
    Text = renderSARIF(R, Violations, Check, SourceRoot);
    break;
  case OutputFormat::Markdown:
    Text = renderMarkdown(R);
    break;
  }
  writeOutput(Text);

  if (Violations.empty())
    return 0;
  errs() << "roofline-report: check '" << Check << "' failed for "
         << Violations.size() << " kernel" << (Violations.size() == 1 ? "" : "s")
         << ":\n";
  for (const std::string &V : Violations)
    errs() << "  " << V << "\n";
  return 1;
}

static int run(int argc, char **argv) {
  for (cl::SubCommand *S : AllCmds.getSubCommands())
    cl::HideUnrelatedOptions(Category, *S);
  setVersionPrinter("roofline-report");
  // A bad option or value is bad input: exit status 2, as for a bad file.
  std::string ParseErrors;
  raw_string_ostream ParseErrorStream(ParseErrors);
  if (!cl::ParseCommandLineOptions(argc, argv,
                                   "roofline-report: places kernels on a "
                                   "platform's roofline\n",
                                   &ParseErrorStream)) {
    errs() << ParseErrors;
    return 2;
  }
  // LLVM's parser finds the top level's options from a subcommand too:
  // one that the subcommand does not take is an error here.
  for (cl::SubCommand *S : AllCmds.getSubCommands())
    if (S != &Top && *S)
      for (const auto &[Name, O] : cl::getRegisteredOptions(Top))
        if (O->getNumOccurrences() && !O->Subs.contains(S))
          fail(S->getName().str() + " takes no option --" + Name.str() +
               " (see roofline-report " + S->getName().str() + " --help)");
  if (MergeCmd)
    return merge();
  std::vector<std::string> Dirs = searchPath(argv[0]);
  if (ListPlatforms)
    return listPlatforms(Dirs);

  bool Comparing = CompareMode || CompareCmd;
  bool Fusing = FusionMode || FusionCmd;
  ReportOptions Options;
  Options.Conv = Conv;
  Options.Roof = Roof;
  Options.AllKernels = AllKernels;
  Options.AllRoofs = AllRoofs;
  Options.FailOnUnjudged = !KernelFilter.empty();
  Options.FailOnMissingSize = !Check.empty();
  for (const std::string &A : Assume) {
    auto Values = parseAssignments(A, Options.Assume);
    if (!Values)
      fail("--assume " + Values.error());
    Options.Assume = *Values;
  }

  bool Calc = CalcCmd || CalcFlops.getNumOccurrences() ||
              CalcBytes.getNumOccurrences();
  if (Calc && !Inputs.empty())
    fail("--flops/--bytes is the calculator; it takes no input files");
  if (!Calc && Inputs.empty())
    fail("no input files (static summaries from -roofline-json), and no "
         "--flops/--bytes for the calculator; see --help");

  std::vector<std::string> Files = inputFiles();
  std::vector<KernelRecord> Kernels, AfterKernels;
  loadKernels(Files, Comparing, Kernels, AfterKernels);
  Platform Plat = choosePlatform(Kernels, Calc, Dirs, argv[0], Options);
  InCoreCache InCore;
  setUpInCore(Plat, InCore, Options);
  if (Calc)
    return calculator(Plat, Conv);
  if (Fusing)
    return fusion(Files, Plat, Options);
  if (Comparing)
    return compare(Plat, Kernels, AfterKernels, Options);

  Result<Report> R = buildReport(Plat, Kernels, Options);
  if (!R)
    fail(R.error());
  warnAboveBound(*R);
  return writeReport(*R, Plat, Files, Dirs, Options);
}
