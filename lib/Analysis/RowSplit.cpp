//===- RowSplit.cpp - An element index split into its rows' digits -------===//
//
// Element-wise GPU code reads its thread's element index i = k*g through
// division and remainder by parameters: row = i / C, col = i % C,
// t = row % T, b = row / T (llm.c's embedding, a bias `bias[i % C]`, a row
// scale `scale[i / C]`). Under the guard k*g < N with N a whole number of
// the divisors' product, g is written in the digits of its rows: each
// floor becomes a counter and the footprint is a box over them, exact.
//
//===----------------------------------------------------------------------===//
#include "Footprint.h"
#include "LaunchIndex.h"

#include <algorithm>

using namespace llvm;

namespace roofline::detail {

namespace {

/// \p N / \p D when \p D is one term that divides each of N's terms,
/// integer coefficients included (B*T*C / (C*T) = B); nullopt otherwise.
std::optional<Polynomial> exactQuotient(const Polynomial &N, const Polynomial &D) {
  if (D.terms().size() != 1 || !N.isValid() || !D.isValid())
    return std::nullopt;
  const auto &[DM, DC] = D.terms()[0];
  Polynomial Q;
  for (const auto &[M, C] : N.terms()) {
    std::map<std::string, std::pair<Atom, int>> Exps;
    for (const auto &[A, E] : M)
      Exps.insert({A.name(), {A, int(E)}});
    for (const auto &[A, E] : DM) {
      auto It = Exps.find(A.name());
      if (It == Exps.end() || It->second.second < int(E))
        return std::nullopt;
      It->second.second -= int(E);
    }
    Rational Coef = C / DC;
    if (Coef.den() != 1)
      return std::nullopt;
    Polynomial T(Coef);
    for (const auto &[Name, AE] : Exps)
      for (int I = 0; I < AE.second; ++I)
        T = T * Polynomial::atom(AE.first);
    Q += T;
  }
  return Q;
}

/// The floors in \p P's atoms, those inside floors too.
void floorsIn(const Polynomial &P, std::vector<Atom> &Out) {
  for (const Atom &T : P.atoms())
    if (T.kind() == AtomKind::Floor && T.numerator() && T.divisor()) {
      if (std::find(Out.begin(), Out.end(), T) == Out.end())
        Out.push_back(T);
      floorsIn(*T.numerator(), Out);
      floorsIn(*T.divisor(), Out);
    }
}

/// The floors of an element index k*E in an offset, as the digits of its
/// rows: floor(k*E/D1), floor(floor(k*E/D1)/D2) (or floor(k*E/(D1*D2))).
struct RowDigits {
  int64_t K = 1;
  std::vector<std::pair<Atom, Polynomial>> Floors; ///< each floor, its divisors' product
  std::vector<Polynomial> Products; ///< the distinct products, each dividing the next
  std::vector<Polynomial> Radix;    ///< Products[i] / Products[i-1]
};

std::optional<RowDigits> rowDigits(const Polynomial &Offset, const Polynomial &E) {
  std::vector<Atom> Floors;
  floorsIn(Offset, Floors);
  RowDigits RD;
  std::optional<Rational> K;
  for (size_t Grew = 1; Grew;) {
    Grew = 0;
    for (const Atom &F : Floors) {
      if (std::any_of(RD.Floors.begin(), RD.Floors.end(),
                      [&](const auto &C) { return C.first == F; }))
        continue;
      const Polynomial &Num = *F.numerator(), &Div = *F.divisor();
      if (Div.involves(AtomKind::ThreadIndex))
        return std::nullopt;
      std::optional<Polynomial> Product;
      if (auto R = Num.ratioTo(E); R && R->den() == 1 && R->num() > 0 && (!K || *K == *R)) {
        K = *R;
        Product = Div;
      }
      for (const auto &[Inner, P] : RD.Floors)
        if (Num == Polynomial::atom(Inner))
          Product = P * Div;
      if (Product)
        RD.Floors.push_back({F, *Product}), ++Grew;
    }
  }
  if (RD.Floors.empty())
    return std::nullopt;
  RD.K = int64_t(K->num());
  for (const auto &[F, P] : RD.Floors)
    if (std::find(RD.Products.begin(), RD.Products.end(), P) == RD.Products.end())
      RD.Products.push_back(P);
  std::sort(RD.Products.begin(), RD.Products.end(),
            [](const Polynomial &A, const Polynomial &B) {
              auto CA = A.constantValue(), CB = B.constantValue();
              if (CA && CB)
                return CA->toDouble() < CB->toDouble();
              return A.degree() != B.degree() ? A.degree() < B.degree()
                                              : A.str() < B.str();
            });
  for (size_t I = 1; I < RD.Products.size(); ++I) {
    std::optional<Polynomial> R = exactQuotient(RD.Products[I], RD.Products[I - 1]);
    if (!R || R->constantValue() == Rational(1))
      return std::nullopt;
    RD.Radix.push_back(*R);
  }
  return RD;
}

} // namespace

bool FootprintAnalysis::splitRows(Polynomial &Offset, std::vector<Dimension> &Dims,
                                  std::vector<Assumption> &Assumed, const char *Axis,
                                  const std::vector<Polynomial> &Facts) const {
  std::string Tid = std::string("threadIdx.") + Axis,
              Bid = std::string("blockIdx.") + Axis,
              BDim = std::string("blockDim.") + Axis,
              GDim = std::string("gridDim.") + Axis;
  Polynomial E = Polynomial::variable(Bid) * Polynomial::variable(BDim) +
                 Polynomial::variable(Tid);
  std::optional<RowDigits> RD = rowDigits(Offset, E);
  if (!RD || std::any_of(Dims.begin(), Dims.end(), [](const Dimension &D) {
        return D.Trip.involves(AtomKind::ThreadIndex);
      }))
    return false;
  int64_t K = RD->K;
  const std::vector<Polynomial> &Products = RD->Products, &Radix = RD->Radix;
  // A thread's k elements lie in one row: k divides the row (a constant
  // row must; a symbolic one is assumed to, below).
  std::optional<Rational> ConstantRow = Products[0].constantValue();
  if (ConstantRow && (ConstantRow->den() != 1 || ConstantRow->num() % K != 0))
    return false;
  // The guard k*E < N gives the outermost digit's count, N over the
  // product of every divisor, when it divides. Any other guard on the
  // index (i > 0) leaves some digits out: no split.
  std::optional<Polynomial> N;
  for (const Polynomial &Fact : Facts) {
    if (!mentionsAxis(Fact, Axis) || leavesNoThreadOut(Fact, Axis, warpSize(S.F)))
      continue;
    Polynomial Bound = Fact + Polynomial(K) * E;
    if (!Bound.isValid() || Bound.involves(AtomKind::ThreadIndex) || N)
      return false;
    N = Bound + Polynomial(1);
  }
  std::optional<Polynomial> Rows = N ? exactQuotient(*N, Products.back()) : std::nullopt;
  if (!Rows)
    return false;
  // Digits, innermost first: the k-element piece of a row, then one per
  // divisor; Level[i] is the floor of the i-th divisor product.
  size_t Levels = Products.size();
  auto Digit = [&](size_t I) {
    return Polynomial::variable("$digit" + std::to_string(I) + "." + Axis);
  };
  std::vector<Polynomial> Level(Levels + 1);
  Level[Levels] = Digit(Levels);
  for (size_t I = Levels - 1; I >= 1; --I)
    Level[I] = Radix[I - 1] * Level[I + 1] + Digit(I);
  Polynomial PiecesPerRow = Products[0] * Polynomial(Rational(1, K));
  std::map<std::string, Polynomial> Split;
  for (const auto &[F, P] : RD->Floors)
    Split[F.name()] =
        Level[1 + (std::find(Products.begin(), Products.end(), P) - Products.begin())];
  auto CT = coefficientOf(Offset, Tid), CB = coefficientOf(Offset, Bid);
  if (!CT || !CB || *CB != *CT * Polynomial::variable(BDim))
    return false;
  Polynomial O = Offset - *CT * E + *CT * (PiecesPerRow * Level[1] + Digit(0));
  O = substituteDeep(O, Split);
  if (mentionsAxis(O, Axis))
    return false;
  Offset = O;
  std::vector<Dimension> Digits{{"$digit0." + std::string(Axis), PiecesPerRow}};
  for (size_t I = 1; I < Levels; ++I)
    Digits.push_back({"$digit" + std::to_string(I) + "." + Axis, Radix[I - 1]});
  Digits.push_back({"$digit" + std::to_string(Levels) + "." + Axis, *Rows});
  Dims.insert(Dims.begin(), Digits.begin(), Digits.end());
  std::vector<std::string> Order(S.Params.begin(), S.Params.end());
  if (K > 1 && !ConstantRow)
    Assumed.push_back(Assumption::of(
        Condition::compare(Polynomial(K) * Polynomial::floorOf(Products[0], K),
                           Comparison::EQ, Products[0]),
        "", Order));
  // The launch covers the guard.
  Order.insert(Order.begin(), {GDim, BDim});
  Assumed.push_back(Assumption::of(
      Condition::compare(Polynomial::variable(GDim) * Polynomial::variable(BDim),
                         Comparison::GE,
                         Polynomial::floorOf(*N - Polynomial(1), K) + Polynomial(1)),
      "", Order));
  return true;
}

} // namespace roofline::detail
