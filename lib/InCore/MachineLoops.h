//===- MachineLoops.h - Innermost loops of a binary's machine code -*- C++ -*-===//
//
// Internal to lib/InCore. A loop is the range from a backward branch's
// target to the branch (LLVM lays an innermost loop out contiguously); an
// innermost loop contains no other.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_INCORE_MACHINELOOPS_H
#define ROOFLINE_INCORE_MACHINELOOPS_H

#include "roofline/Model/InCore.h"

#include "llvm/MC/MCInst.h"

#include <cstdint>
#include <string>
#include <vector>

namespace llvm {
class MCInstrAnalysis;
class MCInstrInfo;
class MCDisassembler;
class MCSubtargetInfo;
class DWARFContext;
namespace object {
class ObjectFile;
}
} // namespace llvm

namespace roofline {

struct MachineLoop {
  std::string Function;  ///< demangled symbol name
  uint64_t Address = 0;  ///< of the first instruction
  uint64_t SectionIndex = 0;
  std::vector<llvm::MCInst> Body;
  std::vector<uint64_t> Addresses; ///< one per instruction of Body
  bool HasCall = false;
  /// The instructions of the smallest machine loop around this one, less
  /// this one's (the outer loop's increment, compare and branches, this
  /// loop's set-up): their source lines name the loop that re-enters it.
  std::vector<uint64_t> EnclosingOwn;
};

/// A call made inside a machine loop (any loop, not only innermost ones) to
/// a function of the binary itself: a count taken around the loop includes
/// that function's work, which the loop's own code does not do.
struct LoopCall {
  std::string Callee;    ///< demangled; "" for an indirect call
  uint64_t Address = 0;  ///< of the call instruction
  uint64_t SectionIndex = 0;
};

struct MachineLoops {
  std::vector<MachineLoop> Innermost;
  std::vector<LoopCall> Calls;
};

/// The innermost loops of every function symbol in \p Obj's text sections,
/// and the calls inside any loop to the binary's own functions (not to the
/// PLT, which reaches other libraries, nor to the roofline runtime).
MachineLoops findMachineLoops(const llvm::object::ObjectFile &Obj,
                                            const llvm::MCDisassembler &Dis,
                                            const llvm::MCInstrInfo &MII,
                                            const llvm::MCInstrAnalysis &MIA);

/// Every source frame (inlined ones too) of the instructions at
/// \p Addresses in the section \p SectionIndex, without repeats.
std::vector<InCoreLoop::Position> positionsOf(const std::vector<uint64_t> &Addresses,
                                              uint64_t SectionIndex,
                                              llvm::DWARFContext &Dwarf);

} // namespace roofline

#endif
