//===- Footprint.h - The distinct bytes a function touches ------*- C++ -*-===//
//
// Internal to lib/Analysis. Reads what the earlier steps found (trip counts,
// how often blocks run, what the guards assert) and counts each array's
// distinct bytes (Footprint.cpp says how).
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_LIB_ANALYSIS_FOOTPRINT_H
#define ROOFLINE_LIB_ANALYSIS_FOOTPRINT_H

#include "FunctionScope.h"
#include "Guards.h"
#include "MassFlow.h"

#include "roofline/Analysis/AccessSet.h"
#include "roofline/Analysis/KernelAnalysis.h"

#include "llvm/IR/Dominators.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace roofline::detail {

/// The launch's axes, for the thread and block indices' names.
extern const char *const LaunchAxes[3];

/// The coefficient of \p Var in \p P when P is linear in it (no term with
/// Var squared); nullopt otherwise.
std::optional<Polynomial> coefficientOf(const Polynomial &P,
                                        const std::string &Var);

/// The union of pieces of one array in one direction (\p Written or read)
/// when it is known exactly: its bytes and hull.
std::optional<std::pair<Polynomial, FootprintCounts::Hull>>
unitePieces(const std::vector<const FootprintCounts *> &Pieces, bool Written);

class FootprintAnalysis {
public:
  FootprintAnalysis(const FunctionScope &S, KernelAnalysis &Owner,
                    const DenseMap<const Loop *, Polynomial> &Trips,
                    const MassFlow::Result &Flow,
                    const AssertedFacts &Guards,
                    const std::vector<RangeCondition> &RangeConditions)
      : S(S), Owner(Owner), Trips(Trips), Flow(Flow), Guards(Guards),
        GuardFacts(Guards.Facts), RangeConditions(RangeConditions) {}

