//===- MachineLoops.cpp - Innermost loops of a binary's machine code -------===//
#include "MachineLoops.h"

#include "llvm/DebugInfo/DWARF/DWARFContext.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/MC/MCDisassembler/MCDisassembler.h"
#include "llvm/MC/MCInstrAnalysis.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

using namespace llvm;

namespace roofline {

namespace {

struct FunctionSymbol {
  std::string Name;
  uint64_t Address, Size;
  object::SectionRef Section;
};

std::vector<FunctionSymbol> functionSymbols(const object::ObjectFile &Obj) {
  std::vector<FunctionSymbol> Out;
  std::set<std::pair<uint64_t, uint64_t>> Seen; // aliases share code
  for (const object::SymbolRef &S : Obj.symbols()) {
    Expected<object::SymbolRef::Type> Type = S.getType();
    Expected<uint64_t> Addr = S.getAddress();
    Expected<StringRef> Name = S.getName();
    Expected<object::section_iterator> Sec = S.getSection();
    if (!Type || !Addr || !Name || !Sec) {
      consumeError(Type.takeError());
      consumeError(Addr.takeError());
      consumeError(Name.takeError());
      consumeError(Sec.takeError());
      continue;
    }
    if (*Type != object::SymbolRef::ST_Function || *Sec == Obj.section_end() ||
        !(*Sec)->isText())
      continue;
    uint64_t Size = Obj.isELF() ? object::ELFSymbolRef(S).getSize() : 0;
    uint64_t SectionIndex = (*Sec)->getIndex();
    if (Size == 0 || !Seen.insert({SectionIndex, *Addr}).second)
      continue;
    Out.push_back({Name->str(), *Addr, Size, **Sec});
  }
  return Out;
}

/// The calls inside \p F's loops (\p LastBranchTo: target index -> last
/// branch back) to a function symbol of the binary that is not the
/// runtime's, or through a register.
void recordLoopCalls(const FunctionSymbol &F, const std::vector<MCInst> &Insts,
                     const std::vector<uint64_t> &Addrs,
                     const std::map<size_t, size_t> &LastBranchTo,
                     const std::map<uint64_t, const FunctionSymbol *> &ByAddress,
                     const MCInstrInfo &MII, const MCInstrAnalysis &MIA,
                     std::vector<LoopCall> &Calls) {
  // The cache model's traced copies are not what a plain run executes.
  if (StringRef(F.Name).ends_with(".roofline.traced"))
    return;
  for (size_t K = 0; K < Insts.size(); ++K) {
    if (!MII.get(Insts[K].getOpcode()).isCall())
      continue;
    bool InLoop = std::any_of(LastBranchTo.begin(), LastBranchTo.end(),
                              [&](const auto &L) { return L.first <= K && K <= L.second; });
    if (!InLoop)
      continue;
    uint64_t Size = (K + 1 < Addrs.size() ? Addrs[K + 1] : F.Address + F.Size) - Addrs[K];
    uint64_t Target = 0;
    std::string Callee;
    if (MIA.evaluateBranch(Insts[K], Addrs[K], Size, Target)) {
      auto It = ByAddress.find(Target);
      if (It == ByAddress.end())
        continue; // the PLT: another library's code, not counted here
      StringRef Name = It->second->Name;
      if (Name.starts_with("__roofline") || Name.starts_with("roofline_"))
        continue;
      // The instrumented copies (F.roofline.kept, ...) are F to a reader.
      Callee = demangle(Name.substr(0, Name.find(".roofline.")).str());
    }
    Calls.push_back({Callee, Addrs[K], F.Section.getIndex()});
  }
}

} // namespace

MachineLoops findMachineLoops(const object::ObjectFile &Obj,
                              const MCDisassembler &Dis, const MCInstrInfo &MII,
                              const MCInstrAnalysis &MIA) {
  MachineLoops Out;
  std::vector<MachineLoop> &Loops = Out.Innermost;
  std::vector<FunctionSymbol> Symbols = functionSymbols(Obj);
  std::map<uint64_t, const FunctionSymbol *> ByAddress;
  for (const FunctionSymbol &F : Symbols)
    ByAddress[F.Address] = &F;
  for (const FunctionSymbol &F : Symbols) {
    Expected<StringRef> Data = F.Section.getContents();
    if (!Data) {
      consumeError(Data.takeError());
      continue;
    }
    uint64_t SecAddr = F.Section.getAddress();
    if (F.Address < SecAddr || F.Address + F.Size > SecAddr + Data->size())
      continue;
    ArrayRef<uint8_t> Bytes(
        reinterpret_cast<const uint8_t *>(Data->data()) + (F.Address - SecAddr),
        F.Size);

    std::vector<MCInst> Insts;
    std::vector<uint64_t> Addrs;
    for (uint64_t Off = 0; Off < Bytes.size();) {
      MCInst I;
      uint64_t Size = 0;
      MCDisassembler::DecodeStatus S = Dis.getInstruction(
          I, Size, Bytes.slice(Off), F.Address + Off, nulls());
      if (S == MCDisassembler::Success) {
        Insts.push_back(I);
        Addrs.push_back(F.Address + Off);
      }
      Off += std::max<uint64_t>(Size, 1);
    }

    // A loop per backward branch target, up to its last branch back there.
    std::map<size_t, size_t> LastBranchTo; // target index -> branch index
    for (size_t K = 0; K < Insts.size(); ++K) {
      if (!MII.get(Insts[K].getOpcode()).isBranch())
        continue;
      uint64_t Size = (K + 1 < Addrs.size() ? Addrs[K + 1] : F.Address + F.Size) -
                      Addrs[K];
      uint64_t Target = 0;
      if (!MIA.evaluateBranch(Insts[K], Addrs[K], Size, Target) ||
          Target > Addrs[K] || Target < F.Address)
        continue;
      auto It = std::lower_bound(Addrs.begin(), Addrs.end(), Target);
      if (It == Addrs.end() || *It != Target)
        continue;
      size_t T = It - Addrs.begin();
      LastBranchTo[T] = std::max(LastBranchTo[T], K);
    }
    recordLoopCalls(F, Insts, Addrs, LastBranchTo, ByAddress, MII, MIA, Out.Calls);
    for (const auto &Loop : LastBranchTo) {
      size_t Begin = Loop.first, End = Loop.second;
      bool Inner = std::none_of(
          LastBranchTo.begin(), LastBranchTo.end(), [&](const auto &O) {
            return (O.first != Begin || O.second != End) && O.first >= Begin &&
                   O.second <= End;
          });
      if (!Inner)
        continue;
      MachineLoop L;
      L.Function = demangle(F.Name);
      L.Address = Addrs[Begin];
      L.SectionIndex = F.Section.getIndex();
      for (size_t K = Begin; K <= End; ++K) {
        L.Body.push_back(Insts[K]);
        L.Addresses.push_back(Addrs[K]);
        const MCInstrDesc &D = MII.get(Insts[K].getOpcode());
        L.HasCall |= D.isCall() || D.isReturn() || D.isIndirectBranch();
      }
      // The smallest loop around it, less this one.
      const std::pair<const size_t, size_t> *Outer = nullptr;
      for (const auto &O : LastBranchTo)
        if ((O.first != Begin || O.second != End) && O.first <= Begin &&
            O.second >= End &&
            (!Outer || O.second - O.first < Outer->second - Outer->first))
          Outer = &O;
      if (Outer)
        for (size_t K = Outer->first; K <= Outer->second; ++K)
          if (K < Begin || K > End)
            L.EnclosingOwn.push_back(Addrs[K]);
      Loops.push_back(std::move(L));
    }
  }
  return Out;
}

std::vector<InCoreLoop::Position> positionsOf(const std::vector<uint64_t> &Addresses,
                                              uint64_t SectionIndex,
                                              DWARFContext &Dwarf) {
  DILineInfoSpecifier Spec(
      DILineInfoSpecifier::FileLineInfoKind::AbsoluteFilePath,
      DILineInfoSpecifier::FunctionNameKind::LinkageName);
  std::set<std::tuple<std::string, std::string, unsigned>> Seen;
  std::vector<InCoreLoop::Position> Out;
  std::map<std::string, std::string> Demangled;
  for (uint64_t A : Addresses) {
    DIInliningInfo Frames =
        Dwarf.getInliningInfoForAddress({A, SectionIndex}, Spec);
    for (uint32_t K = 0; K < Frames.getNumberOfFrames(); ++K) {
      const DILineInfo &F = Frames.getFrame(K);
      if (F.Line == 0 || F.FileName == DILineInfo::BadString)
        continue;
      auto D = Demangled.find(F.FunctionName);
      if (D == Demangled.end())
        D = Demangled.emplace(F.FunctionName, demangle(F.FunctionName)).first;
      if (Seen.insert({D->second, F.FileName, F.Line}).second)
        Out.push_back({D->second, F.FileName, F.Line});
    }
  }
  return Out;
}

} // namespace roofline
