//===- Polynomial.cpp - Closed-form count formulas ------------------------===//
#include "roofline/Model/Polynomial.h"

#include <algorithm>
#include <cmath>

namespace roofline {

Polynomial::Polynomial(Rational C) {
  if (!C.isValid())
    Valid = false;
  else if (!C.isZero())
    Terms.push_back({{}, C});
}

Polynomial Polynomial::variable(const std::string &Name) {
  return atom(Atom::named(Name));
}

Polynomial Polynomial::atom(const Atom &A) {
  Polynomial P;
  P.Terms.push_back({{{A, 1}}, Rational(1)});
  return P;
}

Polynomial Polynomial::invalid() {
  Polynomial P;
  P.Valid = false;
  return P;
}

Polynomial Polynomial::floorOf(const Polynomial &N, int64_t Divisor,
                               const std::vector<std::string> &Order) {
  if (!N.Valid || Divisor <= 0)
    return invalid();
  if (auto K = N.constantValue()) {
    // floor of a rational: round toward minus infinity.
    __int128 Num = K->num(), Den = __int128(K->den()) * Divisor;
    __int128 Q = Num / Den;
    if (Num % Den != 0 && Num < 0)
      --Q;
    return Polynomial(int64_t(Q));
  }
  if (Divisor == 1)
    return N;
  std::string Text = N.str(Order);
  if (Text.find_first_of(" ()") != std::string::npos || Text[0] == '-')
    Text = "(" + Text + ")";
  return atom(Atom::floorOf(N, Polynomial(Divisor),
                            "floor(" + Text + "/" + std::to_string(Divisor) + ")"));
}

Polynomial Polynomial::floorOf(const Polynomial &N, const Polynomial &D,
                               const std::vector<std::string> &Order) {
  if (!N.Valid || !D.Valid)
    return invalid();
  if (auto K = D.constantValue()) {
    if (K->den() != 1 || K->num() <= 0)
      return invalid();
    return floorOf(N, K->num(), Order);
  }
  auto Paren = [&](const Polynomial &P) {
    std::string T = P.str(Order);
    return T.find_first_of(" ()*/^") != std::string::npos || T[0] == '-'
               ? "(" + T + ")"
               : T;
  };
  return atom(Atom::floorOf(N, D, "floor(" + Paren(N) + "/" + Paren(D) + ")"));
}

static bool termLess(const Polynomial::Term &T, const Polynomial::Monomial &M) {
  return T.first < M;
}

void Polynomial::addTerm(const Monomial &M, const Rational &C) {
  if (!Valid)
    return;
  auto It = std::lower_bound(Terms.begin(), Terms.end(), M, termLess);
  bool New = It == Terms.end() || It->first != M;
  Rational Sum = New ? C : It->second + C;
  if (!Sum.isValid()) {
    Valid = false;
    Terms.clear();
    return;
  }
  if (Sum.isZero()) {
    if (!New)
      Terms.erase(It);
  } else if (New) {
    Terms.insert(It, {M, Sum});
  } else {
    It->second = Sum;
  }
}

void Polynomial::collect(std::vector<Term> Unsorted) {
  std::sort(Unsorted.begin(), Unsorted.end(),
            [](const Term &A, const Term &B) { return A.first < B.first; });
  Terms.reserve(Unsorted.size());
  for (size_t I = 0; I < Unsorted.size();) {
    Rational Sum = Unsorted[I].second;
    size_t J = I + 1;
    for (; J < Unsorted.size() && Unsorted[J].first == Unsorted[I].first; ++J)
      Sum = Sum + Unsorted[J].second;
    if (!Sum.isValid()) {
      *this = invalid();
      return;
    }
    if (!Sum.isZero())
      Terms.push_back({std::move(Unsorted[I].first), Sum});
    I = J;
  }
}

std::optional<Rational> Polynomial::constantValue() const {
  if (!Valid)
    return std::nullopt;
  if (Terms.empty())
    return Rational(0);
  if (Terms.size() == 1 && Terms.front().first.empty())
    return Terms.front().second;
  return std::nullopt;
}

Polynomial Polynomial::withoutConstant() const {
  Polynomial R = *this;
  if (!R.Terms.empty() && R.Terms.front().first.empty()) // sorts first
    R.Terms.erase(R.Terms.begin());
  return R;
}

Polynomial &Polynomial::operator+=(const Polynomial &O) {
  return addScaled(O, Rational(1));
}

Polynomial &Polynomial::addScaled(const Polynomial &O, const Rational &Scale) {
  if (Valid && O.Valid && Scale.isValid() && O.Terms.size() == 1) {
    Rational C = O.Terms.front().second * Scale;
    if (!C.isValid())
      return *this = invalid();
    if (!C.isZero())
      addTerm(O.Terms.front().first, C);
    return *this;
  }
  return *this = sum(*this, O, Scale);
}

Polynomial Polynomial::sum(const Polynomial &P, const Polynomial &O,
                           const Rational &Scale) {
  if (!P.Valid || !O.Valid || !Scale.isValid())
    return invalid();
  if (Scale.isZero() || O.Terms.empty())
    return P;
  bool One = Scale == Rational(1);
  // Every scaled coefficient first: one that overflows makes the product,
  // and so the sum, invalid.
  std::vector<Rational> Scaled;
  if (!One) {
    Scaled.reserve(O.Terms.size());
    for (const Term &T : O.Terms) {
      Scaled.push_back(T.second * Scale);
      if (!Scaled.back().isValid())
        return invalid();
    }
  }
  auto Coef = [&](size_t I) { return One ? O.Terms[I].second : Scaled[I]; };
  // Both sorted: merge.
  Polynomial R;
  R.Terms.reserve(P.Terms.size() + O.Terms.size());
  auto A = P.Terms.begin();
  size_t B = 0;
  while (A != P.Terms.end() || B != O.Terms.size()) {
    if (B == O.Terms.size() ||
        (A != P.Terms.end() && A->first < O.Terms[B].first)) {
      R.Terms.push_back(*A++);
    } else if (A == P.Terms.end() || O.Terms[B].first < A->first) {
      R.Terms.push_back({O.Terms[B].first, Coef(B)});
      ++B;
    } else {
      Rational C = A->second + Coef(B);
      if (!C.isValid())
        return invalid();
      if (!C.isZero())
        R.Terms.push_back({A->first, C});
      ++A;
      ++B;
    }
  }
  return R;
}

Polynomial Polynomial::operator+(const Polynomial &O) const {
  return sum(*this, O, Rational(1));
}

Polynomial Polynomial::operator-(const Polynomial &O) const {
  return sum(*this, O, Rational(-1));
}

static Polynomial::Monomial multiply(const Polynomial::Monomial &A,
                                     const Polynomial::Monomial &B) {
  Polynomial::Monomial R;
  size_t I = 0, J = 0;
  while (I < A.size() || J < B.size()) {
    if (J == B.size() || (I < A.size() && A[I].first < B[J].first))
      R.push_back(A[I++]);
    else if (I == A.size() || B[J].first < A[I].first)
      R.push_back(B[J++]);
    else {
      R.push_back({A[I].first, A[I].second + B[J].second});
      ++I;
      ++J;
    }
  }
  return R;
}

Polynomial Polynomial::operator*(const Polynomial &O) const {
  if (!Valid || !O.Valid)
    return invalid();
  // A constant factor scales each term: no monomial is rebuilt.
  for (auto [P, K] : {std::pair{this, &O}, std::pair{&O, this}})
    if (K->Terms.size() == 1 && K->Terms.begin()->first.empty()) {
      Rational C = K->Terms.begin()->second;
      Polynomial R = *P;
      if (C == Rational(1))
        return R;
      for (auto &[M, Coef] : R.Terms) {
        Coef = Coef * C;
        if (!Coef.isValid())
          return invalid();
      }
      return R;
    }
  std::vector<Term> Products;
  Products.reserve(Terms.size() * O.Terms.size());
  for (const auto &[MA, CA] : Terms)
    for (const auto &[MB, CB] : O.Terms) {
      Rational C = CA * CB;
      if (!C.isValid())
        return invalid();
      Products.push_back({multiply(MA, MB), C});
    }
  Polynomial R;
  R.collect(std::move(Products));
  return R;
}

static Polynomial power(const Polynomial &P, unsigned E) {
  Polynomial R(1);
  for (unsigned I = 0; I < E && R.isValid(); ++I)
    R = R * P;
  return R;
}

Polynomial
Polynomial::substitute(const std::map<std::string, Polynomial> &Values) const {
  if (!Valid)
    return invalid();
  // A floor takes the values in its operands: floor(N/D) becomes the floor
  // of N's and D's substitutions (exact when they are constants), unless
  // Values names the floor itself, which replaces it whole.
  std::map<std::string, Polynomial> WithFloors;
  const std::map<std::string, Polynomial> *All = &Values;
  for (const Atom &A : atoms()) {
    if (A.kind() != AtomKind::Floor || !A.numerator() || Values.count(A.name()))
      continue;
    Polynomial N = A.numerator()->substitute(Values);
    Polynomial D = A.divisor()->substitute(Values);
    if (N == *A.numerator() && D == *A.divisor())
      continue;
    if (All == &Values) {
      WithFloors = Values;
      All = &WithFloors;
    }
    WithFloors[A.name()] = floorOf(N, D);
  }
  Polynomial R;
  for (const auto &[M, C] : Terms) {
    Polynomial Term(C);
    Monomial Kept;
    for (const auto &[Var, Exp] : M) {
      auto It = All->find(Var.name());
      if (It == All->end())
        Kept.push_back({Var, Exp});
      else
        Term = Term * power(It->second, Exp);
    }
    Polynomial KeptP(1);
    if (!Kept.empty())
      KeptP.Terms.front().first = std::move(Kept);
    R += Term * KeptP;
  }
  return R;
}

/// Coefficients of S_k(T) = sum_{i=0}^{T-1} i^k as a polynomial in T, from
/// Faulhaber's formula with the Bernoulli numbers B_j (B_1 = -1/2):
///   S_k(T) = 1/(k+1) * sum_{j=0}^{k} C(k+1, j) * B_j * T^(k+1-j).
static std::vector<Rational> powerSumCoefficients(unsigned K) {
  static std::vector<Rational> Bernoulli;
  while (Bernoulli.size() <= K) {
    unsigned M = Bernoulli.size();
    if (M == 0) {
      Bernoulli.push_back(Rational(1));
      continue;
    }
    // sum_{j=0}^{m} C(m+1, j) B_j = 0  =>  B_m = -1/(m+1) sum_{j<m} C(m+1,j) B_j
    Rational Sum(0), Binom(1); // Binom = C(m+1, j)
    for (unsigned J = 0; J < M; ++J) {
      Sum = Sum + Binom * Bernoulli[J];
      Binom = Binom * Rational(M + 1 - J) / Rational(J + 1);
    }
    Bernoulli.push_back(-Sum / Rational(M + 1));
  }
  std::vector<Rational> Coeff(K + 2, Rational(0)); // index = power of T
  Rational Binom(1);                                // C(k+1, j)
  for (unsigned J = 0; J <= K; ++J) {
    Coeff[K + 1 - J] = Binom * Bernoulli[J] / Rational(K + 1);
    Binom = Binom * Rational(K + 1 - J) / Rational(J + 1);
  }
  return Coeff;
}

Polynomial Polynomial::sumOver(const std::string &Var,
                               const Polynomial &Count) const {
  std::vector<Polynomial> PowerSums;
  return sumOver(Var, Count, PowerSums);
}

Polynomial Polynomial::sumOver(const std::string &Var, const Polynomial &Count,
                               std::vector<Polynomial> &PowerSums) const {
  if (!Valid || !Count.Valid)
    return invalid();
  // Group terms by the power of Var: this = sum_k Coef_k * Var^k.
  std::map<unsigned, Polynomial> ByPower;
  for (const auto &[M, C] : Terms) {
    unsigned K = 0;
    Monomial Rest;
    for (const auto &VE : M) {
      if (VE.first.name() == Var)
        K = VE.second;
      else
        Rest.push_back(VE);
    }
    Polynomial Part;
    Part.Terms.push_back({std::move(Rest), C});
    ByPower[K] += Part;
  }
  Polynomial R;
  for (const auto &[K, Coef] : ByPower) {
    if (PowerSums.size() <= K)
      PowerSums.resize(K + 1, invalid()); // invalid: not computed yet
    if (!PowerSums[K].isValid()) {
      std::vector<Rational> S = powerSumCoefficients(K);
      Polynomial SumK;
      for (unsigned E = 0; E < S.size(); ++E)
        if (!S[E].isZero())
          SumK.addScaled(power(Count, E), S[E]);
      if (!SumK.isValid())
        return invalid();
      PowerSums[K] = SumK;
    }
    R += Coef * PowerSums[K];
  }
  return R;
}

bool Polynomial::mentions(const std::string &Var) const {
  for (const auto &[M, C] : Terms)
    for (const auto &VE : M)
      if (VE.first.name() == Var)
        return true;
  return false;
}

std::set<std::string> Polynomial::variables() const {
  std::set<std::string> Vars;
  for (const auto &[M, C] : Terms)
    for (const auto &VE : M)
      Vars.insert(VE.first.name());
  return Vars;
}

std::optional<std::set<std::string>> Polynomial::leafVariables() const {
  if (!Valid)
    return std::nullopt;
  std::set<std::string> Vars;
  for (const auto &[M, C] : Terms)
    for (const auto &[A, Exp] : M) {
      if (A.kind() == AtomKind::Unknown)
        return std::nullopt;
      if (A.kind() != AtomKind::Floor) {
        Vars.insert(A.name());
        continue;
      }
      if (!A.numerator())
        return std::nullopt;
      for (const Polynomial *Operand : {A.numerator(), A.divisor()}) {
        std::optional<std::set<std::string>> Sub = Operand->leafVariables();
        if (!Sub)
          return std::nullopt;
        Vars.insert(Sub->begin(), Sub->end());
      }
    }
  return Vars;
}

std::vector<Atom> Polynomial::atoms() const {
  std::vector<Atom> All;
  for (const auto &[M, C] : Terms)
    for (const auto &VE : M)
      if (std::find(All.begin(), All.end(), VE.first) == All.end())
        All.push_back(VE.first);
  std::sort(All.begin(), All.end());
  return All;
}

bool Polynomial::involves(AtomKind K) const {
  for (const auto &[M, C] : Terms)
    for (const auto &VE : M)
      if (VE.first.involves(K))
        return true;
  return false;
}

static unsigned totalDegree(const Polynomial::Monomial &M) {
  unsigned D = 0;
  for (const auto &VE : M)
    D += VE.second;
  return D;
}

unsigned Polynomial::degree() const {
  unsigned D = 0;
  for (const auto &[M, C] : Terms)
    D = std::max(D, totalDegree(M));
  return D;
}

Polynomial Polynomial::leadingTerms() const {
  if (!Valid)
    return invalid();
  unsigned D = degree();
  Polynomial R;
  for (const Term &T : Terms)
    if (totalDegree(T.first) == D)
      R.Terms.push_back(T); // stays sorted
  return R;
}

std::optional<Rational> Polynomial::ratioTo(const Polynomial &O) const {
  if (!Valid || !O.Valid || O.Terms.empty() || Terms.size() != O.Terms.size())
    return std::nullopt;
  std::optional<Rational> Ratio;
  for (const auto &[M, C] : Terms) {
    auto It = std::lower_bound(O.Terms.begin(), O.Terms.end(), M, termLess);
    if (It == O.Terms.end() || It->first != M)
      return std::nullopt;
    Rational R = C / It->second;
    if (Ratio && *Ratio != R)
      return std::nullopt;
    Ratio = R;
  }
  return Ratio;
}

std::optional<double>
Polynomial::evaluate(const std::map<std::string, double> &Values) const {
  if (!Valid)
    return std::nullopt;
  double Sum = 0;
  for (const auto &[M, C] : Terms) {
    double Term = C.toDouble();
    for (const auto &[Var, Exp] : M) {
      std::optional<double> V;
      if (auto It = Values.find(Var.name()); It != Values.end())
        V = It->second;
      else if (Var.kind() == AtomKind::Floor && Var.numerator()) {
        auto N = Var.numerator()->evaluate(Values);
        auto D = Var.divisor()->evaluate(Values);
        if (N && D && *D != 0)
          V = std::floor(*N / *D + FloorSlack);
      }
      if (!V)
        return std::nullopt;
      for (unsigned E = 0; E < Exp; ++E) // exponents are small
        Term *= *V;
    }
    Sum += Term;
  }
  return Sum;
}

std::string Polynomial::str(const std::vector<std::string> &Order) const {
  // A count past 64-bit coefficients is written as the unknown `unknown`:
  // a formula the report cannot evaluate without --assume, never a number.
  if (!Valid)
    return "unknown";
  if (Terms.empty())
    return "0";
  auto Rank = [&](const std::string &V) {
    auto It = std::find(Order.begin(), Order.end(), V);
    return It == Order.end() ? Order.size() : size_t(It - Order.begin());
  };
  auto VarLess = [&](const std::pair<Atom, unsigned> &A,
                     const std::pair<Atom, unsigned> &B) {
    size_t RA = Rank(A.first.name()), RB = Rank(B.first.name());
    return RA != RB ? RA < RB : A.first < B.first;
  };
  struct Printed {
    Monomial Vars;
    Rational Coef;
  };
  std::vector<Printed> Sorted;
  // One common denominator reads best, when it fits in 64 bits and every
  // scaled coefficient does too; otherwise each term keeps its own.
  int64_t Den = 1;
  for (const auto &[M, C] : Terms) {
    Monomial V = M;
    std::sort(V.begin(), V.end(), VarLess);
    Sorted.push_back({V, C});
    if (Den && __builtin_mul_overflow(Den / gcd64(Den, C.den()), C.den(), &Den))
      Den = 0;
  }
  for (const Printed &T : Sorted)
    if (Den && !(T.Coef * Rational(Den)).isValid())
      Den = 0;
  std::stable_sort(Sorted.begin(), Sorted.end(),
                   [&](const Printed &A, const Printed &B) {
                     unsigned DA = totalDegree(A.Vars), DB = totalDegree(B.Vars);
                     if (DA != DB)
                       return DA > DB;
                     return std::lexicographical_compare(
                         A.Vars.begin(), A.Vars.end(), B.Vars.begin(),
                         B.Vars.end(), [&](const auto &X, const auto &Y) {
                           if (X.first != Y.first)
                             return VarLess(X, Y);
                           return X.second > Y.second;
                         });
                   });
  std::string Out;
  for (const Printed &T : Sorted) {
    Rational Scaled = Den ? T.Coef * Rational(Den) : T.Coef;
    int64_t C = Scaled.num();
    bool Negative = C < 0;
    int64_t Abs = Negative ? -C : C;
    // Without a common denominator: "3/7*n" (the grammar reads it back).
    std::string OwnDen =
        !Den && Scaled.den() != 1 ? "/" + std::to_string(Scaled.den()) : "";
    if (Out.empty())
      Out += Negative ? "-" : "";
    else
      Out += Negative ? " - " : " + ";
    std::string Vars;
    for (const auto &[Var, Exp] : T.Vars) {
      if (!Vars.empty())
        Vars += "*";
      Vars += Var.name();
      if (Exp > 1)
        Vars += "^" + std::to_string(Exp);
    }
    if (Vars.empty())
      Out += std::to_string(Abs) + OwnDen;
    else if (Abs == 1 && OwnDen.empty())
      Out += Vars;
    else
      Out += std::to_string(Abs) + OwnDen + "*" + Vars;
  }
  if (Den <= 1)
    return Out;
  if (Sorted.size() == 1)
    return Out + "/" + std::to_string(Den);
  return "(" + Out + ")/" + std::to_string(Den);
}

} // namespace roofline
