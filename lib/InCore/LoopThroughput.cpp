//===- LoopThroughput.cpp - Cycles per iteration of a loop body -----------===//
#include "LoopThroughput.h"
#include "DependencyChain.h"
#include "InstructionWork.h"
#include "roofline/Model/ResourceNames.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/MC/MCInstPrinter.h"
#include "llvm/MC/MCInstrAnalysis.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MCA/Context.h"
#include "llvm/MCA/CustomBehaviour.h"
#include "llvm/MCA/InstrBuilder.h"
#include "llvm/MCA/Pipeline.h"
#include "llvm/MCA/SourceMgr.h"

#include <algorithm>
#include <cstdio>
#include <cmath>
#include <map>

using namespace llvm;

namespace roofline {

namespace {

/// MCA's cycles for \p Iterations passes over \p Insts.
Expected<unsigned> simulate(ArrayRef<MCInst> Insts, unsigned Iterations,
                            const MCTools &T) {
  mca::Context MCA(T.MRI, T.STI);
  mca::InstrumentManager IM(T.STI, T.MII);
  mca::InstrBuilder IB(T.STI, T.MII, T.MRI, &T.MIA, IM, /*CallLatency=*/100);
  SmallVector<mca::Instrument *> NoInstruments;
  SmallVector<std::unique_ptr<mca::Instruction>> Lowered;
  for (const MCInst &I : Insts) {
    Expected<std::unique_ptr<mca::Instruction>> Inst =
        IB.createInstruction(I, NoInstruments);
    if (!Inst) {
      std::string Msg = toString(Inst.takeError());
      return createStringError("MCA cannot model '" +
                               std::string(T.Printer.getMnemonic(I).first) +
                               "': " + Msg);
    }
    Lowered.push_back(std::move(*Inst));
  }
  mca::CircularSourceMgr SM(Lowered, Iterations);
  mca::CustomBehaviour CB(T.STI, SM, T.MII);
  // The defaults llvm-mca uses: the model's widths, no aliasing.
  mca::PipelineOptions PO(0, 0, 0, 0, 0, 0, /*AssumeNoAlias=*/true);
  std::unique_ptr<mca::Pipeline> P = MCA.createDefaultPipeline(PO, SM, CB);
  return P->run();
}

struct PortBound {
  double Cycles = 0;
  double MicroOps = 0;
  std::string What; ///< the resource, or "issue width"
  bool Divider = false;
};

PortBound portBound(ArrayRef<MCInst> Insts, const MCTools &T) {
  const MCSchedModel &SM = T.STI.getSchedModel();
  std::map<unsigned, double> Busy;
  double MicroOps = 0;
  for (const MCInst &I : Insts) {
    const MCSchedClassDesc *SCD = throughputClassOf(I, T);
    if (!SCD)
      continue;
    MicroOps += SCD->NumMicroOps;
    for (const MCWriteProcResEntry *W = T.STI.getWriteProcResBegin(SCD),
                                   *E = T.STI.getWriteProcResEnd(SCD);
         W != E; ++W) {
      const MCProcResourceDesc *R = SM.getProcResource(W->ProcResourceIdx);
      double Cycles = double(W->ReleaseAtCycle) - W->AcquireAtCycle;
      Busy[W->ProcResourceIdx] += Cycles / std::max(1u, R->NumUnits);
    }
  }
  PortBound B;
  B.MicroOps = MicroOps;
  B.Cycles = MicroOps / std::max(1u, SM.IssueWidth);
  B.What = "the issue width (" + std::to_string(SM.IssueWidth) + " micro-ops a cycle)";
  for (const auto &[Idx, Cycles] : Busy)
    if (Cycles > B.Cycles) {
      const MCProcResourceDesc *R = SM.getProcResource(Idx);
      B.Cycles = Cycles;
      B.What = resourceWords(R->Name);
      B.Divider = StringRef(R->Name).contains_insensitive("div");
    }
  return B;
}

/// The iterations of a loop the core holds in flight while its chain
/// drains: the reorder buffer's micro-ops over the iteration's, and each
/// scheduler queue over the instructions of an iteration that wait there
/// for the chain (\p Waits; one entry an instruction, as MCA reserves
/// them; loads and other work off the chain issue and leave); the fewest.
struct Window {
  double Iterations = 0;
  std::string What;
};

Window windowOf(ArrayRef<MCInst> Insts, const std::vector<bool> &Waits,
                double MicroOps, const MCTools &T) {
  const MCSchedModel &SM = T.STI.getSchedModel();
  // The units under each resource: a unit itself, a group its sub-units.
  auto Units = [&](unsigned Idx) {
    const MCProcResourceDesc *R = SM.getProcResource(Idx);
    std::vector<unsigned> U;
    if (R->SubUnitsIdxBegin)
      U.assign(R->SubUnitsIdxBegin, R->SubUnitsIdxBegin + R->NumUnits);
    else
      U.push_back(Idx);
    return U;
  };
  std::map<unsigned, double> Entries; // buffered resource -> per iteration
  for (size_t K = 0; K < Insts.size(); ++K) {
    const MCSchedClassDesc *SCD = schedClassOf(Insts[K], T);
    if (!SCD || K >= Waits.size() || !Waits[K])
      continue;
    std::vector<unsigned> Used;
    for (const MCWriteProcResEntry *W = T.STI.getWriteProcResBegin(SCD),
                                   *E = T.STI.getWriteProcResEnd(SCD);
         W != E; ++W)
      for (unsigned Idx = W->ProcResourceIdx; Idx; Idx = SM.getProcResource(Idx)->SuperIdx)
        for (unsigned U : Units(Idx))
          Used.push_back(U);
    for (unsigned B = 1; B < SM.getNumProcResourceKinds(); ++B) {
      if (SM.getProcResource(B)->BufferSize <= 0)
        continue;
      std::vector<unsigned> Of = Units(B);
      if (std::any_of(Used.begin(), Used.end(), [&](unsigned U) {
            return std::find(Of.begin(), Of.end(), U) != Of.end();
          }))
        Entries[B] += 1;
    }
  }
  Window W;
  if (SM.MicroOpBufferSize > 0 && MicroOps > 0)
    W = {SM.MicroOpBufferSize / MicroOps,
         "the reorder buffer's " + std::to_string(SM.MicroOpBufferSize) + " micro-ops"};
  for (const auto &[B, N] : Entries) {
    const MCProcResourceDesc *R = SM.getProcResource(B);
    double Its = R->BufferSize / N;
    if (W.Iterations == 0 || Its < W.Iterations)
      W = {Its, std::string(R->Name) + "'s " + std::to_string(R->BufferSize) +
                    " scheduler entries"};
  }
  return W;
}

/// "24", "1.33": a cycle count inside words ("a 24-cycle chain").
std::string cycles(double C) {
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "%.3g", C);
  return Buf;
}

} // namespace

