//===- AccessLattice.h - One affine access as a lattice of bytes -*- C++ -*-===//
//
// Internal to lib/Analysis (AccessSet.cpp). An affine access Base + sum
// Stride_k * x_k over its loops' counters, as a lattice: its points, when
// they are distinct bytes (injective), when they fill one range
// (denseSpan), and when two copies shifted by a difference never meet.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_ANALYSIS_ACCESSLATTICE_H
#define ROOFLINE_ANALYSIS_ACCESSLATTICE_H

#include "roofline/Analysis/AccessSet.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace roofline {

/// P = Rest + sum Coef[v] * v, with no counter in Rest or the Coefs.
struct Linear {
  std::map<std::string, Polynomial> Coef;
  Polynomial Rest;
};
std::optional<Linear> linearIn(const Polynomial &P,
                               const std::vector<Dimension> &Dims);

/// The number of points of \p Dims on which a polynomial of only the
/// counters \p Keep depends: nested sums over those, inner to outer. Invalid
/// when a counter left out bounds one kept (not a projection). \p Needs
/// gets the loops left out that must run for any point to exist.
Polynomial points(const std::vector<Dimension> &Dims,
                  const std::vector<bool> &Keep,
                  std::vector<Assumption> *Needs = nullptr);

/// The largest (or least) value of dimension \p Index's trip over the
/// counters of the dimensions before it; nullopt when that is not clear.
std::optional<Polynomial> extremeTrip(const std::vector<Dimension> &Dims,
                                      size_t Index, bool Largest);
std::optional<Polynomial> maxTrip(const std::vector<Dimension> &Dims,
                                  size_t Index);

/// One access, as a lattice: Base + sum Stride_k * x_k over the counters it
/// depends on, with every stride made positive.
struct Lattice {
  struct Axis {
    Polynomial Stride, Trip, MaxTrip;
    bool Rectangular = true;
  };
  Polynomial Base; ///< the lowest address's offset
  Polynomial Size;
  std::vector<Axis> Axes; ///< by stride, smallest first
  Polynomial Count;       ///< lattice points (invalid: not known)
  bool Rectangular = true;
  /// Loops it does not move with that must run for it to happen at all.
  std::vector<Assumption> Needs;
};

std::optional<Lattice> latticeOf(const AffineAccess &A);

/// Every stride is at least the span of the smaller ones over \p Extent
/// points each: distinct lattice points are distinct bytes.
bool injective(const Lattice &L, const std::vector<Polynomial> &Extent);

/// What makes \p L injective over \p Extent when that is not clear from
/// the sizes alone: each symbolic stride at least the span of the smaller
/// ones (a row-major A[i*lda + k] over k < K needs lda >= K, as BLAS
/// requires of a leading dimension). Empty when it holds as it is;
/// nullopt when it cannot, or would need more than "one size >= a linear
/// span" (a constant stride below the span, a convolution's overlapping
/// windows, a triangular nest).
std::optional<std::vector<Assumption>>
injectiveUnder(const Lattice &L, const std::vector<Polynomial> &Extent);

/// No stride is more than the span of the smaller ones: the bytes form one
/// contiguous range; returns its length.
std::optional<Polynomial> denseSpan(const Lattice &L,
                                    std::vector<Assumption> *Needs = nullptr);

bool sameShape(const Lattice &A, const Lattice &B);

/// \p D as sum d_k * Stride_k with integer d_k, largest stride first.
std::optional<std::vector<int64_t>> decompose(Polynomial D, const Lattice &L);

/// \p D is not a difference of two points of the lattice: no digits
/// |d_k| < trip_k (mixed radix, largest stride first) make it.
bool outsideDifferences(Polynomial D, const Lattice &L);

} // namespace roofline

#endif
