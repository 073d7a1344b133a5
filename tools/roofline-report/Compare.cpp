//===- Compare.cpp - Auditing a change: before and after ------------------===//
#include "Compare.h"

#include "roofline/Model/Formula.h"
#include "roofline/Model/Profile.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

namespace roofline {

using nlohmann::json;

Result<std::pair<std::vector<KernelRecord>, std::vector<KernelRecord>>>
loadComparison(const std::vector<std::string> &Inputs) {
  if (Inputs.size() != 2)
    return Failure{"--compare takes two files, before and after (got " +
                   std::to_string(Inputs.size()) + ")"};
  Result<std::vector<KernelRecord>> Before = loadInputs({Inputs[0]});
  if (!Before)
    return Failure{Before.error()};
  Result<std::vector<KernelRecord>> After = loadInputs({Inputs[1]});
  if (!After)
    return Failure{After.error()};
  return std::make_pair(*Before, *After);
}

namespace {

void addRow(CompareSide &S, const KernelRow &R, bool &AllMeasured) {
  S.Present = true;
  for (const auto &[Prec, Classes] : R.Ops.Ops)
    for (const auto &[Class, N] : Classes)
      S.Ops.Ops[Prec][Class] += N;
  for (const auto &[Level, B] : R.Bytes) {
    S.Bytes[Level] += B;
    bool Range = R.BytesAtMost && Level == R.Place.BytesLevel;
    S.BytesHigh[Level] += Range ? *R.BytesAtMost : B;
  }
  S.AnyRange |= R.BytesAtMost.has_value();
  S.TrafficUnknown |= R.TrafficUnknown;
  S.Predicted += R.Place.MinSeconds;
  S.SizesKnown &= R.SizesKnown;
  if (R.MeasuredSeconds)
    S.Measured = S.Measured.value_or(0) + *R.MeasuredSeconds;
  else
    AllMeasured = false;
}

/// Sums the rows of one report per kernel name (a kernel measured in several
/// launch configurations is one kernel here) and in total.
void collect(const Report &R, bool IsBefore, ReportComparison &C,
             std::map<std::string, size_t> &Index,
             std::map<std::string, bool> &AllMeasured, bool &TotalMeasured) {
  for (const KernelRow &K : R.Rows) {
    auto [It, New] = Index.emplace(K.Kernel.Name, C.Rows.size());
    if (New) {
      CompareRow Row;
      Row.Name = K.Kernel.Name;
      Row.DisplayName = K.Kernel.DisplayName;
      Row.File = K.Kernel.File;
      Row.Line = K.Kernel.Line;
      C.Rows.push_back(Row);
    }
    CompareRow &Row = C.Rows[It->second];
    std::string Key = (IsBefore ? "b:" : "a:") + K.Kernel.Name;
    AllMeasured.emplace(Key, true);
    addRow(IsBefore ? Row.Before : Row.After, K, AllMeasured[Key]);
    addRow(IsBefore ? C.Total.Before : C.Total.After, K, TotalMeasured);
  }
}

void finish(const ReportComparison &C, CompareSide &S, bool AllMeasured) {
  if (!AllMeasured)
    S.Measured.reset();
  if (!S.Present)
    return;
  S.Place = place(C.Plat, S.Ops, S.Bytes, C.Options.Conv);
  if (!S.AnyRange || S.TrafficUnknown)
    return;
  // As a report row between bounds: one verdict at both ends gives a
  // range of bytes; two verdicts, none.
  Placement High = place(C.Plat, S.Ops, S.BytesHigh, C.Options.Conv);
  if (High.MemoryBound != S.Place.MemoryBound)
    S.TrafficUnknown = true;
  else if (High.BytesLevel == S.Place.BytesLevel && High.Bytes > S.Place.Bytes)
    S.BytesAtMost = High.Bytes;
}

std::string num(double V, const char *Fmt = "%.3g") {
  char Buf[64];
  std::snprintf(Buf, sizeof(Buf), Fmt, V);
  return Buf;
}

std::string bound(const CompareSide &S) {
  if (S.TrafficUnknown)
    return "unknown";
  return S.Place.MemoryBound ? "memory" : "compute";
}

/// "12.6 MB -> 8.39 MB (-33.3%)", "12.6 MB -> removed", "8.39..12.6 MB",
/// "?" (the DRAM side unknown)
std::string bytesCell(const CompareRow &R) {
  auto B = [](const CompareSide &S) -> std::string {
    if (S.TrafficUnknown)
      return "?";
    if (S.BytesAtMost)
      return bytesRangeText(S.Place.Bytes, *S.BytesAtMost);
    return siUnit(S.Place.Bytes, "B");
  };
  if (!R.After.Present)
    return B(R.Before) + " -> removed";
  if (!R.Before.Present)
    return "added -> " + B(R.After);
  std::string S = B(R.Before) + " -> " + B(R.After);
  if (R.Before.Place.Bytes > 0 && !R.Before.TrafficUnknown &&
      !R.After.TrafficUnknown && !R.Before.BytesAtMost && !R.After.BytesAtMost)
    S += " (" +
         num((R.After.Place.Bytes - R.Before.Place.Bytes) /
                 R.Before.Place.Bytes * 100,
             "%+.3g") +
         "%)";
  return S;
}

template <typename F>
std::string pairCell(const CompareRow &R, F Cell) {
  return (R.Before.Present ? Cell(R.Before) : std::string("-")) + " -> " +
         (R.After.Present ? Cell(R.After) : std::string("-"));
}

/// "2.5 ms -> 1.25 ms (2x)"
std::string timeCell(const CompareRow &R, bool Measured) {
  auto T = [&](const CompareSide &S) -> std::optional<double> {
    if (!S.Present)
      return std::nullopt;
    return Measured ? S.Measured : std::optional<double>(S.Predicted);
  };
  auto B = T(R.Before), A = T(R.After);
  if (!B && !A)
    return "-";
  std::string S = (B ? secondsText(*B) : "-") + " -> " +
                  (A ? secondsText(*A) : "-");
  if (B && A && *A > 0)
    S += " (" + num(*B / *A, "%.3g") + "x)";
  return S;
}

std::vector<std::vector<std::string>> cells(const ReportComparison &C) {
  std::vector<std::vector<std::string>> Out;
  auto Row = [&](const CompareRow &R, const std::string &Name) {
    std::string Where = R.File.empty() ? "" : R.File.substr(R.File.find_last_of('/') + 1) +
                                                ":" + std::to_string(R.Line);
    Out.push_back(
        {Name, Where, bytesCell(R),
         pairCell(R, [](const CompareSide &S) {
           return S.TrafficUnknown ? std::string("?") : num(S.Place.Intensity);
         }),
         pairCell(R, bound), timeCell(R, false), timeCell(R, true)});
  };
  for (const CompareRow &R : C.Rows) {
    std::string Name = R.DisplayName.size() > 40
                           ? R.DisplayName.substr(0, 37) + "..."
                           : R.DisplayName;
    Row(R, Name);
  }
  Row(C.Total, "total");
  return Out;
}

const std::vector<std::string> Header = {
    "kernel", "where", "bytes", "I (FLOP/B)", "bound", "lower bound", "measured"};

json sideJSON(const CompareSide &S) {
  if (!S.Present)
    return nullptr;
  json Unknown = nullptr;
  json J = {{"flops", S.Place.Flops},
            {"bytes", S.TrafficUnknown ? Unknown : json(S.Place.Bytes)},
            {"intensity", S.TrafficUnknown ? Unknown : json(S.Place.Intensity)},
            {"bound", bound(S)},
            {"predicted_seconds", S.Predicted},
            {"measured_seconds", S.Measured ? json(*S.Measured) : json(nullptr)},
            {"sizes_known", S.SizesKnown}};
  if (S.BytesAtMost && !S.TrafficUnknown)
    J["bytes_at_most"] = *S.BytesAtMost; // the bytes' upper end
  return J;
}

json changeJSON(const CompareRow &R) {
  if (!R.Before.Present || !R.After.Present)
    return nullptr;
  json J = {{"bytes", R.After.Place.Bytes - R.Before.Place.Bytes},
            {"flops", R.After.Place.Flops - R.Before.Place.Flops},
            {"bound", bound(R.Before) + " -> " + bound(R.After)}};
  if (R.Before.TrafficUnknown || R.After.TrafficUnknown)
    J["bytes"] = nullptr;
  else if (R.Before.Place.Bytes > 0)
    J["bytes_percent"] = (R.After.Place.Bytes - R.Before.Place.Bytes) /
                         R.Before.Place.Bytes * 100;
  if (R.Before.Place.Intensity > 0 && J["bytes"] != nullptr)
    J["intensity_ratio"] = R.After.Place.Intensity / R.Before.Place.Intensity;
  if (R.After.Predicted > 0)
    J["predicted_speedup"] = R.Before.Predicted / R.After.Predicted;
  if (R.Before.Measured && R.After.Measured && *R.After.Measured > 0)
    J["measured_speedup"] = *R.Before.Measured / *R.After.Measured;
  return J;
}

std::string status(const CompareRow &R) {
  return !R.After.Present ? "removed" : !R.Before.Present ? "added" : "both";
}

} // namespace

ReportComparison compareReports(const Report &Before, const Report &After) {
  ReportComparison C;
  C.Plat = Before.Plat;
  C.Options = Before.Options;
  std::map<std::string, size_t> Index;
  std::map<std::string, bool> AllMeasured;
  bool BeforeMeasured = true, AfterMeasured = true;
  collect(Before, true, C, Index, AllMeasured, BeforeMeasured);
  collect(After, false, C, Index, AllMeasured, AfterMeasured);
  for (CompareRow &R : C.Rows) {
    finish(C, R.Before, AllMeasured["b:" + R.Name]);
    finish(C, R.After, AllMeasured["a:" + R.Name]);
  }
  finish(C, C.Total.Before, BeforeMeasured);
  finish(C, C.Total.After, AfterMeasured);
  return C;
}

json comparisonJSON(const ReportComparison &C) {
  json Kernels = json::array();
  for (const CompareRow &R : C.Rows)
    Kernels.push_back({{"name", R.Name},
                       {"display_name", R.DisplayName},
                       {"file", R.File},
                       {"line", R.Line},
                       {"status", status(R)},
                       {"before", sideJSON(R.Before)},
                       {"after", sideJSON(R.After)},
                       {"change", changeJSON(R)}});
  return {{"schema", "roofline-compare"},
          {"platform", C.Plat.Name},
          {"convention", conventionName(C.Options.Conv)},
          {"sizes", C.Options.Assume},
          {"kernels", Kernels},
          {"total",
           {{"before", sideJSON(C.Total.Before)},
            {"after", sideJSON(C.Total.After)},
            {"change", changeJSON(C.Total)}}}};
}

Result<std::string> renderComparison(const ReportComparison &C,
                                     const std::string &Format) {
  if (Format == "json")
    return comparisonJSON(C).dump(2) + "\n";
  std::vector<std::vector<std::string>> Rows = cells(C);
  std::ostringstream OS;
  if (Format == "csv") {
    OS << "kernel,status,bytes_before,bytes_after,intensity_before,"
          "intensity_after,bound_before,bound_after,predicted_s_before,"
          "predicted_s_after,measured_s_before,measured_s_after\n";
    auto Line = [&](const CompareRow &R, const std::string &Name,
                    const std::string &Status) {
      auto V = [](const CompareSide &S, double X) {
        return S.Present && !S.TrafficUnknown ? num(X, "%.10g") : std::string();
      };
      auto P = [](const CompareSide &S) {
        return S.Present ? num(S.Predicted, "%.10g") : std::string();
      };
      auto M = [](const CompareSide &S) {
        return S.Present && S.Measured ? num(*S.Measured, "%.10g")
                                       : std::string();
      };
      std::string Quoted = "\"" + Name + "\"";
      OS << Quoted << "," << Status << "," << V(R.Before, R.Before.Place.Bytes)
         << "," << V(R.After, R.After.Place.Bytes) << ","
         << V(R.Before, R.Before.Place.Intensity) << ","
         << V(R.After, R.After.Place.Intensity) << ","
         << (R.Before.Present ? bound(R.Before) : "") << ","
         << (R.After.Present ? bound(R.After) : "") << ","
         << P(R.Before) << "," << P(R.After) << "," << M(R.Before) << ","
         << M(R.After) << "\n";
    };
    for (const CompareRow &R : C.Rows)
      Line(R, R.DisplayName, status(R));
    Line(C.Total, "total", "total");
    return OS.str();
  }
  if (Format != "table" && Format != "markdown")
    return Failure{"--compare: format '" + Format +
                   "' is not available (expected table, json, csv or "
                   "markdown)"};
  OS << "platform: " << C.Plat.Name << " (" << C.Plat.DisplayName << ")";
  if (!C.Options.PlatformNote.empty())
    OS << "; " << C.Options.PlatformNote;
  OS << "\nconvention: " << conventionDescription(C.Options.Conv) << "\n";
  if (!C.Options.Assume.empty()) {
    OS << "sizes:";
    const char *Sep = " ";
    for (const auto &[Name, V] : C.Options.Assume) {
      OS << Sep << Name << "=" << num(V, "%.10g");
      Sep = ", ";
    }
    OS << "\n";
  }
  if (!C.Total.Before.SizesKnown || !C.Total.After.SizesKnown)
    OS << "sizes not given: judged at the large-size limit (unbound "
          "variables = "
       << siNumber(LargeSize, 7) << ")\n";
  OS << "before -> after (change); lower bound = the roofline's minimum "
        "time, summed over kernels\n\n";
  if (Format == "markdown") {
    auto Line = [&](const std::vector<std::string> &Cells) {
      OS << "|";
      for (const std::string &Cell : Cells)
        OS << " " << Cell << " |";
      OS << "\n";
    };
    Line(Header);
    OS << "|";
    for (size_t I = 0; I < Header.size(); ++I)
      OS << "---|";
    OS << "\n";
    for (std::vector<std::string> Cells : Rows) {
      if (Cells[0] == "total")
        Cells[0] = "**total**";
      Line(Cells);
    }
    return OS.str();
  }
  std::vector<size_t> Width(Header.size());
  for (size_t I = 0; I < Header.size(); ++I) {
    Width[I] = Header[I].size();
    for (const auto &Cells : Rows)
      Width[I] = std::max(Width[I], Cells[I].size());
  }
  auto Line = [&](const std::vector<std::string> &Cells) {
    std::string L;
    for (size_t I = 0; I < Cells.size(); ++I) {
      L += Cells[I];
      if (I + 1 < Cells.size())
        L += std::string(Width[I] - Cells[I].size() + 2, ' ');
    }
    OS << L << "\n";
  };
  Line(Header);
  for (const auto &Cells : Rows)
    Line(Cells);
  return OS.str();
}

} // namespace roofline
