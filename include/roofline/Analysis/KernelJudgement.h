//===- KernelJudgement.h - A kernel against a platform's roofs --*- C++ -*-===//
//
// What the compile-time warnings need: a kernel's intensity (with the given
// sizes, or its limit for large sizes from the formulas' leading terms) over
// its footprint when that is exact and per call (else its counted bytes), the
// platform's ridge for its precision mix, and the verdict. No LLVM here.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_ANALYSIS_KERNELJUDGEMENT_H
#define ROOFLINE_ANALYSIS_KERNELJUDGEMENT_H

#include "roofline/Analysis/KernelSummary.h"
#include "roofline/Model/Platform.h"

#include <map>
#include <string>

namespace roofline {

struct KernelJudgement {
  double Intensity = 0;   ///< FLOP/B (infinite without DRAM traffic)
  double Ridge = 0;       ///< of the roof for the kernel's precision mix
  double Peak = 0;        ///< that roof, FLOP/s
  double Attainable = 0;  ///< min(Peak, bandwidth * Intensity)
  bool MemoryBound = false;
  bool Asymptotic = false; ///< sizes were missing: judged for large sizes
  /// The bytes judged: the exact footprint of a call against DRAM (a CPU
  /// function's), else the counted bytes.
  bool Footprint = false;
};

KernelJudgement judgeKernel(const KernelSummary &K, const Platform &P,
                            const std::map<std::string, double> &Sizes);

} // namespace roofline

#endif
