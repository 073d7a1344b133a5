//===- DependencyChain.cpp - A loop body's loop-carried chain -------------===//
#include "DependencyChain.h"
#include "InstructionWork.h"
#include "MemoryChains.h"

#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSubtargetInfo.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

using namespace llvm;

namespace roofline {

namespace {

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

struct Use {
  MCRegister Reg;
  int Latency;
  bool Address = false;
};

/// A store this load reads back, Distance iterations later, its value
/// arriving Latency cycles after the store's data was ready.
struct MemoryUse {
  size_t Store;
  unsigned Distance;
  int Latency;
};

struct Step {
  std::vector<Use> Uses;
  std::vector<MemoryUse> Reads;
  std::vector<MCRegister> Defs;
  int Latency = 1;
  int DataLatency = 1; ///< from its register operands
  bool Store = false;  ///< its chain time is its data's (a store writes no register)
};

/// One instruction's operands and latencies. A folded load's data operands
/// wait only for the arithmetic after the load; its address operands wait
/// for all of it (pointer chasing).
Step stepOf(const MCInst &I, const MCTools &T) {
  const MCInstrDesc &D = T.MII.get(I.getOpcode());
  Step S;
  if (const MCSchedClassDesc *SCD = schedClassOf(I, T))
    S.Latency = std::max(0, MCSchedModel::computeInstrLatency(T.STI, *SCD));
  int DataLatency = D.mayLoad() ? registerFormLatency(I, S.Latency, T) : S.Latency;
  S.DataLatency = measuredLatency(I, DataLatency, T);
  S.Store = D.mayStore() && !D.mayLoad();
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
    S.Uses.push_back({R, Address ? S.Latency : S.DataLatency, Address});
  }
  for (MCPhysReg R : D.implicit_uses())
    S.Uses.push_back({widest(R, T.MRI), S.DataLatency});
  for (MCPhysReg R : D.implicit_defs())
    S.Defs.push_back(widest(R, T.MRI));
  return S;
}

/// The edge into a step on its longest path.
struct Link {
  int From = -1; ///< the step it came from (-1: none in the loop)
  double Latency = 0;
  bool Memory = false;
};

/// Ready times of every step over iterations, with unlimited resources.
class ChainRun {
public:
  explicit ChainRun(std::vector<Step> S) : Steps(std::move(S)) {
    Into.resize(Steps.size());
    EndOf.resize(Steps.size());
    Stored.resize(Steps.size());
  }
  /// The latest ready time after \p Iterations more iterations.
  double run(unsigned Iterations) {
    double Latest = 0;
    for (unsigned It = 0; It < Iterations; ++It, ++Done)
      for (size_t K = 0; K < Steps.size(); ++K)
        Latest = std::max(Latest, step(K));
    return Latest;
  }
  std::vector<Step> Steps;
  std::vector<Link> Into;     ///< of each step, in the last iteration
  std::vector<double> EndOf;  ///< of each step, in the last iteration

private:
  double step(size_t K) {
    const Step &S = Steps[K];
    double End = S.Store ? 0 : S.Latency;
    Link L;
    for (const Use &U : S.Uses) {
      Ready &In = Regs[U.Reg.id()];
      // A store's data is ready when its register is: the forwarding
      // latency is the load's to pay.
      double Lat = S.Store && !U.Address ? 0 : U.Latency;
      if (In.By >= 0 && In.At + Lat > End) {
        End = In.At + Lat;
        L = {In.By, Lat, false};
      }
    }
    for (const MemoryUse &M : S.Reads) {
      if (Done < M.Distance)
        continue;
      double At = Stored[M.Store][Done - M.Distance];
      if (At + M.Latency > End) {
        End = At + M.Latency;
        L = {int(M.Store), double(M.Latency), true};
      }
    }
    if (S.Store)
      Stored[K].push_back(End);
    Into[K] = L;
    EndOf[K] = End;
    for (MCRegister R : S.Defs)
      Regs[R.id()] = {End, int(K)};
    return End;
  }
  struct Ready {
    double At = 0;
    int By = -1; ///< the step that wrote it last
  };
  std::map<unsigned, Ready> Regs;
  std::vector<std::vector<double>> Stored; ///< a store's data, by iteration
  unsigned Done = 0;                       ///< iterations run
};

/// "vaddsd, 8 x 3 cycles an iteration"; several kinds of link:
/// "vmulsd 5 + vaddsd 2 x 3 = 11 cycles an iteration"; a recurrence that
/// spans iterations (a store read back two later): "... every 2
/// iterations".
std::string linksText(const std::vector<std::pair<std::string, double>> &Links,
                      double Cycles) {
  std::vector<std::pair<std::pair<std::string, double>, unsigned>> Groups;
  double Sum = 0;
  for (const auto &L : Links) {
    Sum += L.second;
    auto It = std::find_if(Groups.begin(), Groups.end(),
                           [&](const auto &G) { return G.first == L; });
    if (It == Groups.end())
      Groups.push_back({L, 1});
    else
      ++It->second;
  }
  auto Count = [](double C) {
    char Buf[32];
    std::snprintf(Buf, sizeof(Buf), "%.3g", C);
    return std::string(Buf);
  };
  double Span = std::round(Sum / Cycles);
  bool Whole = Span >= 1 && std::fabs(Sum - Span * Cycles) <= 0.05 * Cycles;
  std::string Per = !Whole ? "" : Span == 1 ? " an iteration"
                                            : " every " + Count(Span) + " iterations";
  std::string S;
  if (Groups.size() == 1 && Whole) {
    const auto &[L, N] = Groups[0];
    S = L.first + ", " +
        (N > 1 ? std::to_string(N) + " x " + Count(L.second) + " cycles"
               : cyclesText(L.second));
  } else {
    for (size_t I = 0; I < Groups.size(); ++I) {
      const auto &[L, N] = Groups[I];
      S += (I ? " + " : "") + L.first + " " +
           (N > 1 ? std::to_string(N) + " x " : "") + Count(L.second);
    }
    S += " = " + cyclesText(Sum);
  }
  if (!Whole)
    return S + " (" + cyclesText(Cycles) + " an iteration on average)";
  return S + Per;
}

/// The steps of the recurrence that sets the chain: walking back from
/// \p From along each step's longest input until a step comes round again.
std::vector<int> recurrence(const ChainRun &Run, int From) {
  std::vector<int> Path;
  std::map<int, size_t> Seen;
  for (int K = From; K >= 0 && Path.size() < 4 * Run.Steps.size();
       K = Run.Into[K].From) {
    auto It = Seen.find(K);
    if (It != Seen.end())
      return std::vector<int>(Path.begin() + It->second, Path.end());
    Seen[K] = Path.size();
    Path.push_back(K);
  }
  return Path; // no cycle found: the path walked
}

} // namespace

