//===- Formula.cpp - The summary's count formulas -------------------------===//
#include "roofline/Model/Formula.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <memory>
#include <vector>

namespace roofline {

namespace {

using Node = FormulaTree;
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

struct Evaluator {
  const std::map<std::string, double> &Values;
  std::string Missing;
  double eval(const Node &N) {
    switch (N.K) {
    case Node::Number:
      return N.Value;
    case Node::Variable: {
      auto It = Values.find(N.Name);
      if (It == Values.end()) {
        if (Missing.empty())
          Missing = N.Name;
        return 0;
      }
      return It->second;
    }
    case Node::Add:
      return eval(*N.L) + eval(*N.R);
    case Node::Sub:
      return eval(*N.L) - eval(*N.R);
    case Node::Mul:
      return eval(*N.L) * eval(*N.R);
    case Node::Div:
      return eval(*N.L) / eval(*N.R);
    case Node::Pow:
      return std::pow(eval(*N.L), eval(*N.R));
    case Node::Neg:
      return -eval(*N.L);
    case Node::Floor:
      return std::floor(eval(*N.L) + FloorSlack);
    }
    return 0;
  }
};

Result<Polynomial> toPolynomial(const Node &N) {
  auto Both = [&](auto Op) -> Result<Polynomial> {
    Result<Polynomial> L = toPolynomial(*N.L);
    if (!L)
      return L;
    Result<Polynomial> R = toPolynomial(*N.R);
    if (!R)
      return R;
    return Op(*L, *R);
  };
  switch (N.K) {
  case Node::Number: {
    double V = N.Value;
    if (V != std::floor(V) || std::fabs(V) > 9e15)
      return Failure{"non-integer constant"};
    return Polynomial(int64_t(V));
  }
  case Node::Variable:
    return Polynomial::variable(N.Name);
  case Node::Floor: {
    // floor(A/B): a floor atom with its operands, when both are polynomials.
    std::string Text = "floor(" + N.Name + ")";
    const Node &Arg = *N.L;
    Result<Polynomial> Num = toPolynomial(Arg.K == Node::Div ? *Arg.L : Arg);
    Result<Polynomial> Den = Arg.K == Node::Div ? toPolynomial(*Arg.R)
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
    Result<Polynomial> L = toPolynomial(*N.L);
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

void collect(const Node &N, std::set<std::string> &Vars) {
  if (N.K == Node::Variable)
    Vars.insert(N.Name);
  if (N.L)
    collect(*N.L, Vars);
  if (N.R)
    collect(*N.R, Vars);
}

} // namespace

Result<std::unique_ptr<FormulaTree>> parseFormula(const std::string &Text) {
  return parse(Text);
}

Result<double> evaluateFormula(const std::string &Text,
                               const std::map<std::string, double> &Values) {
  Result<NodePtr> N = parse(Text);
  if (!N)
    return Failure{N.error()};
  Evaluator E{Values, ""};
  double V = E.eval(**N);
  if (!E.Missing.empty())
    return Failure{"formula '" + Text + "' needs a value for '" + E.Missing +
                   "' (give it with --assume " + E.Missing + "=VALUE)"};
  return V;
}

namespace {

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

} // namespace

/// A variable that varies within a launch (threadIdx, blockIdx, laneid).
static bool isThreadIndex(const std::string &Var) {
  return Atom::named(Var).kind() == AtomKind::ThreadIndex;
}

bool mentionsThreadIndex(const std::string &Text) {
  Result<std::set<std::string>> Vars = formulaVariables(Text);
  return Vars && std::any_of(Vars->begin(), Vars->end(), isThreadIndex);
}

Result<double> evaluatePerThreadMean(const std::string &Text,
                                     std::map<std::string, double> Values,
                                     const LaunchDims &Dims) {
  Result<NodePtr> N = parse(Text);
  if (!N)
    return Failure{N.error()};
  const char *Axes[] = {"x", "y", "z"};
  for (int A = 0; A < 3; ++A) {
    Values.try_emplace(std::string("blockDim.") + Axes[A], Dims.Block[A]);
    Values.try_emplace(std::string("gridDim.") + Axes[A], Dims.Grid[A]);
  }
  // Each index the formula mentions runs through its dimension (the lane
  // through all three of the block's); at most 2^20 points, evenly strided
  // beyond that.
  std::set<std::string> Vars;
  collect(**N, Vars);
  bool Lane = Vars.count("laneid");
  struct Axis { std::string Name; double Size, Stride = 1; };
  std::vector<Axis> Run;
  for (const IndexRange &R : IndexRanges)
    if ((Vars.count(R.Name) || (Lane && R.InBlock)) && !Values.count(R.Name))
      Run.push_back({R.Name, std::max(1.0, R.InBlock ? Dims.Block[R.Axis]
                                                     : Dims.Grid[R.Axis])});
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
  Evaluator E{Values, ""};
  while (true) {
    for (size_t I = 0; I < Run.size(); ++I)
      Values[Run[I].Name] = At[I];
    if (Lane)
      Values["laneid"] = std::fmod(
          Values["threadIdx.x"] + Dims.Block[0] * (Values["threadIdx.y"] +
                                                   Dims.Block[1] * Values["threadIdx.z"]),
          32.0);
    // A count is never negative: a thread past a trip formula's range
    // (one that does not enter the loop) counts 0.
    Sum += std::max(0.0, E.eval(**N));
    Count += 1;
    if (!E.Missing.empty())
      return Failure{"formula '" + Text + "' needs a value for '" + E.Missing +
                     "' (give it with --assume " + E.Missing + "=VALUE)"};
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

Result<double> evaluateAtLargeSizes(const std::string &Text,
                                    std::map<std::string, double> Values,
                                    std::set<std::string> *Unbound,
                                    const LaunchDims &Dims) {
  Result<std::set<std::string>> Vars = formulaVariables(Text);
  if (!Vars)
    return Failure{Vars.error()};
  for (const std::string &V : *Vars)
    if (!Values.count(V) && !isThreadIndex(V)) {
      Values[V] = LargeSize;
      if (Unbound)
        Unbound->insert(V);
    }
  return evaluatePerThreadMean(Text, std::move(Values), Dims);
}

Result<double> evaluateAtLargeSizes(const Polynomial &P,
                                    std::map<std::string, double> Values,
                                    std::set<std::string> *Unbound) {
  std::optional<std::set<std::string>> Vars = P.leafVariables();
  if (!Vars)
    return Failure{"formula '" + P.str() + "' cannot be evaluated"};
  for (const std::string &V : *Vars)
    if (!Values.count(V)) {
      if (isThreadIndex(V)) {
        Values[V] = 0;
        continue;
      }
      Values[V] = LargeSize;
      if (Unbound)
        Unbound->insert(V);
    }
  std::optional<double> V = P.evaluate(Values);
  if (!V)
    return Failure{"formula '" + P.str() + "' cannot be evaluated"};
  return std::max(0.0, *V);
}

Result<Polynomial> formulaPolynomial(const std::string &Text) {
  Result<NodePtr> N = parse(Text);
  if (!N)
    return Failure{N.error()};
  Result<Polynomial> P = toPolynomial(**N);
  if (!P)
    return Failure{"formula '" + Text + "': " + P.error()};
  return P;
}

Result<std::set<std::string>> formulaVariables(const std::string &Text) {
  Result<NodePtr> N = parse(Text);
  if (!N)
    return Failure{N.error()};
  std::set<std::string> Vars;
  collect(**N, Vars);
  return Vars;
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
