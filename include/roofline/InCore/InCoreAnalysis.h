//===- InCoreAnalysis.h - Loops' in-core ceilings from machine code -*- C++ -*-===//
//
// Reads a binary (executable, shared library or object file), finds each
// function's innermost loops in its machine code, names their source lines
// from the DWARF line table, and runs LLVM's MCA on each loop body with a
// CPU's scheduling model: cycles per iteration in the steady state, the
// busiest port, the longest loop-carried latency chain. docs/incore.md.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_INCORE_INCOREANALYSIS_H
#define ROOFLINE_INCORE_INCOREANALYSIS_H

#include "roofline/Model/InCore.h"
#include "roofline/Model/Platform.h"

#include "llvm/Support/Error.h"

#include <map>
#include <string>

namespace roofline {

/// The CPU to model when none is named: LLVM's name for this host.
std::string hostCpuName();

/// Analyses every innermost loop of \p Path with the scheduling model of
/// \p Cpu ("" or "native": this host, with its features). Loops that cannot
/// be analysed (a call inside, no scheduling model, an instruction MCA does
/// not know) are left out, and a note says why.
/// What roofline-probe measured of this core, where LLVM's model of the
/// CPU may be off (an older core's model for a newer core).
struct CoreMeasurements {
  /// Dependent FP operations' latencies in cycles ("add", "fma"): they cap
  /// the model's where measured shorter.
  std::map<std::string, double> FPLatency;
  /// One thread's fp32 vector FLOPs a cycle at the widest vector width,
  /// an FMA counted as two (0: not measured). Where it is at least 1.5
  /// times what the model's 512-bit FMA gives, the core runs 512-bit
  /// operations at full width (Zen 5 on Zen 4's double-pumped model):
  /// their port time is their 256-bit forms'.
  double VectorFlopsPerCycle = 0;
};

/// The measurements a platform holds: its measured latencies, and its
/// fp32 vector peak on one thread over its clock.
CoreMeasurements measurementsOf(const Platform &P);

llvm::Expected<InCoreReport>
analyzeBinary(const std::string &Path, const std::string &Cpu,
              const CoreMeasurements &Measured = {});

} // namespace roofline

#endif
