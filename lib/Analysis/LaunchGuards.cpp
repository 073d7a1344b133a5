//===- LaunchGuards.cpp - Which threads a GPU guard leaves out ------------===//
//
// A kernel's guards on its thread's index (`if (i >= n) return;`) are
// assumptions of its per-thread counts. The launch footprint reads the
// ones it can (a bound on the grid counter, the first element, a stride
// loop's own test); any other leaves some threads out of an access, unless
// it restates the index type's range, or limits a part of the index
// (lane, warp, block) the access's address does not move with. Which part
// a guard or an address moves with is probed, not proved.
//
//===----------------------------------------------------------------------===//
#include "LaunchIndex.h"

#include <map>
#include <set>

namespace roofline::detail {

bool mentionsAxis(const Polynomial &P, const char *Axis) {
  std::string Tid = std::string("threadIdx.") + Axis, Bid = std::string("blockIdx.") + Axis;
  for (const Atom &T : P.atoms())
    if (T.involves(Tid) || T.involves(Bid))
      return true;
  return false;
}

namespace {

/// How \p P changes from index 0 as the thread index moves within the
/// first warp of \p Warp threads (the lane), by whole warps and as the
/// block index moves by 1, every other variable 2, 7 and 1024: per part,
/// whether P moves at all, and whether it ever falls. A probe, not a
/// proof: the guards and offsets it reads are linear in the indices or
/// floors of them.
struct IndexProbe {
  bool MovesWithLane = false, MovesWithWarp = false, MovesWithBlock = false;
  bool Falls = false;
};
std::optional<IndexProbe> probeIndex(const Polynomial &P, const char *Axis,
                                     unsigned Warp) {
  std::string Tid = std::string("threadIdx.") + Axis, Bid = std::string("blockIdx.") + Axis;
  std::optional<std::set<std::string>> Vars = P.leafVariables();
  if (!Vars)
    return std::nullopt;
  IndexProbe Probe;
  // Other variables small and large: a row (i / C) moves within a warp
  // only when C is small.
  for (double Others : {2.0, 7.0, 1024.0}) {
    std::map<std::string, double> At;
    for (const std::string &V : *Vars)
      At[V] = Others;
    auto Value = [&](double T, double B) {
      At[Tid] = T, At[Bid] = B;
      return P.evaluate(At);
    };
    std::optional<double> Base = Value(0, 0);
    if (!Base)
      return std::nullopt;
    auto Step = [&](double T, double B, bool &Moves) {
      std::optional<double> V = Value(T, B);
      if (!V)
        return false;
      Moves |= *V != *Base;
      Probe.Falls |= *V < *Base;
      return true;
    };
    for (unsigned Lane = 1; Lane < Warp; ++Lane)
      if (!Step(Lane, 0, Probe.MovesWithLane))
        return std::nullopt;
    for (unsigned Warps = 1; Warps <= 8; ++Warps)
      if (!Step(Warp * Warps, 0, Probe.MovesWithWarp))
        return std::nullopt;
    if (!Step(0, 1, Probe.MovesWithBlock))
      return std::nullopt;
  }
  return Probe;
}

} // namespace

bool leavesNoThreadOut(const Polynomial &Fact, const char *Axis, unsigned Warp) {
  std::string Tid = std::string("threadIdx.") + Axis, Bid = std::string("blockIdx.") + Axis;
  auto Rest = substituteDeep(Fact, {{Tid, Polynomial(0)}, {Bid, Polynomial(0)}})
                  .constantValue();
  if (!Rest)
    return false;
  if (Rest->toDouble() >= IndexTypeLimit)
    return true;
  auto Probe = probeIndex(Fact, Axis, Warp);
  return Rest->toDouble() >= 0 && Probe && !Probe->Falls;
}

bool limitsAccess(const Polynomial &Fact, const Polynomial &Offset, const char *Axis,
                  unsigned Warp) {
  auto F = probeIndex(Fact, Axis, Warp), O = probeIndex(Offset, Axis, Warp);
  if (!F || !O)
    return true;
  return (F->MovesWithLane && O->MovesWithLane) ||
         (F->MovesWithWarp && O->MovesWithWarp) ||
         (F->MovesWithBlock && O->MovesWithBlock);
}

} // namespace roofline::detail
