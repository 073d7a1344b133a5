//===- LaunchFootprint.cpp - A GPU access's indices over the launch -------===//
//
// On a GPU, blockIdx.x*blockDim.x + threadIdx.x is one counter over the
// grid; a guard `i < n` on it bounds it by n (the usual launch covers the
// guard), so a guarded saxpy reads 8n bytes whatever the block size. A
// grid-stride or block-stride loop's counter and the thread's become one
// counter over the range the loop covers.
//
// A warp-per-row kernel splits the thread's index: floor(threadIdx.x/32)
// is the warp (with blockIdx, the row), threadIdx.x % 32 the lane, and a
// loop `for (i = lane; i < C; i += 32)` walks the row: warp and lane are
// counters of their own, and the lane's joins the loop's as a thread's
// joins a block-stride loop's.
//
//===----------------------------------------------------------------------===//
#include "Footprint.h"

#include "llvm/IR/Instructions.h"

#include <array>
#include <cmath>

using namespace llvm;

namespace roofline::detail {

const char *const LaunchAxes[] = {"x", "y", "z"};

namespace {

/// \p P with \p Values substituted, inside floors too.
Polynomial substituteDeep(const Polynomial &P,
                          const std::map<std::string, Polynomial> &Values) {
  std::map<std::string, Polynomial> All = Values;
  for (const Atom &T : P.atoms())
    if (T.kind() == AtomKind::Floor && !Values.count(T.name()) && T.numerator() &&
        T.divisor()) {
      Polynomial N = substituteDeep(*T.numerator(), Values);
      Polynomial D = substituteDeep(*T.divisor(), Values);
      if (N != *T.numerator() || D != *T.divisor()) {
        auto C = D.constantValue();
        All[T.name()] = C && C->isInteger() ? Polynomial::floorOf(N, int64_t(C->num()))
                                            : Polynomial::floorOf(N, D);
      }
    }
  return P.substitute(All);
}

/// How \p P changes as the thread index grows by one and by a warp (32),
/// and as the block index grows by one, from 0 (probed with every other
/// variable 64): -1, 0 or 1 each; nullopt when it cannot be evaluated.
std::optional<std::array<int, 3>> indexSlopes(const Polynomial &P, const char *Axis) {
  std::map<std::string, double> At;
  if (auto Vars = P.leafVariables())
    for (const std::string &V : *Vars)
      At[V] = 64;
  std::string Tid = std::string("threadIdx.") + Axis, Bid = std::string("blockIdx.") + Axis;
  auto Value = [&](double T, double B) {
    At[Tid] = T, At[Bid] = B;
    return P.evaluate(At);
  };
  std::optional<double> Base = Value(0, 0), Steps[3] = {Value(1, 0), Value(32, 0), Value(0, 1)};
  std::array<int, 3> Slopes;
  for (int I = 0; I < 3; ++I) {
    if (!Base || !Steps[I])
      return std::nullopt;
    double D = *Steps[I] - *Base;
    Slopes[I] = D < 0 ? -1 : D > 0 ? 1 : 0;
  }
  return Slopes;
}

/// \p Fact (>= 0) bounds the axis' index from above: it falls, or stays,
/// as the indices grow, and falls with one of them.
bool boundsFromAbove(const Polynomial &Fact, const char *Axis) {
  auto S = indexSlopes(Fact, Axis);
  return S && std::all_of(S->begin(), S->end(), [](int X) { return X <= 0; }) &&
         std::any_of(S->begin(), S->end(), [](int X) { return X < 0; });
}

/// \p Fact (>= 0) grows, or stays, as the indices grow.
bool growsWithIndex(const Polynomial &Fact, const char *Axis) {
  auto S = indexSlopes(Fact, Axis);
  return S && std::all_of(S->begin(), S->end(), [](int X) { return X >= 0; });
}

/// \p Fact (>= 0) leaves no thread of a launch out: it restates the range
/// of the index's type (g <= 2^31 - 1, g + 1 <= 2^31 - 1, g >= -2^31;
/// with the thread and block index 0 a constant within 2^16 of 2^31 - 1,
/// or past it), or it holds at index 0 and grows with it (g >= 0).
bool leavesNoThreadOut(const Polynomial &Fact, const char *Axis) {
  std::string Tid = std::string("threadIdx.") + Axis, Bid = std::string("blockIdx.") + Axis;
  auto Rest = substituteDeep(Fact, {{Tid, Polynomial(0)}, {Bid, Polynomial(0)}})
                  .constantValue();
  if (!Rest)
    return false;
  return Rest->toDouble() >= 2147483647.0 - 65536 ||
         (Rest->toDouble() >= 0 && growsWithIndex(Fact, Axis));
}

/// \p Fact limits threads along a direction in which \p Offset moves (a
/// guard on the row of a row-wise access, not on the lane of a per-column
/// one); true when either cannot be probed.
bool limitsAccess(const Polynomial &Fact, const Polynomial &Offset, const char *Axis) {
  auto F = indexSlopes(Fact, Axis), O = indexSlopes(Offset, Axis);
  if (!F || !O)
    return true;
  for (int I = 0; I < 3; ++I)
    if ((*F)[I] != 0 && (*O)[I] != 0)
      return true;
  return false;
}

/// The warp size W of a floor(threadIdx.<axis>/W) in \p P's atoms.
std::optional<int64_t> warpDivisor(const Polynomial &P, const std::string &Tid) {
  for (const Atom &T : P.atoms()) {
    if (T.kind() != AtomKind::Floor || !T.numerator() || !T.divisor())
      continue;
    auto W = T.divisor()->constantValue();
    if (*T.numerator() == Polynomial::variable(Tid) && W && W->isInteger() &&
        W->num() > 1)
      return int64_t(W->num());
    if (auto Inner = warpDivisor(*T.numerator(), Tid))
      return Inner;
  }
  return std::nullopt;
}

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
  std::vector<std::pair<Atom, Polynomial>> Chain; ///< each floor, its divisors' product
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
      if (std::any_of(RD.Chain.begin(), RD.Chain.end(),
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
      for (const auto &[Inner, P] : RD.Chain)
        if (Num == Polynomial::atom(Inner))
          Product = P * Div;
      if (Product)
        RD.Chain.push_back({F, *Product}), ++Grew;
    }
  }
  if (RD.Chain.empty())
    return std::nullopt;
  RD.K = int64_t(K->num());
  for (const auto &[F, P] : RD.Chain)
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
                                  std::vector<Assumption> &Assumed,
                                  const char *Axis) const {
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
  int64_t KV = RD->K;
  const std::vector<Polynomial> &Products = RD->Products, &Radix = RD->Radix;
  // The guard k*E < N gives the outermost digit's count, N over the
  // product of every divisor, when it divides.
  // Any other guard on the index (i > 0) leaves some digits out: no split.
  std::optional<Polynomial> N;
  for (const Polynomial &Fact : GuardFacts) {
    bool OnAxis = false;
    for (const Atom &T : Fact.atoms())
      OnAxis |= T.involves(Tid) || T.involves(Bid);
    if (!OnAxis || leavesNoThreadOut(Fact, Axis))
      continue;
    Polynomial Bound = Fact + Polynomial(KV) * E;
    if (!Bound.isValid() || Bound.involves(AtomKind::ThreadIndex) ||
        Bound.constantValue() || N)
      return false;
    N = Bound + Polynomial(1);
  }
  std::optional<Polynomial> Outer = N ? exactQuotient(*N, Products.back()) : std::nullopt;
  if (!Outer)
    return false;
  // Digits, innermost first: q over a row of k-element pieces, then one
  // per divisor.
  size_t Levels = Products.size();
  auto Digit = [&](size_t I) {
    return Polynomial::variable("$digit" + std::to_string(I) + "." + Axis);
  };
  std::vector<Polynomial> Value(Levels + 1); // Value[i]: the level-i floor
  Value[Levels] = Digit(Levels);
  for (size_t I = Levels - 1; I >= 1; --I)
    Value[I] = Radix[I - 1] * Value[I + 1] + Digit(I);
  Polynomial RowPieces = Products[0] * Polynomial(Rational(1, KV));
  Polynomial EValue = RowPieces * Value[1] + Digit(0);
  std::map<std::string, Polynomial> Split;
  for (const auto &[F, P] : RD->Chain)
    Split[F.name()] =
        Value[1 + (std::find(Products.begin(), Products.end(), P) - Products.begin())];
  Polynomial O = Offset;
  auto CT = coefficientOf(O, Tid), CB = coefficientOf(O, Bid);
  if (!CT || !CB || *CB != *CT * Polynomial::variable(BDim))
    return false;
  O = O - *CT * E + *CT * EValue;
  O = substituteDeep(O, Split);
  for (const Atom &T : O.atoms())
    if (T.involves(Tid) || T.involves(Bid))
      return false;
  Offset = O;
  std::vector<Dimension> Digits{{"$digit0." + std::string(Axis), RowPieces}};
  for (size_t I = 1; I < Levels; ++I)
    Digits.push_back({"$digit" + std::to_string(I) + "." + Axis, Radix[I - 1]});
  Digits.push_back({"$digit" + std::to_string(Levels) + "." + Axis, *Outer});
  Dims.insert(Dims.begin(), Digits.begin(), Digits.end());
  // A thread's k elements lie in one row: k divides the row.
  std::vector<std::string> Order(S.Params.begin(), S.Params.end());
  if (KV > 1) {
    auto C = Products[0].constantValue();
    if (C && (C->den() != 1 || C->num() % KV != 0))
      return false;
    if (!C)
      Assumed.push_back(Assumption::of(
          Condition::compare(Polynomial(KV) * Polynomial::floorOf(Products[0], KV),
                             Comparison::EQ, Products[0]),
          "", Order));
  }
  // The launch covers the guard.
  Order.insert(Order.begin(), {GDim, BDim});
  Assumed.push_back(Assumption::of(
      Condition::compare(Polynomial::variable(GDim) * Polynomial::variable(BDim),
                         Comparison::GE,
                         Polynomial::floorOf(*N - Polynomial(1), KV) + Polynomial(1)),
      "", Order));
  return true;
}

std::map<std::string, Polynomial>
FootprintAnalysis::splitWarps(Polynomial &Offset, std::vector<Dimension> &Dims,
                              const char *Axis) const {
  std::string Tid = std::string("threadIdx.") + Axis;
  std::optional<int64_t> W = warpDivisor(Offset, Tid);
  if (!W)
    return {};
  // threadIdx = W*warp + lane: floor(threadIdx/W) is the warp.
  Polynomial Warp = Polynomial::variable(std::string("$warp.") + Axis),
             Lane = Polynomial::variable(std::string("$lane.") + Axis);
  std::map<std::string, Polynomial> Split{
      {Polynomial::floorOf(Polynomial::variable(Tid), *W).atoms()[0].name(), Warp},
      {Tid, Polynomial(*W) * Warp + Lane}};
  Polynomial O = substituteDeep(Offset, Split);
  std::vector<Dimension> D = Dims;
  for (Dimension &Dim : D)
    Dim.Trip = substituteDeep(Dim.Trip, Split);
  auto StillThread = [&](const Polynomial &P) {
    for (const Atom &T : P.atoms())
      if (T.involves(Tid))
        return true;
    return false;
  };
  if (StillThread(O) || std::any_of(D.begin(), D.end(), [&](const Dimension &X) {
        return StillThread(X.Trip);
      }))
    return {};
  Offset = O;
  Dims = D;
  return Split;
}

void FootprintAnalysis::gridDimensions(Polynomial &Offset,
                                       std::vector<Dimension> &Dims,
                                       std::vector<Assumption> &Assumed,
                                       bool &Restricted) const {
  for (const char *A : LaunchAxes) {
    std::string Tid = std::string("threadIdx.") + A,
                Bid = std::string("blockIdx.") + A;
    auto OnAxis = [&](const Polynomial &P) {
      for (const Atom &T : P.atoms())
        if (T.involves(Tid) || T.involves(Bid))
          return true;
      return false;
    };
    bool Involved = OnAxis(Offset);
    Polynomial Before = Offset;
    std::vector<const Polynomial *> Used;
    gridAxis(Offset, Dims, Assumed, A, Used);
    if (!Involved)
      continue;
    // A guard on the index this did not read leaves threads out (`i > 0`
    // where the counter starts at 0, `threadIdx.x < 16`): the access runs
    // for some of them only, unless the guard restates the index type's
    // range (g <= 2^31 - 1) or limits a direction the address does not
    // move in (the row guard of a per-column access).
    for (const Polynomial &Fact : GuardFacts) {
      if (!OnAxis(Fact) || std::find(Used.begin(), Used.end(), &Fact) != Used.end())
        continue;
      if (!leavesNoThreadOut(Fact, A) && limitsAccess(Fact, Before, A))
        Restricted = true;
    }
  }
}

void FootprintAnalysis::gridAxis(Polynomial &Offset, std::vector<Dimension> &Dims,
                                 std::vector<Assumption> &Assumed, const char *A,
                                 std::vector<const Polynomial *> &Used) const {
  std::string Tid = std::string("threadIdx.") + A,
              Bid = std::string("blockIdx.") + A,
              BDim = std::string("blockDim.") + A,
              GDim = std::string("gridDim.") + A;
  // The unit a block holds: its threads, or its warps when the kernel
  // splits the thread's index into warp and lane.
  Polynomial PerBlock = Polynomial::variable(BDim);
  Polynomial Spelled = Polynomial::variable(Tid); // as guards spell it
  std::string Unit = Tid;
  // A stride loop from the thread's index runs below its bound: a guard
  // `i < n` before it leaves out only threads the loop would not run.
  auto UpperUsed = [&] {
    for (const Polynomial &Fact : GuardFacts)
      if (boundsFromAbove(Fact, A))
        Used.push_back(&Fact);
  };
  if (splitRows(Offset, Dims, Assumed, A)) {
    for (const Polynomial &Fact : GuardFacts)
      Used.push_back(&Fact); // (it splits under one guard alone)
    return;
  }
  std::map<std::string, Polynomial> Split = splitWarps(Offset, Dims, A);
  if (!Split.empty()) {
    Polynomial W = Split[Tid] - Polynomial::variable(std::string("$lane.") + A);
    int64_t Size = int64_t(coefficientOf(W, std::string("$warp.") + A)
                               ->constantValue()->num());
    Unit = std::string("$warp.") + A;
    PerBlock = Polynomial::floorOf(Polynomial::variable(BDim), Size);
    Spelled = Polynomial::floorOf(Polynomial::variable(Tid), Size);
    std::string LaneVar = std::string("$lane.") + A;
    auto CL = coefficientOf(Offset, LaneVar);
    // A lane-stride loop covers its row; else the lanes are a counter.
    if (Offset.mentions(LaneVar)) {
      if (CL && gridStride(Offset, Dims, LaneVar, *CL, Polynomial(Size), A,
                           Stride::OverWarp, &Split))
        UpperUsed();
      else
        Dims.insert(Dims.begin(), {LaneVar, Polynomial(Size)});
    }
    // Whole warps: a block of 100 threads has 3 and a part.
    Assumed.push_back(Assumption::of(
        Condition::compare(Polynomial(Size) * PerBlock, Comparison::GE,
                           Polynomial::variable(BDim)),
        "", {BDim}));
  }
  bool HasT = Offset.mentions(Unit), HasB = Offset.mentions(Bid);
  auto CT = coefficientOf(Offset, Unit), CB = coefficientOf(Offset, Bid);
  if (HasT && HasB && CT && CB && *CB == *CT * PerBlock) {
    // One counter over the grid: g = blockIdx*blockDim + threadIdx (or
    // blockIdx*warps + warp).
    Polynomial G = Polynomial::variable(Bid) * PerBlock + Polynomial::variable(Unit);
    std::string GVar = std::string("$grid.") + A;
    Offset = Offset - *CT * G + *CT * Polynomial::variable(GVar);
    Polynomial Threads = Polynomial::variable(GDim) * PerBlock;
    G = Polynomial::variable(Bid) * PerBlock + Spelled;
    if (Split.empty() &&
        gridStride(Offset, Dims, GVar, *CT, Threads, A, Stride::OverGrid)) {
      // A guard g < n before the loop leaves out threads the loop would
      // not run anyway: an upper bound on g (its coefficient negative).
      UpperUsed();
      return;
    }
    // A guard g <= B - 1 (fact B - 1 - g >= 0) leaves B of them; one
    // that only restates the index type's range (g <= 2^31 - 1, which
    // the guard's conditions carry) bounds nothing a launch reaches.
    auto TypeLimit = [](const Polynomial &P) {
      std::optional<Rational> C = P.constantValue();
      return C && C->toDouble() >= 2147483647.0;
    };
    Polynomial Trip = Threads;
    for (const Polynomial &Fact : GuardFacts) {
      // k*g <= B - 1 (a thread's first of k elements: `8*g < n`) leaves
      // floor((B - 1)/k) + 1 of them.
      int64_t K = 1;
      if (auto C = coefficientOf(Fact, Unit); C && Fact.mentions(Unit))
        if (auto V = C->constantValue(); V && V->isInteger() && V->num() < -1)
          K = -V->num();
      Polynomial Bound = Fact + Polynomial(K) * G;
      if (!Bound.isValid() || SCEVPolynomial::variesWithThread(Bound) ||
          Bound.mentions(Bid) || Bound == Fact || TypeLimit(Bound))
        continue;
      Trip = K == 1 ? Bound + Polynomial(1)
                    : Polynomial::floorOf(Bound, K) + Polynomial(1);
      // The launch covers the guard (else fewer threads pass it).
      std::vector<std::string> Order{GDim, BDim};
      Order.insert(Order.end(), S.Params.begin(), S.Params.end());
      Assumed.push_back(Assumption::of(
          Condition::compare(Threads, Comparison::GE, Trip), "", Order));
      Used.push_back(&Fact);
      break;
    }
    if (int64_t Low = Trip == Threads ? 0 : firstGuarded(G, Unit, Used)) {
      Offset = Offset + *CT * Polynomial(Low);
      Trip = Trip - Polynomial(Low);
    }
    Dims.insert(Dims.begin(), {GVar, Trip});
    return;
  }
  // A block-stride loop (each block walks the whole range).
  if (HasT && CT && !HasB && Split.empty() &&
      gridStride(Offset, Dims, Tid, *CT, Polynomial::variable(BDim), A,
                 Stride::OverBlock)) {
    UpperUsed();
    return;
  }
  if (HasB)
    Dims.insert(Dims.begin(), {Bid, Polynomial::variable(GDim)});
  if (HasT)
    Dims.insert(Dims.begin(), {Unit, PerBlock});
}

int64_t FootprintAnalysis::firstGuarded(const Polynomial &G, const std::string &Unit,
                                        std::vector<const Polynomial *> &Used) const {
  // A guard k*g >= L (fact k*g - L >= 0, L a positive constant: `i > 0`,
  // `4*g >= 1`) leaves out the first ceil(L/k).
  for (const Polynomial &Fact : GuardFacts) {
    auto C = coefficientOf(Fact, Unit);
    auto K = C ? C->constantValue() : std::nullopt;
    if (!K || !K->isInteger() || K->num() < 1)
      continue;
    std::optional<Rational> L = (Polynomial(*K) * G - Fact).constantValue();
    if (!L || L->toDouble() < 1 || L->den() != 1)
      continue;
    Used.push_back(&Fact);
    return (int64_t(L->num()) + int64_t(K->num()) - 1) / int64_t(K->num());
  }
  return 0;
}

bool FootprintAnalysis::gridStride(
    Polynomial &Offset, std::vector<Dimension> &Dims, const std::string &GVar,
    const Polynomial &Coef, const Polynomial &Threads, const char *Axis,
    Stride Over, const std::map<std::string, Polynomial> *Split) const {
  bool OverGrid = Over == Stride::OverGrid;
  // for (i = g; i < n; i += threads): the counter's trip is
  // floor((n - 1 - g)/threads) + 1, and i = g + threads*iv runs over
  // exactly [0, n) as g runs over [0, threads) (g = blockIdx*blockDim +
  // threadIdx and threads = gridDim*blockDim over the grid; g = threadIdx
  // and threads = blockDim in each block).
  for (size_t D = 0; D < Dims.size(); ++D) {
    auto C = coefficientOf(Offset, Dims[D].Var);
    if (!C || *C != Coef * Threads)
      continue;
    const Loop *L = nullptr;
    for (const Loop *Cand : S.LI.getLoopsInPreorder()) {
      Polynomial Iterations = Flow.Iterations.lookup(Cand);
      if (Split)
        Iterations = substituteDeep(Iterations, *Split);
      if (FunctionScope::ivName(Cand) == Dims[D].Var && Iterations == Dims[D].Trip)
        L = Cand;
    }
    ICmpInst *Cmp = L ? L->getLatchCmpInst() : nullptr;
    if (L && !Cmp) // -O0: the test is in the header
      if (BasicBlock *E = L->getExitingBlock())
        if (auto *Br = dyn_cast<BranchInst>(E->getTerminator()))
          if (Br->isConditional())
            Cmp = dyn_cast<ICmpInst>(Br->getCondition());
    if (!Cmp)
      continue;
    std::optional<Polynomial> N;
    for (Value *Op : Cmp->operands())
      if (S.SE.isLoopInvariant(S.SE.getSCEV(Op), L)) {
        SCEVPolynomial T = S.translator();
        N = T.translate(S.SE.getSCEV(Op), SCEVPolynomial::Reading::Signed);
      }
    if (!N || SCEVPolynomial::variesWithThread(*N))
      continue;
    // The trip formula must be that one: checked at sample launches.
    const Polynomial &Trip = Dims[D].Trip;
    bool Same = true;
    for (double BD : {32.0, 128.0})
      for (double GD : {1.0, 3.0})
        for (double NV : {1.0, 100.0, 1000.0})
          for (double TI : {0.0, 5.0})
            for (double BI : {0.0, 2.0}) {
              if (BI >= GD)
                continue;
              std::map<std::string, double> V;
              for (const char *A : LaunchAxes) {
                V[std::string("blockDim.") + A] = 1;
                V[std::string("gridDim.") + A] = 1;
                V[std::string("threadIdx.") + A] = 0;
                V[std::string("blockIdx.") + A] = 0;
              }
              const char *Ax = Axis;
              V[std::string("blockDim.") + Ax] = BD;
              V[std::string("gridDim.") + Ax] = GD;
              V[std::string("threadIdx.") + Ax] = TI;
              V[std::string("blockIdx.") + Ax] = BI;
              V[GVar] = TI; // a lane
              for (const std::string &P : N->variables())
                V.try_emplace(P, NV);
              auto NVal = N->evaluate(V);
              std::optional<double> Got = Trip.evaluate(V);
              double GV = OverGrid ? BI * BD + TI : TI;
              double Stride = OverGrid ? BD * GD
                              : Over == Stride::OverBlock
                                  ? BD
                                  : Threads.constantValue()->toDouble();
              Same &=
                  NVal && Got &&
                  std::max(0.0, *Got) ==
                      std::max(0.0, std::floor((*NVal - 1 - GV) / Stride) + 1);
            }
    if (!Same)
      continue;
    Offset = Offset - Coef * Polynomial::variable(GVar) -
             *C * Polynomial::variable(Dims[D].Var) +
             Coef * Polynomial::variable(GVar);
    Dims[D] = {GVar, *N};
    return true;
  }
  return false;
}

} // namespace roofline::detail
