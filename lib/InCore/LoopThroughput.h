//===- LoopThroughput.h - Cycles per iteration of a loop body ---*- C++ -*-===//
//
// Internal to lib/InCore. Three figures for one machine loop on one CPU's
// scheduling model:
//  - MCA's simulated cycles per iteration in the steady state (the
//    difference between 2N and N iterations, over N);
//  - the port bound: the busiest processor resource's cycles (a group's
//    cycles spread over its units), or the micro-ops over the issue width;
//  - the chain bound: the longest loop-carried dependency, through
//    registers and through memory, from each instruction's latency with
//    unlimited resources (DependencyChain.h).
// The larger bound names the cause.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_INCORE_LOOPTHROUGHPUT_H
#define ROOFLINE_INCORE_LOOPTHROUGHPUT_H

#include "MachineLoops.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

#include <map>

namespace llvm {
class MCInstPrinter;
class MCRegisterInfo;
struct MCSchedClassDesc;
} // namespace llvm

namespace roofline {

struct MCTools {
  const llvm::MCSubtargetInfo &STI;
  const llvm::MCInstrInfo &MII;
  const llvm::MCRegisterInfo &MRI;
  const llvm::MCInstrAnalysis &MIA;
  const llvm::MCInstPrinter &Printer;
  /// The model's latency of a plain vector load: what a folded load adds
  /// to an instruction's latency (MCSchedModel::LoadLatency is the integer
  /// one, shorter on some cores).
  int VectorLoadLatency = 4;
  /// Opcode numbers by name: a folded load's register form is found by
  /// name (VADDSDrm -> VADDSDrr) for the latency of its data operands.
  const llvm::StringMap<unsigned> *Opcodes = nullptr;
  /// Measured FP latencies ("add", "fma"), which cap the model's.
  std::map<std::string, double> FPLatency;
  /// The core runs 512-bit operations at full width where the model
  /// splits them (measured: CoreMeasurements): each takes the port time of
  /// its 256-bit form.
  bool FullWidth512 = false;
};

/// The scheduling class whose port use bounds \p I's throughput: its own,
/// or with T.FullWidth512 its 256-bit form's (VADDPSZrr -> VADDPSZ256rr).
const llvm::MCSchedClassDesc *throughputClassOf(const llvm::MCInst &I,
                                                const MCTools &T);

/// The busiest resource's cycles for one instruction of opcode \p Name on
/// T's model (0: no such opcode or no model of it).
double portCyclesOf(const MCTools &T, const char *Name);

/// \p I's scheduling class on T's CPU, variants resolved; null if none.
const llvm::MCSchedClassDesc *schedClassOf(const llvm::MCInst &I, const MCTools &T);

/// "vaddsd", as the printer spells it.
std::string mnemonic(const llvm::MCInst &I, const MCTools &T);

/// A register's widest alias, so xmm0 and zmm0 (eax and rax) are one.
llvm::MCRegister widest(llvm::MCRegister R, const llvm::MCRegisterInfo &MRI);

/// "1 cycle", "1.33 cycles".
std::string cyclesText(double Cycles);

/// The latency of the first of \p Names (opcode names, in T.Opcodes) the
/// target has.
int loadLatencyOf(const MCTools &T, std::initializer_list<const char *> Names);

/// Fills \p Out's cycles, bounds, cause and detail for the body of \p L.
llvm::Error measureLoop(const MachineLoop &L, const MCTools &T, InCoreLoop &Out);

} // namespace roofline

#endif
