//===- FirstLevelShares.h - A GPU access's bytes at the first level -*- C++ -*-===//
//
// A GPU's first level serves a warp's access in 128-byte cycles, one at
// least, so an access a warp's lanes may share is worth only 4 bytes a lane
// there (CostKinds.h, WarpCycleShare). The back end merges adjacent scalar
// accesses into one vector access first (NVPTX's load-store vectoriser
// makes the four float loads of a float4 one ld.v4.f32), so the access a
// lane's bytes share a cycle with is the merged one: this finds, per load
// and store, the widest such group it may join and its share of it.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_ANALYSIS_FIRSTLEVELSHARES_H
#define ROOFLINE_ANALYSIS_FIRSTLEVELSHARES_H

#include "llvm/ADT/DenseMap.h"

#include <cstdint>

namespace llvm {
class Function;
class Instruction;
} // namespace llvm

namespace roofline {

class FirstLevelShares {
public:
  /// Groups \p F's loads and stores as the back end may merge them: in one
  /// block, of one kind, at consecutive constant offsets from one base, up
  /// to the widest vector access of the target, from an access aligned to
  /// the group's size.
  explicit FirstLevelShares(const llvm::Function &F);

  /// The bytes of \p I (counted \p Bytes) that a bound may charge at the
  /// first level: all of them for an access of 4 bytes a lane or less that
  /// joins no group; else its part of the 4 bytes a lane of its group's
  /// one cycle.
  int64_t of(const llvm::Instruction &I, int64_t Bytes) const;

private:
  /// Loads and stores in a group wider than WarpCycleShare: their share.
  llvm::DenseMap<const llvm::Instruction *, int64_t> Share;
};

} // namespace roofline

#endif
