//===- Atom.cpp - What a formula's variable stands for --------------------===//
#include "roofline/Model/Atom.h"
#include "roofline/Model/Formula.h"
#include "roofline/Model/Polynomial.h"

#include <algorithm>
#include <cctype>
#include <memory>
#include <mutex>
#include <unordered_map>

namespace roofline {

namespace {

bool startsWith(const std::string &S, const char *Prefix) {
  return S.rfind(Prefix, 0) == 0;
}

} // namespace

Atom Atom::intern(AtomKind K, std::string Name, const Polynomial *Num,
                  const Polynomial *Den) {
  // Never freed: atoms outlive any order of static destruction.
  static auto *Table = new std::unordered_map<std::string, std::unique_ptr<Data>>;
  static auto *Lock = new std::mutex;
  std::lock_guard<std::mutex> Guard(*Lock);
  std::string Key = Name;
  Key += char('0' + int(K)); // a parameter `unknown` is not the unknown
  auto [It, New] = Table->try_emplace(std::move(Key));
  if (New)
    It->second.reset(new Data{K, std::move(Name), nullptr, nullptr});
  Data &A = *It->second;
  if (A.Kind == AtomKind::Floor && !A.Num && Num) {
    A.Num = std::make_shared<const Polynomial>(*Num);
    A.Den = std::make_shared<const Polynomial>(*Den);
  }
  return Atom(&A);
}

Atom Atom::parameter(const std::string &Name) {
  return intern(AtomKind::Parameter, Name);
}

Atom Atom::named(const std::string &Name,
                 const std::vector<std::string> *Params) {
  if (Params && std::find(Params->begin(), Params->end(), Name) != Params->end())
    return parameter(Name);
  if (startsWith(Name, "floor(")) {
    // Read back from its text (a formula of a summary file).
    Result<Polynomial> P = formulaPolynomial(Name, Params);
    if (P && P->terms().size() == 1) {
      const auto &[M, C] = *P->terms().begin();
      if (M.size() == 1 && M[0].second == 1 && C == Rational(1) &&
          M[0].first.kind() == AtomKind::Floor)
        return M[0].first;
    }
    return opaqueFloor(Name);
  }
  if (startsWith(Name, "trip_L"))
    return intern(AtomKind::UnknownTrip, Name);
  if (startsWith(Name, "threadIdx.") || startsWith(Name, "blockIdx.") ||
      Name == "laneid")
    return intern(AtomKind::ThreadIndex, Name);
  if (startsWith(Name, "blockDim.") || startsWith(Name, "gridDim."))
    return intern(AtomKind::LaunchDim, Name);
  if (Name == "vscale")
    return intern(AtomKind::VScale, Name);
  if (Name == "unknown")
    return unknown();
  return parameter(Name);
}

Atom Atom::unknownTrip(const std::string &Where) {
  return intern(AtomKind::UnknownTrip, "trip_L" + Where);
}

Atom Atom::unknown() { return intern(AtomKind::Unknown, "unknown"); }

Atom Atom::floorOf(const Polynomial &N, const Polynomial &D, std::string Text) {
  return intern(AtomKind::Floor, std::move(Text), &N, &D);
}

Atom Atom::opaqueFloor(std::string Text) { return intern(AtomKind::Floor, std::move(Text)); }

template <typename Pred> bool Atom::involvesIf(Pred Is) const {
  if (Is(*this))
    return true;
  if (D->Kind != AtomKind::Floor)
    return false;
  if (!D->Num)
    return true; // an unreadable floor may mention anything
  for (const Polynomial *P : {D->Num.get(), D->Den.get()})
    for (const Atom &A : P->atoms())
      if (A.involvesIf(Is))
        return true;
  return false;
}

bool Atom::involves(const std::string &Other) const {
  return involvesIf([&](const Atom &A) { return A.name() == Other; });
}

bool Atom::involves(AtomKind K) const {
  return involvesIf([&](const Atom &A) { return A.kind() == K; });
}

} // namespace roofline
