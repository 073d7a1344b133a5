//===- AccessSet.cpp - Distinct bytes of affine accesses ------------------===//
#include "roofline/Analysis/AccessSet.h"
#include "AccessLattice.h"

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

/// The accesses of one shape, differing only in their base offsets.
struct Family {
  Lattice Shape;
  std::vector<Polynomial> Bases;
  std::string Where;
};

/// \p N copies of \p One's bytes, added.
Polynomial copies(const Polynomial &One, size_t N) {
  Polynomial Sum;
  for (size_t I = 0; I < N; ++I)
    Sum += One;
  return Sum;
}

/// What a family's footprint is at least and at most when it is not known
/// exactly (\p R: what was found so far), and why.
DistinctBytes bounded(DistinctBytes R, const Family &F, const Polynomial &One,
                      bool OneInjective, const std::string &Why) {
  R.Exact = false;
  R.AtLeast = OneInjective ? One : Polynomial(0);
  R.AtMost = copies(One, F.Bases.size());
  R.Notes.push_back(Why);
  return R;
}

/// Copies at offsets that are not whole steps of the lattice: exact when
/// they make one range, fall in each other's gaps, or lie apart.
std::optional<DistinctBytes> offsetCopiesBytes(const Family &F,
                                               const Polynomial &One,
                                               bool OneInjective) {
  const Lattice &L = F.Shape;
  DistinctBytes R;
  // Constant shifts of a contiguous range still make one range.
  std::vector<Assumption> SpanNeeds;
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
    R.AtMost = R.AtLeast = *Span + Polynomial(int64_t(std::llround(*Hi - *Lo)));
    R.Assumptions = SpanNeeds;
    return R;
  }
  if (!OneInjective || !L.Rectangular)
    return std::nullopt;
  // Copies that fall in each other's gaps (a register tile's rows): they
  // never meet either.
  bool Apart = true;
  for (size_t I = 0; I < F.Bases.size() && Apart; ++I)
    for (size_t J = I + 1; J < F.Bases.size() && Apart; ++J)
      Apart = outsideDifferences(F.Bases[J] - F.Bases[I], L);
  if (Apart) {
    R.AtMost = R.AtLeast = copies(One, F.Bases.size());
    return R;
  }
  // Copies far enough apart not to meet (the diagonals of a band stored
  // one after another): their footprints add up exactly.
  Polynomial Extent = L.Size;
  for (const Lattice::Axis &Ax : L.Axes)
    Extent = Extent + Ax.Stride * (Ax.Trip - Polynomial(1));
  std::vector<Polynomial> Sorted = F.Bases;
  std::sort(Sorted.begin(), Sorted.end(),
            [](const Polynomial &X, const Polynomial &Y) {
              return orderAtLargeSizes(X) < orderAtLargeSizes(Y);
            });
  Apart = true;
  for (size_t I = 1; I < Sorted.size(); ++I)
    Apart &= nonNegativeForSizes(Sorted[I] - Sorted[I - 1] - Extent);
  if (!Apart)
    return std::nullopt;
  R.AtMost = R.AtLeast = copies(One, Sorted.size());
  return R;
}

