//===- Formula.cpp - The summary's count formulas -------------------------===//
#include "roofline/Model/Formula.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <memory>
#include <vector>

namespace roofline {

namespace {

/// The parse of a formula's text, read at once into a Polynomial (Atom
/// leaves); nothing evaluates it. Floor's argument is L.
struct Node {
  enum Kind { Number, Variable, Add, Sub, Mul, Div, Pow, Neg, Floor } K;
  double Value = 0;
  std::string Name; // variable name, or floor's argument text
  std::unique_ptr<Node> L, R;
};
using NodePtr = std::unique_ptr<Node>;

/// expr := term (('+'|'-') term)*; term := unary (('*'|'/') unary)*;
/// unary := '-' unary | power; power := atom ('^' unary)?;
/// atom := number | name | 'floor' '(' expr ')' | '(' expr ')'.
class Parser {
public:
  explicit Parser(const std::string &Text) : S(Text) {}

  NodePtr parse() {
    NodePtr N = expr();
    skip();
    if (Error.empty() && Pos != S.size())
      fail("unexpected '" + std::string(1, S[Pos]) + "'");
    return Error.empty() ? std::move(N) : nullptr;
  }
  std::string Error;

private:
  void skip() {
    while (Pos < S.size() && std::isspace((unsigned char)S[Pos]))
      ++Pos;
  }
  bool eat(char C) {
    skip();
    if (Pos < S.size() && S[Pos] == C) {
      ++Pos;
      return true;
    }
    return false;
  }
  NodePtr fail(const std::string &Why) {
    if (Error.empty())
      Error = Why + " at column " + std::to_string(Pos + 1);
    return nullptr;
  }
  static NodePtr make(Node::Kind K, NodePtr L, NodePtr R) {
    auto N = std::make_unique<Node>();
    N->K = K;
    N->L = std::move(L);
    N->R = std::move(R);
    return N;
  }
  /// One left-associative level: Next (op Next)*, with the two operators
  /// of the level and their node kinds.
  template <typename NextFn>
  NodePtr level(NextFn Next, char Op1, Node::Kind K1, char Op2, Node::Kind K2) {
    NodePtr L = (this->*Next)();
    while (L) {
      if (eat(Op1))
        L = make(K1, std::move(L), (this->*Next)());
      else if (eat(Op2))
        L = make(K2, std::move(L), (this->*Next)());
      else
        break;
      if (!L->R)
        return nullptr;
    }
    return L;
  }
  NodePtr expr() { return level(&Parser::term, '+', Node::Add, '-', Node::Sub); }
  NodePtr term() { return level(&Parser::unary, '*', Node::Mul, '/', Node::Div); }
  NodePtr unary() {
    if (++Depth > 200)
      return fail("nesting too deep");
    NodePtr N;
    if (eat('-')) {
      NodePtr Op = unary();
      N = Op ? make(Node::Neg, std::move(Op), nullptr) : nullptr;
    } else {
      N = power();
    }
    --Depth;
    return N;
  }
  NodePtr power() {
    NodePtr Base = atom();
    if (Base && eat('^')) {
      NodePtr Exp = unary();
      if (!Exp)
        return nullptr;
      return make(Node::Pow, std::move(Base), std::move(Exp));
    }
    return Base;
  }
  NodePtr atom() {
    skip();
    if (Pos >= S.size())
      return fail("unexpected end of formula");
    char C = S[Pos];
    if (std::isdigit((unsigned char)C) || C == '.') {
      size_t Start = Pos;
      while (Pos < S.size() &&
             (std::isdigit((unsigned char)S[Pos]) || S[Pos] == '.' ||
              S[Pos] == 'e' || S[Pos] == 'E' ||
              ((S[Pos] == '+' || S[Pos] == '-') &&
               (S[Pos - 1] == 'e' || S[Pos - 1] == 'E'))))
        ++Pos;
      auto N = std::make_unique<Node>();
      N->K = Node::Number;
      char *End = nullptr;
      std::string Lit = S.substr(Start, Pos - Start);
      N->Value = std::strtod(Lit.c_str(), &End);
      if (!End || *End)
        return fail("bad number '" + Lit + "'");
      N->Name = Lit; // an integer's digits: exact past a double's 2^53
      return N;
    }
    if (std::isalpha((unsigned char)C) || C == '_') {
      size_t Start = Pos;
      while (Pos < S.size() && (std::isalnum((unsigned char)S[Pos]) ||
                                S[Pos] == '_' || S[Pos] == '.'))
        ++Pos;
      std::string Name = S.substr(Start, Pos - Start);
      if (Name == "floor") {
        if (!eat('('))
          return fail("expected '(' after floor");
        skip();
        size_t ArgStart = Pos;
        NodePtr Arg = expr();
        if (!Arg)
          return nullptr;
        size_t ArgEnd = Pos;
        if (!eat(')'))
          return fail("expected ')'");
        auto N = make(Node::Floor, std::move(Arg), nullptr);
        std::string ArgText = S.substr(ArgStart, ArgEnd - ArgStart);
        while (!ArgText.empty() && std::isspace((unsigned char)ArgText.back()))
          ArgText.pop_back();
        N->Name = ArgText;
        return N;
      }
      auto N = std::make_unique<Node>();
      N->K = Node::Variable;
      N->Name = Name;
      return N;
    }
    if (eat('(')) {
      NodePtr N = expr();
      if (N && !eat(')'))
        return fail("expected ')'");
      return N;
    }
    return fail("unexpected '" + std::string(1, C) + "'");
  }

