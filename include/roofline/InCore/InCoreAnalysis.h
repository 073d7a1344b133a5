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
/// \p FPLatency ("add", "fma" -> cycles) caps the model's latencies of
/// those operations where a probe measured them shorter.
llvm::Expected<InCoreReport>
analyzeBinary(const std::string &Path, const std::string &Cpu,
              const std::map<std::string, double> &FPLatency = {});

} // namespace roofline

#endif
