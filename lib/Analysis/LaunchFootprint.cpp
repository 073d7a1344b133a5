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

} // namespace

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
                                       std::vector<Assumption> &Assumed) const {
  for (const char *A : LaunchAxes) {
    std::string Tid = std::string("threadIdx.") + A,
                Bid = std::string("blockIdx.") + A,
                BDim = std::string("blockDim.") + A,
                GDim = std::string("gridDim.") + A;
    // The unit a block holds: its threads, or its warps when the kernel
    // splits the thread's index into warp and lane.
    Polynomial PerBlock = Polynomial::variable(BDim);
    Polynomial Spelled = Polynomial::variable(Tid); // as guards spell it
    std::string Unit = Tid;
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
      if (Offset.mentions(LaneVar) &&
          !(CL && gridStride(Offset, Dims, LaneVar, *CL, Polynomial(Size), A,
                             Stride::OverWarp, &Split)))
        Dims.insert(Dims.begin(), {LaneVar, Polynomial(Size)});
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
          gridStride(Offset, Dims, GVar, *CT, Threads, A, Stride::OverGrid))
        continue;
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
        break;
      }
      // A guard g >= L (fact g - L >= 0, L a positive constant: `i > 0`)
      // leaves out the first L: the counter runs from L.
      for (const Polynomial &Fact : GuardFacts) {
        std::optional<Rational> Low = (G - Fact).constantValue();
        if (!Low || Low->toDouble() < 1 || Low->den() != 1 || Trip == Threads)
          continue;
        Offset = Offset + *CT * Polynomial(*Low);
        Trip = Trip - Polynomial(*Low);
        break;
      }
      Dims.insert(Dims.begin(), {GVar, Trip});
      continue;
    }
    // A block-stride loop (each block walks the whole range).
    if (HasT && CT && !HasB && Split.empty() &&
        gridStride(Offset, Dims, Tid, *CT, Polynomial::variable(BDim), A,
                   Stride::OverBlock))
      continue;
    if (HasB)
      Dims.insert(Dims.begin(), {Bid, Polynomial::variable(GDim)});
    if (HasT)
      Dims.insert(Dims.begin(), {Unit, PerBlock});
  }
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
