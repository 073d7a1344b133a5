//===- RooflineIncore.cpp - roofline-incore: loops' in-core ceilings ------===//
//
// USAGE:
//   roofline-incore ./app                      # this CPU's model, a table
//   roofline-incore app.o --mcpu=skylake-avx512 --format json -o incore.json
//
// Every innermost loop of the machine code, with the source lines it came
// from, its cycles per iteration in LLVM's MCA on the CPU's scheduling model,
// what bounds it (ports, a dependency chain, the divider), and the FLOPs and
// bytes an iteration does. roofline-report does the same for a profile's
// executable; this tool shows the analysis on its own (docs/incore.md).
//
//===----------------------------------------------------------------------===//
#include "ToolSupport.h"

#include "roofline/InCore/InCoreAnalysis.h"
#include "roofline/Model/Platform.h"
#include "roofline/Model/Units.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <algorithm>
#include <map>
#include <set>

using namespace llvm;
using namespace roofline;

static cl::OptionCategory Category("roofline-incore options");
static cl::opt<std::string> Input(cl::Positional, cl::desc("<binary or object>"),
                                  cl::Required, cl::cat(Category));
static cl::opt<std::string> Cpu("mcpu",
                                cl::desc("CPU whose scheduling model to use "
                                         "(default: the --platform's llvm_cpu with "
                                         "--warn-below, else this host's)"),
                                cl::value_desc("name"), cl::cat(Category));
static cl::opt<std::string> Format("format", cl::desc("table or json"),
                                   cl::init("table"), cl::cat(Category));
static cl::opt<std::string> Output("o", cl::desc("Write here (default: stdout)"),
                                   cl::value_desc("file"), cl::init("-"),
                                   cl::cat(Category));
static cl::opt<bool> ShowCode("show-code",
                              cl::desc("Print each loop's instructions"),
                              cl::cat(Category));
static cl::opt<double> WarnBelow(
    "warn-below",
    cl::desc("Warn, as a compiler does, for each loop whose FLOPs the core "
             "can run at less than this fraction of the platform's peak"),
    cl::value_desc("fraction"), cl::init(0), cl::cat(Category));
static cl::opt<std::string> PlatformName(
    "platform",
    cl::desc("The peak and clock --warn-below judges against (default: the "
             "datasheet CPU), its llvm_cpu the model unless --mcpu names "
             "another, and what its probe measured of the core (FP "
             "latencies, 512-bit width)"),
    cl::value_desc("name|file"), cl::cat(Category));
static cl::opt<std::string> Only("function",
                                 cl::desc("Only loops of functions whose name "
                                          "contains this"),
                                 cl::value_desc("text"), cl::cat(Category));

/// "file:12-14" from a loop's own function's positions.
static std::string lines(const InCoreLoop &L) {
  std::map<std::string, std::pair<unsigned, unsigned>> ByFile;
  for (const InCoreLoop::Position &P : L.Positions) {
    if (P.Function != L.Function)
      continue;
    auto [It, New] = ByFile.try_emplace(P.File, P.Line, P.Line);
    It->second.first = std::min(It->second.first, P.Line);
    It->second.second = std::max(It->second.second, P.Line);
  }
  if (ByFile.empty())
    return "?";
  const auto &[File, Range] = *ByFile.begin();
  std::string Base = File.substr(File.find_last_of('/') + 1);
  return Base + ":" + std::to_string(Range.first) +
         (Range.second != Range.first ? "-" + std::to_string(Range.second) : "");
}

static std::string table(const InCoreReport &R) {
  std::string S;
  raw_string_ostream OS(S);
  OS << "in-core ceilings of " << R.Binary << " on " << R.Cpu
     << " (LLVM MCA, per machine iteration)\n";
  OS << format("%-36s %-22s %7s %7s %7s %7s  %s\n", "function", "lines", "cycles",
               "FLOPs", "bytes", "insts", "bound");
  for (const InCoreLoop &L : R.Loops) {
    std::string F = L.Function.size() > 36 ? L.Function.substr(0, 33) + "..." : L.Function;
    OS << format("%-36s %-22s %7.3g %7.3g %7.3g %7u  %s: %s\n", F.c_str(),
                 lines(L).c_str(), L.CyclesPerIteration, L.FlopsPerIteration,
                 L.BytesPerIteration, L.Instructions, inCoreCauseName(L.Cause),
                 L.Detail.c_str());
    if (ShowCode)
      for (const std::string &C : L.Code)
        OS << "    " << C << "\n";
  }
  if (R.Loops.empty())
    OS << "(no innermost loop with a ceiling)\n";
  for (const std::string &N : R.Notes)
    OS << "note: " << N << "\n";
  return S;
}

