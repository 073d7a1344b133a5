//===- KernelJudgement.cpp - A kernel against a platform's roofs ----------===//
#include "roofline/Analysis/KernelJudgement.h"

#include "roofline/Model/Formula.h"
#include "roofline/Model/Roofline.h"

#include <cmath>
#include <limits>

namespace roofline {

namespace {

/// The polynomial's value with \p Sizes, unbound variables at LargeSize.
double valueOf(const Polynomial &P, const std::map<std::string, double> &Sizes,
               bool &Complete) {
  std::set<std::string> Unbound;
  Result<double> R = evaluateAtLargeSizes(P, Sizes, &Unbound);
  Complete &= Unbound.empty();
  return R ? *R : 0;
}

} // namespace

KernelJudgement judgeKernel(const KernelSummary &K, const Platform &P,
                            const std::map<std::string, double> &Sizes) {
  const CountPolys &C = K.Totals;
  bool Complete = true;
  Work W;
  for (unsigned Pr = 0; Pr < NumPrecisions; ++Pr)
    for (unsigned Cl = 0; Cl < NumFlopClasses; ++Cl) {
      const Polynomial &N = C.Slots[flopSlot(Precision(Pr), FlopClass(Cl))];
      if (!N.isZero())
        W.Ops[precisionName(Precision(Pr))][flopClassName(FlopClass(Cl))] =
            valueOf(N, Sizes, Complete);
    }
  // The DRAM traffic: the footprint when it is exact and per call (a CUDA
  // kernel's counts are per thread, its footprint per launch).
  const FootprintCounts &F = K.Footprint.Total;
  bool UseFootprint = K.Per == "call" && F.Exact && F.Read.isValid() &&
                      F.Written.isValid();
  Polynomial Bytes = UseFootprint ? F.Read + F.Written
                                  : C.bytes(Access::Load) + C.bytes(Access::Store);
  double Q = valueOf(Bytes, Sizes, Complete);
  Placement Pl = place(P, W, {{"dram", Q}}, Convention::FMA2);

  KernelJudgement J;
  J.Footprint = UseFootprint;
  J.Intensity = Pl.Intensity;
  J.Asymptotic = !Complete;
  if (!Complete) {
    // The limit for large sizes, exactly, when the leading terms agree.
    Polynomial Flops = C.flops();
    if (Bytes.isZero())
      J.Intensity = std::numeric_limits<double>::infinity();
    else if (Flops.degree() > Bytes.degree())
      J.Intensity = std::numeric_limits<double>::infinity();
    else if (Flops.degree() < Bytes.degree())
      J.Intensity = 0;
    else if (auto R = Flops.leadingTerms().ratioTo(Bytes.leadingTerms()))
      J.Intensity = R->toDouble();
  }
  J.Peak = Pl.PeakFlops;
  J.Ridge = Pl.Ridge;
  J.Attainable = attainableFlops(Pl.PeakFlops, Pl.Bandwidth, J.Intensity);
  J.MemoryBound = J.Intensity < J.Ridge;
  return J;
}

} // namespace roofline
