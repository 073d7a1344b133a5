//===- Atom.cpp - What a formula's variable stands for --------------------===//
#include "roofline/Model/Atom.h"
#include "roofline/Model/Formula.h"
#include "roofline/Model/Polynomial.h"

#include <cctype>

namespace roofline {

namespace {

bool startsWith(const std::string &S, const char *Prefix) {
  return S.rfind(Prefix, 0) == 0;
}

} // namespace

Atom Atom::named(const std::string &Name) {
  if (startsWith(Name, "floor(")) {
    // Read back from its text (a formula of a summary file).
    Result<Polynomial> P = formulaPolynomial(Name);
    if (P && P->terms().size() == 1) {
      const auto &[M, C] = *P->terms().begin();
      if (M.size() == 1 && M[0].second == 1 && C == Rational(1) &&
          M[0].first.kind() == AtomKind::Floor)
        return M[0].first;
    }
    return opaqueFloor(Name);
  }
  if (startsWith(Name, "trip_L"))
    return Atom(AtomKind::UnknownTrip, Name);
  if (startsWith(Name, "threadIdx.") || startsWith(Name, "blockIdx.") ||
      Name == "laneid")
    return Atom(AtomKind::ThreadIndex, Name);
  if (startsWith(Name, "blockDim.") || startsWith(Name, "gridDim."))
    return Atom(AtomKind::LaunchDim, Name);
  if (Name == "vscale")
    return Atom(AtomKind::VScale, Name);
  if (Name == "unknown")
    return unknown();
  return Atom(AtomKind::Parameter, Name);
}

Atom Atom::unknownTrip(const std::string &Where) {
  return Atom(AtomKind::UnknownTrip, "trip_L" + Where);
}

Atom Atom::unknown() { return Atom(AtomKind::Unknown, "unknown"); }

Atom Atom::floorOf(const Polynomial &N, const Polynomial &D, std::string Text) {
  Atom A(AtomKind::Floor, std::move(Text));
  A.Num = std::make_shared<const Polynomial>(N);
  A.Den = std::make_shared<const Polynomial>(D);
  return A;
}

Atom Atom::opaqueFloor(std::string Text) { return Atom(AtomKind::Floor, std::move(Text)); }

template <typename Pred> bool Atom::involvesIf(Pred Is) const {
  if (Is(*this))
    return true;
  if (Kind != AtomKind::Floor)
    return false;
  if (!Num)
    return true; // an unreadable floor may mention anything
  for (const Polynomial *P : {Num.get(), Den.get()})
    for (const Atom &A : P->atoms())
      if (A.involvesIf(Is))
        return true;
  return false;
}

bool Atom::involves(const std::string &Other) const {
  return involvesIf([&](const Atom &A) { return A.Name == Other; });
}

bool Atom::involves(AtomKind K) const {
  return involvesIf([&](const Atom &A) { return A.Kind == K; });
}

} // namespace roofline
