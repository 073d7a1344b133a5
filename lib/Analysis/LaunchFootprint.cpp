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
// An element index read through / and % by parameters splits into the
// digits of its rows (RowSplit.cpp). A guard on the index the footprint
// does not read leaves threads out (LaunchGuards.cpp).
//
//===----------------------------------------------------------------------===//
#include "Footprint.h"
#include "LaunchIndex.h"

#include "roofline/Analysis/DeviceCode.h"

#include "llvm/IR/Instructions.h"

#include <cmath>

using namespace llvm;

namespace roofline::detail {

const char *const LaunchAxes[] = {"x", "y", "z"};

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

namespace {

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
                                       std::vector<Assumption> &Assumed,
                                       bool &Restricted,
                                       const std::vector<Polynomial> &Facts,
                                       const std::vector<Polynomial> &Tests) const {
  for (const char *A : LaunchAxes) {
    bool OnThisAxis = mentionsAxis(Offset, A);
    // The lanes of x: a warp's (a wavefront's) threads; y and z, one.
    unsigned Warp = A == LaunchAxes[0] ? std::max(1u, warpSize(S.F)) : 1;
    Polynomial OffsetBefore = Offset;
    std::vector<const Polynomial *> GuardsRead;
    gridAxis(Offset, Dims, Assumed, A, Facts, GuardsRead);
    if (!OnThisAxis)
      continue;
    // A guard on the index this did not read leaves threads out (`i > 0`
    // where the counter starts at 0, `threadIdx.x < 16`): the access runs
    // for some of them only, unless the guard restates the index type's
    // range (g <= 2^31 - 1) or limits a part of the index the address
    // does not move with (the row guard of a per-lane access).
    auto WasRead = [&](const Polynomial &Fact) {
      // (A guard written twice is one fact twice: read if either was.)
      return std::any_of(GuardsRead.begin(), GuardsRead.end(),
                         [&](const Polynomial *R) { return *R == Fact; });
    };
    for (const Polynomial &Fact : Facts)
      if (mentionsAxis(Fact, A) && !WasRead(Fact) &&
          !leavesNoThreadOut(Fact, A, Warp) &&
          limitsAccess(Fact, OffsetBefore, A, Warp))
        Restricted = true;
    // An equality test on the index (`(threadIdx.x & 24) == 0`, -O2's
    // spelling of threadIdx.x % 32 < 8) singles out some threads.
    for (const Polynomial &Test : Tests)
      if (mentionsAxis(Test, A) && limitsAccess(Test, OffsetBefore, A, Warp))
        Restricted = true;
  }
}

void FootprintAnalysis::gridAxis(Polynomial &Offset, std::vector<Dimension> &Dims,
                                 std::vector<Assumption> &Assumed, const char *A,
                                 const std::vector<Polynomial> &Facts,
                                 std::vector<const Polynomial *> &GuardsRead) const {
  std::string Tid = std::string("threadIdx.") + A,
              Bid = std::string("blockIdx.") + A,
              BDim = std::string("blockDim.") + A,
              GDim = std::string("gridDim.") + A;
  // The unit a block holds: its threads, or its warps when the kernel
  // splits the thread's index into warp and lane.
  Polynomial PerBlock = Polynomial::variable(BDim);
  Polynomial Spelled = Polynomial::variable(Tid); // as guards spell it
  std::string Unit = Tid;
  // A stride loop `for (i = X; i < n; i += stride)` runs below n: its own
  // zero-trip test X < n (or a looser X < n + c) leaves out only threads
  // the loop would not run. \p Var is the loop's counter over [0, n).
  auto StrideLoopGuardsRead = [&](const Polynomial &X, const std::string &Var) {
    auto Loop = std::find_if(Dims.begin(), Dims.end(),
                             [&](const Dimension &D) { return D.Var == Var; });
    if (Loop == Dims.end())
      return;
    for (const Polynomial &Fact : Facts)
      if (auto Slack = (Fact + X - Loop->Trip + Polynomial(1)).constantValue();
          Slack && Slack->toDouble() >= 0)
        GuardsRead.push_back(&Fact);
  };
  if (splitRows(Offset, Dims, Assumed, A, Facts)) {
    for (const Polynomial &Fact : Facts)
      GuardsRead.push_back(&Fact); // (it splits under one guard alone)
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
        StrideLoopGuardsRead(Polynomial::variable(Tid) - Polynomial(Size) * Spelled,
                             LaneVar);
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
      StrideLoopGuardsRead(G, GVar);
      return;
    }
    // A guard g <= B - 1 (fact B - 1 - g >= 0) leaves B of them; one
    // that only restates the index type's range bounds nothing.
    auto TypeLimit = [](const Polynomial &P) {
      std::optional<Rational> C = P.constantValue();
      return C && C->toDouble() >= IndexTypeLimit;
    };
    Polynomial Trip = Threads;
    for (const Polynomial &Fact : Facts) {
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
      GuardsRead.push_back(&Fact);
      break;
    }
    if (int64_t Low = Trip == Threads ? 0 : firstGuarded(G, Unit, Facts, GuardsRead)) {
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
    StrideLoopGuardsRead(Polynomial::variable(Tid), Tid);
    return;
  }
  if (HasB)
    Dims.insert(Dims.begin(), {Bid, Polynomial::variable(GDim)});
  if (HasT)
    Dims.insert(Dims.begin(), {Unit, PerBlock});
}

int64_t FootprintAnalysis::firstGuarded(const Polynomial &G, const std::string &Unit,
                                        const std::vector<Polynomial> &Facts,
                                        std::vector<const Polynomial *> &GuardsRead) const {
  // A guard k*g >= L (fact k*g - L >= 0, L a positive constant: `i > 0`,
  // `4*g >= 1`) leaves out the first ceil(L/k).
  for (const Polynomial &Fact : Facts) {
    auto C = coefficientOf(Fact, Unit);
    auto K = C ? C->constantValue() : std::nullopt;
    if (!K || !K->isInteger() || K->num() < 1)
      continue;
    std::optional<Rational> L = (Polynomial(*K) * G - Fact).constantValue();
    if (!L || L->toDouble() < 1 || L->den() != 1)
      continue;
    GuardsRead.push_back(&Fact);
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
