//===- DependencyChain.h - A loop body's loop-carried chain ------*- C++ -*-===//
//
// Internal to lib/InCore. The chain bound of a loop body: ready times with
// unlimited resources over N and 2N iterations, through registers and
// through memory (a store a later iteration reads back, MemoryChains.h,
// at the store-to-load forwarding latency); the growth per iteration is
// the longest recurrence's length. The walk back along it names its
// links: "vaddsd, 8 x 3 cycles an iteration".
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_INCORE_DEPENDENCYCHAIN_H
#define ROOFLINE_INCORE_DEPENDENCYCHAIN_H

#include "LoopThroughput.h"

#include <optional>
#include <string>
#include <vector>

namespace roofline {

struct ChainBound {
  double Cycles = 0;   ///< per iteration
  std::string Through; ///< the longest-latency instruction on the chain
  int Latency = 0;     ///< its latency
  bool Divide = false;
  /// Steps that wait on the chain (their ready times grow at its rate):
  /// what fills the scheduler while it drains.
  std::vector<bool> Waits;
  std::string Links; ///< "vaddsd, 8 x 3 cycles an iteration"
  ChainKind Kind = ChainKind::None;
  /// Through memory: how many iterations later the store is read back.
  std::optional<unsigned> ReadBack;
};

/// The longest loop-carried chain of \p Insts on T's scheduling model.
ChainBound chainBound(llvm::ArrayRef<llvm::MCInst> Insts, const MCTools &T);

} // namespace roofline

#endif