/// "file:line: warning: ..." for the loops whose FLOP rate in the core is
/// below \p Fraction of \p P's fp64 (else headline) vector peak.
static std::string warnings(const InCoreReport &R, const Platform &P,
                            double Fraction) {
  const ComputePeak *Peak = P.peak("fp64", "vector");
  if (!Peak)
    Peak = &P.headlinePeak();
  double PeakRate = Peak->OneThread > 0 ? Peak->OneThread : Peak->FlopsPerSecond;
  // One verdict per source loop: its fastest machine loop (a vectorised
  // body's scalar remainder is not what runs).
  std::map<std::pair<std::string, unsigned>, std::pair<double, const InCoreLoop *>> Best;
  std::map<std::pair<std::string, unsigned>, std::string> FileOf;
  for (const InCoreLoop &L : R.Loops) {
    if (L.FlopsPerIteration <= 0 || L.Positions.empty())
      continue;
    const InCoreLoop::Position *At = &L.Positions.front();
    for (const InCoreLoop::Position &Q : L.Positions)
      if (Q.Function == L.Function && (At->Function != L.Function || Q.Line < At->Line))
        At = &Q;
    double Rate = L.FlopsPerIteration / L.CyclesPerIteration * P.ClockHz;
    auto Key = std::make_pair(L.Function, At->Line);
    FileOf[Key] = At->File;
    if (!Best.count(Key) || Rate > Best[Key].first)
      Best[Key] = {Rate, &L};
  }
  std::string S;
  for (const auto &[Key, RL] : Best) {
    auto [Rate, L] = RL;
    if (Rate >= Fraction * PeakRate)
      continue;
    S += FileOf[Key] + ":" + std::to_string(Key.second) + ": warning: loop in " +
         L->Function + " reaches at most " + siUnit(Rate, "FLOP/s") + " in the core (" +
         siNumber(100 * Rate / PeakRate, 3) + "% of " + P.Name + "'s " +
         Peak->label() + " peak of one core): " + inCoreCauseName(L->Cause) + ", " +
         L->Detail + " [roofline-incore]\n";
  }
  return S;
}

int main(int argc, char **argv) {
  setVersionPrinter("roofline-incore");
  cl::HideUnrelatedOptions(Category);
  cl::ParseCommandLineOptions(argc, argv,
                              "roofline-incore: each innermost loop's in-core "
                              "ceiling (LLVM MCA)\n");
  if (Format != "table" && Format != "json") {
    WithColor::error(errs(), "roofline-incore")
        << "unknown --format '" << Format << "' (expected table or json)\n";
    return 1;
  }
  // The platform --warn-below judges against; its CPU's scheduling model
  // unless --mcpu names another (the host's without a platform).
  std::optional<Platform> Judge;
  if (WarnBelow > 0 || !PlatformName.empty()) {
    Result<Platform> P = findPlatform(
        PlatformName.empty() ? std::string(DefaultCPUPlatform) : std::string(PlatformName),
        platformDirectories(argv[0], ROOFLINE_PLATFORMS_DIR));
    if (!P) {
      WithColor::error(errs(), "roofline-incore") << "--platform: " << P.error() << "\n";
      return 1;
    }
    if (WarnBelow > 0 && P->ClockHz <= 0) {
      WithColor::error(errs(), "roofline-incore")
          << "--warn-below: " << P->Name << " gives no clock_hz\n";
      return 1;
    }
    Judge = *P;
  }
  std::string Model = Cpu;
  if (Model.empty() && Judge && !PlatformName.empty())
    Model = Judge->LLVMCpu;
  Expected<InCoreReport> R =
      analyzeBinary(Input, Model, Judge ? measurementsOf(*Judge) : CoreMeasurements());
  if (!R) {
    WithColor::error(errs(), "roofline-incore") << toString(R.takeError()) << "\n";
    return 1;
  }
  if (!Only.empty())
    R->Loops.erase(std::remove_if(R->Loops.begin(), R->Loops.end(),
                                  [](const InCoreLoop &L) {
                                    return L.Function.find(Only) == std::string::npos;
                                  }),
                   R->Loops.end());
  if (Judge && WarnBelow > 0) {
    const Platform *P = &*Judge;
    errs() << warnings(*R, *P, WarnBelow);
    if (Format == "table" && Output == "-")
      return 0; // the warnings are the output
  }
  std::string Error = writeText(Output, Format == "json" ? inCoreJSON(*R) : table(*R));
  if (!Error.empty()) {
    WithColor::error(errs(), "roofline-incore") << Error << "\n";
    return 1;
  }
  return 0;
}
