//===- LoopThroughput.cpp - Cycles per iteration of a loop body -----------===//
#include "LoopThroughput.h"
#include "InstructionWork.h"

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

std::string mnemonic(const MCInst &I, const MCTools &T) {
  return StringRef(T.Printer.getMnemonic(I).first).trim().str();
}

/// The latency from a folded load's register operands to its result: that
/// of the same operation on registers (VADDSDrm -> VADDSDrr,
/// VFMADD213PDYm -> VFMADD213PDYr), else less the model's load latency.
int registerFormLatency(const MCInst &I, int Latency, const MCTools &T) {
  std::string Name = T.MII.getName(I.getOpcode()).str();
  std::vector<std::string> Forms;
  if (size_t At = Name.rfind("rm"); At != std::string::npos)
    Forms.push_back(Name.substr(0, At) + "rr" + Name.substr(At + 2));
  if (size_t At = Name.find_last_of('m'); At != std::string::npos)
    Forms.push_back(Name.substr(0, At) + "r" + Name.substr(At + 1));
  const MCSchedModel &SM = T.STI.getSchedModel();
  if (T.Opcodes)
    for (const std::string &F : Forms) {
      auto It = T.Opcodes->find(F);
      if (It == T.Opcodes->end())
        continue;
      int L = SM.computeInstrLatency(T.STI, T.MII.get(It->second).getSchedClass());
      if (L > 0 && L < Latency)
        return L;
    }
  int Load = std::max<int>(SM.LoadLatency, T.VectorLoadLatency);
  return std::max(1, Latency - Load);
}

