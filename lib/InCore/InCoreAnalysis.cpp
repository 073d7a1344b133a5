//===- InCoreAnalysis.cpp - Loops' in-core ceilings from machine code -----===//
#include "roofline/InCore/InCoreAnalysis.h"
#include "LoopThroughput.h"
#include "MachineLoops.h"

#include "llvm/DebugInfo/DWARF/DWARFCompileUnit.h"
#include "llvm/DebugInfo/DWARF/DWARFContext.h"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCDisassembler/MCDisassembler.h"
#include "llvm/MC/MCInstPrinter.h"
#include "llvm/MC/MCInstrAnalysis.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/MCTargetOptions.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/SubtargetFeature.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <mutex>

using namespace llvm;

namespace roofline {

std::string hostCpuName() { return sys::getHostCPUName().str(); }

namespace {

void initializeTargets() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    InitializeAllTargetInfos();
    InitializeAllTargetMCs();
    InitializeAllDisassemblers();
  });
}

/// The index in \p Producers of the DW_AT_producer of \p L's compile
/// unit (clang's version and, with -grecord-command-line, its command
/// line), added there once; -1 without one.
int producerOf(const MachineLoop &L, DWARFContext &Dwarf,
               std::vector<std::string> &Producers) {
  DWARFCompileUnit *CU = Dwarf.getCompileUnitForCodeAddress(L.Address);
  if (!CU)
    return -1;
  std::string P = dwarf::toString(CU->getUnitDIE().find(dwarf::DW_AT_producer), "");
  if (P.empty())
    return -1;
  auto It = std::find(Producers.begin(), Producers.end(), P);
  if (It != Producers.end())
    return int(It - Producers.begin());
  Producers.push_back(P);
  return int(Producers.size() - 1);
}

std::string hostFeatures() {
  SubtargetFeatures F;
  for (const auto &[Name, On] : sys::getHostCPUFeatures())
    F.AddFeature(Name, On);
  return F.getString();
}

} // namespace

CoreMeasurements measurementsOf(const Platform &P) {
  CoreMeasurements M;
  M.FPLatency = P.FPLatency;
  const ComputePeak *FP32 = P.peak("fp32", "vector");
  if (FP32 && FP32->OneThread > 0 && P.ClockHz > 0)
    M.VectorFlopsPerCycle = FP32->OneThread / P.ClockHz;
  return M;
}

