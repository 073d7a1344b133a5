//===- DeviceLowering.h - Counts per warp in CUDA device code ---*- C++ -*-===//
//
// The device lowering of a placed kernel: counters per thread in
// registers, summed per warp at the kernel's one exit and added to the
// kernel's buffer of counts (DeviceLowering.cpp says how).
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_LIB_TRANSFORMS_DEVICELOWERING_H
#define ROOFLINE_LIB_TRANSFORMS_DEVICELOWERING_H

#include "CounterPlacement.h"

namespace roofline {

/// Adds the counting code of \p P to kernel \p F, whose warps add their
/// FLOPs and bytes to \p Counts.
void lowerForDevice(llvm::Function &F, llvm::ScalarEvolution &SE,
                    const PlacedCounters &P, llvm::GlobalVariable *Counts);

} // namespace roofline

#endif
