//===- LaunchFootprint.cpp - A GPU access's indices over the launch -------===//
//
// On a GPU, blockIdx.x*blockDim.x + threadIdx.x is one counter over the
// grid; a guard `i < n` on it bounds it by n (the usual launch covers the
// guard), so a guarded saxpy reads 8n bytes whatever the block size. A
// grid-stride or block-stride loop's counter and the thread's become one
// counter over the range the loop covers.
//
//===----------------------------------------------------------------------===//
#include "Footprint.h"

#include "llvm/IR/Instructions.h"

#include <cmath>

using namespace llvm;

namespace roofline::detail {

const char *const LaunchAxes[] = {"x", "y", "z"};

void FootprintAnalysis::gridDimensions(Polynomial &Offset,
                                       std::vector<Dimension> &Dims,
                                       std::vector<Assumption> &Assumed) const {
  for (const char *A : LaunchAxes) {
    std::string Tid = std::string("threadIdx.") + A,
                Bid = std::string("blockIdx.") + A,
                BDim = std::string("blockDim.") + A,
                GDim = std::string("gridDim.") + A;
    bool HasT = Offset.mentions(Tid), HasB = Offset.mentions(Bid);
    auto CT = coefficientOf(Offset, Tid), CB = coefficientOf(Offset, Bid);
    if (HasT && HasB && CT && CB && *CB == *CT * Polynomial::variable(BDim)) {
      // One counter over the grid: g = blockIdx*blockDim + threadIdx.
      Polynomial G = Polynomial::variable(Bid) * Polynomial::variable(BDim) +
                     Polynomial::variable(Tid);
      std::string GVar = std::string("$grid.") + A;
      Offset = Offset - *CT * G + *CT * Polynomial::variable(GVar);
      Polynomial Threads =
          Polynomial::variable(GDim) * Polynomial::variable(BDim);
      if (gridStride(Offset, Dims, GVar, *CT, Threads, A, true))
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
        Polynomial Bound = Fact + G;
        if (!Bound.isValid() || SCEVPolynomial::variesWithThread(Bound) ||
            Bound.mentions(Bid) || Bound == Fact || TypeLimit(Bound))
          continue;
        Trip = Bound + Polynomial(1);
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
    if (HasT && CT && !HasB &&
        gridStride(Offset, Dims, Tid, *CT, Polynomial::variable(BDim), A,
                   false))
      continue;
    if (HasB)
      Dims.insert(Dims.begin(), {Bid, Polynomial::variable(GDim)});
    if (HasT)
      Dims.insert(Dims.begin(), {Tid, Polynomial::variable(BDim)});
  }
}

bool FootprintAnalysis::gridStride(Polynomial &Offset,
                                   std::vector<Dimension> &Dims,
                                   const std::string &GVar,
                                   const Polynomial &Coef,
                                   const Polynomial &Threads, const char *Axis,
                                   bool OverGrid) const {
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
    for (const Loop *Cand : S.LI.getLoopsInPreorder())
      if (FunctionScope::ivName(Cand) == Dims[D].Var &&
          Flow.Iterations.lookup(Cand) == Dims[D].Trip)
        L = Cand;
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
              for (const std::string &P : N->variables())
                V.try_emplace(P, NV);
              auto NVal = N->evaluate(V);
              std::optional<double> Got = Trip.evaluate(V);
              double GV = OverGrid ? BI * BD + TI : TI;
              double Stride = OverGrid ? BD * GD : BD;
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
