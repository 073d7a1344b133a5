//===- AuditOutput.cpp - roofline-audit's formats -------------------------===//
#include "AuditOutput.h"

#include "roofline/Model/Sarif.h"
#include "roofline/Model/Units.h"

#include <cstdio>
#include <sstream>

namespace roofline {

using nlohmann::json;

namespace {

std::string number(double V) {
  char Buf[64];
  std::snprintf(Buf, sizeof(Buf), "%.3g", V);
  return Buf;
}

json locJSON(const SourceLoc &L) {
  return {{"file", L.File}, {"line", L.Line}, {"column", L.Column}};
}

/// With sizes unbound, the large-size limit gives the intensity and the
/// bound, never an amount: those are null.
json costJSON(const PlacedCost &C, bool Unbound) {
  auto Amount = [&](double V) { return Unbound ? json(nullptr) : json(V); };
  return {{"flops", Amount(C.Flops)},
          {"bytes", Amount(C.Bytes)},
          {"intensity", C.Intensity},
          {"seconds", Amount(C.Seconds)},
          {"bound", C.MemoryBound ? "memory" : "compute"}};
}

/// "B, T"
std::string namesText(const std::set<std::string> &Names) {
  std::string S;
  for (const std::string &N : Names)
    S += (S.empty() ? "" : ", ") + N;
  return S;
}

/// "give --assume B=VALUE,T=VALUE"
std::string assumeHint(const std::set<std::string> &Names) {
  std::string S;
  for (const std::string &N : Names)
    S += (S.empty() ? "" : ",") + N + "=VALUE";
  return "give --assume " + S;
}

double speedup(const PlacedCost &Before, const PlacedCost &After) {
  return After.Seconds > 0 ? Before.Seconds / After.Seconds : 1.0;
}

/// "1.5x", "1.001x": enough digits to show a small gain.
std::string speedupText(double S) {
  char Buf[64];
  std::snprintf(Buf, sizeof(Buf), "%.4gx", S);
  return Buf;
}

/// "intensity 0.0833 -> 0.125 FLOP/B, lower-bound time 7.5 us -> 5 us (1.5x)"
/// With \p Unbound sizes, the intensities and the speed-up as sizes grow
/// (limits), no times.
std::string effect(const PlacedCost &B, const PlacedCost &A,
                   const std::set<std::string> &Unbound) {
  std::string Bound = std::string(A.MemoryBound ? "memory" : "compute") +
                      "-bound after";
  if (!Unbound.empty())
    return "intensity " + number(B.Intensity) + " -> " + number(A.Intensity) +
           " FLOP/B and " + speedupText(speedup(B, A)) +
           " faster as sizes grow, " + Bound + "; no times: " +
           namesText(Unbound) + " unbound (" + assumeHint(Unbound) + ")";
  return "intensity " + number(B.Intensity) + " -> " + number(A.Intensity) +
         " FLOP/B; lower-bound time " + secondsText(B.Seconds) + " -> " +
         secondsText(A.Seconds) + " (" + speedupText(speedup(B, A)) + "), " +
         Bound;
}

/// The formula, with its value where every size has one.
std::string bytesText(const Polynomial &P, double V,
                      const std::set<std::string> &Unbound) {
  std::string F = P.str();
  auto K = P.constantValue();
  if (K)
    return siUnit(V, "B");
  bool Needs = false;
  for (const std::string &N : P.leafVariables().value_or(std::set<std::string>{}))
    Needs |= Unbound.count(N) > 0;
  return Needs ? F + " B" : F + " B (" + siUnit(V, "B") + ")";
}

/// "K=1024, n=4096"
std::string valuesText(const std::map<std::string, double> &Values) {
  std::string S;
  for (const auto &[Name, V] : Values) {
    char Buf[64];
    std::snprintf(Buf, sizeof(Buf), "%.10g", V);
    S += (S.empty() ? "" : ", ") + Name + "=" + Buf;
  }
  return S;
}

std::string message(const FusionPair &C) {
  const Launch &P = C.Fn->Launches[C.Producer], &Q = C.Fn->Launches[C.Consumer];
  std::string S = P.Callee + " -> " + Q.Callee + " through '" + C.Buf.Name +
                  "': ";
  if (C.Fusible)
    return S + "fusing saves " + bytesText(C.RoundTrip, C.RoundTripValue, C.Unbound) +
           "; " + effect(C.Before, C.After, C.Unbound);
  return S + "not fusible: " + C.Reasons.front();
}

} // namespace

json formulaJSON(const Polynomial &P) {
  if (auto K = P.constantValue())
    return K->toDouble();
  return P.str();
}

std::string renderAuditText(const FusionAudit &A) {
  std::ostringstream OS;
  OS << "platform: " << A.Plat.Name << " (" << A.Plat.DisplayName << ")";
  if (!A.PlatformNote.empty())
    OS << "; " << A.PlatformNote;
  OS << "\nconvention: " << conventionDescription(A.Options.Conv) << "\n";
  if (!A.Options.Assume.empty())
    OS << "sizes: " << valuesText(A.Options.Assume) << "\n";
  if (!A.Unbound.empty()) {
    OS << "unbound (no value given or in the source; figures that need them "
          "are shown as formulas, ratios as sizes grow):";
    for (const std::string &V : A.Unbound)
      OS << " " << V;
    OS << "\n";
  }
  const HostFunction *Fn = nullptr;
  size_t Fusible = 0;
  for (const FusionPair &C : A.Candidates) {
    if (C.Fn != Fn) {
      Fn = C.Fn;
      OS << "\n" << Fn->Name << " (" << Fn->Loc.str() << "):\n";
      auto Source = A.FromSource.find(Fn);
      if (Source != A.FromSource.end())
        OS << "  values from the source: " << valuesText(Source->second)
           << "\n";
      for (const auto &[Var, Text] : Fn->Opaque)
        OS << "  " << Var << " stands for '" << Text << "'\n";
    }
    const Launch &P = Fn->Launches[C.Producer], &Q = Fn->Launches[C.Consumer];
    OS << "  " << P.Loc.str() << " " << P.Callee << " -> " << Q.Loc.str()
       << " " << Q.Callee << ", buffer '" << C.Buf.Name << "': "
       << (C.Fusible ? "fusible" : "not fusible") << "\n";
    if (C.Fusible) {
      ++Fusible;
      OS << "    saves " << bytesText(C.RoundTrip, C.RoundTripValue, C.Unbound)
         << ": " << P.Callee << "'s write and " << Q.Callee << "'s read of '"
         << C.Buf.Name << "'\n"
         << "    " << effect(C.Before, C.After, C.Unbound) << "\n";
    }
    for (const std::string &R : C.Reasons)
      OS << "    " << (C.Fusible ? "why: " : "because: ") << R << "\n";
    if (!C.Fusible)
      OS << "    (the intermediate's round trip: "
         << bytesText(C.RoundTrip, C.RoundTripValue, C.Unbound) << ")\n";
    for (const std::string &N : C.Notes)
      OS << "    note: " << N << "\n";
  }
  for (const FusedChain &Ch : A.Chains) {
    OS << "\nchain in " << Ch.Fn->Name << ":";
    const char *Sep = " ";
    for (size_t L : Ch.Launches) {
      OS << Sep << Ch.Fn->Launches[L].Callee << " ("
         << Ch.Fn->Launches[L].Loc.str() << ")";
      Sep = " -> ";
    }
    OS << "\n  fusing all saves " << bytesText(Ch.Saved, Ch.SavedValue, Ch.Unbound)
       << " (buffers";
    for (const std::string &B : Ch.Buffers)
      OS << " '" << B << "'";
    OS << ")\n  " << effect(Ch.Before, Ch.After, Ch.Unbound) << "\n";
  }
  OS << "\n" << A.Candidates.size() << " producer -> consumer pair"
     << (A.Candidates.size() == 1 ? "" : "s") << ": " << Fusible
     << " fusible, " << A.Candidates.size() - Fusible << " not; "
     << A.Chains.size() << " chain" << (A.Chains.size() == 1 ? "" : "s")
     << "\n";
  return OS.str();
}

/// A byte count, or null when it needs an unbound size.
static json Amount(double V, const std::set<std::string> &Unbound) {
  return Unbound.empty() ? json(V) : json(nullptr);
}

json auditJSON(const FusionAudit &A) {
  json Candidates = json::array(), Chains = json::array();
  for (const FusionPair &C : A.Candidates) {
    const Launch &P = C.Fn->Launches[C.Producer], &Q = C.Fn->Launches[C.Consumer];
    auto Source = A.FromSource.find(C.Fn);
    json J = {{"function", C.Fn->Name},
              {"values_from_source", Source == A.FromSource.end()
                                         ? json::object()
                                         : json(Source->second)},
              {"producer", P.Callee},
              {"consumer", Q.Callee},
              {"producer_kernel", P.Kernel->Record.DisplayName},
              {"consumer_kernel", Q.Kernel->Record.DisplayName},
              {"producer_location", locJSON(P.Loc)},
              {"consumer_location", locJSON(Q.Loc)},
              {"buffer", C.Buf.Name},
              {"fusible", C.Fusible},
              {"reason", C.Reasons.empty() ? "" : C.Reasons.front()},
              {"reasons", C.Reasons},
              {"notes", C.Notes},
              {"bytes_saved", C.Fusible ? formulaJSON(C.RoundTrip) : json(0)},
              {"bytes_saved_value", !C.Fusible ? json(0.0)
                                    : Amount(C.RoundTripValue, C.Unbound)},
              {"round_trip_bytes", formulaJSON(C.RoundTrip)},
              {"round_trip_bytes_value", Amount(C.RoundTripValue, C.Unbound)},
              {"before", costJSON(C.Before, !C.Unbound.empty())},
              {"after", costJSON(C.After, !C.Unbound.empty())},
              {"speedup", speedup(C.Before, C.After)},
              {"unbound", C.Unbound}};
    Candidates.push_back(J);
  }
  for (const FusedChain &Ch : A.Chains) {
    json Kernels = json::array(), Locs = json::array();
    for (size_t L : Ch.Launches) {
      Kernels.push_back(Ch.Fn->Launches[L].Callee);
      Locs.push_back(locJSON(Ch.Fn->Launches[L].Loc));
    }
    Chains.push_back({{"function", Ch.Fn->Name},
                      {"kernels", Kernels},
                      {"locations", Locs},
                      {"buffers", Ch.Buffers},
                      {"bytes_saved", formulaJSON(Ch.Saved)},
                      {"bytes_saved_value", Amount(Ch.SavedValue, Ch.Unbound)},
                      {"before", costJSON(Ch.Before, !Ch.Unbound.empty())},
                      {"after", costJSON(Ch.After, !Ch.Unbound.empty())},
                      {"speedup", speedup(Ch.Before, Ch.After)},
                      {"unbound", Ch.Unbound}});
  }
  json Variables = json::object();
  for (const FusionPair &C : A.Candidates)
    for (const auto &[Var, Text] : C.Fn->Opaque)
      Variables[Var] = Text;
  return {{"schema", "roofline-audit"},
          {"version", 1},
          {"platform", A.Plat.Name},
          {"platform_note", A.PlatformNote},
          {"convention", conventionName(A.Options.Conv)},
          {"sizes", A.Options.Assume},
          {"unbound", A.Unbound},
          {"variables", Variables},
          {"candidates", Candidates},
          {"chains", Chains}};
}

std::string renderAuditSARIF(const FusionAudit &A, const std::string &SourceRoot) {
  json Rules = json::array(
      {sarifRule("roofline/fusion-candidate",
                 "Two kernel launches that can be fused: the buffer "
                 "between them need not go through memory",
                 "The consumer launch reads a buffer the producer launch just wrote; "
                 "fused into one kernel, the buffer stays in registers or shared "
                 "memory and the bytes between them are saved. The message gives "
                 "the bytes saved and the roofline time before and after.",
                 "audit.md"),
       sarifRule("roofline/fusion-blocked",
                 "A producer -> consumer pair that cannot be fused as "
                 "written, and why",
                 "The two launches share a buffer but cannot be fused as the code "
                 "stands (another use of the buffer, a dependence, a host "
                 "synchronisation between them); the message says which.",
                 "audit.md")});
  auto Loc = [&](const SourceLoc &L, const std::string &Text) {
    json J = {{"physicalLocation",
               {{"artifactLocation", sarifArtifact(L.File, SourceRoot)},
                {"region",
                 {{"startLine", std::max(1u, L.Line)},
                  {"startColumn", std::max(1u, L.Column)}}}}}};
    if (!Text.empty())
      J["message"] = {{"text", Text}};
    return J;
  };
  json Results = json::array();
  for (const FusionPair &C : A.Candidates) {
    const Launch &P = C.Fn->Launches[C.Producer], &Q = C.Fn->Launches[C.Consumer];
    std::string Rule = C.Fusible ? "roofline/fusion-candidate" : "roofline/fusion-blocked";
    Results.push_back(
        {{"ruleId", Rule},
         {"level", C.Fusible ? "warning" : "note"},
         {"message", {{"text", message(C)}}},
         {"locations", json::array({Loc(Q.Loc, "")})},
         {"relatedLocations",
          json::array({Loc(P.Loc, "producer " + P.Callee)})},
         {"partialFingerprints",
          {{"rooflineFusion/v1",
            sarifFingerprint(Rule + "\n" + P.Callee + "\n" + Q.Callee + "\n" +
                             sarifArtifact(Q.Loc.File, SourceRoot)["uri"].get<std::string>())}}}});
  }
  return sarifLog("roofline-audit", Rules, Results, SourceRoot);
}

} // namespace roofline