Expected<InCoreReport> analyzeBinary(const std::string &Path,
                                     const std::string &CpuName,
                                     const CoreMeasurements &Measured) {
  initializeTargets();
  Expected<object::OwningBinary<object::ObjectFile>> Bin =
      object::ObjectFile::createObjectFile(Path);
  if (!Bin)
    return createStringError(Path + ": " + toString(Bin.takeError()));
  const object::ObjectFile &Obj = *Bin->getBinary();

  InCoreReport R;
  R.Binary = Path;
  Triple TT = Obj.makeTriple();
  bool Host = CpuName.empty() || CpuName == "native";
  R.Cpu = Host ? hostCpuName() : CpuName;
  std::string Err;
  const Target *TheTarget = TargetRegistry::lookupTarget(TT, Err);
  if (!TheTarget)
    return createStringError(Path + ": no LLVM target for " + TT.str() + ": " + Err);
  if (TT.getArch() != Triple::x86_64) {
    R.Notes.push_back("in-core ceilings are worked out for x86-64 machine code "
                      "only; " + Path + " is " + TT.str());
    return R;
  }
  std::unique_ptr<MCRegisterInfo> MRI(TheTarget->createMCRegInfo(TT));
  MCTargetOptions Options;
  std::unique_ptr<MCAsmInfo> MAI(TheTarget->createMCAsmInfo(*MRI, TT, Options));
  std::unique_ptr<MCSubtargetInfo> STI(TheTarget->createMCSubtargetInfo(
      TT, R.Cpu, Host ? hostFeatures() : ""));
  std::unique_ptr<MCInstrInfo> MII(TheTarget->createMCInstrInfo());
  if (!MRI || !MAI || !STI || !MII)
    return createStringError(Path + ": cannot set up LLVM's MC layer for " + TT.str());
  if (!STI->isCPUStringValid(R.Cpu))
    return createStringError("unknown CPU '" + R.Cpu + "' for " + TT.str() +
                             " (try a name llc -mcpu=help lists)");
  if (!STI->getSchedModel().hasInstrSchedModel()) {
    R.Notes.push_back("LLVM has no scheduling model for " + R.Cpu +
                      ": no in-core ceiling");
    return R;
  }
  std::unique_ptr<MCInstrAnalysis> MIA(TheTarget->createMCInstrAnalysis(MII.get()));
  MCContext Ctx(TT, MAI.get(), MRI.get(), STI.get());
  std::unique_ptr<MCDisassembler> Dis(TheTarget->createMCDisassembler(*STI, Ctx));
  std::unique_ptr<MCInstPrinter> Printer(
      TheTarget->createMCInstPrinter(TT, /*SyntaxVariant=*/0, *MAI, *MII, *MRI));
  if (!MIA || !Dis || !Printer)
    return createStringError(Path + ": cannot disassemble " + TT.str());

  std::unique_ptr<DWARFContext> Dwarf = DWARFContext::create(Obj);
  bool HasLines = false;
  for (const auto &CU : Dwarf->compile_units())
    if (Dwarf->getLineTableForUnit(CU.get())) {
      HasLines = true;
      break;
    }
  if (!HasLines)
    R.Notes.push_back(Path + " has no DWARF line table (compile with -g): its "
                      "loops cannot be matched to source, no in-core ceiling");

  R.WindowMicroOps = STI->getSchedModel().MicroOpBufferSize;
  MCTools Tools{*STI, *MII, *MRI, *MIA, *Printer};
  StringMap<unsigned> Opcodes;
  for (unsigned Op = 0; Op < MII->getNumOpcodes(); ++Op)
    Opcodes[MII->getName(Op)] = Op;
  Tools.Opcodes = &Opcodes;
  Tools.FPLatency = Measured.FPLatency;
  // A newer core on an older core's model (LLVM's znver5 is Zen 4's,
  // whose 512-bit operations take two passes through a 256-bit pipe).
  double ZmmFMA = portCyclesOf(Tools, "VFMADD231PSZr");
  if (ZmmFMA > 0 && STI->checkFeatures("+avx512f") &&
      Measured.VectorFlopsPerCycle >= 1.5 * 32 / ZmmFMA) {
    Tools.FullWidth512 = true;
    char Buf[200];
    std::snprintf(Buf, sizeof(Buf),
                  "512-bit operations take their 256-bit forms' port time: "
                  "roofline-probe measured %.0f fp32 FLOPs a cycle, %s's model "
                  "gives 512-bit FMAs %.0f",
                  Measured.VectorFlopsPerCycle, R.Cpu.c_str(), 32 / ZmmFMA);
    R.Notes.push_back(Buf);
  }
  Tools.VectorLoadLatency =
      loadLatencyOf(Tools, {"VMOVUPSZrm", "VMOVUPSrm", "MOVUPSrm"});
  std::map<std::string, unsigned> Skipped;
  MachineLoops Code = findMachineLoops(Obj, *Dis, *MII, *MIA);
  if (HasLines)
    for (const LoopCall &C : Code.Calls)
      R.Calls.push_back({C.Callee, positionsOf({C.Address}, C.SectionIndex, *Dwarf)});
  for (const MachineLoop &L : Code.Innermost) {
    // The cache model's traced copies are not what a plain run executes.
    if (StringRef(L.Function).ends_with(".roofline.traced"))
      continue;
    if (L.HasCall) {
      ++Skipped["a call, return or indirect branch in the loop"];
      continue;
    }
    InCoreLoop Out;
    Out.Function = L.Function;
    Out.Address = L.Address;
    Out.Instructions = L.Body.size();
    for (size_t K = 0; K < L.Body.size(); ++K) {
      std::string Text;
      raw_string_ostream OS(Text);
      Printer->printInst(&L.Body[K], L.Addresses[K], "", *STI, OS);
      Out.Code.push_back(StringRef(Text).trim().str());
    }
    if (HasLines) {
      Out.Positions = positionsOf(L.Addresses, L.SectionIndex, *Dwarf);
      Out.Enclosing = positionsOf(L.EnclosingOwn, L.SectionIndex, *Dwarf);
    }
    Out.Producer = producerOf(L, *Dwarf, R.Producers);
    if (Error E = measureLoop(L, Tools, Out)) {
      ++Skipped[toString(std::move(E))];
      continue;
    }
    R.Loops.push_back(std::move(Out));
  }
  for (const auto &[Why, N] : Skipped)
    R.Notes.push_back(std::to_string(N) + (N == 1 ? " loop" : " loops") +
                      " without a ceiling: " + Why);
  return R;
}

} // namespace roofline
