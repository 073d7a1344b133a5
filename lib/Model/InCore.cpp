//===- InCore.cpp - Loops' in-core ceilings, as data ----------------------===//
#include "roofline/Model/InCore.h"
#include "roofline/Model/ChainOverlap.h"
#include "roofline/Model/JSONAccess.h"

#include <algorithm>
#include <set>
#include <tuple>

using nlohmann::json;

namespace roofline {

const char *inCoreCauseName(InCoreCause C) {
  switch (C) {
  case InCoreCause::Ports:
    return "ports";
  case InCoreCause::DependencyChain:
    return "dependency chain";
  case InCoreCause::Divide:
    return "divide";
  }
  return "ports";
}

std::optional<InCoreCause> parseInCoreCause(const std::string &Name) {
  for (InCoreCause C : {InCoreCause::Ports, InCoreCause::DependencyChain,
                        InCoreCause::Divide})
    if (Name == inCoreCauseName(C))
      return C;
  return std::nullopt;
}

const char *chainKindName(ChainKind K) {
  switch (K) {
  case ChainKind::None:
    return "none";
  case ChainKind::FloatingPoint:
    return "fp";
  case ChainKind::Memory:
    return "memory";
  case ChainKind::Other:
    return "other";
  }
  return "none";
}

std::optional<ChainKind> parseChainKind(const std::string &Name) {
  for (ChainKind K : {ChainKind::None, ChainKind::FloatingPoint,
                      ChainKind::Memory, ChainKind::Other})
    if (Name == chainKindName(K))
      return K;
  return std::nullopt;
}

namespace {

json positionsJSON(const std::vector<InCoreLoop::Position> &Positions) {
  json Pos = json::array();
  for (const InCoreLoop::Position &P : Positions)
    Pos.push_back({{"function", P.Function}, {"file", P.File}, {"line", P.Line}});
  return Pos;
}

std::vector<InCoreLoop::Position> positionsFrom(const json &E, const char *Key) {
  std::vector<InCoreLoop::Position> Out;
  for (const json &P : arrayOr(E, Key))
    if (P.is_object())
      Out.push_back({stringOr(P, "function", ""), stringOr(P, "file", ""),
                     unsigned(clampedUnsigned(numberOr(P, "line", 0)))});
  return Out;
}

} // namespace

std::string inCoreJSON(const InCoreReport &R) {
  json Out = {{"schema", "roofline-incore"}, {"version", 1},
              {"binary", R.Binary}, {"cpu", R.Cpu},
              {"window_micro_ops", R.WindowMicroOps}, {"notes", R.Notes},
              {"producers", R.Producers}};
  json Loops = json::array();
  for (const InCoreLoop &L : R.Loops) {
    Loops.push_back({{"function", L.Function},
                     {"address", L.Address},
                     {"instructions", L.Instructions},
                     {"positions", positionsJSON(L.Positions)},
                     {"enclosing", positionsJSON(L.Enclosing)},
                     {"producer", L.Producer},
                     {"cycles_per_iteration", L.CyclesPerIteration},
                     {"port_cycles", L.PortCycles},
                     {"chain_cycles", L.ChainCycles},
                     {"micro_ops", L.MicroOps},
                     {"window_iterations", L.WindowIterations},
                     {"window_detail", L.WindowDetail},
                     {"port_detail", L.PortDetail},
                     {"flops_per_iteration", L.FlopsPerIteration},
                     {"bytes_per_iteration", L.BytesPerIteration},
                     {"cause", inCoreCauseName(L.Cause)},
                     {"detail", L.Detail},
                     {"chain", L.Chain},
                     {"chain_kind", chainKindName(L.Kind)},
                     {"code", L.Code}});
  }
  Out["loops"] = Loops;
  json Calls = json::array();
  for (const InCoreReport::LoopCall &C : R.Calls)
    Calls.push_back({{"callee", C.Callee}, {"positions", positionsJSON(C.Positions)}});
  Out["loop_calls"] = Calls;
  return Out.dump(1) + "\n";
}

Result<InCoreReport> parseInCoreJSON(const std::string &Text,
                                     const std::string &Path) {
  json J = json::parse(Text, nullptr, /*allow_exceptions=*/false);
  if (J.is_discarded() || !J.is_object())
    return Failure{Path + ": not JSON"};
  if (stringOr(J, "schema", "") != "roofline-incore")
    return Failure{Path + ": not an in-core analysis (\"schema\" is not "
                          "\"roofline-incore\")"};
  InCoreReport R;
  R.Binary = stringOr(J, "binary", "");
  R.Cpu = stringOr(J, "cpu", "");
  R.WindowMicroOps = numberOr(J, "window_micro_ops", 0);
  for (const json &N : arrayOr(J, "notes"))
    if (N.is_string())
      R.Notes.push_back(N.get<std::string>());
  for (const json &P : arrayOr(J, "producers"))
    if (P.is_string())
      R.Producers.push_back(P.get<std::string>());
  for (const json &E : arrayOr(J, "loops")) {
    if (!E.is_object())
      return Failure{Path + ": a loop is not an object"};
    InCoreLoop L;
    L.Function = stringOr(E, "function", "");
    L.Address = clampedUnsigned(numberOr(E, "address", 0), UINT64_MAX);
    L.Instructions = clampedUnsigned(numberOr(E, "instructions", 0));
    L.Positions = positionsFrom(E, "positions");
    L.Enclosing = positionsFrom(E, "enclosing");
    double Producer = numberOr(E, "producer", -1);
    L.Producer = Producer >= 0 && Producer < double(R.Producers.size())
                     ? int(Producer)
                     : -1;
    L.CyclesPerIteration = numberOr(E, "cycles_per_iteration", 0);
    L.PortCycles = numberOr(E, "port_cycles", 0);
    L.ChainCycles = numberOr(E, "chain_cycles", 0);
    L.MicroOps = numberOr(E, "micro_ops", 0);
    L.WindowIterations = numberOr(E, "window_iterations", 0);
    L.WindowDetail = stringOr(E, "window_detail", "");
    L.PortDetail = stringOr(E, "port_detail", "");
    L.FlopsPerIteration = numberOr(E, "flops_per_iteration", 0);
    L.BytesPerIteration = numberOr(E, "bytes_per_iteration", 0);
    std::string Cause = stringOr(E, "cause", "ports");
    auto C = parseInCoreCause(Cause);
    if (!C)
      return Failure{Path + ": unknown cause '" + Cause + "'"};
    L.Cause = *C;
    L.Detail = stringOr(E, "detail", "");
    L.Chain = stringOr(E, "chain", "");
    std::string Kind = stringOr(E, "chain_kind", "none");
    auto K = parseChainKind(Kind);
    if (!K)
      return Failure{Path + ": unknown chain kind '" + Kind + "'"};
    L.Kind = *K;
    for (const json &C : arrayOr(E, "code"))
      if (C.is_string())
        L.Code.push_back(C.get<std::string>());
    if (L.CyclesPerIteration <= 0)
      return Failure{Path + ": a loop of " + L.Function +
                     " has no cycles per iteration"};
    R.Loops.push_back(std::move(L));
  }
  for (const json &E : arrayOr(J, "loop_calls")) {
    if (!E.is_object())
      return Failure{Path + ": a loop call is not an object"};
    R.Calls.push_back({stringOr(E, "callee", ""), positionsFrom(E, "positions")});
  }
  return R;
}

bool loopsShared(const InCoreReport &R, const NestPlace &Inner,
                 const NestPlace &Outer) {
  auto Has = [](const InCoreLoop &L, const NestPlace &N) {
    return std::any_of(L.Positions.begin(), L.Positions.end(),
                       [&](const InCoreLoop::Position &P) { return N.holds(P); });
  };
  return std::any_of(R.Loops.begin(), R.Loops.end(), [&](const InCoreLoop &L) {
    return Has(L, Inner) && Has(L, Outer);
  });
}

std::optional<std::string> callInside(const InCoreReport &R,
                                      const std::string &Function,
                                      const std::string &File, unsigned Line,
                                      unsigned EndLine) {
  for (const InCoreReport::LoopCall &C : R.Calls)
    for (const InCoreLoop::Position &P : C.Positions)
      if (P.Function == Function && P.File == File && P.Line >= Line &&
          (EndLine == 0 || P.Line < EndLine))
        return C.Callee.empty() ? std::string("an indirect call") : C.Callee;
  return std::nullopt;
}

unsigned nestEnd(const InCoreReport &R, const std::string &Function,
                 const std::string &File, unsigned Line,
                 const std::vector<unsigned> &Later) {
  auto Here = [&](const InCoreLoop::Position &P) {
    return P.Function == Function && P.File == File;
  };
  auto AtLine = [&](const InCoreLoop::Position &P) { return Here(P) && P.Line == Line; };
  unsigned Last = Line;
  // Only the loops' own code: an enclosing loop's (the layer loop a
  // kernel is inlined in) spans other nests.
  for (const InCoreLoop &L : R.Loops)
    if (std::any_of(L.Positions.begin(), L.Positions.end(), AtLine))
      for (const InCoreLoop::Position &P : L.Positions)
        if (Here(P))
          Last = std::max(Last, P.Line);
  for (unsigned Next : Later)
    if (Next > Last)
      return Next;
  return 0;
}

double InCoreCeiling::cycles(double F, double B) const {
  double C = 0;
  if (F > 0 && Flops.PerCycle > 0)
    C = F / Flops.PerCycle;
  if (B > 0 && Bytes.PerCycle > 0)
    C = std::max(C, B / Bytes.PerCycle);
  return C;
}

const InCoreRate &InCoreCeiling::limiting(double F, double B) const {
  double CF = F > 0 && Flops.PerCycle > 0 ? F / Flops.PerCycle : 0;
  double CB = B > 0 && Bytes.PerCycle > 0 ? B / Bytes.PerCycle : 0;
  return CB > CF ? Bytes : Flops;
}

double chainShare(const InCoreLoop &L, double WindowMicroOps,
                  double IterationsPerEntry) {
  // Entries not known (an inner loop's): they may all overlap.
  if (IterationsPerEntry <= 0)
    return 0;
  ChainWindows W;
  if (WindowMicroOps > 0 && L.MicroOps > 0)
    W.Reorder = WindowMicroOps / L.MicroOps;
  // The loop's window is the reorder buffer's, or a scheduler queue's
  // when that fills first.
  if (W.Reorder <= 0)
    W.Reorder = L.WindowIterations;
  else if (L.WindowIterations > 0 && L.WindowIterations < W.Reorder - 1e-9)
    W.Scheduler = L.WindowIterations;
  // The share does not depend on the chain's length: take one cycle.
  return chainCyclesPerEntry(1, IterationsPerEntry, W) / IterationsPerEntry;
}

namespace {

/// Which loops of a nest a ceiling takes, and the share of each one's chain
/// its entries cannot hide.
struct NestLoops {
  const InCoreReport &R;
  const std::string &Function, &File;
  unsigned Line, EndLine;

