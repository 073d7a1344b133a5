//===- MemoryChains.h - Stores that a later iteration reads back -*- C++ -*-===//
//
// Internal to lib/InCore. A Gauss-Seidel sweep stores a[i] and loads a[i-1]
// in the next iteration: a link of a loop-carried chain that no register
// shows, paid with the store-to-load forwarding latency. A store and a load
// meet when they use the same base and index registers with the same
// scale and size, each register is stepped only by constants in the loop
// (add, sub, inc, dec, lea of itself), and their offsets differ by a whole
// number of iterations' steps. Accesses through other registers, or a
// register the loop sets otherwise, are not matched (no chain: the bound
// stays a lower one).
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_INCORE_MEMORYCHAINS_H
#define ROOFLINE_INCORE_MEMORYCHAINS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/MC/MCInst.h"

#include <cstddef>
#include <vector>

namespace llvm {
class MCInstrInfo;
class MCRegisterInfo;
} // namespace llvm

namespace roofline {

/// Body[Load] reads what Body[Store] wrote Distance iterations before (0:
/// in the same iteration, the load after the store).
struct ReadBack {
  size_t Store = 0, Load = 0;
  unsigned Distance = 0;
};

/// Each load of \p Body that reads back a store, from the nearest such
/// store, up to \p MaxDistance iterations apart.
std::vector<ReadBack> readBacks(llvm::ArrayRef<llvm::MCInst> Body,
                                const llvm::MCInstrInfo &MII,
                                const llvm::MCRegisterInfo &MRI,
                                unsigned MaxDistance);

} // namespace roofline

#endif
