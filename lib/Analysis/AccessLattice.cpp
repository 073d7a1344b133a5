//===- AccessLattice.cpp - One affine access as a lattice of bytes ------===//
#include "AccessLattice.h"

#include "roofline/Model/Formula.h"

#include <algorithm>
#include <numeric>
#include <cmath>

namespace roofline {

static Polynomial monomial(const Polynomial::Monomial &M, const Rational &C) {
  Polynomial P(C);
  for (const auto &[Var, Exp] : M)
    for (unsigned E = 0; E < Exp; ++E)
      P = P * Polynomial::atom(Var);
  return P;
}

/// \p P mentions \p Var, also inside a floor(...) term.
static bool mentionsDeep(const Polynomial &P, const std::string &Var) {
  for (const Atom &A : P.atoms())
    if (A.involves(Var))
      return true;
  return false;
}

std::optional<Linear> linearIn(const Polynomial &P,
                               const std::vector<Dimension> &Dims) {
  if (!P.isValid())
    return std::nullopt;
  auto IsDim = [&](const std::string &V) {
    return std::any_of(Dims.begin(), Dims.end(),
                       [&](const Dimension &D) { return D.Var == V; });
  };
  Linear L;
  for (const auto &[M, C] : P.terms()) {
    const std::string *Found = nullptr;
    Polynomial::Monomial Rest;
    for (const auto &VE : M) {
      if (IsDim(VE.first.name())) {
        if (Found || VE.second != 1)
          return std::nullopt;
        Found = &VE.first.name();
      } else {
        Rest.push_back(VE);
      }
    }
    Polynomial Part = monomial(Rest, C);
    for (const Dimension &D : Dims)
      if (mentionsDeep(Part, D.Var))
        return std::nullopt;
    if (Found)
      L.Coef[*Found] += Part;
    else
      L.Rest += Part;
  }
  return L;
}

/// The number of points of \p Dims on which a polynomial of only the
/// counters \p Keep depends: nested sums over those, inner to outer. Invalid
/// when a counter left out bounds one kept (not a projection).
Polynomial points(const std::vector<Dimension> &Dims,
                  const std::vector<bool> &Keep,
                  std::vector<Assumption> *Needs) {
  Polynomial Count(1);
  for (size_t I = Dims.size(); I-- > 0;) {
    const Dimension &D = Dims[I];
    bool Opaque = false;
    for (const std::string &V : Count.variables())
      Opaque |= V != D.Var && mentionsDeep(Polynomial::variable(V), D.Var);
    if (Opaque)
      return Polynomial::invalid();
    if (!Keep[I]) {
      // A counter the access does not move with still has to run once for
      // the access to happen at all: stated for a trip in the sizes; one
      // that depends on outer counters must be >= 1 at its least.
      auto C = D.Trip.constantValue();
      bool Mentions = false;
      for (const Dimension &E : Dims)
        Mentions |= mentionsDeep(D.Trip, E.Var);
      if (Mentions) {
        auto Least = extremeTrip(Dims, I, false);
        if (!Least || !nonNegativeForSizes(*Least - Polynomial(1)))
          return Polynomial::invalid();
      } else if (!(C && C->num() >= C->den()) && Needs) {
        Needs->push_back(Assumption::nonNegative(D.Trip - Polynomial(1)));
      }
    }
    if (Keep[I]) {
      Count = Count.sumOver(D.Var, D.Trip);
    } else if (Count.mentions(D.Var)) {
      // A counter the access does not move with, that bounds ones it
      // does (x[j] for j <= i): the boxes for each value of it are nested,
      // so their union is the largest one.
      auto L = linearIn(Count, {D});
      if (!L)
        return Polynomial::invalid();
      const Polynomial &C = L->Coef[D.Var];
      if (nonNegativeForSizes(C))
        Count = Count.substitute({{D.Var, D.Trip - Polynomial(1)}});
      else if (nonNegativeForSizes(Polynomial(0) - C))
        Count = Count.substitute({{D.Var, Polynomial(0)}});
      else
        return Polynomial::invalid();
    }
  }
  return Count;
}

/// The largest (or least) value of dimension \p Index's trip over the
/// counters of the dimensions before it; nullopt when that is not clear.
std::optional<Polynomial> extremeTrip(const std::vector<Dimension> &Dims,
                                      size_t Index, bool Largest) {
  Polynomial T = Dims[Index].Trip;
  for (size_t J = Index; J-- > 0;) {
    const Dimension &D = Dims[J];
    if (!mentionsDeep(T, D.Var))
      continue;
    auto L = linearIn(T, {D});
    if (!L)
      return std::nullopt;
    const Polynomial &C = L->Coef[D.Var];
    bool Up = nonNegativeForSizes(C), Down = nonNegativeForSizes(Polynomial(0) - C);
    if (!Up && !Down)
      return std::nullopt;
    bool AtLast = Largest ? Up : Down;
    T = T.substitute({{D.Var, AtLast ? D.Trip - Polynomial(1) : Polynomial(0)}});
  }
  return T;
}

std::optional<Polynomial> maxTrip(const std::vector<Dimension> &Dims,
                                  size_t Index) {
  return extremeTrip(Dims, Index, true);
}


std::optional<Lattice> latticeOf(const AffineAccess &A) {
  auto L = linearIn(A.Offset, A.Dims);
  if (!L)
    return std::nullopt;
  Lattice Lat;
  Lat.Base = L->Rest;
  Lat.Size = A.Size;
  std::vector<bool> Keep(A.Dims.size(), false);
  for (size_t I = 0; I < A.Dims.size(); ++I) {
    auto It = L->Coef.find(A.Dims[I].Var);
    if (It == L->Coef.end() || It->second.isZero())
      continue;
    Keep[I] = true;
    Lattice::Axis Ax;
    Ax.Trip = A.Dims[I].Trip;
    auto Max = maxTrip(A.Dims, I);
    if (!Max)
      return std::nullopt;
    Ax.MaxTrip = *Max;
    for (const Dimension &D : A.Dims)
      Ax.Rectangular &= !mentionsDeep(Ax.Trip, D.Var);
    Lat.Rectangular &= Ax.Rectangular;
    if (nonNegativeForSizes(It->second)) {
      Ax.Stride = It->second;
    } else if (nonNegativeForSizes(Polynomial(0) - It->second) &&
               Ax.Rectangular) {
      // Walking down: the lowest address is at the last iteration.
      Ax.Stride = Polynomial(0) - It->second;
      Lat.Base = Lat.Base - Ax.Stride * (Ax.Trip - Polynomial(1));
    } else {
      return std::nullopt;
    }
    Lat.Axes.push_back(Ax);
  }
  std::sort(Lat.Axes.begin(), Lat.Axes.end(),
                   [](const Lattice::Axis &X, const Lattice::Axis &Y) {
                     double SX = orderAtLargeSizes(X.Stride), SY = orderAtLargeSizes(Y.Stride);
                     return SX != SY ? SX < SY
                                     : orderAtLargeSizes(X.Trip) < orderAtLargeSizes(Y.Trip);
                   });
  Lat.Count = points(A.Dims, Keep, &Lat.Needs);
  return Lat;
}

/// Every stride is at least the span of the smaller ones over \p Extent
/// points each: distinct lattice points are distinct bytes.
bool injective(const Lattice &L, const std::vector<Polynomial> &Extent) {
  Polynomial Span = L.Size;
  for (size_t K = 0; K < L.Axes.size(); ++K) {
    if (!nonNegativeForSizes(L.Axes[K].Stride - Span))
      return false;
    Span = Span + L.Axes[K].Stride * (Extent[K] - Polynomial(1));
  }
  return true;
}

/// Every term of \p P is a constant or one size to the first power.
static bool linearInSizes(const Polynomial &P) {
  for (const auto &[M, C] : P.terms())
    if (M.size() > 1 || (M.size() == 1 && M[0].second != 1))
      return false;
  return true;
}

std::optional<std::vector<Assumption>>
injectiveUnder(const Lattice &L, const std::vector<Polynomial> &Extent) {
  if (!L.Rectangular)
    return std::nullopt;
  std::vector<Assumption> Needs;
  Polynomial Span = L.Size;
  for (size_t K = 0; K < L.Axes.size(); ++K) {
    Polynomial Room = L.Axes[K].Stride - Span;
    if (!nonNegativeForSizes(Room)) {
      // Only a stride that is a size of its own (a leading dimension): a
      // constant stride below a symbolic span is a real overlap
      // (x[i + 2*j]), not a layout the caller chose.
      // And only "ld >= row": the stride one size, the room linear. A
      // convolution's windows (x*S + kx, then rows of P) need S >= K and
      // P >= S*(W-1) + K: not a layout but an overlap, and not linear.
      if (!Room.isValid() || Room.constantValue() ||
          !linearInSizes(Room) || L.Axes[K].Stride.terms().size() != 1 ||
          !linearInSizes(L.Axes[K].Stride))
        return std::nullopt;
      // In the smallest integers: "lda - K >= 0", not "4*lda - 4*K >= 0".
      int64_t G = 0;
      for (const auto &[M, C] : Room.terms())
        G = C.isInteger() ? std::gcd(G, C.num() < 0 ? -C.num() : C.num()) : 1;
      if (G > 1)
        Room = Room * Polynomial(Rational(1, G));
      Needs.push_back(Assumption::nonNegative(Room));
    }
    Span = Span + L.Axes[K].Stride * (Extent[K] - Polynomial(1));
  }
  return Needs;
}

/// No stride is more than the span of the smaller ones: the bytes form one
/// contiguous range; returns its length.
std::optional<Polynomial> denseSpan(const Lattice &L,
                                    std::vector<Assumption> *Needs) {
  if (!L.Rectangular)
    return std::nullopt;
  Polynomial Span = L.Size;
  for (const Lattice::Axis &Ax : L.Axes) {
    if (!nonNegativeForSizes(Span - Ax.Stride))
      return std::nullopt;
    Span = Span + Ax.Stride * (Ax.Trip - Polynomial(1));
  }
  // The range formula counts from the first point: every loop must run
  // (a product of trips would be 0 by itself).
  if (Needs)
    for (const Lattice::Axis &Ax : L.Axes) {
      auto C = Ax.Trip.constantValue();
      if (!(C && C->num() >= C->den()))
        Needs->push_back(Assumption::nonNegative(Ax.Trip - Polynomial(1)));
    }
  return Span;
}

bool sameShape(const Lattice &A, const Lattice &B) {
  if (A.Size != B.Size || A.Axes.size() != B.Axes.size() ||
      A.Rectangular != B.Rectangular)
    return false;
  for (size_t K = 0; K < A.Axes.size(); ++K)
    if (A.Axes[K].Stride != B.Axes[K].Stride || A.Axes[K].Trip != B.Axes[K].Trip)
      return false;
  return true;
}

/// \p D as sum d_k * Stride_k with integer d_k, largest stride first.
std::optional<std::vector<int64_t>> decompose(Polynomial D, const Lattice &L) {
  std::vector<int64_t> Steps(L.Axes.size(), 0);
  for (size_t K = L.Axes.size(); K-- > 0;) {
    const Polynomial &S = L.Axes[K].Stride;
    std::optional<Rational> Q;
    auto DC = D.constantValue();
    auto SC = S.constantValue();
    if (SC) {
      if (!DC)
        continue; // a larger symbolic stride may still take it
      double R = DC->toDouble() / SC->toDouble();
      Q = Rational(int64_t(std::llround(R)));
    } else {
      // The parts that grow with the sizes decide the multiple.
      Polynomial DV = D.withoutConstant();
      if (DV.isZero())
        continue;
      Q = DV.ratioTo(S.withoutConstant());
    }
    if (!Q || !Q->isInteger() || Q->num() < -64 || Q->num() > 64)
      return std::nullopt;
    Steps[K] = Q->num();
    D = D - Polynomial(*Q) * S;
  }
  if (!D.isZero())
    return std::nullopt;
  return Steps;
}

/// \p D is not a difference of two points of the lattice: no digits
/// |d_k| < trip_k (mixed radix, largest stride first) make it. Copies of an
/// injective lattice shifted by such differences never meet (the four
/// rows a 4 x 4 register tile reads, n apart in a lattice of stride 4n).
bool outsideDifferences(Polynomial D, const Lattice &L) {
  for (size_t K = L.Axes.size(); K-- > 0;) {
    const Polynomial &S = L.Axes[K].Stride;
    const Polynomial &T = L.Axes[K].MaxTrip;
    Polynomial Q;
    if (auto C = S.constantValue()) {
      Q = D * Polynomial(Rational(1) / *C);
      bool Integral = Q.isValid();
      for (const auto &[M, Coef] : Q.terms())
        Integral &= Coef.isInteger();
      if (!Integral) {
        if (!D.constantValue())
          return false;
        // A constant: its integer part is the digit.
        double R = D.constantValue()->toDouble() / C->toDouble();
        Q = Polynomial(int64_t(R));
      }
    } else {
      Polynomial DV = D.withoutConstant();
      if (!DV.isZero()) {
        auto R = DV.ratioTo(S.withoutConstant());
        if (!R)
          return false;
        Q = Polynomial(int64_t(R->toDouble())); // truncated toward zero
      } else {
        // A constant below the stride for every size is no multiple of it.
        auto C = D.constantValue();
        int64_t Abs = C ? int64_t(std::llabs(int64_t(C->toDouble()))) : 0;
        if (!C || !nonNegativeForSizes(S - Polynomial(Abs + 1)))
          return false;
      }
    }
    if (nonNegativeForSizes(Q - T) || nonNegativeForSizes(Polynomial(0) - Q - T))
      return true; // a digit out of range
    D = D - Q * S;
  }
  return !D.isZero() && D.constantValue().has_value();
}

} // namespace roofline
