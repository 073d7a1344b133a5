//===- InstructionWork.cpp - FLOPs and bytes of one machine instruction ----===//
#include "InstructionWork.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"

#include <algorithm>
#include <regex>

using namespace llvm;

namespace roofline {

namespace {

/// Width in bits of the widest register operand that is not part of an
/// address (0 when there is none).
unsigned dataRegisterBits(const MCInstrDesc &D, const MCRegisterInfo &MRI) {
  unsigned Bits = 0;
  for (const MCOperandInfo &Op : D.operands())
    if (Op.OperandType != MCOI::OPERAND_MEMORY && Op.RegClass >= 0 &&
        unsigned(Op.RegClass) < MRI.getNumRegClasses())
      Bits = std::max(Bits, MRI.getRegClass(Op.RegClass).getSizeInBits());
  return Bits;
}

unsigned destRegisterBits(const MCInstrDesc &D, const MCRegisterInfo &MRI) {
  if (D.getNumOperands() == 0 || D.operands()[0].RegClass < 0)
    return 128;
  unsigned RC = D.operands()[0].RegClass;
  return RC < MRI.getNumRegClasses() ? MRI.getRegClass(RC).getSizeInBits() : 128;
}

unsigned elementBits(StringRef Type) {
  if (Type == "PD" || Type == "SD")
    return 64;
  if (Type == "PS" || Type == "SS")
    return 32;
  return 16; // PH, SH
}

/// The element a broadcast loads: VBROADCASTSD, VPBROADCASTD, ...
unsigned broadcastBits(StringRef Rest) {
  if (Rest.starts_with("SD") || Rest.starts_with("Q"))
    return 64;
  if (Rest.starts_with("SS") || Rest.starts_with("D"))
    return 32;
  if (Rest.starts_with("W"))
    return 16;
  if (Rest.starts_with("B"))
    return 8;
  return 128; // VBROADCASTF128 and the like
}

} // namespace

InstructionWork x86Work(const MCInst &I, const MCInstrInfo &MII,
                        const MCRegisterInfo &MRI) {
  static const std::regex Arith("V?(ADD|SUB|MUL|DIV|SQRT)(PD|PS|SD|SS|PH|SH)(.*)");
  static const std::regex Fma("V?F(N?)M(ADD|SUB|ADDSUB|SUBADD)(132|213|231)"
                              "(PD|PS|SD|SS|PH|SH)(.*)");
  static const std::regex ScalarMove("^V?MOVS([DS])");
  static const std::regex QuadMove("^V?MOV(QI2PQI|PQI2QI|64toPQI|PQIto64)");
  static const std::regex NarrowLoad("rm(8|16|32)$");
  const MCInstrDesc &D = MII.get(I.getOpcode());
  std::string Name = MII.getName(I.getOpcode()).str();
  InstructionWork W;
  std::smatch M;
  std::string Type, Tail;
  double PerLane = 0;
  if (std::regex_match(Name, M, Fma)) {
    Type = M[4];
    Tail = M[5];
    PerLane = 2;
    if ((M[2] == "ADD" || M[2] == "SUB") && Type[1] != 'H')
      W.LatencyKind = "fma";
  } else if (std::regex_match(Name, M, Arith)) {
    Type = M[2];
    Tail = M[3];
    PerLane = 1;
    W.Divide = M[1] == "DIV" || M[1] == "SQRT";
    if ((M[1] == "ADD" || M[1] == "SUB") && Type[1] != 'H')
      W.LatencyKind = "add";
  }
  bool Packed = !Type.empty() && Type[0] == 'P';
  bool Broadcast = Tail.find("mb") != std::string::npos;
  unsigned Elem = Type.empty() ? 0 : elementBits(Type);
  if (PerLane > 0) {
    unsigned Lanes = Packed ? std::max(1u, destRegisterBits(D, MRI) / Elem) : 1;
    W.Flops = PerLane * Lanes;
  }
  if (!D.mayLoad() && !D.mayStore())
    return W;
  unsigned Bits;
  if (PerLane > 0)
    Bits = Packed && !Broadcast ? destRegisterBits(D, MRI) : Elem;
  else if (std::regex_search(Name, M, ScalarMove))
    Bits = M[1] == "D" ? 64 : 32; // scalar moves of an XMM register's low lane
  else if (std::regex_search(Name, M, QuadMove))
    Bits = 64;
  else if (size_t B = Name.find("BROADCAST"); B != std::string::npos)
    Bits = broadcastBits(StringRef(Name).substr(B + 9));
  else if (std::regex_search(Name, M, NarrowLoad))
    Bits = std::stoi(M[1]);
  else
    Bits = dataRegisterBits(D, MRI);
  if (Bits == 0)
    Bits = 64; // e.g. a compare of memory with an immediate
  double Bytes = Bits / 8.0;
  W.Bytes = Bytes * ((D.mayLoad() ? 1 : 0) + (D.mayStore() ? 1 : 0));
  return W;
}

} // namespace roofline
