//===- AccessSet.h - Distinct bytes of affine accesses ----------*- C++ -*-===//
//
// The footprint arithmetic, without LLVM: given the accesses to one array
// (their byte offsets as polynomials in the loop counters and thread
// indices around them), how many distinct bytes do they touch?
//
//   - One access whose address map is injective over the counters it
//     depends on touches (iterations of those counters) x element size:
//     A[i*K + k] in a GEMM touches M*K elements, a lower triangle n(n+1)/2.
//   - Accesses with the same shape that differ by constant offsets (a
//     stencil's A[i-1], A[i], A[i+1]) touch the union of shifted boxes,
//     counted by inclusion-exclusion.
//   - A map that covers a contiguous range (A[i + k] in a convolution)
//     touches the range.
//   - Anything else has an upper bound (its iterations) and a lower bound
//     (one counter's trip), and says it is not exact.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_ANALYSIS_ACCESSSET_H
#define ROOFLINE_ANALYSIS_ACCESSSET_H

#include "roofline/Model/Condition.h"
#include "roofline/Model/Polynomial.h"

#include <optional>
#include <string>
#include <vector>

namespace roofline {

/// A counter that runs 0, 1, ..., Trip-1. Trip may mention the counters of
/// the dimensions listed before it (a triangular nest).
struct Dimension {
  std::string Var;
  Polynomial Trip;
};

struct AffineAccess {
  Polynomial Offset;           ///< bytes from the array's start
  Polynomial Size;             ///< bytes per access (a constant)
  std::vector<Dimension> Dims; ///< the counters around it, outermost first
  /// It runs at every point of its dimensions (no data-dependent branch
  /// skips it).
  bool EveryTime = true;
  /// Offset is a polynomial in the counters; false for data-dependent
  /// addresses (then only the upper bound is known).
  bool Known = true;
  /// Not known because the address divides a thread's index (idx / C, the
  /// row of the thread's element): what the note says.
  bool DividesThreadIndex = false;
  /// Not every time because a guard on the thread's index that the
  /// footprint does not read leaves some threads out: what the note says.
  bool SomeThreads = false;
  std::string Where; ///< "x.c:12", for notes
};

/// Distinct bytes: exact when AtMost == AtLeast is proved.
struct DistinctBytes {
  Polynomial AtMost;  ///< invalid when no bound is known
  Polynomial AtLeast; ///< a sound lower bound (0 when nothing is known)
  bool Exact = true;
  std::vector<std::string> Notes; ///< why not exact
  /// What an exact count relies on beyond sizes >= 1 ("n - 4 >= 0").
  std::vector<Assumption> Assumptions;
  /// Every byte touched lies in [Lo, Hi) from the array's start; unset
  /// when that is not known (data-dependent addresses).
  std::optional<Polynomial> Lo, Hi;
};

/// The distinct bytes \p Accesses touch together (one array, one direction).
DistinctBytes distinctBytes(const std::vector<AffineAccess> &Accesses);

/// True when \p P >= 0 for every integer value >= 1 of its variables (the
/// sizes a footprint is proved for): a constant >= 0, or a polynomial whose
/// coefficients are all >= 0 after each variable v is replaced by v + 1.
bool nonNegativeForSizes(const Polynomial &P);

} // namespace roofline

#endif
