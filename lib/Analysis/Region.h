//===- Region.h - One loop level's acyclic graph ----------------*- C++ -*-===//
//
// Internal to lib/Analysis. The mass flow (MassFlow.h) and the guards
// (Guards.h) walk a function one loop level at a time: the blocks of a loop
// (or of the body outside loops) with each inner loop as a single node, in
// reverse post-order from the entry, back edges and exits not followed.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_LIB_ANALYSIS_REGION_H
#define ROOFLINE_LIB_ANALYSIS_REGION_H

#include "FunctionScope.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <vector>

namespace roofline::detail {

/// A node of one loop level's acyclic graph: a block, or an inner loop.
struct RegionNode {
  BasicBlock *BB = nullptr;
  Loop *Sub = nullptr;
};

struct Region {
  static constexpr int Sink = -1; ///< outside the region

  Loop *L = nullptr; ///< null: the function body outside loops
  std::vector<RegionNode> Nodes;
  DenseMap<const void *, unsigned> Index;
  std::vector<unsigned> Order; ///< reverse post-order from the entry

  /// \p L's level of \p S's function (the body when null); irreducible
  /// control flow is noted in \p Found.
  static Region build(const FunctionScope &S, Loop *L, Findings &Found);
  /// The node \p BB is (or the inner loop it is in), or Sink.
  int nodeOf(const LoopInfo &LI, BasicBlock *BB) const;
  /// \p To is reachable from \p From without leaving the loop or taking its
  /// back edge.
  bool reaches(BasicBlock *From, BasicBlock *To) const;
  /// Every block reachable from \p From as reaches() walks (inner loops'
  /// blocks included).
  SmallPtrSet<BasicBlock *, 32> reachableFrom(BasicBlock *From) const;
};

} // namespace roofline::detail

#endif