const MCSchedClassDesc *schedClassOf(const MCInst &I, const MCTools &T) {
  const MCSchedModel &SM = T.STI.getSchedModel();
  unsigned ID = T.MII.get(I.getOpcode()).getSchedClass();
  const MCSchedClassDesc *SCD = SM.getSchedClassDesc(ID);
  while (SCD && SCD->isVariant()) {
    ID = T.STI.resolveVariantSchedClass(ID, &I, &T.MII, SM.getProcessorID());
    SCD = ID ? SM.getSchedClassDesc(ID) : nullptr;
  }
  return SCD && SCD->isValid() ? SCD : nullptr;
}

const MCSchedClassDesc *throughputClassOf(const MCInst &I, const MCTools &T) {
  if (T.FullWidth512 && T.Opcodes) {
    // AVX-512's 512-bit forms end in Z and a lower-case operand suffix
    // (VFMADD231PSZr, VMOVUPSZrm, VADDPSZrrk); their 256-bit forms put
    // Z256 there, with the same operands bar the registers' width.
    StringRef Name = T.MII.getName(I.getOpcode());
    size_t Z = Name.rfind('Z');
    if (Z != StringRef::npos && Z > 0 &&
        llvm::all_of(Name.drop_front(Z + 1), [](char C) { return islower(C); })) {
      auto It = T.Opcodes->find((Name.take_front(Z + 1) + "256" +
                                 Name.drop_front(Z + 1)).str());
      if (It != T.Opcodes->end()) {
        MCInst Narrow = I;
        Narrow.setOpcode(It->second);
        if (const MCSchedClassDesc *SCD = schedClassOf(Narrow, T))
          return SCD;
      }
    }
  }
  return schedClassOf(I, T);
}

