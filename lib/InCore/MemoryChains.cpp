//===- MemoryChains.cpp - Stores that a later iteration reads back --------===//
#include "MemoryChains.h"
#include "InstructionWork.h"
#include "LoopThroughput.h"

#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"

#include <map>
#include <optional>
#include <set>

using namespace llvm;

namespace roofline {

namespace {

/// x86's memory operand: base + scale * index + displacement, no segment;
/// registers as their widest alias (0: none).
struct Address {
  unsigned Base = 0, Index = 0;
  int64_t Scale = 1, Displacement = 0;
};

std::optional<Address> addressOf(const MCInst &I, const MCInstrDesc &D,
                                 const MCRegisterInfo &MRI) {
  for (unsigned K = 0; K < D.getNumOperands() && K + 4 < I.getNumOperands(); ++K) {
    if (D.operands()[K].OperandType != MCOI::OPERAND_MEMORY)
      continue;
    const MCOperand &B = I.getOperand(K), &S = I.getOperand(K + 1),
                    &X = I.getOperand(K + 2), &Disp = I.getOperand(K + 3),
                    &Seg = I.getOperand(K + 4);
    if (!B.isReg() || !S.isImm() || !X.isReg() || !Disp.isImm() ||
        !Seg.isReg() || Seg.getReg())
      return std::nullopt;
    // RIP-relative displacements count from each instruction's own address.
    if (B.getReg() && StringRef(MRI.getName(B.getReg())) == "RIP")
      return std::nullopt;
    Address A;
    A.Base = B.getReg() ? widest(B.getReg(), MRI).id() : 0;
    A.Index = X.getReg() ? widest(X.getReg(), MRI).id() : 0;
    A.Scale = A.Index ? S.getImm() : 1;
    A.Displacement = Disp.getImm();
    return A;
  }
  return std::nullopt;
}

/// The register \p I steps by a constant, and the step: add, sub, inc and
/// dec of a register and an immediate, lea of itself plus a displacement.
std::optional<std::pair<unsigned, int64_t>>
constantStep(const MCInst &I, const MCInstrInfo &MII, const MCRegisterInfo &MRI) {
  StringRef Name = MII.getName(I.getOpcode());
  auto Same = [&](unsigned A, unsigned B) {
    return I.getOperand(A).isReg() && I.getOperand(B).isReg() &&
           I.getOperand(A).getReg() == I.getOperand(B).getReg();
  };
  auto Reg = [&] { return widest(I.getOperand(0).getReg(), MRI).id(); };
  unsigned N = I.getNumOperands();
  bool Add = Name.starts_with("ADD64ri") || Name.starts_with("ADD32ri");
  bool Sub = Name.starts_with("SUB64ri") || Name.starts_with("SUB32ri");
  if ((Add || Sub) && N == 3 && Same(0, 1) && I.getOperand(2).isImm())
    return std::make_pair(Reg(), (Sub ? -1 : 1) * I.getOperand(2).getImm());
  bool Inc = Name == "INC64r" || Name == "INC32r";
  if ((Inc || Name == "DEC64r" || Name == "DEC32r") && N == 2 && Same(0, 1))
    return std::make_pair(Reg(), int64_t(Inc ? 1 : -1));
  // lea disp(%reg), %reg: dest, base, scale, index, displacement, segment.
  if ((Name == "LEA64r" || Name == "LEA64_32r") && N == 6 && Same(0, 1) &&
      I.getOperand(3).isReg() && !I.getOperand(3).getReg() &&
      I.getOperand(4).isImm())
    return std::make_pair(Reg(), I.getOperand(4).getImm());
  return std::nullopt;
}

struct Access {
  size_t At;
  bool Store;
  Address Where;
  int64_t Offset, Step; ///< from the iteration's start, and per iteration
  double Bytes;
};

/// Every load or store whose address is affine in the iteration: its
/// registers are stepped by constants and set by nothing else.
std::vector<Access> affineAccesses(ArrayRef<MCInst> Body, const MCInstrInfo &MII,
                                   const MCRegisterInfo &MRI) {
  std::map<unsigned, int64_t> Step;
  std::set<unsigned> Varies;
  for (const MCInst &I : Body) {
    if (auto S = constantStep(I, MII, MRI)) {
      Step[S->first] += S->second;
      continue;
    }
    const MCInstrDesc &D = MII.get(I.getOpcode());
    for (unsigned K = 0; K < D.getNumDefs() && K < I.getNumOperands(); ++K)
      if (I.getOperand(K).isReg() && I.getOperand(K).getReg())
        Varies.insert(widest(I.getOperand(K).getReg(), MRI).id());
    for (MCPhysReg R : D.implicit_defs())
      Varies.insert(widest(R, MRI).id());
  }
  auto Affine = [&](unsigned R) { return R == 0 || !Varies.count(R); };
  auto Value = [](const std::map<unsigned, int64_t> &M, unsigned R) {
    auto It = M.find(R);
    return R && It != M.end() ? It->second : 0;
  };
  std::vector<Access> Out;
  std::map<unsigned, int64_t> SoFar; // each register's steps before here
  for (size_t K = 0; K < Body.size(); ++K) {
    const MCInst &I = Body[K];
    const MCInstrDesc &D = MII.get(I.getOpcode());
    if (D.mayLoad() != D.mayStore()) // a plain load or store
      if (std::optional<Address> A = addressOf(I, D, MRI))
        if (Affine(A->Base) && Affine(A->Index))
          Out.push_back({K, D.mayStore(), *A,
                         A->Displacement + Value(SoFar, A->Base) +
                             A->Scale * Value(SoFar, A->Index),
                         Value(Step, A->Base) + A->Scale * Value(Step, A->Index),
                         x86Work(I, MII, MRI).Bytes});
    if (auto S = constantStep(I, MII, MRI))
      SoFar[S->first] += S->second;
  }
  return Out;
}

/// Iterations from \p S's store to \p L's load of the same bytes, if any.
std::optional<unsigned> distance(const Access &S, const Access &L,
                                 unsigned MaxDistance) {
  if (S.Where.Base != L.Where.Base || S.Where.Index != L.Where.Index ||
      S.Where.Scale != L.Where.Scale || S.Bytes != L.Bytes || S.Bytes <= 0 ||
      S.Step != L.Step)
    return std::nullopt;
  int64_t Apart = S.Offset - L.Offset;
  int64_t D;
  if (S.Step == 0) {
    if (Apart != 0)
      return std::nullopt;
    D = L.At > S.At ? 0 : 1; // one address: the last store before it
  } else {
    if (Apart % S.Step != 0)
      return std::nullopt;
    D = Apart / S.Step;
  }
  // In the same iteration only a load after the store reads it.
  if (D < 0 || (D == 0 && L.At < S.At) || D > int64_t(MaxDistance))
    return std::nullopt;
  return unsigned(D);
}

} // namespace

std::vector<ReadBack> readBacks(ArrayRef<MCInst> Body, const MCInstrInfo &MII,
                                const MCRegisterInfo &MRI, unsigned MaxDistance) {
  std::vector<Access> All = affineAccesses(Body, MII, MRI);
  std::vector<ReadBack> Out;
  for (const Access &L : All) {
    if (L.Store)
      continue;
    std::optional<ReadBack> Best;
    for (const Access &S : All) {
      if (!S.Store)
        continue;
      std::optional<unsigned> D = distance(S, L, MaxDistance);
      if (!D)
        continue;
      // The nearest store wins; of one iteration's stores, the later
      // (before the load, in its own iteration).
      if (!Best || *D < Best->Distance ||
          (*D == Best->Distance && S.At > Best->Store))
        Best = ReadBack{S.At, L.At, *D};
    }
    if (Best)
      Out.push_back(*Best);
  }
  return Out;
}

} // namespace roofline
