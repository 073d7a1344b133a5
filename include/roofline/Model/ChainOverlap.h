//===- ChainOverlap.h - A loop-carried chain across entries -----*- C++ -*-===//
//
// A loop whose iterations form a chain (each waits C cycles for the one
// before) starts its chain anew at each entry. The out-of-order core runs
// the next entry's chain beside the old one's tail only as far as its
// windows let it fetch ahead: the reorder buffer (iterations leave it in
// order, once done) and the scheduler queue the chain's instructions wait
// in (they leave it when they issue). docs/incore.md, "Chains across
// entries".
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_MODEL_CHAINOVERLAP_H
#define ROOFLINE_MODEL_CHAINOVERLAP_H

namespace roofline {

/// The windows of one loop, in iterations (0: that window is not known).
struct ChainWindows {
  double Reorder = 0;   ///< the reorder buffer's micro-ops over an iteration's
  double Scheduler = 0; ///< a scheduler queue over an iteration's waiting ones
};

/// The least cycles an entry of \p Iterations iterations (an average:
/// entries of different lengths cost at least as much together) spends on
/// a chain of \p Chain cycles an iteration, when entries follow each other
/// and overlap as far as \p W allows. Without any window (an in-order
/// core, or none known), the whole chain: Iterations x Chain.
double chainCyclesPerEntry(double Chain, double Iterations, ChainWindows W);

} // namespace roofline

#endif