/// A stencil: copies of the lattice's box shifted by whole steps along its
/// axes (\p Shift, in steps per axis); the union of the boxes by
/// inclusion-exclusion.
DistinctBytes shiftedBoxesBytes(const Family &F,
                                const std::vector<std::vector<int64_t>> &Shift,
                                const Polynomial &One, bool OneInjective) {
  const Lattice &L = F.Shape;
  DistinctBytes R;
  size_t Axes = L.Axes.size();
  std::vector<Polynomial> Extent;
  std::vector<Assumption> Needs;
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
    bool RoomNeeded = !nonNegativeForSizes(Room);
    if (RoomNeeded) {
      auto C = Room.constantValue();
      if (C || !Room.isValid())
        return bounded(R, F, One, OneInjective,
                       "accesses near " + F.Where +
                           " are shifted by more than their loops' trips: their "
                           "footprints are added (an upper bound)");
      Needs.push_back(Assumption::nonNegative(Room));
    }
    Extent.push_back(L.Axes[K].Trip + Polynomial(Hi - Lo));
    // The union counts the shifts' spread once the boxes exist: every loop
    // must run (at m = 1 the boxes of x[i], x[i+1] for 1 <= i < m are
    // empty, their union formula 4*m is not). A room stated above, for
    // shifts spread along this axis, says so already.
    auto C = L.Axes[K].Trip.constantValue();
    bool RoomSaysSo = RoomNeeded && L.Axes[K].Trip - Room != Polynomial(0);
    if (!(C && C->num() >= C->den()) && !RoomSaysSo)
      Needs.push_back(Assumption::nonNegative(L.Axes[K].Trip - Polynomial(1)));
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

DistinctBytes familyBytes(const Family &F) {
  DistinctBytes R;
  const Lattice &L = F.Shape;
  std::vector<Polynomial> MaxTrips;
  for (const Lattice::Axis &Ax : L.Axes)
    MaxTrips.push_back(Ax.MaxTrip);
  bool OneInjective = L.Count.isValid() && injective(L, MaxTrips);
  Polynomial One = L.Count.isValid() ? L.Size * L.Count : Polynomial::invalid();
  if (F.Bases.size() == 1) {
    if (OneInjective) {
      R.AtMost = R.AtLeast = One;
      return R;
    }
    // Points not known (a loop the access does not move with may not run
    // for some of them: y[i] inside `for j < i`, not at i = 0): its range
    // holds them all, but need not be filled.
    if (!L.Count.isValid()) {
      std::vector<Assumption> Ignored;
      auto Span = denseSpan(L, &Ignored);
      R.Exact = false;
      R.AtMost = Span ? *Span : Polynomial::invalid();
      R.AtLeast = Polynomial(0);
      R.Notes.push_back("the access at " + F.Where +
                        " runs at some points of its range only (a loop around "
                        "it may not run): its footprint is at most its range");
      return R;
    }
    if (auto Span = denseSpan(L, &R.Assumptions)) {
      R.AtMost = R.AtLeast = *Span;
      return R;
    }
    // Rows of a symbolic leading dimension: distinct while it is at least
    // the row's length, which each call can test.
    if (auto Needs = injectiveUnder(L, MaxTrips); Needs && One.isValid()) {
      R.AtMost = R.AtLeast = One;
      R.Assumptions = *Needs;
      return R;
    }
    return bounded(R, F, One, OneInjective,
                   "the access at " + F.Where +
                       " may touch the same bytes from several iterations: its "
                       "footprint is at most its iterations' bytes");
  }
  // A stencil: the same box shifted by whole steps along its axes.
  std::vector<std::vector<int64_t>> Shift;
  for (const Polynomial &B : F.Bases) {
    auto S = decompose(B - F.Bases.front(), L);
    if (!S || !L.Rectangular) {
      if (auto Exact = offsetCopiesBytes(F, One, OneInjective))
        return *Exact;
      return bounded(R, F, One, OneInjective,
                     "accesses near " + F.Where +
                         " differ by offsets that are not whole steps: their "
                         "footprints are added (an upper bound)");
    }
    Shift.push_back(*S);
  }
  if (Shift.size() > 10)
    return bounded(R, F, One, OneInjective,
                   "more than 10 shifted accesses near " + F.Where +
                       ": their footprints are added (an upper bound)");
  return shiftedBoxesBytes(F, Shift, One, OneInjective);
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

namespace {

/// The least value of each size in \p Accesses: every loop that runs has a
/// trip >= 1, and a trip a*v - c in one size v (a > 0) gives v >= (c + 1)/a.
std::map<std::string, int64_t> sizeFloorsOf(const std::vector<AffineAccess> &Accesses) {
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
  return Floors;
}

/// The hull of the addresses: the least start and the greatest end, while
/// they can be ordered.
struct Hull {
  std::optional<Polynomial> Lo, Hi;
  bool Known = true;
  void widen(const Lattice &L) {
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
      Known = false;
    if (nonNegativeForSizes(End - *Hi))
      Hi = End;
    else if (!nonNegativeForSizes(*Hi - End))
      Known = false;
  }
};

/// The footprint of all the parts: several parts may overlap, so their
/// sum bounds the union from above and the largest one from below.
DistinctBytes combined(const std::vector<DistinctBytes> &Parts, const Hull &H) {
  DistinctBytes R;
  R.AtMost = Polynomial(0);
  R.AtLeast = Polynomial(0);
  if (H.Known && H.Lo && H.Lo->isValid() && H.Hi->isValid()) {
    R.Lo = H.Lo;
    R.Hi = H.Hi;
  }
  if (Parts.empty())
    return R;
  size_t Largest = 0;
  for (size_t I = 0; I < Parts.size(); ++I) {
    R.AtMost += Parts[I].AtMost;
    R.Exact &= Parts[I].Exact;
    R.Notes.insert(R.Notes.end(), Parts[I].Notes.begin(), Parts[I].Notes.end());
    R.Assumptions.insert(R.Assumptions.end(), Parts[I].Assumptions.begin(),
                         Parts[I].Assumptions.end());
    if (orderAtLargeSizes(Parts[I].AtLeast) > orderAtLargeSizes(Parts[Largest].AtLeast))
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

} // namespace

DistinctBytes distinctBytes(const std::vector<AffineAccess> &Accesses) {
  std::map<std::string, int64_t> Floors = sizeFloorsOf(Accesses);
  struct Scope {
    Scope(const std::map<std::string, int64_t> *F) { SizeFloors = F; }
    ~Scope() { SizeFloors = nullptr; }
  } InScope(&Floors);
  std::vector<Family> Families;
  std::vector<DistinctBytes> Parts;
  std::vector<std::pair<const AffineAccess *, Lattice>> Sometimes;
  Hull H;
  for (const AffineAccess &A : Accesses) {
    std::optional<Lattice> L;
    if (A.Known)
      L = latticeOf(A);
    if (L)
      H.widen(*L);
    else
      H.Known = false;
    if (!L) {
      DistinctBytes P;
      P.Exact = false;
      // Its bytes each run: summed only here, where they are needed.
      P.AtMost =
          A.Size * points(A.Dims, std::vector<bool>(A.Dims.size(), true));
      P.AtLeast = Polynomial(0);
      P.Notes.push_back("the address of the access at " + A.Where +
                        (A.DividesThreadIndex ? " divides the thread's index "
                                                "(its floor is not followed)"
                         : !A.Known ? " depends on data"
                                    : " is not an affine function of its loop "
                                      "counters") +
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
  for (const auto &[A, Shape] : Sometimes) {
    const Lattice &L = Shape; // (a lambda cannot capture a binding in C++17)
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
                      (A->SomeThreads ? " runs for some threads only (a guard on "
                                        "their index)"
                                      : " runs on some iterations only") +
                      ": its footprint is at most its lattice's bytes");
    Parts.push_back(P);
  }
  absorbPoints(Families);
  for (const Family &F : Families) {
    Parts.push_back(familyBytes(F));
    for (const Assumption &N : F.Shape.Needs)
      if (std::find(Parts.back().Assumptions.begin(), Parts.back().Assumptions.end(),
                    N) == Parts.back().Assumptions.end())
        Parts.back().Assumptions.push_back(N);
  }

  return combined(Parts, H);
}

} // namespace roofline