  const std::string &S;
  size_t Pos = 0;
  unsigned Depth = 0;
};

Result<NodePtr> parse(const std::string &Text) {
  Parser P(Text);
  NodePtr N = P.parse();
  if (!N)
    return Failure{"formula '" + Text + "': " + P.Error};
  return N;
}

Result<Polynomial> toPolynomial(const Node &N, ParamNames Params) {
  auto Both = [&](auto Op) -> Result<Polynomial> {
    Result<Polynomial> L = toPolynomial(*N.L, Params);
    if (!L)
      return L;
    Result<Polynomial> R = toPolynomial(*N.R, Params);
    if (!R)
      return R;
    return Op(*L, *R);
  };
  switch (N.K) {
  case Node::Number: {
    // An integer (a summary writes a rational's numerator and denominator
    // as 64-bit integers: 10332931395676725/72057594037927936), or a
    // decimal with few enough digits to be exact (1.5 is 3/2): a
    // coefficient is a rational.
    if (N.Name.find_first_not_of("0123456789") == std::string::npos) {
      errno = 0;
      long long V = std::strtoll(N.Name.c_str(), nullptr, 10);
      if (errno != ERANGE)
        return Polynomial(Rational(int64_t(V)));
    }
    double Scale = 1;
    for (int Digits = 0; Digits <= 9; ++Digits, Scale *= 10) {
      double V = N.Value * Scale;
      if (V == std::floor(V) && std::fabs(V) <= 9e15)
        return Polynomial(Rational(int64_t(V), int64_t(Scale)));
    }
    return Failure{"constant too large or not exact"};
  }
  case Node::Variable:
    return Polynomial::atom(Atom::named(N.Name, Params));
  case Node::Floor: {
    // floor(A/B): a floor atom with its operands, when both are polynomials.
    std::string Text = "floor(" + N.Name + ")";
    const Node &Arg = *N.L;
    Result<Polynomial> Num = toPolynomial(Arg.K == Node::Div ? *Arg.L : Arg, Params);
    Result<Polynomial> Den = Arg.K == Node::Div ? toPolynomial(*Arg.R, Params)
                                                : Result<Polynomial>(Polynomial(1));
    if (!Num || !Den)
      return Polynomial::atom(Atom::opaqueFloor(Text));
    return Polynomial::atom(Atom::floorOf(*Num, *Den, Text));
  }
  case Node::Add:
    return Both([](const Polynomial &A, const Polynomial &B) { return A + B; });
  case Node::Sub:
    return Both([](const Polynomial &A, const Polynomial &B) { return A - B; });
  case Node::Mul:
    return Both([](const Polynomial &A, const Polynomial &B) { return A * B; });
  case Node::Neg: {
    Result<Polynomial> L = toPolynomial(*N.L, Params);
    if (!L)
      return L;
    return Polynomial(-1) * *L;
  }
  case Node::Div:
    return Both([](const Polynomial &A, const Polynomial &B) -> Result<Polynomial> {
      auto C = B.constantValue();
      if (!C || C->isZero())
        return Failure{"division by a non-constant"};
      return A * Polynomial(Rational(1) / *C);
    });
  case Node::Pow:
    return Both([](const Polynomial &A, const Polynomial &B) -> Result<Polynomial> {
      auto E = B.constantValue();
      if (!E || !E->isInteger() || E->num() < 0 || E->num() > 64)
        return Failure{"exponent must be a small non-negative integer"};
      Polynomial P(1);
      for (int64_t I = 0; I < E->num(); ++I)
        P = P * A;
      return P;
    });
  }
  return Failure{"unknown node"};
}

} // namespace

Result<Polynomial> formulaPolynomial(const std::string &Text, ParamNames Params) {
  Result<NodePtr> N = parse(Text);
  if (!N)
    return Failure{N.error()};
  Result<Polynomial> P = toPolynomial(**N, Params);
  if (!P)
    return Failure{"formula '" + Text + "': " + P.error()};
  return P;
}

namespace {

using Values = std::map<std::string, double>;

/// The atoms \p P's value is read from: its own, a floor's operands' in
/// place of the floor (one that has them).
void leafAtoms(const Polynomial &P, std::set<Atom> &Leaves) {
  for (const Atom &A : P.atoms()) {
    if (A.kind() == AtomKind::Floor && A.numerator()) {
      leafAtoms(*A.numerator(), Leaves);
      leafAtoms(*A.divisor(), Leaves);
    } else {
      Leaves.insert(A);
    }
  }
}

/// Their names: what a value binds.
void leafNames(const Polynomial &P, std::set<std::string> &Names) {
  std::set<Atom> Leaves;
  leafAtoms(P, Leaves);
  for (const Atom &A : Leaves)
    Names.insert(A.name());
}

/// Whether \p P reads a variable that varies within a launch (threadIdx,
/// blockIdx, laneid), or the one named \p Name of that kind.
bool readsThreadIndex(const Polynomial &P, const char *Name = nullptr) {
  std::set<Atom> Leaves;
  leafAtoms(P, Leaves);
  return std::any_of(Leaves.begin(), Leaves.end(), [&](const Atom &A) {
    return A.kind() == AtomKind::ThreadIndex && (!Name || A.name() == Name);
  });
}

/// The first of \p Names without a value, as the error that asks for it.
std::optional<Failure> missingValue(const std::string &Text,
                                    const std::set<std::string> &Names,
                                    const Values &Bound) {
  for (const std::string &Name : Names)
    if (!Bound.count(Name))
      return Failure{"formula '" + Text + "' needs a value for '" + Name +
                     "' (give it with --assume " + Name + "=VALUE)"};
  return std::nullopt;
}

/// The index variables a per-thread formula may range over, with the
/// launch dimension each one runs through.
struct IndexRange {
  const char *Name;
  bool InBlock; // threadIdx: through the block; blockIdx: through the grid
  int Axis;
};
constexpr IndexRange IndexRanges[] = {
    {"threadIdx.x", true, 0}, {"threadIdx.y", true, 1}, {"threadIdx.z", true, 2},
    {"blockIdx.x", false, 0}, {"blockIdx.y", false, 1}, {"blockIdx.z", false, 2}};

/// evaluatePerThreadMean of \p P, spelled \p Text in errors: every value
/// comes from Polynomial::evaluate.
Result<double> perThreadMean(const Polynomial &P, const std::string &Text,
                             Values Bound, const LaunchDims &Dims) {
  if (!P.isValid())
    return Failure{"formula '" + Text + "' cannot be evaluated (overflow)"};
  const char *Axes[] = {"x", "y", "z"};
  for (int A = 0; A < 3; ++A) {
    Bound.try_emplace(std::string("blockDim.") + Axes[A], Dims.Block[A]);
    Bound.try_emplace(std::string("gridDim.") + Axes[A], Dims.Grid[A]);
  }
  // Each index the formula mentions runs through its dimension (the lane
  // through all three of the block's); at most 2^20 points, evenly strided
  // beyond that.
  std::set<std::string> Names;
  leafNames(P, Names);
  bool Lane = readsThreadIndex(P, "laneid") && !Bound.count("laneid");
  struct Axis { std::string Name; double Size, Stride = 1; };
  std::vector<Axis> Run;
  for (const IndexRange &R : IndexRanges)
    if ((Names.count(R.Name) || (Lane && R.InBlock)) && !Bound.count(R.Name))
      Run.push_back({R.Name, std::max(1.0, R.InBlock ? Dims.Block[R.Axis]
                                                     : Dims.Grid[R.Axis])});
  for (const Axis &A : Run)
    Bound[A.Name] = 0;
  if (Lane)
    Bound["laneid"] = 0;
  if (std::optional<Failure> Missing = missingValue(Text, Names, Bound))
    return *Missing;
  double Points = 1;
  for (const Axis &A : Run)
    Points *= A.Size;
  if (Points > 1048576.0) {
    double Shrink = std::pow(Points / 1048576.0, 1.0 / double(Run.size()));
    for (Axis &A : Run)
      A.Stride = std::max(1.0, std::floor(A.Stride * Shrink));
  }
  double Sum = 0, Count = 0;
  std::vector<double> At(Run.size(), 0);
  while (true) {
    for (size_t I = 0; I < Run.size(); ++I)
      Bound[Run[I].Name] = At[I];
    if (Lane)
      Bound["laneid"] = std::fmod(
          Bound["threadIdx.x"] + Dims.Block[0] * (Bound["threadIdx.y"] +
                                                  Dims.Block[1] * Bound["threadIdx.z"]),
          32.0);
    std::optional<double> V = P.evaluate(Bound);
    if (!V) // an opaque floor
      return Failure{"formula '" + Text + "' cannot be evaluated"};
    // A count is never negative: a thread past a trip formula's range
    // (one that does not enter the loop) counts 0.
    Sum += std::max(0.0, *V);
    Count += 1;
    size_t I = 0;
    for (; I < Run.size(); ++I) {
      At[I] += Run[I].Stride;
      if (At[I] < Run[I].Size)
        break;
      At[I] = 0;
    }
    if (I == Run.size())
      break;
  }
  return Sum / Count;
}

} // namespace

Result<double> evaluateFormula(const std::string &Text, const Values &Bound,
                               ParamNames Params) {
  Result<Formula> F = Formula::read(Text, Params);
  if (!F)
    return Failure{F.error()};
  return evaluateFormula(*F, Bound);
}

bool mentionsThreadIndex(const std::string &Text, ParamNames Params) {
  Result<Polynomial> P = formulaPolynomial(Text, Params);
  return P && readsThreadIndex(*P);
}

Result<double> evaluatePerThreadMean(const std::string &Text, Values Bound,
                                     const LaunchDims &Dims, ParamNames Params) {
  Result<Polynomial> P = formulaPolynomial(Text, Params);
  if (!P)
    return Failure{P.error()};
  return perThreadMean(*P, Text, std::move(Bound), Dims);
}

Result<double> evaluateAtLargeSizes(const std::string &Text, Values Bound,
                                    std::set<std::string> *Unbound,
                                    const LaunchDims &Dims, ParamNames Params) {
  Result<Polynomial> P = formulaPolynomial(Text, Params);
  if (!P)
    return Failure{P.error()};
  return evaluateAtLargeSizes(*P, std::move(Bound), Unbound, Dims, Text);
}

Result<double> evaluateAtLargeSizes(const Polynomial &P, Values Bound,
                                    std::set<std::string> *Unbound,
                                    const LaunchDims &Dims,
                                    const std::string &Text) {
  std::set<Atom> Leaves;
  leafAtoms(P, Leaves);
  for (const Atom &A : Leaves) {
    const std::string &V = A.name();
    AtomKind K = A.kind();
    // The unknown value and an opaque floor have no size to take.
    if (Bound.count(V) || K == AtomKind::ThreadIndex ||
        K == AtomKind::Unknown || K == AtomKind::Floor)
      continue;
    Bound[V] = LargeSize;
    if (Unbound)
      Unbound->insert(V);
  }
  return perThreadMean(P, Text.empty() ? P.str() : Text, std::move(Bound), Dims);
}

Result<Formula> Formula::read(const std::string &Text, ParamNames Params) {
  Result<Polynomial> P = formulaPolynomial(Text, Params);
  if (!P)
    return Failure{P.error()};
  Formula F;
  F.Text = Text;
  F.Value = std::move(*P);
  return F;
}

Result<double> evaluateFormula(const Formula &F, const Values &Bound) {
  std::set<std::string> Names;
  leafNames(F.Value, Names);
  if (std::optional<Failure> Missing = missingValue(F.Text, Names, Bound))
    return *Missing;
  std::optional<double> V = F.Value.evaluate(Bound);
  if (!V)
    return Failure{"formula '" + F.Text + "' cannot be evaluated"};
  return *V;
}

bool mentionsThreadIndex(const Formula &F) { return readsThreadIndex(F.Value); }

Result<double> evaluatePerThreadMean(const Formula &F, Values Bound,
                                     const LaunchDims &Dims) {
  return perThreadMean(F.Value, F.Text, std::move(Bound), Dims);
}

Result<double> evaluateAtLargeSizes(const Formula &F, Values Bound,
                                    std::set<std::string> *Unbound,
                                    const LaunchDims &Dims) {
  return evaluateAtLargeSizes(F.Value, std::move(Bound), Unbound, Dims, F.Text);
}

double orderAtLargeSizes(const Polynomial &P) {
  Values Bound;
  for (const std::string &V : P.variables())
    Bound[V] = LargeSize;
  return P.evaluate(Bound).value_or(0);
}

Result<std::set<std::string>> formulaVariables(const std::string &Text,
                                               ParamNames Params) {
  Result<Polynomial> P = formulaPolynomial(Text, Params);
  if (!P)
    return Failure{P.error()};
  std::set<std::string> Names;
  leafNames(*P, Names);
  return Names;
}

Result<std::map<std::string, double>>
parseAssignments(const std::string &Text, std::map<std::string, double> Values) {
  size_t Start = 0;
  while (Start < Text.size()) {
    size_t End = Text.find(',', Start);
    if (End == std::string::npos)
      End = Text.size();
    std::string Item = Text.substr(Start, End - Start);
    size_t Eq = Item.find('=');
    std::string Name = Eq == std::string::npos ? Item : Item.substr(0, Eq);
    bool NameOK = !Name.empty() && (std::isalpha((unsigned char)Name[0]) ||
                                    Name[0] == '_');
    for (char C : Name)
      NameOK &= std::isalnum((unsigned char)C) || C == '_' || C == '.';
    if (Eq == std::string::npos || !NameOK)
      return Failure{"'" + Item + "': expected NAME=VALUE"};
    std::string V = Item.substr(Eq + 1);
    char *EndP = nullptr;
    double D = std::strtod(V.c_str(), &EndP);
    if (V.empty() || !EndP || *EndP || !std::isfinite(D))
      return Failure{"'" + Item + "': value must be a number"};
    Values[Name] = D;
    Start = End + 1;
  }
  return Values;
}

} // namespace roofline
