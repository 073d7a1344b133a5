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

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

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
                                         "(default: this host's)"),
                                cl::value_desc("name"), cl::cat(Category));
static cl::opt<std::string> Format("format", cl::desc("table or json"),
                                   cl::init("table"), cl::cat(Category));
static cl::opt<std::string> Output("o", cl::desc("Write here (default: stdout)"),
                                   cl::value_desc("file"), cl::init("-"),
                                   cl::cat(Category));
static cl::opt<bool> ShowCode("show-code",
                              cl::desc("Print each loop's instructions"),
                              cl::cat(Category));
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
  Expected<InCoreReport> R = analyzeBinary(Input, Cpu);
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
  std::string Error = writeText(Output, Format == "json" ? inCoreJSON(*R) : table(*R));
  if (!Error.empty()) {
    WithColor::error(errs(), "roofline-incore") << Error << "\n";
    return 1;
  }
  return 0;
}