double portCyclesOf(const MCTools &T, const char *Name) {
  if (!T.Opcodes)
    return 0;
  auto It = T.Opcodes->find(Name);
  if (It == T.Opcodes->end())
    return 0;
  const MCSchedModel &SM = T.STI.getSchedModel();
  const MCSchedClassDesc *SCD =
      SM.getSchedClassDesc(T.MII.get(It->second).getSchedClass());
  if (!SCD || !SCD->isValid() || SCD->isVariant())
    return 0;
  double Most = 0;
  for (const MCWriteProcResEntry *W = T.STI.getWriteProcResBegin(SCD),
                                 *E = T.STI.getWriteProcResEnd(SCD);
       W != E; ++W)
    Most = std::max(Most, double(W->ReleaseAtCycle - W->AcquireAtCycle) /
                              std::max(1u, SM.getProcResource(W->ProcResourceIdx)->NumUnits));
  return Most;
}

std::string mnemonic(const MCInst &I, const MCTools &T) {
  return StringRef(T.Printer.getMnemonic(I).first).trim().str();
}

MCRegister widest(MCRegister R, const MCRegisterInfo &MRI) {
  MCRegister Best = R;
  for (MCRegister S : MRI.superregs(R))
    if (MRI.isSuperRegister(Best, S))
      Best = S;
  return Best;
}

std::string cyclesText(double C) {
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "%.3g", C);
  return std::string(Buf) + (std::string(Buf) == "1" ? " cycle" : " cycles");
}

int loadLatencyOf(const MCTools &T, std::initializer_list<const char *> Names) {
  const MCSchedModel &SM = T.STI.getSchedModel();
  for (const char *Name : Names) {
    auto It = T.Opcodes->find(Name);
    if (It == T.Opcodes->end())
      continue;
    int L = SM.computeInstrLatency(T.STI, T.MII.get(It->second).getSchedClass());
    if (L > 0)
      return L;
  }
  return SM.LoadLatency;
}

Error measureLoop(const MachineLoop &L, const MCTools &T, InCoreLoop &Out) {
  if (!T.STI.getSchedModel().hasInstrSchedModel())
    return createStringError("no scheduling model for " +
                             T.STI.getCPU().str());
  // Enough iterations for a steady state, few enough to stay quick.
  unsigned N = std::max<unsigned>(20, 4000 / std::max<size_t>(1, L.Body.size()));
  Expected<unsigned> AtN = simulate(L.Body, N, T);
  if (!AtN)
    return AtN.takeError();
  Expected<unsigned> At2N = simulate(L.Body, 2 * N, T);
  if (!At2N)
    return At2N.takeError();
  double Simulated = double(*At2N - *AtN) / N;

  PortBound P = portBound(L.Body, T);
  ChainBound C = chainBound(L.Body, T);
  // The time is a lower bound: where MCA's simulation is slower than both
  // bounds (some models count a folded load into the accumulator's chain),
  // the larger bound is used. Never below the chain: MCA assumes no
  // aliasing and does not see one through memory.
  Out.CyclesPerIteration = std::max(
      {1.0 / 16, C.Cycles, std::min(Simulated, std::max(P.Cycles, C.Cycles))});
  Out.PortCycles = P.Cycles;
  Out.ChainCycles = C.Cycles;
  Out.MicroOps = P.MicroOps;
  Window W = windowOf(L.Body, C.Waits, P.MicroOps, T);
  Out.WindowIterations = W.Iterations;
  Out.WindowDetail = W.What;
  Out.PortDetail = cyclesText(P.Cycles) + " an iteration on " + P.What;
  Out.FlopsPerIteration = Out.BytesPerIteration = 0;
  for (const MCInst &I : L.Body) {
    InstructionWork W = x86Work(I, T.MII, T.MRI);
    Out.FlopsPerIteration += W.Flops;
    Out.BytesPerIteration += W.Bytes;
  }
  if (C.Cycles > P.Cycles) {
    Out.Cause = C.Divide ? InCoreCause::Divide : InCoreCause::DependencyChain;
    std::string Through;
    if (C.ReadBack)
      Through = "memory (a store read back " +
                (*C.ReadBack == 0   ? std::string("in the same iteration")
                 : *C.ReadBack == 1 ? std::string("1 iteration later")
                                    : std::to_string(*C.ReadBack) + " iterations later") +
                ")";
    if (!C.Through.empty())
      Through += (Through.empty() ? "" : " and ") + C.Through + " (latency " +
                 std::to_string(C.Latency) + ")";
    Out.Detail = "a " + cycles(C.Cycles) + "-cycle loop-carried chain through " +
                 Through;
    Out.Chain = C.Links;
    Out.Kind = C.Kind;
  } else {
    Out.Cause = P.Divider ? InCoreCause::Divide : InCoreCause::Ports;
    Out.Detail = Out.PortDetail;
  }
  return Error::success();
}

} // namespace roofline