  bool at(const InCoreLoop::Position &P, unsigned L) const {
    return P.Function == Function && P.File == File && P.Line == L;
  }
  bool inside(const InCoreLoop &L) const {
    return std::any_of(L.Positions.begin(), L.Positions.end(),
                       [&](const InCoreLoop::Position &P) {
                         return P.Function == Function && P.File == File &&
                                P.Line >= Line && (EndLine == 0 || P.Line < EndLine);
                       });
  }
  /// The nest's own loop (a remainder loop continues its chain).
  bool outermost(const InCoreLoop &L) const {
    return std::any_of(L.Positions.begin(), L.Positions.end(),
                       [&](const auto &P) { return at(P, Line); });
  }
  /// A loop the nest's own loop enters once an iteration.
  bool child(const InCoreLoop &L) const {
    return !outermost(L) &&
           std::any_of(L.Enclosing.begin(), L.Enclosing.end(),
                       [&](const auto &P) { return at(P, Line); });
  }
  /// The one doing the most work an iteration among \p Which.
  template <typename Pred> const InCoreLoop *mainOf(Pred Which) const {
    const InCoreLoop *Main = nullptr;
    for (const InCoreLoop &L : R.Loops)
      if (inside(L) && Which(L) &&
          (!Main || L.FlopsPerIteration + L.BytesPerIteration >
                        Main->FlopsPerIteration + Main->BytesPerIteration))
        Main = &L;
    return Main;
  }
  /// Whether two loops sit in the same copy of the nest: the inliner makes
  /// one copy per call site, each with its own call-site frames.
  static bool sameFrames(const std::vector<InCoreLoop::Position> &A,
                         const std::vector<InCoreLoop::Position> &B) {
    auto Key = [](const std::vector<InCoreLoop::Position> &V) {
      std::set<std::tuple<std::string, std::string, unsigned>> S;
      for (const InCoreLoop::Position &P : V)
        S.insert({P.Function, P.File, P.Line});
      return S;
    };
    return Key(A) == Key(B);
  }
  /// Iterations an entry of the loops directly inside the nest's own, as
  /// \p Main's function and copy have them (the instrumented build's copies of a
  /// function are other functions): the nest's work an iteration of its
  /// own loop over the work of an iteration of each of them (all entered
  /// once; fewer than they run when some are not, which keeps the bound a
  /// lower one).
  double childIterations(const NestRun &Run, const InCoreLoop *Main) const {
    double Flops = 0, Bytes = 0;
    for (const InCoreLoop &L : R.Loops)
      if (Main && L.Function == Main->Function && inside(L) && child(L) &&
          sameFrames(L.Enclosing, Main->Enclosing)) {
        Flops += L.FlopsPerIteration;
        Bytes += L.BytesPerIteration;
      }
    if (Run.Iterations <= 0)
      return 0;
    if (Run.Flops > 0 && Flops > 0)
      return Run.Flops / Run.Iterations / Flops;
    if (Run.Bytes > 0 && Bytes > 0)
      return Run.Bytes / Run.Iterations / Bytes;
    return 0;
  }
};

} // namespace

std::optional<InCoreCeiling> ceilingOf(const InCoreReport &R,
                                       const std::string &Function,
                                       const std::string &File, unsigned Line,
                                       unsigned EndLine, const NestRun &Run) {
  InCoreCeiling C;
  auto Consider = [](InCoreRate &Best, double Work, const InCoreRate &Loop) {
    if (Work <= 0)
      return;
    double Rate = Work / Loop.CyclesPerIteration;
    if (Rate > Best.PerCycle) {
      Best = Loop;
      Best.PerCycle = Rate;
    }
  };
  NestLoops N{R, Function, File, Line, EndLine};
  auto Share = [&](const InCoreLoop *Main, double Iterations) {
    return Main ? chainShare(*Main, R.WindowMicroOps, Iterations) : 0;
  };
  // A share is its main body's: a remainder loop continues the same chain
  // (its own window would make it look faster than it is).
  double OwnShare =
      Run.EntriesApart
          ? 1
          : Share(N.mainOf([&](const InCoreLoop &L) { return N.outermost(L); }),
                  Run.IterationsPerEntry);
  const InCoreLoop *Child = N.mainOf([&](const InCoreLoop &L) { return N.child(L); });
  double ChildShare = Share(Child, N.childIterations(Run, Child));
  for (const InCoreLoop &L : R.Loops) {
    if (!N.inside(L))
      continue;
    ++C.Loops;
    InCoreRate Loop{0, L.CyclesPerIteration, L.Cause, L.Detail, L.Chain, L.Kind,
                    L.Producer >= 0 && size_t(L.Producer) < R.Producers.size()
                        ? R.Producers[L.Producer]
                        : ""};
    bool Chain = L.ChainCycles > L.PortCycles && L.PortCycles > 0;
    double Hidden = N.outermost(L) ? OwnShare : N.child(L) ? ChildShare : 0;
    double Cycles = std::max(L.PortCycles, L.ChainCycles * Hidden);
    if (Chain && Cycles < Loop.CyclesPerIteration) {
      Loop.CyclesPerIteration = Cycles;
      if (Cycles <= L.PortCycles) {
        Loop.Cause = InCoreCause::Ports;
        Loop.Detail = L.PortDetail + " (" + L.Detail +
                      " overlaps from one entry to the next: too few "
                      "iterations an entry to fill the core's window)";
        Loop.Chain.clear();
        Loop.Kind = ChainKind::None;
      }
    }
    Consider(C.Flops, L.FlopsPerIteration, Loop);
    Consider(C.Bytes, L.BytesPerIteration, Loop);
  }
  if (C.Loops == 0 || (C.Flops.PerCycle == 0 && C.Bytes.PerCycle == 0))
    return std::nullopt;
  return C;
}

} // namespace roofline
