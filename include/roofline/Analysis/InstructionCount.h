//===- InstructionCount.h - Machine instructions of one IR instruction -*- C++ -*-===//
//
// The instruction roofline (docs/report.md) places a kernel by the
// instructions it issues. The pass sees IR, not machine code, so each IR
// instruction counts one, unless the target's own cost model (LLVM's
// TargetTransformInfo, code-size kind) calls it free: a phi, a GEP the
// addressing mode folds, a no-op cast. A vector wider than the target's
// registers counts one per register; an unconditional branch, which the
// block layout mostly turns into a fall-through, and markers and hints
// that emit nothing (debug records, lifetimes, assumptions, pseudo-probes)
// count none. docs/counting.md, "Instructions", says how close this comes
// to the instructions a run executes.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_ANALYSIS_INSTRUCTIONCOUNT_H
#define ROOFLINE_ANALYSIS_INSTRUCTIONCOUNT_H

#include <cstdint>

namespace llvm {
class Instruction;
class TargetTransformInfo;
} // namespace llvm

namespace roofline {

/// Machine instructions \p I lowers to, estimated with \p TTI.
/// \p X86: the target folds a load into the arithmetic that uses it.
int64_t machineInstructionsOf(const llvm::Instruction &I,
                              const llvm::TargetTransformInfo &TTI, bool X86);

} // namespace roofline

#endif
