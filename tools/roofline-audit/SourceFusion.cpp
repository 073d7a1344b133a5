//===- SourceFusion.cpp - Fusion candidates between kernel launches -------===//
#include "SourceFusion.h"

#include "roofline/Model/Condition.h"

#include "roofline/Model/Formula.h"

#include <algorithm>
#include <numeric>

namespace roofline {

namespace {

/// One launch's work and traffic with the host's values.
struct LaunchCost {
  Work W;
  KernelBytes B; ///< counted bytes and footprint, per launch
  Traffic Q;     ///< B through each memory level of the platform
  std::vector<std::string> Notes;
  std::set<std::string> Unbound; ///< sizes taken at the large-size limit
};

class Evaluator {
public:
  Evaluator(const HostFunction &Fn, const AuditOptions &Options, FusionAudit &A)
      : A(A), Fn(Fn) {
    Values = Fn.KnownValues;
    for (const auto &[Name, V] : Fn.KnownValues)
      if (!Options.Assume.count(Name))
        Source.insert(Name);
    for (const auto &[Name, V] : Options.Assume)
      Values[Name] = V;
  }

  Result<double> value(const Polynomial &P) {
    if (!P.isValid())
      return Failure{"a formula could not be represented (overflow)"};
    for (const std::string &V : P.leafVariables().value_or(std::set<std::string>{}))
      if (Values.count(V) && Source.count(V))
        A.FromSource[&Fn][V] = Values[V];
    std::set<std::string> Unbound;
    Result<double> R = evaluateAtLargeSizes(P, Values, &Unbound);
    A.Unbound.insert(Unbound.begin(), Unbound.end());
    if (Tracking)
      Tracking->insert(Unbound.begin(), Unbound.end());
    return R;
  }
  /// The variables the values above leave unbound go to \p Into too, until
  /// the next call.
  void track(std::set<std::string> *Into) { Tracking = Into; }

private:
  FusionAudit &A;
  const HostFunction &Fn;
  std::map<std::string, double> Values;
  std::set<std::string> Source; ///< variables whose value is the source's
  std::set<std::string> *Tracking = nullptr;
};

std::string kernelName(const Launch &L) { return L.Callee; }

Result<Polynomial> threadsOf(const Launch &L) {
  if (!L.Kernel->isCUDA())
    return Polynomial(1);
  if (L.Shape)
    return L.Shape->threads();
  return Polynomial::variable("threads");
}

/// Whether \p C holds with launch \p L's values; nullopt when a side has
/// no value there.
std::optional<bool> holdsAt(const Condition &C, const Launch &L, Evaluator &E) {
  if (C.K != Condition::Kind::Compare) {
    bool All = C.K == Condition::Kind::All;
    for (const Condition &P : C.Parts) {
      std::optional<bool> H = holdsAt(P, L, E);
      if (!H)
        return std::nullopt;
      if (*H != All)
        return !All;
    }
    return All;
  }
  Result<double> X = E.value(C.Lhs.substitute(L.Bindings));
  Result<double> Y = E.value(C.Rhs.substitute(L.Bindings));
  if (!X || !Y)
    return std::nullopt;
  return compare(*X, C.Op, *Y);
}

/// The first of a footprint's assumptions ("gridDim.x*blockDim.x >= n")
/// that the launch's values break, or "" when none is known to break.
std::string brokenAssumption(const FootprintRecord &F, const Launch &L,
                             Evaluator &E) {
  for (const StatedAssumption &A : F.Assumptions)
    if (A.Read && holdsAt(A.Read->Test, L, E) == std::optional<bool>(false))
      return A.Text;
  return "";
}

/// The launch's totals as host polynomials, then evaluated. CUDA counts
/// are per thread (times the launch's threads); footprints per launch.
Result<LaunchCost> launchCost(const Launch &L, Evaluator &E, const Platform &P) {
  const KernelRecord &K = L.Kernel->Record;
  std::string Who = "kernel '" + K.DisplayName + "' at " + L.Loc.str() + ": ";
  Result<Polynomial> Threads = threadsOf(L);
  LaunchCost C;
  auto Eval = [&](const Formula &F, bool PerThread) -> Result<double> {
    // Its variables bound to host polynomials (floors' operands too).
    Polynomial Bound = F.Value.substitute(L.Bindings);
    Result<double> V = E.value(PerThread ? Bound * *Threads : Bound);
    if (!V)
      return Failure{Who + V.error()};
    return *V;
  };
  for (const auto &[Prec, Classes] : K.Classes)
    for (const auto &[Class, F] : Classes) {
      Result<double> V = Eval(F, true);
      if (!V)
        return Failure{V.error()};
      C.W.Ops[Prec][Class] = *V;
    }
  Result<double> Load = Eval(K.BytesLoad, true), Store = Eval(K.BytesStore, true);
  if (!Load)
    return Failure{Load.error()};
  if (!Store)
    return Failure{Store.error()};
  // Counted bytes cross the first level (as in roofline-report).
  C.B.Counted = *Load + *Store;
  C.B.GPUCode = isGPUKernel(K);
  for (const auto &[Space, N] : K.ShareableBySpace)
    if (Result<double> SN = Eval(N, true))
      (Space == "shared" ? C.B.SharedShareable : C.B.CountedShareable) += *SN;
  for (const auto &[Space, LS] : K.BytesBySpace) {
    if (Space == "memory" || Space == "global" || Space == "generic")
      continue; // in Load and Store already
    Result<double> SL = Eval(LS.first, true), SS = Eval(LS.second, true);
    if (SL && SS)
      (Space == "shared" ? C.B.Shared : C.B.Counted) += *SL + *SS;
  }
  // The footprint, what must come from below it.
  std::string Broken;
  if (K.Footprint && (Broken = brokenAssumption(*K.Footprint, L, E)).empty()) {
    Result<double> FR = Eval(K.Footprint->ReadAtLeast, false),
                   FW = Eval(K.Footprint->WrittenAtLeast, false);
    if (!FR)
      return Failure{FR.error()};
    if (!FW)
      return Failure{FW.error()};
    C.B.Footprint = std::max(0.0, *FR) + std::max(0.0, *FW);
    C.B.FootprintExact = K.Footprint->Exact;
    if (!K.Footprint->Exact)
      C.Notes.push_back(kernelName(L) + "'s footprint is a lower bound (" +
                        K.Footprint->Note + ")");
  } else {
    C.B.Footprint = C.B.Counted;
    C.Notes.push_back(
        kernelName(L) + " at " + L.Loc.str() + ": " +
        (K.Footprint ? "its footprint assumes " + Broken +
                           ", which this launch does not meet"
                     : std::string("no footprint in its summary (rebuild "
                                   "with this version)")) +
        "; its counted bytes stand in for memory traffic");
  }
  C.Q = levelTraffic(P, C.B);
  return C;
}

PlacedCost costOf(const Platform &P, Convention Conv, const Work &W,
                  const Traffic &Q, double Seconds) {
  Placement Pl = place(P, W, Q, Conv);
  PlacedCost C;
  C.Flops = Pl.Flops;
  C.Bytes = Pl.Bytes;
  C.Intensity = Pl.Intensity;
  C.MemoryBound = Pl.MemoryBound;
  C.Seconds = Seconds >= 0 ? Seconds : Pl.MinSeconds;
  return C;
}

Work sum(const Work &A, const Work &B) {
  Work S = A;
  for (const auto &[Prec, Classes] : B.Ops)
    for (const auto &[Class, N] : Classes)
      S.Ops[Prec][Class] += N;
  return S;
}

Traffic sum(const Traffic &A, const Traffic &B) {
  Traffic S = A;
  for (const auto &[Level, N] : B)
    S[Level] += N;
  return S;
}

/// What fusing takes out: the intermediate's footprint (written once, read
/// once) below the first level, its counted loads and stores through it.
struct Saving {
  double Footprint = 0, Counted = 0;
};

/// Before: the launches placed one by one (their times add up); after: one
/// kernel with their work, and their bytes less \p Saved.
void beforeAfter(const FusionAudit &A,
                 const std::vector<const LaunchCost *> &Costs,
                 const Saving &Saved, bool Fused, PlacedCost &Before,
                 PlacedCost &After) {
  Work W;
  Traffic Q;
  KernelBytes B;
  B.Footprint = 0;
  double Seconds = 0;
  for (const LaunchCost *C : Costs) {
    W = sum(W, C->W);
    Q = sum(Q, C->Q);
    B.Counted += C->B.Counted;
    B.Shared += C->B.Shared;
    B.CountedShareable += C->B.CountedShareable;
    B.SharedShareable += C->B.SharedShareable;
    B.GPUCode |= C->B.GPUCode;
    *B.Footprint += *C->B.Footprint;
    Seconds += place(A.Plat, C->W, C->Q, A.Options.Conv).MinSeconds;
  }
  Before = costOf(A.Plat, A.Options.Conv, W, Q, Seconds);
  if (!Fused) {
    After = Before;
    return;
  }
  B.Counted = std::max(0.0, B.Counted - Saved.Counted);
  *B.Footprint = std::max(0.0, *B.Footprint - Saved.Footprint);
  After = costOf(A.Plat, A.Options.Conv, W, levelTraffic(A.Plat, B), -1);
}

/// The live value of a buffer: written by a launch, maybe read by a
/// consumer.
struct Version {
  size_t Producer = 0, ProducerEvent = 0;
  std::optional<size_t> Candidate; ///< the first consumer's candidate
  std::vector<std::string> HostReads; ///< host reads before any consumer
  bool ReadAgain = false; ///< a reader after the consumer (the first named)
};

std::string quote(const std::string &S) { return "'" + S + "'"; }

/// Whether event \p E reads (or, with \p Write, writes) buffer \p Key.
bool touches(const HostFunction &Fn, const HostEvent &E, const std::string &Key,
             bool Write) {
  if (E.K != HostEvent::LaunchEvent)
    return E.BufferKey == Key &&
           (Write ? E.K == HostEvent::Write || E.K == HostEvent::Release
                  : E.K == HostEvent::Read);
  const Launch &L = Fn.Launches[E.LaunchIndex];
  for (const auto &[Index, Buf] : L.Pointers) {
    const PointerParam *PP = L.Kernel->pointer(Index);
    if (PP && Buf.Key == Key && (Write ? PP->Written : PP->Read))
      return true;
  }
  return false;
}

/// In a loop, what runs before the producer runs again after the consumer:
/// a read there (before any new write) reads the producer's value.
void checkNextIteration(const HostFunction &Fn, FusionPair &C,
                        size_t ProducerEvent) {
  const Launch &P = Fn.Launches[C.Producer], &Q = Fn.Launches[C.Consumer];
  for (size_t Loop : Q.Loops) {
    if (std::find(P.Loops.begin(), P.Loops.end(), Loop) == P.Loops.end())
      continue;
    for (size_t I = Fn.Loops[Loop].Begin; I < ProducerEvent; ++I) {
      const HostEvent &E = Fn.Events[I];
      if (touches(Fn, E, C.Buf.Key, /*Write=*/false)) {
        C.Fusible = false;
        C.Reasons.push_back(
            quote(C.Buf.Name) + " is read again in the loop's next iteration "
            "by " + (E.K == HostEvent::LaunchEvent
                         ? Fn.Launches[E.LaunchIndex].Callee
                         : "host code " + E.What) +
            " at " + E.Loc.str() + ", so it must still be written");
        break;
      }
      if (touches(Fn, E, C.Buf.Key, /*Write=*/true))
        break;
    }
  }
}

/// A variable either launch's shape reads, assigned between the two
/// launches (int grid = ...; k1<<<grid, b>>>; grid = ...; k2<<<grid, b>>>):
/// the same spelling, another value.
void checkShapeAssignments(const HostFunction &Fn, FusionPair &C,
                           size_t ProducerEvent) {
  const Launch &P = Fn.Launches[C.Producer], &Q = Fn.Launches[C.Consumer];
  for (size_t I = ProducerEvent + 1; I < Fn.Events.size(); ++I) {
    const HostEvent &E = Fn.Events[I];
    if (E.K == HostEvent::LaunchEvent && E.LaunchIndex == C.Consumer)
      break;
    if (E.K == HostEvent::Assign &&
        (P.ShapeVariables.count(E.BufferKey) || Q.ShapeVariables.count(E.BufferKey))) {
      C.Fusible = false;
      C.Reasons.push_back(E.What + " is assigned at " + E.Loc.str() +
                          " between the launches: their launch shapes differ");
      return;
    }
  }
}

/// The candidates of one function, in the order of their consumers.
void findCandidates(const HostFunction &Fn, std::vector<FusionPair> &Out) {
  std::map<std::string, Version> Live;
  std::vector<size_t> Syncs;
  std::vector<std::pair<FusionPair, size_t>> Found; // with the producer event
  for (size_t I = 0; I < Fn.Events.size(); ++I) {
    const HostEvent &E = Fn.Events[I];
    switch (E.K) {
    case HostEvent::LaunchEvent: {
      const Launch &L = Fn.Launches[E.LaunchIndex];
      std::set<std::string> Seen;
      for (const auto &[Index, Buf] : L.Pointers) {
        const PointerParam *PP = L.Kernel->pointer(Index);
        if (!PP || !PP->Read || !Seen.insert(Buf.Key).second)
          continue;
        auto It = Live.find(Buf.Key);
        if (It == Live.end())
          continue;
        Version &V = It->second;
        if (V.Candidate) {
          if (!V.ReadAgain) {
            FusionPair &C = Found[*V.Candidate].first;
            C.Fusible = false;
            C.Reasons.push_back(quote(Buf.Name) + " is read again later by " +
                                kernelName(L) + " at " + L.Loc.str() +
                                ", so it must still be written");
          }
          V.ReadAgain = true;
          continue;
        }
        FusionPair C;
        C.Fn = &Fn;
        C.Producer = V.Producer;
        C.Consumer = E.LaunchIndex;
        C.Buf = Buf;
        for (const std::string &R : V.HostReads) {
          C.Fusible = false;
          C.Reasons.push_back(quote(Buf.Name) + " is read by host code " + R +
                              " between the launches");
        }
        for (size_t S : Syncs)
          if (S > V.ProducerEvent) {
            C.Fusible = false;
            C.Reasons.push_back(Fn.Events[S].What + " at " +
                                Fn.Events[S].Loc.str() +
                                " lies between the launches");
          }
        V.Candidate = Found.size();
        Found.push_back({C, V.ProducerEvent});
      }
      for (const auto &[Index, Buf] : L.Pointers) {
        const PointerParam *PP = L.Kernel->pointer(Index);
        if (PP && PP->Written)
          Live[Buf.Key] = Version{E.LaunchIndex, I, std::nullopt, {}, false};
      }
      break;
    }
    case HostEvent::Sync:
      Syncs.push_back(I);
      break;
    case HostEvent::Read: {
      auto It = Live.find(E.BufferKey);
      if (It == Live.end())
        break;
      Version &V = It->second;
      std::string Where = E.What + " at " + E.Loc.str();
      if (V.Candidate) {
        FusionPair &C = Found[*V.Candidate].first;
        C.Fusible = false;
        if (!V.ReadAgain)
          C.Reasons.push_back(quote(C.Buf.Name) + " is read again later by " +
                              "host code " + Where +
                              ", so it must still be written");
        V.ReadAgain = true;
      } else {
        V.HostReads.push_back(Where);
      }
      break;
    }
    case HostEvent::Write:
    case HostEvent::Release:
      Live.erase(E.BufferKey);
      break;
    case HostEvent::Assign:
      break;
    }
  }
  for (auto &[C, ProducerEvent] : Found) {
    const Launch &P = Fn.Launches[C.Producer], &Q = Fn.Launches[C.Consumer];
    checkNextIteration(Fn, C, ProducerEvent);
    checkShapeAssignments(Fn, C, ProducerEvent);
    if (P.Scope != Q.Scope) {
      C.Fusible = false;
      C.Reasons.push_back("the launches are under different control flow (a "
                          "branch or loop holds one and not the other)");
    }
    if (P.Kernel->isCUDA() != Q.Kernel->isCUDA()) {
      C.Fusible = false;
      C.Reasons.push_back("one is a CUDA kernel and the other a host function");
    } else if (P.Shape && Q.Shape && !(*P.Shape == *Q.Shape)) {
      C.Fusible = false;
      C.Reasons.push_back("different launch shapes (" + P.Shape->str() +
                          " vs " + Q.Shape->str() +
                          "): fusing needs one thread mapping for both");
    } else if (P.Kernel->isCUDA() && (!P.Shape || !Q.Shape)) {
      C.Notes.push_back("a launch shape is unknown; assumed to match");
    }
    if (C.Fusible)
      C.Reasons.push_back(kernelName(P) + " writes " + quote(C.Buf.Name) +
                          " and " + kernelName(Q) +
                          " reads it next; nothing else reads it");
    if (!C.Buf.Tracked)
      C.Notes.push_back("host uses of " + quote(C.Buf.Name) +
                        " are not followed (not a local variable)");
    if (!C.Buf.Caveat.empty())
      C.Notes.push_back(C.Buf.Caveat);
    Out.push_back(std::move(C));
  }
}

} // namespace

/// Chains of \p Fn's launches joined by its fusible candidates (from
/// \p First on), union-found, each placed before and after fusing.
static void addChains(FusionAudit &A, const HostFunction &Fn, size_t First,
                      const std::vector<LaunchCost> &Costs) {
  std::vector<size_t> Parent(Fn.Launches.size());
  std::iota(Parent.begin(), Parent.end(), 0);
  auto Find = [&](size_t X) {
    while (Parent[X] != X)
      X = Parent[X] = Parent[Parent[X]];
    return X;
  };
  std::map<size_t, std::vector<size_t>> Groups; // root -> candidates
  for (size_t I = First; I < A.Candidates.size(); ++I)
    if (A.Candidates[I].Fusible)
      Parent[Find(A.Candidates[I].Producer)] = Find(A.Candidates[I].Consumer);
  for (size_t I = First; I < A.Candidates.size(); ++I)
    if (A.Candidates[I].Fusible)
      Groups[Find(A.Candidates[I].Producer)].push_back(I);
  for (auto &[Root, Members] : Groups) {
    if (Members.size() < 2)
      continue; // a single pair is its candidate
    FusedChain Ch;
    Ch.Fn = &Fn;
    Saving ChainSaving;
    std::set<size_t> Launches;
    for (size_t I : Members) {
      const FusionPair &C = A.Candidates[I];
      Launches.insert(C.Producer);
      Launches.insert(C.Consumer);
      if (std::find(Ch.Buffers.begin(), Ch.Buffers.end(), C.Buf.Name) ==
          Ch.Buffers.end())
        Ch.Buffers.push_back(C.Buf.Name);
      Ch.Saved += C.RoundTrip;
      Ch.SavedValue += C.RoundTripValue;
      Ch.Unbound.insert(C.Unbound.begin(), C.Unbound.end());
      ChainSaving.Footprint += C.RoundTripValue;
      ChainSaving.Counted += C.CountedRoundTrip;
    }
    Ch.Launches.assign(Launches.begin(), Launches.end());
    std::vector<const LaunchCost *> Parts;
    for (size_t L : Ch.Launches)
      Parts.push_back(&Costs[L]);
    beforeAfter(A, Parts, ChainSaving, true, Ch.Before, Ch.After);
    A.Chains.push_back(std::move(Ch));
  }
}

Result<FusionAudit> auditFusion(const std::vector<HostFunction> &Functions,
                          const Platform &P, const AuditOptions &Options) {
  FusionAudit A;
  A.Plat = P;
  A.Options = Options;
  for (const HostFunction &Fn : Functions) {
    size_t First = A.Candidates.size();
    findCandidates(Fn, A.Candidates);
    if (A.Candidates.size() == First)
      continue;
    Evaluator E(Fn, Options, A);
    std::vector<LaunchCost> Costs;
    for (const Launch &L : Fn.Launches) {
      std::set<std::string> Unbound;
      E.track(&Unbound);
      Result<LaunchCost> C = launchCost(L, E, P);
      E.track(nullptr);
      if (!C)
        return Failure{C.error()};
      C->Unbound = std::move(Unbound);
      Costs.push_back(*C);
    }
    // Bytes saved: the producer's write and the consumer's read of the
    // intermediate, each its footprint (the array's distinct bytes, as in
    // a fused kernel that keeps it on chip), or its counted bytes where
    // a kernel has no exact footprint of it.
    for (size_t I = First; I < A.Candidates.size(); ++I) {
      FusionPair &C = A.Candidates[I];
      Polynomial Footprint, Counted;
      bool FootprintKnown = true;
      for (size_t Side : {C.Producer, C.Consumer}) {
        const Launch &L = Fn.Launches[Side];
        bool Write = Side == C.Producer;
        Result<Polynomial> Threads = threadsOf(L);
        for (const auto &[Index, Buf] : L.Pointers) {
          const PointerParam *PP = L.Kernel->pointer(Index);
          if (!PP || Buf.Key != C.Buf.Key)
            continue;
          // Its variables bound to host polynomials (floors' operands too).
          auto Bind = [&](const Formula &F) { return F.Value.substitute(L.Bindings); };
          Counted += Bind(Write ? PP->BytesWritten : PP->BytesRead) * *Threads;
          const std::optional<FootprintRecord> &F = PP->Footprint;
          std::string Broken = F ? brokenAssumption(*F, L, E) : "";
          if (!F || !F->Exact || !Broken.empty()) {
            if (FootprintKnown)
              C.Notes.push_back(
                  kernelName(L) + "'s " +
                  (!F ? "summary has no footprint of '" + PP->Name + "'"
                   : !F->Exact
                       ? "footprint of '" + PP->Name + "' is not exact (" +
                             F->Note + ")"
                       : "footprint of '" + PP->Name + "' assumes " + Broken +
                             ", which this launch does not meet") +
                  ": the round trip counts its loads and stores");
            FootprintKnown = false;
            continue;
          }
          Footprint += Bind(Write ? F->Written : F->Read);
        }
      }
      E.track(&C.Unbound);
      Result<double> CountedValue = E.value(Counted);
      if (!CountedValue)
        return Failure{CountedValue.error()};
      C.RoundTrip = FootprintKnown ? Footprint : Counted;
      Result<double> V = E.value(C.RoundTrip);
      E.track(nullptr);
      for (size_t Side : {C.Producer, C.Consumer})
        C.Unbound.insert(Costs[Side].Unbound.begin(), Costs[Side].Unbound.end());
      if (!V)
        return Failure{V.error()};
      C.RoundTripValue = *V;
      C.CountedRoundTrip = *CountedValue;
      for (size_t Side : {C.Producer, C.Consumer})
        for (const std::string &N : Costs[Side].Notes)
          if (std::find(C.Notes.begin(), C.Notes.end(), N) == C.Notes.end())
            C.Notes.push_back(N);
      beforeAfter(A, {&Costs[C.Producer], &Costs[C.Consumer]},
                  {C.RoundTripValue, C.CountedRoundTrip}, C.Fusible, C.Before,
                  C.After);
    }
    addChains(A, Fn, First, Costs);
  }
  return A;
}

} // namespace roofline
