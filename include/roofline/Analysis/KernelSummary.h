//===- KernelSummary.h - A kernel's static counts ---------------*- C++ -*-===//
//
// What the static pass knows about one kernel: its FLOPs and bytes as closed
// forms in its parameters, whether they are exact, and why not. Built by
// KernelAnalysis, written by SummaryWriter (text, remarks, JSON). No LLVM.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_ANALYSIS_KERNELSUMMARY_H
#define ROOFLINE_ANALYSIS_KERNELSUMMARY_H

#include "roofline/Model/Condition.h"
#include "roofline/Model/Polynomial.h"
#include "roofline/Runtime/CostKinds.h"

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace roofline {

/// A polynomial per cost slot, stored for the slots that are not zero: a
/// region touches a few of the NumSlots slots, and counts are built, copied
/// and summed per block, loop and call.
class SlotPolys {
public:
  /// The slot's count; zero when nothing was added to it.
  const Polynomial &operator[](unsigned Slot) const;
  /// The slot's count, to add to (made zero when absent).
  Polynomial &operator[](unsigned Slot);

  /// The stored (slot, count) pairs, by slot; absent slots are zero.
  using Entry = std::pair<unsigned, Polynomial>;
  std::vector<Entry>::const_iterator begin() const { return Entries.begin(); }
  std::vector<Entry>::const_iterator end() const { return Entries.end(); }
  std::vector<Entry>::iterator begin() { return Entries.begin(); }
  std::vector<Entry>::iterator end() { return Entries.end(); }

private:
  /// The first entry whose slot is not below \p Slot.
  std::vector<Entry>::const_iterator find(unsigned Slot) const;
  std::vector<Entry> Entries;
};

/// Counts of every cost slot as polynomials (one execution of a region).
struct CountPolys {
  SlotPolys Slots;
  std::map<std::string, Polynomial> Unknown;
  bool UpperBound = false;
  /// Bytes {loaded, stored} through each pointer parameter, by index.
  std::map<unsigned, std::array<Polynomial, 2>> ArgBytes;
  /// Machine instructions, as CostVector::Instructions. Not work: it
  /// takes no part in mentions() or anyValidityLost().
  Polynomial Instructions;

  void add(const CountPolys &O);
  /// Adds \p Cost executed \p Times times.
  void add(const CostVector &Cost, const Polynomial &Times);
  CountPolys times(const Polynomial &P) const;
  CountPolys substitute(const std::map<std::string, Polynomial> &V) const;
  CountPolys sumOver(const std::string &Var, const Polynomial &Count) const;
  bool mentions(const std::string &Var) const;

  Polynomial flops() const; ///< add + mul + 2*fma + div + sqrt + tensor
  Polynomial flops(Precision P) const;
  Polynomial special() const;
  Polynomial flopClass(FlopClass C) const; ///< over all precisions
  Polynomial intOps() const; ///< the user's integer operations, all widths
  Polynomial intOps(IntWidth W) const;
  Polynomial intKind(IntKind K) const; ///< over all widths
  /// Bytes against the DRAM roof (see isDRAMSpace).
  Polynomial bytes(Access A) const;
  Polynomial bytes(MemSpace S, Access A) const;
  /// A GPU's bytes in \p S that a warp's lanes may share (CostKinds.h).
  Polynomial shareable(MemSpace S) const;
  bool anyValidityLost() const;
};

/// The distinct bytes one call (CUDA: one launch, over its whole grid)
/// reads and writes: the compulsory traffic. Exact, or an upper bound
/// (Read, Written; invalid when unknown) with a lower one.
struct FootprintCounts {
  Polynomial Read, Written;
  Polynomial ReadAtLeast, WrittenAtLeast; ///< equal to the above when exact
  /// Of Read, the bytes the call wrote before it reads them (a fused
  /// kernel's intermediate read back from its cache): not DRAM traffic.
  Polynomial ReadOwn;
  bool Exact = true;
  std::vector<std::string> Notes;       ///< why not exact
  std::vector<Assumption> Assumptions;  ///< what the exact count relies on
  /// Per array: the bytes read (written) lie in [Lo, Hi) from the pointer
  /// (unset: unknown, or nothing to bound).
  struct Hull {
    Polynomial Lo, Hi;
  };
  std::optional<Hull> ReadHull, WrittenHull;

  void add(const FootprintCounts &O);
};

/// A kernel's footprint, in all and per array (pointer parameter or global).
struct FootprintSummary {
  FootprintCounts Total;
  std::map<std::string, FootprintCounts> ByArray;
};

/// One top-level loop nest of a kernel.
struct LoopSummary {
  std::string File;
  unsigned Line = 0, Column = 0;
  unsigned Depth = 1;     ///< loops in the nest's deepest chain
  Polynomial Trip;        ///< iterations of the outermost loop per entry
  bool TripKnown = true;  ///< false: Trip is a named unknown
  CountPolys Totals;      ///< over all entries, per kernel execution
  bool Exact = true;
  FootprintCounts Footprint; ///< per kernel execution
};

struct KernelSummary {
  std::string Name;        ///< mangled
  std::string DisplayName; ///< demangled
  std::string Kind;        ///< "cuda-kernel" or "function"
  std::string Per;         ///< "thread" or "call"
  std::string File;
  unsigned Line = 0, Column = 0;
  std::string Target;      ///< triple, plus the GPU architecture on NVPTX
  bool IsGPU = false;
  std::vector<std::string> Params; ///< formula variables, in parameter order
  CountPolys Totals;
  bool Exact = true;
  std::vector<std::string> Notes;       ///< why the counts are not exact
  std::vector<Assumption> Assumptions;  ///< what exact counts assume
  std::vector<LoopSummary> Loops;
  FootprintSummary Footprint; ///< per call; CUDA: per launch

  /// Variables in the formulas (parameters first, in order).
  std::vector<std::string> variableOrder() const;
};

} // namespace roofline

#endif