ChainBound chainBound(ArrayRef<MCInst> Insts, const MCTools &T) {
  std::vector<Step> Steps;
  for (const MCInst &I : Insts)
    Steps.push_back(stepOf(I, T));
  // A value stored and read back arrives at least a load's latency after
  // the store's data (store-to-load forwarding is no faster than an L1
  // hit on the cores modelled), then goes through the load's arithmetic.
  const int Forwarding = T.STI.getSchedModel().LoadLatency;
  const unsigned N = 16;
  for (const ReadBack &R : readBacks(Insts, T.MII, T.MRI, N / 2)) {
    bool Arithmetic = x86Work(Insts[R.Load], T.MII, T.MRI).Flops > 0;
    Steps[R.Load].Reads.push_back(
        {R.Store, R.Distance,
         Forwarding + (Arithmetic ? Steps[R.Load].DataLatency : 0)});
  }
  ChainRun Run(std::move(Steps));
  double AtN = Run.run(N);
  std::vector<double> EndAtN = Run.EndOf;
  double At2N = Run.run(N); // continues from the state after N iterations
  ChainBound B;
  B.Cycles = (At2N - AtN) / N;
  for (size_t K = 0; K < Insts.size(); ++K)
    B.Waits.push_back(B.Cycles > 0 &&
                      (Run.EndOf[K] - EndAtN[K]) / N >= 0.99 * B.Cycles);
  if (B.Cycles <= 0)
    return B;
  // Name the chain's links and its slowest step from the recurrence that
  // ends at the latest step.
  int Latest = int(std::max_element(Run.EndOf.begin(), Run.EndOf.end()) -
                   Run.EndOf.begin());
  std::vector<std::pair<std::string, double>> Links;
  for (int K : recurrence(Run, Latest)) {
    const Link &L = Run.Into[K];
    if (L.From < 0)
      continue;
    double Own = L.Latency;
    if (L.Memory) {
      Own -= Forwarding;
      for (const MemoryUse &M : Run.Steps[K].Reads)
        if (int(M.Store) == L.From)
          B.ReadBack = M.Distance;
    }
    if (Own > 0)
      Links.push_back({mnemonic(Insts[K], T), Own});
    if (L.Memory) // walked backwards: it comes before the load's own part
      Links.push_back({"store-to-load forwarding", double(Forwarding)});
    if (Own > B.Latency) {
      B.Latency = int(Own);
      B.Through = mnemonic(Insts[K], T);
      InstructionWork W = x86Work(Insts[K], T.MII, T.MRI);
      B.Divide = W.Divide;
      B.Kind = W.Flops > 0 ? ChainKind::FloatingPoint : ChainKind::Other;
    }
  }
  if (B.ReadBack)
    B.Kind = ChainKind::Memory;
  std::reverse(Links.begin(), Links.end());
  if (!Links.empty())
    B.Links = linksText(Links, B.Cycles);
  return B;
}

} // namespace roofline