  /// The footprint of the accesses in \p Within (the whole function when
  /// null), per array into \p PerArray when given.
  FootprintCounts footprintOf(const Loop *Within,
                              FootprintSummary *PerArray = nullptr) const;
  /// Every access and counted call of the function is in \p L (what
  /// accessesIn reads): \p L's footprint is the function's.
  bool holdsEveryAccess(const Loop *L) const;

private:
  /// A callee's footprint of an array, and where in the array the pointer
  /// it was passed points (unknown: nullopt).
  struct CallFootprint {
    FootprintCounts Counts;
    std::optional<Polynomial> Offset;
  };
  /// The accesses of a footprint, by array and direction, with what they
  /// assume and what calls bring.
  struct AccessGroups {
    struct Key {
      std::string Array;
      bool Write;
      bool operator<(const Key &O) const {
        return std::tie(Array, Write) < std::tie(O.Array, O.Write);
      }
    };
    std::map<Key, std::vector<AffineAccess>> Accesses;
    /// The instruction of each access, in Accesses' order.
    std::map<Key, std::vector<const Instruction *>> Sites;
    std::map<std::string, std::vector<Assumption>> Assumed;
    std::map<std::string, std::vector<CallFootprint>> Calls;
    std::map<std::string, std::vector<std::string>> Unknowable;
  };
  /// The accesses in \p Within (the whole function when null).
  AccessGroups accessesIn(const Loop *Within) const;
  /// One access of \p Size bytes through \p Ptr (+ \p Offset bytes), over
  /// the loops around it; in \p Space when the instruction names one.
  void addAccess(AccessGroups &G, Instruction &I, const Value *Ptr,
                 Polynomial Size, bool Write,
                 std::optional<MemSpace> Space = std::nullopt,
                 int64_t Offset = 0) const;
  /// The memory instructions of a PTX inline asm, through its operands.
  void asmAccesses(AccessGroups &G, CallBase &CB) const;
  /// The bytes of \p Array's reads that the call wrote before: all of
  /// them when every read repeats the accesses of an earlier write that
  /// always runs (same offset, size and dimensions, all its iterations
  /// done first), else 0.
  Polynomial readOwnWrites(const AccessGroups &G, const std::string &Array,
                           const Polynomial &Read) const;
  /// Each array's footprint from its accesses and the calls'.
  std::map<std::string, FootprintCounts> arrayFootprints(AccessGroups &G) const;
  /// Adds the footprints calls bring to \p ByArray.
  static void addCallFootprints(
      std::map<std::string, FootprintCounts> &ByArray,
      const std::map<std::string, std::vector<CallFootprint>> &Calls);
  /// The footprints a call brings, per array of this function, into
  /// \p Calls; arrays whose bytes there are not known into \p Unknowable.
  void callFootprints(
      CallBase &CB, std::map<std::string, std::vector<CallFootprint>> &Calls,
      std::map<std::string, std::vector<std::string>> &Unknowable) const;
  /// Sweeps a callee's footprint \p Sub at \p At over the iterations of a
  /// loop (counter \p IV, \p Trip iterations): the same bytes each time,
  /// or pieces shifted apart; false when they may overlap.
  static bool sweepCall(FootprintCounts &Sub, std::optional<Polynomial> &At,
                        const std::string &IV, const Polynomial &Trip);
  /// Replaces the thread and block indices in \p Offset by counters over
  /// the launch, appended to \p Dims; what that assumes goes to \p Assumed.
  /// \p Restricted is set when a guard on an index this does not read
  /// leaves some of the launch's threads out.
  /// \p Facts are the guards' facts that hold at the access, \p Tests
  /// their equality tests there.
  void gridDimensions(Polynomial &Offset, std::vector<Dimension> &Dims,
                      std::vector<Assumption> &Assumed, bool &Restricted,
                      const std::vector<Polynomial> &Facts,
                      const std::vector<Polynomial> &Tests) const;
  /// The first grid counter a guard k*g >= L on \p G (spelled with
  /// \p Unit) lets through, ceil(L/k), its fact added to \p GuardsRead; 0 when
  /// none.
  int64_t firstGuarded(const Polynomial &G, const std::string &Unit,
                       const std::vector<Polynomial> &Facts,
                       std::vector<const Polynomial *> &GuardsRead) const;
  /// One axis of gridDimensions; the guard facts it read go to \p GuardsRead.
  void gridAxis(Polynomial &Offset, std::vector<Dimension> &Dims,
                std::vector<Assumption> &Assumed, const char *Axis,
                const std::vector<Polynomial> &Facts,
                std::vector<const Polynomial *> &GuardsRead) const;
  /// A grid-stride loop (OverGrid: the grid counter \p GVar of axis
  /// \p Axis, \p Threads = gridDim*blockDim), a block-stride one
  /// (threadIdx, blockDim) or a lane-stride one (OverWarp: $lane, the warp
  /// size; the trips rewritten by \p Split): the thread's counter and the
  /// loop's become one counter over [0, n).
  enum class Stride { OverGrid, OverBlock, OverWarp };
  bool gridStride(Polynomial &Offset, std::vector<Dimension> &Dims,
                  const std::string &GVar, const Polynomial &Coef,
                  const Polynomial &Threads, const char *Axis, Stride Over,
                  const std::map<std::string, Polynomial> *Split = nullptr) const;
  /// An element index k*g over the grid (g = blockIdx*blockDim +
  /// threadIdx) read through floors, row = floor(k*g/C) and t = row % T:
  /// g written in the digits of its rows ($digit0 the k-element piece of a
  /// row, $digit1 the row in T, ...), exact when the guard k*g < N has N a
  /// multiple of the divisors' product; k dividing the row is assumed.
  /// Rewrites \p Offset and adds the digits to \p Dims; false (nothing
  /// changed) when the offset has no such floor or they do not split.
  bool splitRows(Polynomial &Offset, std::vector<Dimension> &Dims,
                 std::vector<Assumption> &Assumed, const char *Axis,
                 const std::vector<Polynomial> &Facts) const;
  /// Of \p All, those that hold at \p BB: their guard's work side
  /// (\p Where) dominates it.
  std::vector<Polynomial> holdingAt(const std::vector<Polynomial> &All,
                                    const std::vector<const BasicBlock *> &Where,
                                    const BasicBlock *BB) const;
  DominatorTree &dominators() const;
  /// A warp-per-row split of threadIdx.<\p Axis> (floor(threadIdx/W) and
  /// threadIdx % W) in \p Offset: both rewritten, in it and in the trips
  /// of \p Dims, as counters $warp and $lane; the substitution made, or
  /// none.
  std::map<std::string, Polynomial>
  splitWarps(Polynomial &Offset, std::vector<Dimension> &Dims,
             const char *Axis) const;
  /// \p A, "L >= R", follows from a guard or a range condition.
  bool impliedByFacts(const Assumption &A) const;

  const FunctionScope &S;
  KernelAnalysis &Owner;
  const DenseMap<const Loop *, Polynomial> &Trips;
  const MassFlow::Result &Flow;
  const AssertedFacts &Guards;
  const std::vector<Polynomial> &GuardFacts; ///< Guards.Facts, everywhere
  const std::vector<RangeCondition> &RangeConditions;
  mutable std::unique_ptr<DominatorTree> DT; ///< for readOwnWrites, built once
};

} // namespace roofline::detail

#endif