/// \p Latency, or the probe's measured latency of the operation where that
/// is shorter (adds and FMAs; LLVM's model of a new core may be an older
/// one's).
int measuredLatency(const MCInst &I, int Latency, const MCTools &T) {
  const char *Kind = x86Work(I, T.MII, T.MRI).LatencyKind;
  if (!Kind)
    return Latency;
  auto It = T.FPLatency.find(Kind);
  if (It == T.FPLatency.end())
    return Latency;
  return std::max(1, std::min(Latency, int(std::floor(It->second + 0.25))));
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
    const MCSchedClassDesc *SCD = schedClassOf(I, T);
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
      B.What = R->Name;
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

/// A register's widest alias, so xmm0 and zmm0 (eax and rax) are one.
MCRegister widest(MCRegister R, const MCRegisterInfo &MRI) {
  MCRegister Best = R;
  for (MCRegister S : MRI.superregs(R))
    if (MRI.isSuperRegister(Best, S))
      Best = S;
  return Best;
}

struct ChainBound {
  double Cycles = 0;
  std::string Through; ///< the longest-latency instruction on the chain
  int Latency = 0;     ///< its latency
  bool Divide = false;
  /// Steps that wait on the chain (their ready times grow at its rate):
  /// what fills the scheduler while it drains.
  std::vector<bool> Waits;
};

/// The loop-carried chain: ready times with unlimited resources over N and
/// 2N iterations; the growth per iteration is the recurrence's length.
ChainBound chainBound(ArrayRef<MCInst> Insts, const MCTools &T) {
  // A folded load's data operands wait only for the arithmetic after the
  // load; its address operands wait for all of it (pointer chasing).
  struct Use {
    MCRegister Reg;
    int Latency;
  };
  struct Step {
    std::vector<Use> Uses;
    std::vector<MCRegister> Defs;
    int Latency = 1;
    int DataLatency = 1; ///< from its register operands
  };
  const MCSchedModel &SM = T.STI.getSchedModel();
  std::vector<Step> Steps;
  for (const MCInst &I : Insts) {
    const MCInstrDesc &D = T.MII.get(I.getOpcode());
    Step S;
    if (const MCSchedClassDesc *SCD = schedClassOf(I, T))
      S.Latency = std::max(0, MCSchedModel::computeInstrLatency(T.STI, *SCD));
    int DataLatency = D.mayLoad() ? registerFormLatency(I, S.Latency, T) : S.Latency;
    DataLatency = measuredLatency(I, DataLatency, T);
    S.DataLatency = DataLatency;
    for (unsigned K = 0; K < I.getNumOperands(); ++K) {
      const MCOperand &Op = I.getOperand(K);
      if (!Op.isReg() || !Op.getReg())
        continue;
      MCRegister R = widest(Op.getReg(), T.MRI);
      if (K < D.getNumDefs()) {
        S.Defs.push_back(R);
        continue;
      }
      bool Address = K < D.getNumOperands() &&
                     D.operands()[K].OperandType == MCOI::OPERAND_MEMORY;
      S.Uses.push_back({R, Address ? S.Latency : DataLatency});
    }
    for (MCPhysReg R : D.implicit_uses())
      S.Uses.push_back({widest(R, T.MRI), DataLatency});
    for (MCPhysReg R : D.implicit_defs())
      S.Defs.push_back(widest(R, T.MRI));
    Steps.push_back(S);
  }
  struct Ready {
    double At = 0;
    int By = -1; ///< the step that wrote it last
  };
  std::map<unsigned, Ready> Regs;
  std::map<unsigned, int> Critical; // step -> the step its latest input came from
  std::vector<double> EndOf(Steps.size());
  auto Run = [&](unsigned Iterations) {
    double Latest = 0;
    for (unsigned It = 0; It < Iterations; ++It)
      for (size_t K = 0; K < Steps.size(); ++K) {
        double End = Steps[K].Latency;
        int From = -1;
        for (const Use &U : Steps[K].Uses) {
          Ready &In = Regs[U.Reg.id()];
          if (In.By >= 0 && In.At + U.Latency > End) {
            End = In.At + U.Latency;
            From = In.By;
          }
        }
        Critical[K] = From;
        EndOf[K] = End;
        for (MCRegister R : Steps[K].Defs)
          Regs[R.id()] = {End, int(K)};
        Latest = std::max(Latest, End);
      }
    return Latest;
  };
  const unsigned N = 16;
  double AtN = Run(N);
  std::vector<double> EndAtN = EndOf;
  double At2N = Run(N); // continues from the state after N iterations
  ChainBound B;
  B.Cycles = (At2N - AtN) / N;
  for (size_t K = 0; K < Steps.size(); ++K)
    B.Waits.push_back(B.Cycles > 0 &&
                      (EndOf[K] - EndAtN[K]) / N >= 0.99 * B.Cycles);
  // Walk the chain back from the latest register to name its slowest step.
  int K = -1;
  double Latest = -1;
  for (const auto &[R, In] : Regs)
    if (In.At > Latest) {
      Latest = In.At;
      K = In.By;
    }
  for (size_t Hops = 0; K >= 0 && Hops < Steps.size(); ++Hops) {
    if (Steps[K].DataLatency > B.Latency) {
      B.Latency = Steps[K].DataLatency;
      B.Through = mnemonic(Insts[K], T);
      InstructionWork W = x86Work(Insts[K], T.MII, T.MRI);
      B.Divide = W.Divide;
    }
    K = Critical[K];
  }
  return B;
}

std::string cycles(double C) {
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "%.3g", C);
  return Buf;
}

} // namespace

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
  // the larger bound is used.
  Out.CyclesPerIteration =
      std::max(1.0 / 16, std::min(Simulated, std::max(P.Cycles, C.Cycles)));
  Out.PortCycles = P.Cycles;
  Out.ChainCycles = C.Cycles;
  Out.MicroOps = P.MicroOps;
  Window W = windowOf(L.Body, C.Waits, P.MicroOps, T);
  Out.WindowIterations = W.Iterations;
  Out.WindowDetail = W.What;
  Out.PortDetail = cycles(P.Cycles) + " cycles an iteration on " + P.What;
  Out.FlopsPerIteration = Out.BytesPerIteration = 0;
  for (const MCInst &I : L.Body) {
    InstructionWork W = x86Work(I, T.MII, T.MRI);
    Out.FlopsPerIteration += W.Flops;
    Out.BytesPerIteration += W.Bytes;
  }
  if (C.Cycles > P.Cycles) {
    Out.Cause = C.Divide ? InCoreCause::Divide : InCoreCause::DependencyChain;
    Out.Detail = "a " + cycles(C.Cycles) + "-cycle loop-carried chain through " +
                 C.Through + " (latency " + std::to_string(C.Latency) + ")";
  } else {
    Out.Cause = P.Divider ? InCoreCause::Divide : InCoreCause::Ports;
    Out.Detail = Out.PortDetail;
  }
  return Error::success();
}

} // namespace roofline
