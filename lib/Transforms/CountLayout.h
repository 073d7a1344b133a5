//===- CountLayout.h - What one function's counters count -------*- C++ -*-===//
//
// The result of instrumenting one function, as its descriptor describes it
// to the runtime: each cost (a counter times an amount into a slot, for a
// part and a loop nest), the parts (source functions whose code it holds),
// the loop nests and their counters, and the calls left out of the counts.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_LIB_TRANSFORMS_COUNTLAYOUT_H
#define ROOFLINE_LIB_TRANSFORMS_COUNTLAYOUT_H

#include "roofline/Model/Polynomial.h"
#include "roofline/Runtime/Descriptor.h"
#include "roofline/Transforms/InlinedFunctions.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace roofline {

/// A cost of the descriptor: counter x PerUnit into a slot, for a part
/// (source function) and one of its loop nests.
struct CostEntry {
  uint32_t Counter, Slot;
  uint64_t PerUnit;
  uint32_t Part, Nest;
  /// For the innermost part of the code it counts; false: the same work
  /// again for an enclosing part (inclusive counts), which a caller that
  /// reads this function's block must not add twice.
  bool Innermost = true;
};

/// A source function whose code the instrumented function holds.
struct Part {
  const SourceFunction *Source; ///< null: the function itself
  int Entries = -1;             ///< counter of entries into inlined bodies
  uint32_t Kind = ROOFLINE_PART_SELF;
  /// An inlined kernel's footprint: 0 not counted, 1 exact, 2 a lower
  /// bound; its formulas (read, written), evaluated at each entry.
  uint32_t FootprintKind = 0;
  Polynomial Footprint[2];
  int FootprintBroken = -1; ///< counter of entries that broke an assumption
};

/// A top-level loop nest of a part and the counters that measure it.
struct Nest {
  llvm::Loop *L;
  uint32_t Part, Line;
  const llvm::DILocation *Start = nullptr; ///< the source loop's location
  int Entries = -1, Iterations = -1, Ticks = -1, Timed = -1;
  int Entered = -1; ///< entries into the source loop (first of its nests)
  /// The fewest (as a complement) and most iterations of one entry.
  int Fewest = -1, Most = -1;
  bool ExitsInsertable = false;
};

/// What one instrumented function counts, as its descriptor describes it.
struct CountLayout {
  std::vector<CostEntry> Costs;
  std::vector<Part> Parts;
  std::vector<Nest> Nests;
  size_t NumCounters = 0;
  int FootprintBroken = -1; ///< counter of calls that broke an assumption
  /// Per part: the calls whose work is not in its counts.
  std::map<uint32_t, std::set<std::string>> Uncounted;
};

} // namespace roofline

#endif
