//===- InstructionWork.h - FLOPs and bytes of one machine instruction -*- C++ -*-===//
//
// Internal to lib/InCore. What an instruction does, in the counts the
// rest of the tool uses (docs/counting.md): FLOPs under the fma2 convention
// (an FMA is two, per lane) and bytes loaded or stored. Worked out from
// LLVM's instruction names and operand register classes; x86-64 only.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_INCORE_INSTRUCTIONWORK_H
#define ROOFLINE_INCORE_INSTRUCTIONWORK_H

#include <string>

namespace llvm {
class MCInst;
class MCInstrInfo;
class MCRegisterInfo;
} // namespace llvm

namespace roofline {

struct InstructionWork {
  double Flops = 0;
  double Bytes = 0;
  bool Divide = false; ///< a divide or square root
  /// An FP add or subtract ("add") or a fused multiply-add ("fma"), whose
  /// latency a probe may have measured; null for anything else.
  const char *LatencyKind = nullptr;
};

/// The work of \p I on x86-64.
InstructionWork x86Work(const llvm::MCInst &I, const llvm::MCInstrInfo &MII,
                        const llvm::MCRegisterInfo &MRI);

} // namespace roofline

#endif
