//===- InCore.cpp - Loops' in-core ceilings, as data ----------------------===//
#include "roofline/Model/InCore.h"
#include "roofline/Model/JSONAccess.h"

#include <algorithm>

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

std::string inCoreJSON(const InCoreReport &R) {
  json Out = {{"schema", "roofline-incore"}, {"version", 1},
              {"binary", R.Binary}, {"cpu", R.Cpu},
              {"window_micro_ops", R.WindowMicroOps}, {"notes", R.Notes}};
  json Loops = json::array();
  for (const InCoreLoop &L : R.Loops) {
    json Pos = json::array();
    for (const InCoreLoop::Position &P : L.Positions)
      Pos.push_back({{"function", P.Function}, {"file", P.File}, {"line", P.Line}});
    Loops.push_back({{"function", L.Function},
                     {"address", L.Address},
                     {"instructions", L.Instructions},
                     {"positions", Pos},
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
                     {"code", L.Code}});
  }
  Out["loops"] = Loops;
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
  for (const json &E : arrayOr(J, "loops")) {
    if (!E.is_object())
      return Failure{Path + ": a loop is not an object"};
    InCoreLoop L;
    L.Function = stringOr(E, "function", "");
    L.Address = clampedUnsigned(numberOr(E, "address", 0), UINT64_MAX);
    L.Instructions = clampedUnsigned(numberOr(E, "instructions", 0));
    for (const json &P : arrayOr(E, "positions"))
      if (P.is_object())
        L.Positions.push_back({stringOr(P, "function", ""), stringOr(P, "file", ""),
                               unsigned(clampedUnsigned(numberOr(P, "line", 0)))});
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
    for (const json &C : arrayOr(E, "code"))
      if (C.is_string())
        L.Code.push_back(C.get<std::string>());
    if (L.CyclesPerIteration <= 0)
      return Failure{Path + ": a loop of " + L.Function +
                     " has no cycles per iteration"};
    R.Loops.push_back(std::move(L));
  }
  return R;
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
  double W = L.WindowIterations;
  if (W <= 0 && WindowMicroOps > 0 && L.MicroOps > 0)
    W = WindowMicroOps / L.MicroOps;
  // An entry of E iterations holds its chain E x ChainCycles; while it
  // drains, up to W iterations of the next entry (whose chain starts anew)
  // are in flight and run beside it. Entries much longer than the window
  // take (E - W) chains each; much shorter ones overlap W / E at a time,
  // E^2 / W each. E / (E + W) of the chain meets both ends.
  double E = IterationsPerEntry;
  return E / (E + std::max(0.0, W));
}

std::optional<InCoreCeiling> ceilingOf(const InCoreReport &R,
                                       const std::string &Function,
                                       const std::string &File, unsigned Line,
                                       unsigned EndLine, double IterationsPerEntry) {
  InCoreCeiling C;
  auto Consider = [](InCoreRate &Best, double Work, const InCoreRate &Loop) {
    if (Work <= 0)
      return;
    double Rate = Work / Loop.CyclesPerIteration;
    if (Rate > Best.PerCycle)
      Best = {Rate, Loop.CyclesPerIteration, Loop.Cause, Loop.Detail};
  };
  auto Inside = [&](const InCoreLoop &L) {
    return std::any_of(
        L.Positions.begin(), L.Positions.end(), [&](const InCoreLoop::Position &P) {
          return P.Function == Function && P.File == File && P.Line >= Line &&
                 (EndLine == 0 || P.Line < EndLine);
        });
  };
  // The nest's own loop runs IterationsPerEntry a time (machine iterations
  // of its main body: the one doing the most work an iteration; a
  // remainder loop continues the same chain). An inner loop's entries are
  // not known.
  auto Outermost = [&](const InCoreLoop &L) {
    return std::any_of(
        L.Positions.begin(), L.Positions.end(), [&](const InCoreLoop::Position &P) {
          return P.Function == Function && P.File == File && P.Line == Line;
        });
  };
  const InCoreLoop *Main = nullptr;
  for (const InCoreLoop &L : R.Loops)
    if (Inside(L) && Outermost(L) &&
        (!Main || L.FlopsPerIteration + L.BytesPerIteration >
                      Main->FlopsPerIteration + Main->BytesPerIteration))
      Main = &L;
  double Share = Main ? chainShare(*Main, R.WindowMicroOps, IterationsPerEntry) : 0;
  for (const InCoreLoop &L : R.Loops) {
    if (!Inside(L))
      continue;
    ++C.Loops;
    InCoreRate Loop{0, L.CyclesPerIteration, L.Cause, L.Detail};
    bool Chain = L.ChainCycles > L.PortCycles && L.PortCycles > 0;
    double Cycles = std::max(L.PortCycles,
                             L.ChainCycles * (Outermost(L) ? Share : 0));
    if (Chain && Cycles < Loop.CyclesPerIteration) {
      Loop.CyclesPerIteration = Cycles;
      if (Cycles <= L.PortCycles) {
        Loop.Cause = InCoreCause::Ports;
        Loop.Detail = L.PortDetail + " (" + L.Detail +
                      " overlaps from one entry to the next: too few "
                      "iterations an entry to fill the core's window)";
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
