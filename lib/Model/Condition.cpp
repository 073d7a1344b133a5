//===- Condition.cpp - An assumption of the counts, typed -----------------===//
#include "roofline/Model/Condition.h"
#include "roofline/Model/Formula.h"

#include <cctype>
#include <cstdint>
#include <cstring>

namespace roofline {

namespace {

struct Operator {
  const char *Text;
  Comparison Op;
};
// Two-character operators first: " >= " is not " > ".
constexpr Operator Operators[] = {
    {" >= ", Comparison::GE}, {" <= ", Comparison::LE},
    {" != ", Comparison::NE}, {" == ", Comparison::EQ},
    {" > ", Comparison::GT},  {" < ", Comparison::LT}};

const char *spelling(Comparison Op) {
  for (const Operator &O : Operators)
    if (O.Op == Op)
      return O.Text;
  return " ? ";
}

/// The positions of \p Sep in \p S outside parentheses.
std::vector<size_t> topLevel(const std::string &S, const char *Sep) {
  std::vector<size_t> At;
  int Depth = 0;
  size_t N = std::strlen(Sep);
  for (size_t I = 0; I < S.size(); ++I) {
    Depth += S[I] == '(' ? 1 : S[I] == ')' ? -1 : 0;
    if (Depth == 0 && S.compare(I, N, Sep) == 0)
      At.push_back(I);
  }
  return At;
}

/// \p S cut at the top-level \p Sep.
std::vector<std::string> splitTop(const std::string &S, const char *Sep) {
  std::vector<std::string> Out;
  size_t From = 0;
  for (size_t At : topLevel(S, Sep)) {
    Out.push_back(S.substr(From, At - From));
    From = At + std::strlen(Sep);
  }
  Out.push_back(S.substr(From));
  return Out;
}

/// The whole of \p S is one parenthesised group.
bool isGroup(const std::string &S) {
  if (S.size() < 2 || S.front() != '(' || S.back() != ')')
    return false;
  int Depth = 0;
  for (size_t I = 0; I < S.size(); ++I) {
    Depth += S[I] == '(' ? 1 : S[I] == ')' ? -1 : 0;
    if (Depth == 0 && I + 1 < S.size())
      return false;
  }
  return true;
}

Result<Condition> parseCondition(const std::string &S, ParamNames Params);

Result<Condition> parseComparison(const std::string &S, ParamNames Params) {
  for (const Operator &O : Operators) {
    std::vector<size_t> At = topLevel(S, O.Text);
    if (At.empty())
      continue;
    if (At.size() > 1)
      return Failure{"'" + S + "': more than one comparison"};
    Result<Polynomial> L = formulaPolynomial(S.substr(0, At[0]), Params);
    if (!L)
      return Failure{L.error()};
    Result<Polynomial> R =
        formulaPolynomial(S.substr(At[0] + std::strlen(O.Text)), Params);
    if (!R)
      return Failure{R.error()};
    return Condition::compare(*L, O.Op, *R);
  }
  if (isGroup(S))
    return parseCondition(S.substr(1, S.size() - 2), Params);
  return Failure{"'" + S + "': expected a comparison"};
}

Result<Condition>
parseJunction(const std::string &S, const char *Sep, Condition::Kind K,
              Result<Condition> (*Part)(const std::string &, ParamNames),
              ParamNames Params) {
  std::vector<std::string> Pieces = splitTop(S, Sep);
  if (Pieces.size() == 1)
    return Part(S, Params);
  Condition C;
  C.K = K;
  for (const std::string &P : Pieces) {
    Result<Condition> Sub = Part(P, Params);
    if (!Sub)
      return Sub;
    C.Parts.push_back(*Sub);
  }
  return C;
}

Result<Condition> parseConjunction(const std::string &S, ParamNames Params) {
  return parseJunction(S, " && ", Condition::Kind::All, parseComparison,
                       Params);
}

Result<Condition> parseCondition(const std::string &S, ParamNames Params) {
  return parseJunction(S, " || ", Condition::Kind::Any, parseConjunction,
                       Params);
}

/// Where the words after the condition begin: " (" after an operand (not
/// after an operator, where a parenthesis is the formula's), or " in " or
/// " for " after a comparison, outside parentheses; npos when none.
size_t originStart(const std::string &S) {
  int Depth = 0;
  bool Compared = false; // a comparison since the last && or ||
  bool GroupCompared = false; // one inside the open parentheses
  for (size_t I = 0; I < S.size(); ++I) {
    char C = S[I];
    if (Depth > 0) {
      for (const Operator &O : Operators)
        GroupCompared |= S.compare(I, std::strlen(O.Text), O.Text) == 0;
      // A group of comparisons, "(a > 1 || b > 2)", is one.
      if (C == ')' && Depth == 1 && GroupCompared)
        Compared = true;
    }
    if (C == '(' && Depth == 0)
      GroupCompared = false;
    if (Depth == 0) {
      if (S.compare(I, 4, " && ") == 0 || S.compare(I, 4, " || ") == 0)
        Compared = false;
      for (const Operator &O : Operators)
        Compared |= S.compare(I, std::strlen(O.Text), O.Text) == 0;
      bool AfterOperand =
          I > 0 && (std::isalnum((unsigned char)S[I - 1]) || S[I - 1] == ')' ||
                    S[I - 1] == '_' || S[I - 1] == '.');
      if (Compared && AfterOperand &&
          (S.compare(I, 2, " (") == 0 || S.compare(I, 4, " in ") == 0 ||
           S.compare(I, 5, " for ") == 0))
        return I;
    }
    Depth += C == '(' ? 1 : C == ')' ? -1 : 0;
  }
  return std::string::npos;
}

void collectVariables(const Polynomial &P, std::set<std::string> &Vars,
                      bool &Opaque) {
  if (std::optional<std::set<std::string>> Leaves = P.leafVariables())
    Vars.insert(Leaves->begin(), Leaves->end());
  else
    Opaque = true;
}

void collectVariables(const Condition &C, std::set<std::string> &Vars,
                      bool &Opaque) {
  if (C.K == Condition::Kind::Compare) {
    collectVariables(C.Lhs, Vars, Opaque);
    if (!C.WideRhs)
      collectVariables(C.Rhs, Vars, Opaque);
  }
  for (const Condition &P : C.Parts)
    collectVariables(P, Vars, Opaque);
}

} // namespace

bool compare(double X, Comparison Op, double Y) {
  switch (Op) {
  case Comparison::GE: return X >= Y;
  case Comparison::LE: return X <= Y;
  case Comparison::GT: return X > Y;
  case Comparison::LT: return X < Y;
  case Comparison::EQ: return X == Y;
  case Comparison::NE: return X != Y;
  }
  return false;
}

Condition Condition::compare(Polynomial L, Comparison Op, Polynomial R) {
  Condition C;
  C.K = Kind::Compare;
  C.Lhs = std::move(L);
  C.Op = Op;
  C.Rhs = std::move(R);
  return C;
}

Condition Condition::compare(Polynomial L, Comparison Op, __int128 R) {
  if (R >= INT64_MIN && R <= INT64_MAX)
    return compare(std::move(L), Op, Polynomial(int64_t(R)));
  Condition C = compare(std::move(L), Op, Polynomial(0));
  C.WideRhs = R;
  return C;
}

Condition Condition::junction(bool All, std::vector<Condition> Parts) {
  Condition C;
  C.K = All ? Kind::All : Kind::Any;
  C.Parts = std::move(Parts);
  return C;
}

bool Condition::hasWideConstant() const {
  if (WideRhs)
    return true;
  for (const Condition &P : Parts)
    if (P.hasWideConstant())
      return true;
  return false;
}

std::optional<std::set<std::string>> Condition::variables() const {
  std::set<std::string> Vars;
  bool Opaque = false;
  collectVariables(*this, Vars, Opaque);
  if (Opaque)
    return std::nullopt;
  return Vars;
}

std::optional<bool>
Condition::holds(const std::map<std::string, double> &Values) const {
  if (K == Kind::Compare) {
    std::optional<double> X = Lhs.evaluate(Values),
                          Y = WideRhs ? std::optional<double>(double(*WideRhs))
                                      : Rhs.evaluate(Values);
    if (!X || !Y)
      return std::nullopt;
    return roofline::compare(*X, Op, *Y);
  }
  bool All = K == Kind::All;
  for (const Condition &P : Parts) {
    std::optional<bool> H = P.holds(Values);
    if (!H)
      return std::nullopt;
    if (*H != All)
      return !All;
  }
  return All;
}

/// The decimal digits of \p V.
static std::string decimal(__int128 V) {
  unsigned __int128 U = V < 0 ? -(unsigned __int128)V : V;
  std::string Digits;
  do {
    Digits.insert(Digits.begin(), char('0' + int(U % 10)));
    U /= 10;
  } while (U);
  return (V < 0 ? "-" : "") + Digits;
}

std::string Condition::str(const std::vector<std::string> &Order) const {
  if (K == Kind::Compare)
    return Lhs.str(Order) + spelling(Op) +
           (WideRhs ? decimal(*WideRhs) : Rhs.str(Order));
  const char *Join = K == Kind::All ? " && " : " || ";
  const char *Other = K == Kind::All ? " || " : " && ";
  std::string Out;
  for (const Condition &P : Parts) {
    std::string S = P.str(Order);
    if (S.find(Other) != std::string::npos)
      S = "(" + S + ")";
    Out += (Out.empty() ? "" : Join) + S;
  }
  return Out;
}

Assumption Assumption::of(Condition Test, std::string Origin,
                          std::vector<std::string> Order) {
  Assumption A;
  A.Test = std::move(Test);
  A.Origin = std::move(Origin);
  A.Order = std::move(Order);
  return A;
}

Assumption Assumption::words(std::string Words) {
  Assumption A;
  A.Words = std::move(Words);
  return A;
}

Assumption Assumption::nonNegative(Polynomial P) {
  return of(Condition::compare(std::move(P), Comparison::GE, Polynomial(0)), "",
            {});
}

std::string Assumption::str() const {
  return (isCondition() ? Test.str(Order) : Words) + Origin;
}

std::vector<std::string> texts(const std::vector<Assumption> &List) {
  std::vector<std::string> Out;
  for (const Assumption &A : List)
    Out.push_back(A.str());
  return Out;
}

Result<Assumption> parseAssumption(const std::string &Text,
                                   ParamNames Params) {
  size_t At = originStart(Text);
  Result<Condition> C = parseCondition(Text.substr(0, At), Params);
  if (!C)
    return Failure{"assumption '" + Text + "': " + C.error()};
  return Assumption::of(*C, At == std::string::npos ? "" : Text.substr(At), {});
}

} // namespace roofline
