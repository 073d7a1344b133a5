//===- AccessSet.cpp - Distinct bytes of affine accesses ------------------===//
#include "roofline/Analysis/AccessSet.h"

#include "roofline/Model/Formula.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>

namespace roofline {

namespace {
/// The least value of each size in the accesses being counted: 1, or more
/// where a loop's trip needs it (a trip W - 2 runs only for W >= 3). Set
/// by distinctBytes for the duration of one count.
thread_local const std::map<std::string, int64_t> *SizeFloors = nullptr;
} // namespace

bool nonNegativeForSizes(const Polynomial &P) {
  if (!P.isValid())
    return false;
  if (auto C = P.constantValue())
    return C->num() >= 0;
  // v = w + floor(v) with w >= 0: all coefficients >= 0 suffices.
  std::map<std::string, Polynomial> Shift;
  for (const std::string &V : P.variables()) {
    int64_t Floor = 1;
    if (SizeFloors)
      if (auto It = SizeFloors->find(V); It != SizeFloors->end())
        Floor = std::max(Floor, It->second);
    Shift[V] = Polynomial::variable(V) + Polynomial(Floor);
  }
  Polynomial Q = P.substitute(Shift);
  if (!Q.isValid())
    return false;
  for (const auto &[M, C] : Q.terms())
    if (C.num() < 0)
      return false;
  return true;
}

namespace {

Polynomial monomial(const Polynomial::Monomial &M, const Rational &C) {
  Polynomial P(C);
  for (const auto &[Var, Exp] : M)
    for (unsigned E = 0; E < Exp; ++E)
      P = P * Polynomial::atom(Var);
  return P;
}

/// \p P mentions \p Var, also inside a floor(...) term.
bool mentionsDeep(const Polynomial &P, const std::string &Var) {
  for (const Atom &A : P.atoms())
    if (A.involves(Var))
      return true;
  return false;
}

/// P = Rest + sum Coef[v] * v, with no counter in Rest or the Coefs.
struct Linear {
  std::map<std::string, Polynomial> Coef;
  Polynomial Rest;
};
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

/// A value to order polynomials by: every variable at a large size.
double largeValue(const Polynomial &P) {
  std::map<std::string, double> Values;
  for (const std::string &V : P.variables())
    Values[V] = LargeSize;
  return P.evaluate(Values).value_or(0);
}

std::optional<Polynomial> extremeTrip(const std::vector<Dimension> &Dims,
                                      size_t Index, bool Largest);

/// The number of points of \p Dims on which a polynomial of only the
/// counters \p Keep depends: nested sums over those, inner to outer. Invalid
/// when a counter left out bounds one kept (not a projection).
Polynomial points(const std::vector<Dimension> &Dims,
                  const std::vector<bool> &Keep,
                  std::vector<std::string> *Needs = nullptr) {
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
        Needs->push_back((D.Trip - Polynomial(1)).str() + " >= 0");
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
  std::vector<std::string> Needs;
};

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
                     double SX = largeValue(X.Stride), SY = largeValue(Y.Stride);
                     return SX != SY ? SX < SY
                                     : largeValue(X.Trip) < largeValue(Y.Trip);
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

/// No stride is more than the span of the smaller ones: the bytes form one
/// contiguous range; returns its length.
std::optional<Polynomial> denseSpan(const Lattice &L,
                                    std::vector<std::string> *Needs = nullptr) {
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
        Needs->push_back((Ax.Trip - Polynomial(1)).str() + " >= 0");
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
      auto Variable = [](const Polynomial &P) {
        auto C = P.terms().find({});
        return C == P.terms().end() ? P : P - Polynomial(C->second);
      };
      Polynomial DV = Variable(D);
      if (DV.isZero())
        continue;
      Q = DV.ratioTo(Variable(S));
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
      auto Variable = [](const Polynomial &P) {
        auto Cst = P.terms().find({});
        return Cst == P.terms().end() ? P : P - Polynomial(Cst->second);
      };
      Polynomial DV = Variable(D);
      if (!DV.isZero()) {
        auto R = DV.ratioTo(Variable(S));
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

/// The accesses of one shape, differing only in their base offsets.
struct Family {
  Lattice Shape;
  std::vector<Polynomial> Bases;
  std::string Where;
};

DistinctBytes familyBytes(const Family &F) {
  DistinctBytes R;
  const Lattice &L = F.Shape;
  std::vector<Polynomial> MaxTrips;
  for (const Lattice::Axis &Ax : L.Axes)
    MaxTrips.push_back(Ax.MaxTrip);
  bool OneInjective = L.Count.isValid() && injective(L, MaxTrips);
  Polynomial One = L.Count.isValid() ? L.Size * L.Count : Polynomial::invalid();
  auto Bound = [&](const std::string &Why) {
    R.Exact = false;
    R.AtLeast = OneInjective ? One : Polynomial(0);
    Polynomial Sum;
    for (size_t I = 0; I < F.Bases.size(); ++I)
      Sum += One;
    R.AtMost = Sum;
    R.Notes.push_back(Why);
    return R;
  };
  if (F.Bases.size() == 1) {
    if (OneInjective) {
      R.AtMost = R.AtLeast = One;
      return R;
    }
    if (auto Span = denseSpan(L, &R.Assumptions)) {
      R.AtMost = R.AtLeast = *Span;
      return R;
    }
    return Bound("the access at " + F.Where +
                 " may touch the same bytes from several iterations: its "
                 "footprint is at most its iterations' bytes");
  }
  // A stencil: the same box shifted by whole steps along its axes.
  std::vector<std::vector<int64_t>> Shift;
  for (const Polynomial &B : F.Bases) {
    auto S = decompose(B - F.Bases.front(), L);
    if (!S || !L.Rectangular) {
      // Constant shifts of a contiguous range still make one range.
      std::vector<std::string> SpanNeeds;
      auto Span = denseSpan(L, &SpanNeeds);
      std::vector<double> Off;
      for (const Polynomial &B2 : F.Bases)
        if (auto C = (B2 - F.Bases.front()).constantValue())
          Off.push_back(C->toDouble());
      // ...when no gap between consecutive copies exceeds the range.
      bool NoGaps = Span && Off.size() == F.Bases.size();
      if (NoGaps) {
        std::vector<double> Sorted = Off;
        std::sort(Sorted.begin(), Sorted.end());
        for (size_t I = 1; I < Sorted.size() && NoGaps; ++I)
          NoGaps = nonNegativeForSizes(
              *Span - Polynomial(int64_t(std::llround(Sorted[I] - Sorted[I - 1]))));
      }
      if (NoGaps) {
        auto [Lo, Hi] = std::minmax_element(Off.begin(), Off.end());
        R.AtMost = R.AtLeast =
            *Span + Polynomial(int64_t(std::llround(*Hi - *Lo)));
        R.Assumptions = SpanNeeds;
        return R;
      }
      // Copies that fall in each other's gaps (a register tile's rows):
      // they never meet either.
      if (OneInjective && L.Rectangular) {
        bool Apart = true;
        for (size_t I = 0; I < F.Bases.size() && Apart; ++I)
          for (size_t J = I + 1; J < F.Bases.size() && Apart; ++J)
            Apart = outsideDifferences(F.Bases[J] - F.Bases[I], L);
        if (Apart) {
          Polynomial Sum;
          for (size_t I = 0; I < F.Bases.size(); ++I)
            Sum += One;
          R.AtMost = R.AtLeast = Sum;
          return R;
        }
      }
      // Copies far enough apart not to meet (the diagonals of a band
      // stored one after another): their footprints add up exactly.
      if (OneInjective && L.Rectangular) {
        Polynomial Extent = L.Size;
        for (const Lattice::Axis &Ax : L.Axes)
          Extent = Extent + Ax.Stride * (Ax.Trip - Polynomial(1));
        std::vector<Polynomial> Sorted = F.Bases;
        std::sort(Sorted.begin(), Sorted.end(),
                  [](const Polynomial &X, const Polynomial &Y) {
                    return largeValue(X) < largeValue(Y);
                  });
        bool Apart = true;
        for (size_t I = 1; I < Sorted.size(); ++I)
          Apart &= nonNegativeForSizes(Sorted[I] - Sorted[I - 1] - Extent);
        if (Apart) {
          Polynomial Sum;
          for (size_t I = 0; I < Sorted.size(); ++I)
            Sum += One;
          R.AtMost = R.AtLeast = Sum;
          return R;
        }
      }
      return Bound("accesses near " + F.Where +
                   " differ by offsets that are not whole steps: their "
                   "footprints are added (an upper bound)");
    }
    Shift.push_back(*S);
  }
  if (Shift.size() > 10)
    return Bound("more than 10 shifted accesses near " + F.Where +
                 ": their footprints are added (an upper bound)");
  size_t Axes = L.Axes.size();
  std::vector<Polynomial> Extent;
  std::vector<std::string> Needs;
  for (size_t K = 0; K < Axes; ++K) {
    int64_t Lo = 0, Hi = 0;
    for (const auto &S : Shift) {
      Lo = std::min(Lo, S[K]);
      Hi = std::max(Hi, S[K]);
    }
    // The boxes' intersections are boxes only while the trip is at least
    // the spread of the shifts (a 5-point stencil on at least 4 points).
    Polynomial Room = L.Axes[K].Trip - Polynomial(Hi - Lo);
    if (Axes == 1) {
      // In one dimension the union is one range as soon as no gap between
      // consecutive shifts exceeds the trip.
      std::vector<int64_t> At;
      for (const auto &S : Shift)
        At.push_back(S[0]);
      std::sort(At.begin(), At.end());
      int64_t Gap = 0;
      for (size_t I = 1; I < At.size(); ++I)
        Gap = std::max(Gap, At[I] - At[I - 1]);
      Room = L.Axes[K].Trip - Polynomial(Gap);
    }
    if (!nonNegativeForSizes(Room)) {
      auto C = Room.constantValue();
      if (C || !Room.isValid())
        return Bound("accesses near " + F.Where +
                     " are shifted by more than their loops' trips: their "
                     "footprints are added (an upper bound)");
      Needs.push_back(Room.str() + " >= 0");
    }
    Extent.push_back(L.Axes[K].Trip + Polynomial(Hi - Lo));
  }
  // Inclusion-exclusion: each subset's boxes intersect in a box whose side
  // is the trip less the subset's spread of shifts.
  Polynomial Union;
  for (unsigned Mask = 1; Mask < (1u << Shift.size()); ++Mask) {
    Polynomial Box(1);
    for (size_t K = 0; K < Axes; ++K) {
      int64_t Lo = INT64_MAX, Hi = INT64_MIN;
      for (size_t M = 0; M < Shift.size(); ++M)
        if (Mask & (1u << M)) {
          Lo = std::min(Lo, Shift[M][K]);
          Hi = std::max(Hi, Shift[M][K]);
        }
      Box = Box * (L.Axes[K].Trip - Polynomial(Hi - Lo));
    }
    Union += __builtin_popcount(Mask) % 2 ? Box : Polynomial(0) - Box;
  }
  Union = L.Size * Union;
  if (injective(L, Extent)) {
    R.AtMost = R.AtLeast = Union;
    R.Assumptions = Needs;
    return R;
  }
  R.Exact = false;
  R.AtMost = Union;
  R.AtLeast = OneInjective ? One : Polynomial(0);
  R.Notes.push_back("shifted accesses near " + F.Where +
                    " may wrap into each other's rows: their footprint is "
                    "at most the union of their boxes");
  return R;
}

/// A single element next to or inside a one-dimensional walk joins it: the
/// first or last element a rotated loop loads before or after its body
/// (`rp[0]` before a loop over `rp[i + 1]`).
void absorbPoints(std::vector<Family> &Families) {
  for (Family &P : Families) {
    if (!P.Shape.Axes.empty())
      continue;
    for (Family &F : Families) {
      if (F.Shape.Axes.size() != 1 || F.Bases.size() != 1 ||
          !F.Shape.Rectangular || F.Shape.Size != P.Shape.Size)
        continue;
      Lattice::Axis &Ax = F.Shape.Axes[0];
      std::vector<Polynomial> Kept;
      for (const Polynomial &B : P.Bases) {
        Polynomial D = B - F.Bases[0];
        if (D.isZero() || D == Ax.Stride * (Ax.Trip - Polynomial(1)))
          continue; // inside: nothing new
        if (D == Polynomial(0) - Ax.Stride || D == Ax.Stride * Ax.Trip) {
          if (D != Ax.Stride * Ax.Trip)
            F.Bases[0] = B;
          Ax.Trip = Ax.Trip + Polynomial(1);
          Ax.MaxTrip = Ax.MaxTrip + Polynomial(1);
          F.Shape.Count = Ax.Trip;
          continue;
        }
        Kept.push_back(B);
      }
      P.Bases = Kept;
    }
  }
  Families.erase(std::remove_if(Families.begin(), Families.end(),
                                [](const Family &F) { return F.Bases.empty(); }),
                 Families.end());
}

} // namespace

double valueAtLargeSizes(const Polynomial &P) { return largeValue(P); }

DistinctBytes distinctBytes(const std::vector<AffineAccess> &Accesses) {
  // Every loop that runs has a trip >= 1: a trip a*v - c in one size v
  // (a > 0) gives v >= (c + 1)/a.
  std::map<std::string, int64_t> Floors;
  for (const AffineAccess &A : Accesses)
    for (const Dimension &D : A.Dims) {
      std::set<std::string> Vars = D.Trip.isValid() ? D.Trip.variables()
                                                    : std::set<std::string>{};
      if (Vars.size() != 1 || D.Trip.degree() != 1)
        continue;
      const std::string &V = *Vars.begin();
      auto L = linearIn(D.Trip, {{V, Polynomial()}});
      if (!L)
        continue;
      auto K = L->Coef[V].constantValue(), C = L->Rest.constantValue();
      if (!K || !C || K->num() <= 0)
        continue;
      Rational Need = (Rational(1) - *C) / *K; // v >= (1 - c)/a
      int64_t Ceil = Need.num() / Need.den() +
                     (Need.num() % Need.den() > 0 ? 1 : 0);
      Floors[V] = std::max(Floors.count(V) ? Floors[V] : 1, Ceil);
    }
  struct Scope {
    Scope(const std::map<std::string, int64_t> *F) { SizeFloors = F; }
    ~Scope() { SizeFloors = nullptr; }
  } InScope(&Floors);
  std::vector<Family> Families;
  std::vector<DistinctBytes> Parts;
  std::vector<std::pair<const AffineAccess *, Lattice>> Sometimes;
  // The hull of the addresses: the least start and the greatest end.
  std::optional<Polynomial> Lo, Hi;
  bool HullKnown = true;
  auto Widen = [&](const Lattice &L) {
    Polynomial End = L.Base + L.Size;
    for (const Lattice::Axis &Ax : L.Axes)
      End = End + Ax.Stride * (Ax.MaxTrip - Polynomial(1));
    if (!Lo) {
      Lo = L.Base, Hi = End;
      return;
    }
    if (nonNegativeForSizes(*Lo - L.Base))
      Lo = L.Base;
    else if (!nonNegativeForSizes(L.Base - *Lo))
      HullKnown = false;
    if (nonNegativeForSizes(End - *Hi))
      Hi = End;
    else if (!nonNegativeForSizes(*Hi - End))
      HullKnown = false;
  };
  for (const AffineAccess &A : Accesses) {
    std::vector<bool> All(A.Dims.size(), true);
    Polynomial Runs = A.Size * points(A.Dims, All);
    std::optional<Lattice> L;
    if (A.Known)
      L = latticeOf(A);
    if (L)
      Widen(*L);
    else
      HullKnown = false;
    if (!L) {
      DistinctBytes P;
      P.Exact = false;
      P.AtMost = Runs;
      P.AtLeast = Polynomial(0);
      P.Notes.push_back("the address of the access at " + A.Where +
                        (A.Known ? " is not an affine function of its loop "
                                   "counters"
                                 : " depends on data") +
                        ": its footprint is at most its counted bytes");
      Parts.push_back(P);
      continue;
    }
    if (!A.EveryTime) {
      Sometimes.push_back({&A, *L});
      continue;
    }
    auto Same = std::find_if(Families.begin(), Families.end(),
                             [&](const Family &F) { return sameShape(F.Shape, *L); });
    if (Same == Families.end()) {
      Families.push_back({*L, {L->Base}, A.Where});
    } else if (std::find(Same->Bases.begin(), Same->Bases.end(), L->Base) ==
               Same->Bases.end()) {
      Same->Bases.push_back(L->Base);
    }
  }
  // An access that runs on some iterations only adds nothing when one that
  // always runs touches the same lattice (`v[i] > 0 ? v[i] : 0` at -O0).
  for (const auto &[A, L] : Sometimes) {
    bool Covered = std::any_of(Families.begin(), Families.end(), [&](const Family &F) {
      return sameShape(F.Shape, L) &&
             std::find(F.Bases.begin(), F.Bases.end(), L.Base) != F.Bases.end();
    });
    if (Covered)
      continue;
    std::vector<bool> All(A->Dims.size(), true);
    DistinctBytes P;
    P.Exact = false;
    P.AtMost = L.Count.isValid() ? L.Size * L.Count
                                 : A->Size * points(A->Dims, All);
    P.AtLeast = Polynomial(0);
    P.Notes.push_back("the access at " + A->Where +
                      " runs on some iterations only: its footprint is at "
                      "most its lattice's bytes");
    Parts.push_back(P);
  }
  absorbPoints(Families);
  for (const Family &F : Families) {
    Parts.push_back(familyBytes(F));
    for (const std::string &N : F.Shape.Needs)
      if (std::find(Parts.back().Assumptions.begin(), Parts.back().Assumptions.end(),
                    N) == Parts.back().Assumptions.end())
        Parts.back().Assumptions.push_back(N);
  }

  DistinctBytes R;
  R.AtMost = Polynomial(0);
  R.AtLeast = Polynomial(0);
  if (HullKnown && Lo && Lo->isValid() && Hi->isValid()) {
    R.Lo = Lo;
    R.Hi = Hi;
  }
  if (Parts.empty())
    return R;
  // Several parts may overlap: their sum bounds the union from above, the
  // largest one from below.
  size_t Largest = 0;
  for (size_t I = 0; I < Parts.size(); ++I) {
    R.AtMost += Parts[I].AtMost;
    R.Exact &= Parts[I].Exact;
    R.Notes.insert(R.Notes.end(), Parts[I].Notes.begin(), Parts[I].Notes.end());
    R.Assumptions.insert(R.Assumptions.end(), Parts[I].Assumptions.begin(),
                         Parts[I].Assumptions.end());
    if (largeValue(Parts[I].AtLeast) > largeValue(Parts[Largest].AtLeast))
      Largest = I;
  }
  R.AtLeast = Parts[Largest].AtLeast;
  if (Parts.size() > 1) {
    R.Exact = false;
    if (R.Notes.empty())
      R.Notes.push_back("accesses with different shapes may touch the same "
                        "bytes: their footprints are added (an upper bound)");
  }
  if (R.Exact)
    R.AtLeast = R.AtMost;
  return R;
}

} // namespace roofline
