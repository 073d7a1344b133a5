//===- Roofline.cpp - The roofline model ----------------------------------===//
#include "roofline/Model/Roofline.h"
#include "roofline/Model/Units.h"

#include <cstdio>

#include <algorithm>
#include <cmath>
#include <limits>

namespace roofline {

double ridgePoint(double PeakFlops, double Bandwidth) {
  return PeakFlops / Bandwidth;
}

double attainableFlops(double PeakFlops, double Bandwidth, double Intensity) {
  return std::min(PeakFlops, Bandwidth * Intensity);
}

Platform peaksUnder(const Platform &P, Convention C) {
  Platform Out = P;
  if (C == Convention::MAC)
    for (ComputePeak &R : Out.Compute)
      if (R.FMA) {
        R.FlopsPerSecond *= 0.5;
        R.OneThread *= 0.5; // onThreads() reads it: the same operations
      }
  return Out;
}

Result<Convention> parseConvention(const std::string &Name) {
  if (Name == "fma2")
    return Convention::FMA2;
  if (Name == "ncu")
    return Convention::NCU;
  if (Name == "mac")
    return Convention::MAC;
  return Failure{"unknown convention '" + Name +
                 "' (expected fma2, ncu or mac)"};
}

const char *conventionName(Convention C) {
  switch (C) {
  case Convention::FMA2:
    return "fma2";
  case Convention::NCU:
    return "ncu";
  case Convention::MAC:
    return "mac";
  }
  return "?";
}

const char *conventionDescription(Convention C) {
  switch (C) {
  case Convention::FMA2:
    return "FLOPs = add + mul + 2*fma + div + sqrt + tensor (an FMA is two "
           "FLOPs; special functions apart)";
  case Convention::NCU:
    return "FLOPs as Nsight Compute counts them: add + mul + 2*fma (div, sqrt "
           "and tensor-core work not included)";
  case Convention::MAC:
    return "operations with one multiply-accumulate = one operation (add + "
           "mul + fma + div + sqrt + tensor/2); FMA-quoted peaks are halved "
           "to match";
  }
  return "";
}

static double classWeight(const std::string &Class, Convention C) {
  if (Class == "special")
    return 0;
  switch (C) {
  case Convention::FMA2:
    return Class == "fma" ? 2 : 1;
  case Convention::NCU:
    if (Class == "fma")
      return 2;
    return Class == "add" || Class == "mul" ? 1 : 0;
  case Convention::MAC:
    return Class == "tensor" ? 0.5 : 1;
  }
  return 0;
}

double Work::flops(const std::string &Precision, Convention C) const {
  auto It = Ops.find(Precision);
  if (It == Ops.end())
    return 0;
  double Sum = 0;
  for (const auto &[Class, N] : It->second)
    Sum += classWeight(Class, C) * N;
  return Sum;
}

double Work::flops(Convention C) const {
  double Sum = 0;
  for (const auto &[P, Classes] : Ops)
    Sum += flops(P, C);
  return Sum;
}

double Work::tensorFlops(const std::string &Precision, Convention C) const {
  auto It = Ops.find(Precision);
  if (It == Ops.end())
    return 0;
  auto T = It->second.find("tensor");
  return T == It->second.end() ? 0 : T->second * classWeight("tensor", C);
}

double Work::special() const {
  double Sum = 0;
  for (const auto &[P, Classes] : Ops) {
    auto It = Classes.find("special");
    if (It != Classes.end())
      Sum += It->second;
  }
  return Sum;
}

Work Work::fromTotal(double Flops, const std::string &Precision) {
  Work W;
  W.Ops[Precision]["add"] = Flops;
  return W;
}

Work Work::fromIntClasses(
    const std::map<std::string, std::map<std::string, double>> &IntClasses) {
  Work W;
  for (const auto &[Width, Kinds] : IntClasses) {
    std::string Precision =
        Width.size() > 1 && Width[0] == 'i' ? "int" + Width.substr(1) : Width;
    for (const auto &[Kind, N] : Kinds)
      W.Ops[Precision]["add"] += N;
  }
  return W;
}

Work Work::fromInstructions(double Instructions) {
  Work W;
  W.Ops["instructions"]["add"] = Instructions;
  return W;
}

namespace {

/// The peak a precision's work runs at on \p P, falling back to the fp32
/// vector roof (with a note) when the platform has no roof of its own.
ComputePeak roofFor(const Platform &P, const std::string &Precision,
                    const std::string &Unit, std::vector<std::string> &Notes) {
  std::string Prec = Precision;
  if (Unit == "tensor" && Precision == "fp32")
    Prec = "tf32";
  if (const ComputePeak *R = P.peak(Prec, Unit))
    return *R;
  // The instruction roofline's work (Work::fromInstructions) issues.
  if (Precision == "instructions")
    if (const ComputePeak *R = P.peak(Precision, "issue"))
      return *R;
  if (Unit == "tensor")
    if (const ComputePeak *R = P.peak(Precision, "vector")) {
      Notes.push_back(Precision + " tensor work judged against the " +
                      Precision + " vector roof (no " + Prec +
                      " tensor peak on " + P.Name + ")");
      return *R;
    }
  // Integer work of another width: the int32 vector roof, its lanes
  // rescaled (a SIMD unit adds four times as many bytes as dwords).
  if (Unit == "vector" && Precision.rfind("int", 0) == 0)
    if (const ComputePeak *R = P.peak("int32", "vector")) {
      double Bits = std::atof(Precision.c_str() + 3);
      if (Bits > 0) {
        ComputePeak Scaled = *R;
        Scaled.Precision = Precision;
        Scaled.FlopsPerSecond = R->FlopsPerSecond * 32 / Bits;
        Notes.push_back(Precision + " work judged against the int32 vector "
                        "roof scaled to its lanes (x" + siNumber(32 / Bits) +
                        "; no " + Precision + " vector peak on " + P.Name + ")");
        return Scaled;
      }
    }
  const ComputePeak &Fallback = P.headlinePeak();
  Notes.push_back(Precision + " " + Unit + " work judged against the " +
                  Fallback.label() + " roof (no " + Prec + " " + Unit +
                  " peak on " + P.Name + ")");
  return Fallback;
}

} // namespace

std::string inCoreLimiter(InCoreCause C) {
  return std::string("in-core: ") + inCoreCauseName(C);
}

std::string limiterName(const Placement &Pl) {
  if (Pl.InCore && !Pl.InCore->Chain.empty() &&
      Pl.Limiter == inCoreLimiter(Pl.InCore->Cause))
    return Pl.Limiter + " (" + Pl.InCore->Chain + ")";
  return Pl.Limiter;
}

Placement place(const Platform &P, const Work &W, const Traffic &Q,
                Convention C, const InCoreBound *InCore) {
  Placement Pl;
  Pl.Flops = W.flops(C);

  // Compute time: each precision's vector part at its vector roof and its
  // tensor part at its tensor roof; the FMA-adjusted time charges every
  // non-FMA operation a full issue slot (an FMA-quoted peak needs all FMAs).
  double Seconds = 0, SecondsFMA = 0;
  std::vector<std::pair<double, std::string>> Used;
  for (const auto &Entry : W.Ops) {
    const std::string &Prec = Entry.first;
    const auto &Classes = Entry.second;
    double Tensor = W.tensorFlops(Prec, C);
    double Vector = W.flops(Prec, C) - Tensor;
    auto Count = [&Classes](const char *K) {
      auto It = Classes.find(K);
      return It == Classes.end() ? 0.0 : It->second;
    };
    if (Vector > 0) {
      const ComputePeak R = roofFor(P, Prec, "vector", Pl.Notes);
      double Peak = R.FlopsPerSecond * (C == Convention::MAC && R.FMA ? 0.5 : 1);
      Seconds += Vector / Peak;
      double Slots = Count("add") + Count("mul") + Count("fma") +
                     (C == Convention::NCU ? 0 : Count("div") + Count("sqrt"));
      // At an FMA-quoted peak one issue slot does 2 FLOPs (1 MAC).
      double PerSlot = C == Convention::MAC ? 1.0 : 2.0;
      double SlotPeak = R.FMA ? Peak / PerSlot : Peak;
      SecondsFMA += R.FMA ? std::max(Vector / Peak, Slots / SlotPeak)
                           : Vector / Peak;
      Used.push_back({Vector, R.label()});
    }
    if (Tensor > 0) {
      const ComputePeak R = roofFor(P, Prec, "tensor", Pl.Notes);
      double Peak = R.FlopsPerSecond * (C == Convention::MAC && R.FMA ? 0.5 : 1);
      Seconds += Tensor / Peak;
      SecondsFMA += Tensor / Peak;
      Used.push_back({Tensor, R.label()});
    }
  }
  if (Used.empty()) {
    const ComputePeak &R = P.headlinePeak();
    double Peak = R.FlopsPerSecond * (C == Convention::MAC && R.FMA ? 0.5 : 1);
    Pl.PeakFlops = Pl.FMAPeakFlops = Peak;
    Pl.Roof = R.label();
  } else {
    Pl.PeakFlops = Pl.Flops / Seconds;
    Pl.FMAPeakFlops = Pl.Flops / SecondsFMA;
    std::sort(Used.rbegin(), Used.rend());
    for (size_t I = 0; I < Used.size(); ++I)
      if (Pl.Roof.find(Used[I].second) == std::string::npos)
        Pl.Roof += (Pl.Roof.empty() ? "" : " + ") + Used[I].second;
  }

  // Every level's time at its bandwidth; the slowest of them and the
  // compute time is the least time the kernel can take.
  double ComputeSeconds = Pl.Flops > 0 ? Pl.Flops / Pl.PeakFlops : 0;
  double ComputeSecondsFMA = Pl.Flops > 0 ? Pl.Flops / Pl.FMAPeakFlops : 0;
  for (const MemoryLevel &M : P.Memory) {
    LevelBound L;
    L.Level = M.Level;
    auto It = Q.find(M.Level);
    L.Known = It != Q.end();
    L.Bytes = L.Known ? It->second : 0;
    L.BytesPerSecond = M.BytesPerSecond;
    L.Intensity = L.Bytes > 0 ? Pl.Flops / L.Bytes
                              : std::numeric_limits<double>::infinity();
    L.Seconds = L.Bytes / L.BytesPerSecond;
    Pl.Levels.push_back(L);
  }
  // The kernel is placed at the binding level, the slowest: a kernel that
  // moves bytes is never shown at DRAM's 0 bytes and infinite intensity
  // because its data fits in a cache.
  const LevelBound *Binding = nullptr;
  for (const LevelBound &L : Pl.Levels)
    if (L.Seconds > (Binding ? Binding->Seconds : 0))
      Binding = &L;
  double Slowest = Binding ? Binding->Seconds : 0;
  Pl.Limiter = Slowest > ComputeSeconds ? Binding->Level : "compute";
  Pl.BytesLevel = Binding ? Binding->Level : "dram";
  Pl.Bytes = Binding ? Binding->Bytes : 0;
  Pl.Intensity = Pl.Bytes > 0 ? Pl.Flops / Pl.Bytes
                              : std::numeric_limits<double>::infinity();
  Pl.Bandwidth = Binding ? Binding->BytesPerSecond : P.dram().BytesPerSecond;
  Pl.Ridge = ridgePoint(Pl.PeakFlops, Pl.Bandwidth);
  Pl.MinSeconds = std::max(ComputeSeconds, Slowest);
  Pl.MemoryBound = Pl.Limiter != "compute";
  // The core's own limit for the code as compiled: above the compute peak
  // (it can only be slower) and, when longer, above every level's time.
  if (InCore && InCore->Seconds > 0) {
    Pl.InCore = *InCore;
    Pl.InCoreFlops = Pl.Flops / InCore->Seconds;
    if (InCore->Seconds > Pl.MinSeconds) {
      Pl.MinSeconds = InCore->Seconds;
      Pl.Limiter = inCoreLimiter(InCore->Cause);
      Pl.MemoryBound = false;
    }
  }
  auto Rate = [&](double Seconds, double Peak) {
    return Seconds > 0 ? Pl.Flops / Seconds : Peak;
  };
  Pl.Attainable = Rate(Pl.MinSeconds, Pl.PeakFlops);
  Pl.AttainableFMA = Rate(std::max({ComputeSecondsFMA, Slowest,
                                    Pl.InCore ? Pl.InCore->Seconds : 0.0}),
                          Pl.FMAPeakFlops);
  Pl.NextStep = nextStep(Pl);
  return Pl;
}

namespace {

/// Levels from the core outwards: shared and l1 first, dram last.
int depthOf(const std::string &Level) {
  if (Level == "shared" || Level == "l1")
    return 0;
  if (Level == "l2")
    return 1;
  if (Level == "l3")
    return 2;
  return 3;
}

} // namespace

Traffic levelTraffic(const Platform &P, const KernelBytes &B,
                     std::vector<std::string> *Notes) {
  Traffic Q;
  auto Has = [&](const char *L) {
    return std::any_of(P.Memory.begin(), P.Memory.end(),
                       [&](const MemoryLevel &M) { return M.Level == L; });
  };
  // The first level sees every load and store; on a GPU, a warp's wide
  // access in one cycle at least, which may serve all its lanes.
  double Counted = std::max(0.0, B.Counted - B.CountedShareable);
  double Shared = std::max(0.0, B.Shared - B.SharedShareable);
  if (Has("l1")) {
    Q["l1"] = Counted + (Has("shared") ? 0 : Shared);
    if (Has("shared"))
      Q["shared"] = Shared;
  } else if (Has("shared") && (B.GPUCode || P.Kind != "gpu")) {
    Q["shared"] = Counted + Shared;
  }
  if (!B.Footprint) {
    if (Notes)
      Notes->push_back("footprint unknown: no lower bound on the traffic "
                       "below the first level");
    return Q;
  }
  // Below it, the footprint less what the cache levels above can hold.
  std::vector<const MemoryLevel *> Levels;
  for (const MemoryLevel &M : P.Memory)
    Levels.push_back(&M);
  std::sort(Levels.begin(), Levels.end(),
            [](const MemoryLevel *X, const MemoryLevel *Y) {
              return depthOf(X->Level) < depthOf(Y->Level);
            });
  double Above = 0;
  bool SizesKnown = true;
  std::string Served; // the first level that can hold all of it
  for (const MemoryLevel *M : Levels) {
    if (depthOf(M->Level) == 0) {
      if (M->Level == "l1")
        Above += M->SizeBytes;
      continue;
    }
    Q[M->Level] =
        SizesKnown ? B.Calls * std::max(0.0, *B.Footprint - Above) : 0;
    if (M->Level != "dram") {
      if (M->SizeBytes <= 0)
        SizesKnown = false;
      Above += M->SizeBytes;
      if (SizesKnown && Served.empty() && Above >= *B.Footprint)
        Served = M->Level;
    }
  }
  if (!Notes)
    return Q;
  bool AnyCache = std::any_of(Levels.begin(), Levels.end(), [](const MemoryLevel *M) {
    return M->Level != "dram" && M->Level != "shared";
  });
  if (!SizesKnown)
    Notes->push_back("a cache level of " + P.Name + " has no size: the levels "
                     "below it get no lower bound");
  else if (!Served.empty())
    Notes->push_back("footprint " + binaryBytes(*B.Footprint) + " fits in " +
                     Served + " and the levels above it: on repeated calls it "
                     "may be served from there, so DRAM is not a bound");
  else if (Q["dram"] < *B.Footprint)
    Notes->push_back("footprint " + binaryBytes(*B.Footprint) + ": the caches (" +
                     binaryBytes(Above) + ") may hold part of it on repeated "
                     "calls, so DRAM gets " + binaryBytes(Q["dram"]) +
                     " at least");
  (void)AnyCache; // a platform without caches says so once (the report)
  return Q;
}

} // namespace roofline
