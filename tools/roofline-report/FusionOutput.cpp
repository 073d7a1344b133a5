//===- FusionOutput.cpp - roofline-report --fusion: rendering -------------===//
#include "FusionOutput.h"

#include "roofline/Model/Units.h"

#include <nlohmann/json.hpp>

#include <cstdio>

namespace roofline {

namespace {

std::string intensity(double I) {
  if (!std::isfinite(I))
    return "inf";
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "%.3g", I);
  return Buf;
}

std::string table(const FusionAnalysis &A, const Platform &P,
                  const ReportOptions &Options) {
  std::string Out = "platform: " + P.Name + " (" + P.DisplayName + ")" +
                    (Options.PlatformNote.empty() ? "" : "; " + Options.PlatformNote) +
                    "\n";
  Out += "trace: " + siNumber(A.Calls) + " calls" +
         (A.CallsNotKept > 0 ? " (" + siNumber(A.CallsNotKept) +
                                   " more not kept: ROOFLINE_TRACE_RECORDS)"
                             : "") +
         "\n\n";
  if (A.Candidates.empty())
    return Out + "no producer -> consumer pairs: no buffer written by one "
                 "traced call is read by a later one\n";
  char Line[512];
  std::snprintf(Line, sizeof(Line), "%-28s %-14s %6s %11s  %-15s %-8s  %-21s %s\n",
                "producer -> consumer", "buffer", "pairs", "bytes saved",
                "I before->after", "bound", "bound time before->after",
                "measured -> estimated");
  Out += Line;
  for (const FusionCandidate &F : A.Candidates) {
    std::string Pair = F.Producer + " -> " + F.Consumer;
    std::string Buffer = F.ProducerParam == F.ConsumerParam
                             ? F.ProducerParam
                             : F.ProducerParam + "/" + F.ConsumerParam;
    std::string Intensity = intensity(F.Before.Intensity) + " -> " +
                            (F.Fusible ? intensity(F.After.Intensity) : "-");
    std::string Times = secondsText(F.Before.MinSeconds) + " -> " +
                        (F.Fusible ? secondsText(F.After.MinSeconds) : "-");
    std::string Measured =
        F.MeasuredSeconds > 0
            ? secondsText(F.MeasuredSeconds) + " -> " +
                  (F.Fusible ? secondsText(F.EstimatedSecondsAfter) : "-")
            : "-";
    std::snprintf(Line, sizeof(Line), "%-28s %-14s %6s %11s  %-15s %-8s  %-21s %s\n",
                  Pair.c_str(), Buffer.c_str(), siNumber(F.Occurrences).c_str(),
                  F.Fusible ? (siUnit(F.BytesSaved, "B")).c_str() : "-",
                  Intensity.c_str(),
                  F.Before.MemoryBound ? "memory" : "compute", Times.c_str(),
                  Measured.c_str());
    Out += Line;
  }
  Out += "\nnotes:\n";
  for (const FusionCandidate &F : A.Candidates) {
    Out += "  " + F.Producer + " -> " + F.Consumer + " (" + F.File + ":" +
           std::to_string(F.Line) + "): " + (F.Fusible ? "fusible: " : "not fusible: ") +
           F.Reason;
    if (F.Fusible && !F.Before.MemoryBound)
      Out += "; the pair is compute-bound, so the saved traffic buys little";
    if (!F.FootprintMeasured)
      Out += "; no footprint measured: counted bytes stand in for memory "
             "traffic";
    Out += "\n";
  }
  return Out;
}

nlohmann::json json(const FusionAnalysis &A, const Platform &P,
                    const ReportOptions &Options) {
  nlohmann::json J;
  J["platform"] = P.Name;
  J["convention"] = conventionName(Options.Conv);
  J["trace_calls"] = A.Calls;
  J["trace_calls_not_kept"] = A.CallsNotKept;
  nlohmann::json Candidates = nlohmann::json::array();
  for (const FusionCandidate &F : A.Candidates) {
    auto Finite = [](double V) -> nlohmann::json {
      return std::isfinite(V) ? nlohmann::json(V) : nlohmann::json(nullptr);
    };
    Candidates.push_back({
        {"producer", F.Producer},
        {"consumer", F.Consumer},
        {"buffer", F.ProducerParam},
        {"consumer_buffer", F.ConsumerParam},
        {"file", F.File},
        {"line", F.Line},
        {"pairs", F.Occurrences},
        {"fusible", F.Fusible},
        {"reason", F.Reason},
        {"bytes_saved", F.BytesSaved},
        {"flops", F.Flops},
        {"bytes_before", F.BytesBefore},
        {"bytes_after", F.BytesBefore - F.BytesSaved},
        {"footprint_measured", F.FootprintMeasured},
        {"intensity_before", Finite(F.Before.Intensity)},
        {"intensity_after", Finite(F.After.Intensity)},
        {"memory_bound_before", F.Before.MemoryBound},
        {"memory_bound_after", F.After.MemoryBound},
        {"min_seconds_before", F.Before.MinSeconds},
        {"min_seconds_after", F.After.MinSeconds},
        {"measured_seconds", F.MeasuredSeconds},
        {"estimated_seconds_after", F.EstimatedSecondsAfter}});
  }
  J["candidates"] = Candidates;
  return J;
}

} // namespace

Result<std::string> renderFusion(const FusionAnalysis &A, const Platform &P,
                                 const ReportOptions &Options,
                                 const std::string &Format) {
  if (Format == "table")
    return table(A, P, Options);
  if (Format == "json")
    return json(A, P, Options).dump(2) + "\n";
  return Failure{"--fusion: --format " + Format + " is not available (table or json)"};
}

} // namespace roofline
