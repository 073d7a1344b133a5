//===- Formats.cpp - The report's text formats ----------------------------===//
#include "Formats.h"

#include "roofline/Model/Sarif.h"

#include <cmath>
#include <cstdio>
#include <sstream>

namespace roofline {

using nlohmann::json;

namespace {

std::string fixed(double V, const char *Fmt = "%.3g") {
  if (!std::isfinite(V))
    return V > 0 ? "inf" : "n/a";
  char Buf[48];
  std::snprintf(Buf, sizeof(Buf), Fmt, V);
  return Buf;
}

json number(double V) {
  if (!std::isfinite(V))
    return nullptr;
  return V;
}

std::string boundText(const KernelRow &K) {
  if (K.TrafficUnknown)
    return "unknown";
  return K.Place.MemoryBound ? "memory" : "compute";
}

/// "memory (l1)", "compute": the bound and the roof that sets it.
std::string limiterText(const KernelRow &K) {
  if (K.TrafficUnknown)
    return "unknown (traffic)";
  if (K.Place.Limiter.rfind("in-core", 0) == 0)
    return limiterName(K.Place);
  return K.Place.MemoryBound ? "memory (" + K.Place.Limiter + ")" : "compute";
}

/// Whether a level's bytes are known: in a row whose traffic is unknown,
/// the levels below the first that nothing bounded are not (JSON: null,
/// CSV: empty), though place() counts them as 0.
bool levelKnown(const LevelBound &L, const KernelRow &K) {
  return L.Known || !K.TrafficUnknown;
}

/// One level's line: its bytes, intensity and the FLOP/s its roof allows.
std::string levelText(const LevelBound &L, const KernelRow &K) {
  const Placement &Pl = K.Place;
  return L.Level + " " + siUnit(L.Bytes, "B") +
         (K.measuredAt(L.Level) ? " (measured)" : "") + ", I " +
         fixed(L.Intensity) + " " + K.unit() + "/B, limit " +
         siUnit(std::min(Pl.PeakFlops, L.BytesPerSecond * L.Intensity), K.rateUnit());
}

/// After the work's count in the table: its unit unless FLOPs.
std::string workSuffix(const KernelRow &K) {
  return K.Placed == WorkKind::IntOps        ? " intops"
         : K.Placed == WorkKind::Instructions ? " inst"
                                              : "";
}

/// The intensity, "?" when the traffic is unknown (JSON: null, CSV: empty,
/// HTML: "-"; buildReport leaves such a row's intensity NaN, its bytes 0).
std::string intensityText(const KernelRow &K) {
  return K.TrafficUnknown ? "?" : fixed(K.Place.Intensity);
}

/// "51.2 GFLOP/s (7%)", with ABOVE BOUND past 100%; \p None without a run.
std::string measuredText(const KernelRow &K, const char *None) {
  auto A = K.achievedFlops();
  if (!A)
    return None;
  return siUnit(*A, K.rateUnit()) + " (" +
         fixed(*K.efficiency() * 100, "%.0f") +
         "%" + (*K.efficiency() > 1 ? " ABOVE BOUND" : "") + ")";
}

std::string location(const KernelRecord &K) {
  std::string F = K.File;
  size_t Slash = F.rfind('/');
  if (Slash != std::string::npos)
    F = F.substr(Slash + 1);
  return F.empty() ? "" : F + ":" + std::to_string(K.Line);
}

/// Pads to \p W display columns (the strings are ASCII).
std::string pad(const std::string &S, size_t W, bool Right = false) {
  if (S.size() >= W)
    return S;
  return Right ? std::string(W - S.size(), ' ') + S
               : S + std::string(W - S.size(), ' ');
}

/// The unit of a roof's work, by its label: "op" for an integer roof,
/// "inst" for the issue roof, else "FLOP".
const char *opUnit(const std::string &RoofLabel) {
  if (RoofLabel.rfind("int", 0) == 0)
    return "op";
  return RoofLabel == "instruction issue" ? "inst" : "FLOP";
}

} // namespace

std::vector<std::string> reportPreamble(const Report &R) {
  const Platform &P = R.Plat;
  std::vector<std::string> L;
  L.push_back("platform: " + P.Name + " (" + P.DisplayName + ")" +
              (R.Options.PlatformNote.empty() ? ""
                                              : "; " + R.Options.PlatformNote));
  // Runs on the same number of threads: the roofs of that many, every
  // figure of this line from them (the headline too).
  double Threads = 0;
  for (const KernelRow &K : R.Rows)
    if (K.RanOnThreads > 0)
      Threads = Threads == 0 || Threads == K.RanOnThreads ? K.RanOnThreads : -1;
  const Platform Roofs = Threads > 0 ? onThreads(P, Threads) : P;
  const ComputePeak &H = Roofs.headlinePeak();
  // The compute roof the kernels are judged against: theirs when they
  // share one (an all-fp64 profile names fp64), else the platform's
  // headline and the list of theirs. A roof of the platform has its figure
  // on those threads; a mix of precisions, the kernel's own.
  auto FigureOf = [&](const Placement &Pl) {
    for (const ComputePeak &C : Roofs.Compute)
      if (C.label() == Pl.Roof)
        return C.FlopsPerSecond;
    return Pl.PeakFlops;
  };
  std::vector<std::pair<std::string, double>> Used;
  for (const KernelRow &K : R.Rows)
    if (K.Place.Flops > 0 && !K.Place.Roof.empty() &&
        std::none_of(Used.begin(), Used.end(),
                     [&](const auto &U) { return U.first == K.Place.Roof; }))
      Used.push_back({K.Place.Roof, FigureOf(K.Place)});
  std::string Roof = H.label();
  double Peak = H.FlopsPerSecond;
  std::string Others;
  if (Used.size() == 1) {
    Roof = Used[0].first;
    Peak = Used[0].second;
  } else if (Used.size() > 1) {
    for (const auto &[Name, V] : Used)
      Others += (Others.empty() ? "" : ", ") + Name + " " +
                siUnit(V, (opUnit(Name) + std::string("/s")).c_str());
  }
  double Dram = Roofs.dram().BytesPerSecond;
  std::string Of = Threads > 0 ? " (" + fixed(Threads, "%.0f") +
                                     (Threads == 1 ? " thread)" : " threads)")
                               : "";
  const char *Op = opUnit(Roof);
  L.push_back("roofs" + Of + ": " + Roof + " " + siUnit(Peak, (Op + std::string("/s")).c_str()) +
              ", DRAM " + siUnit(Dram, "B/s") + ", ridge " +
              fixed(ridgePoint(Peak, Dram)) + " " + Op + "/B" +
              (Others.empty() ? "" : " (the kernels': " + Others + ")"));
  L.push_back(std::string("convention: ") + conventionName(R.Options.Conv) +
              ": " + conventionDescription(R.Options.Conv));
  if (!R.HiddenNoFlops.empty() || !R.HiddenSystem.empty()) {
    auto List = [](const std::vector<std::string> &Names, const std::string &What) {
      std::string T = std::to_string(Names.size()) + " " + What + " (";
      for (size_t I = 0; I < Names.size() && I < 3; ++I)
        T += (I ? "; " : "") + Names[I];
      return T + (Names.size() > 3 ? "; ...)" : ")");
    };
    std::string T = "not shown: ";
    if (!R.HiddenNoFlops.empty())
      T += List(R.HiddenNoFlops,
                R.Options.Roof == RoofChoice::Flops    ? std::string("without floating-point work")
                : R.Options.Roof == RoofChoice::IntOps ? std::string("without integer work")
                : R.Options.Roof != RoofChoice::Instructions
                    ? std::string("without floating-point or integer work")
                : R.Plat.peak("instructions", "issue")
                    ? std::string("without an instruction count")
                    : "without floating-point or integer work (" + R.Plat.Name +
                          " has no instruction issue rate)");
    if (!R.HiddenSystem.empty())
      T += (R.HiddenNoFlops.empty() ? "" : ", ") + List(R.HiddenSystem, "from system headers");
    L.push_back(T + "; --all-kernels shows them");
  }
  if (!R.NotJudged.empty()) {
    std::string T = "not judged (a formula needs a value not given: a size "
                    "--assume can give, or a loop's trip count, which none "
                    "can; --kernels NAME makes it an error): ";
    for (size_t I = 0; I < R.NotJudged.size(); ++I)
      T += (I ? "; " : "") + R.NotJudged[I];
    L.push_back(T);
  }
  // The sizes the kernels were placed against: those of the threads they
  // ran on (a level's size_bytes_one_thread per thread), as the roofs above.
  std::string Caches;
  for (const MemoryLevel &M : Roofs.Memory)
    if (M.Level != "dram" && M.Level != "shared")
      Caches += (Caches.empty() ? "" : ", ") + M.Level +
                (M.SizeBytes > 0 ? " " + binaryBytes(M.SizeBytes) : "");
  L.push_back("traffic: counted bytes against the first level, the footprint "
              "below it" +
              (Caches.empty()
                   ? std::string("; no cache level on ") + P.Name +
                         ": the DRAM roof assumes data not in cache (a cold call)"
                   : " less what the caches (" + Caches + ") can hold"));
  if (!R.Options.Assume.empty()) {
    std::string A = "sizes: ";
    bool First = true;
    for (const auto &[K, V] : R.Options.Assume) {
      A += (First ? "" : ", ") + K + "=" + fixed(V, "%.10g");
      First = false;
    }
    L.push_back(A);
  }
  return L;
}

std::string renderTable(const Report &R, bool Color) {
  std::ostringstream OS;
  for (const std::string &L : reportPreamble(R))
    OS << L << "\n";
  OS << "\n";
  std::vector<std::vector<std::string>> Rows;
  Rows.push_back({"kernel", "where", "FLOPs", "bytes", "I (FLOP/B)", "ridge",
                  "bound", "attainable", "min time", "measured", "counts"});
  for (const KernelRow &K : R.Rows)
    Rows.push_back(
        {K.Kernel.DisplayName, location(K.Kernel),
         K.SizesKnown ? siNumber(K.Place.Flops) + workSuffix(K)
                      : "(formula)",
         K.TrafficUnknown ? "?"
         : K.SizesKnown   ? K.bytesText()
                          : "(formula)",
         intensityText(K), fixed(K.Place.Ridge), limiterText(K),
         siUnit(K.Place.Attainable, K.rateUnit()),
         K.SizesKnown ? secondsText(K.Place.MinSeconds) : "-",
         measuredText(K, "-"), K.Kernel.Exact ? "exact" : "estimate"});
  // Cells are cut at 48 characters; the bound, which names a chain's
  // links ("in-core: dependency chain (vaddsd, 8 x 3 cycles an
  // iteration)"), at 80.
  auto Widest = [](size_t I) -> size_t { return I == 6 ? 80 : 48; };
  std::vector<size_t> W(Rows[0].size(), 0);
  for (const auto &Row : Rows)
    for (size_t I = 0; I < Row.size(); ++I)
      W[I] = std::max(W[I], std::min<size_t>(Row[I].size(), Widest(I)));
  for (size_t RI = 0; RI < Rows.size(); ++RI) {
    const auto &Row = Rows[RI];
    for (size_t I = 0; I < Row.size(); ++I) {
      std::string Cell = Row[I].size() > Widest(I)
                             ? Row[I].substr(0, Widest(I) - 3) + "..."
                             : Row[I];
      bool Numeric = I >= 2 && I <= 5;
      std::string Text = pad(Cell, W[I], Numeric);
      if (Color && RI > 0 && I == 6)
        Text = (Cell.rfind("memory", 0) == 0 ? "\033[33m" : "\033[32m") + Text +
               "\033[0m";
      if (Color && RI == 0)
        Text = "\033[1m" + Text + "\033[0m";
      OS << Text << (I + 1 < Row.size() ? "  " : "\n");
    }
  }
  bool AnyNotes = false;
  for (const KernelRow &K : R.Rows) {
    std::vector<std::string> All;
    if (K.SizesKnown || K.Place.Levels.size() > 1) {
      std::string Levels = "traffic per level:";
      for (const LevelBound &L : K.Place.Levels)
        if (L.Bytes > 0)
          Levels += " " + levelText(L, K) + ";";
      if (Levels.back() == ';') {
        Levels.pop_back();
        All.push_back(Levels);
      }
    }
    All.insert(All.end(), K.Place.Notes.begin(), K.Place.Notes.end());
    All.insert(All.end(), K.Notes.begin(), K.Notes.end());
    for (const std::string &N : K.Kernel.Notes)
      All.push_back(N);
    if (K.Place.InCore)
      All.push_back("in-core: " + K.Place.InCore->Detail + "; the loops as "
                    "compiled reach " +
                    siUnit(K.Place.InCoreFlops, K.rateUnit()) +
                    " at most (" + secondsText(K.Place.InCore->Seconds) + ")");
    if (!K.Place.NextStep.empty() && !K.TrafficUnknown && K.SizesKnown)
      All.push_back("next step: " + K.Place.NextStep);
    if (All.empty())
      continue;
    if (!AnyNotes)
      OS << "\nnotes:\n";
    AnyNotes = true;
    OS << "  " << K.Kernel.DisplayName << " (roof: " << K.Place.Roof;
    if (K.Placed != WorkKind::Flops)
      OS << ", " << siUnit(K.Place.PeakFlops, K.rateUnit()) << "):\n";
    else
      OS << ", FMA-adjusted " << siNumber(K.Place.FMAPeakFlops) << "FLOP/s):\n";
    for (const std::string &N : All)
      OS << "    - " << N << "\n";
  }
  return OS.str();
}

/// An MPI run's spread of the kernel's time over its ranks.
static json rankSeconds(const Measurement::RankSpread &RS) {
  return {{"ranks", RS.Ranks}, {"min", RS.Min}, {"mean", RS.Mean},
          {"max", RS.Max}, {"slowest_rank", RS.SlowestRank}};
}

json reportJSON(const Report &R) {
  const Platform &P = R.Plat;
  json J;
  J["schema"] = "roofline-report";
  J["version"] = 1;
  const ComputePeak &H = P.headlinePeak();
  J["platform"] = {{"name", P.Name},
                   {"display_name", P.DisplayName},
                   {"kind", P.Kind},
                   {"peak_flops_per_s", H.FlopsPerSecond},
                   {"peak", H.label()},
                   {"dram_bytes_per_s", P.dram().BytesPerSecond},
                   {"ridge", ridgePoint(H.FlopsPerSecond,
                                        P.dram().BytesPerSecond)},
                   {"note", R.Options.PlatformNote}};
  J["convention"] = conventionName(R.Options.Conv);
  J["convention_description"] = conventionDescription(R.Options.Conv);
  J["assume"] = R.Options.Assume;
  J["not_shown"] = {{"without_flops", R.HiddenNoFlops},
                    {"system_headers", R.HiddenSystem},
                    {"not_judged", R.NotJudged}};
  json Kernels = json::array();
  for (const KernelRow &K : R.Rows) {
    const Placement &Pl = K.Place;
    json E;
    E["name"] = K.Kernel.Name;
    E["display_name"] = K.Kernel.DisplayName;
    E["kind"] = K.Kernel.Kind;
    E["per"] = K.Kernel.Per;
    E["file"] = K.Kernel.File;
    E["line"] = K.Kernel.Line;
    E["intensity"] = K.TrafficUnknown ? json(nullptr) : number(Pl.Intensity);
    E["ridge"] = Pl.Ridge;
    E["bound"] = boundText(K);
    E["roof"] = Pl.Roof;
    // Which work the row is placed by: "intops" puts the integer operations
    // in every *_flops_per_s field and "flops" of the row.
    E["work"] = K.workName();
    E["intops"] = K.IntOps;
    E["peak_flops_per_s"] = Pl.PeakFlops;
    E["fma_peak_flops_per_s"] = Pl.FMAPeakFlops;
    E["attainable_flops_per_s"] = Pl.Attainable;
    E["fma_attainable_flops_per_s"] = Pl.AttainableFMA;
    E["limiter"] = K.TrafficUnknown ? std::string("unknown") : Pl.Limiter;
    E["next_step"] = Pl.NextStep;
    if (K.RanOnThreads > 0)
      E["threads"] = K.RanOnThreads;
    if (Pl.InCore) {
      E["incore_seconds"] = Pl.InCore->Seconds;
      E["incore_flops_per_s"] = Pl.InCoreFlops;
      E["incore_cause"] = inCoreCauseName(Pl.InCore->Cause);
      E["incore_detail"] = Pl.InCore->Detail;
      if (!Pl.InCore->Chain.empty()) {
        E["incore_chain"] = Pl.InCore->Chain;
        E["incore_chain_kind"] = chainKindName(Pl.InCore->Kind);
      }
      if (K.Kernel.Kind == "loop")
        E["incore_cycles_per_iteration"] = Pl.InCore->CyclesPerIteration;
    }
    if (K.Kernel.Measured && K.Kernel.Measured->Ranks)
      E["rank_seconds"] = rankSeconds(*K.Kernel.Measured->Ranks);
    E["sizes_known"] = K.SizesKnown;
    if (K.SizesKnown) {
      E["flops"] = Pl.Flops;
      E["bytes"] = K.TrafficUnknown ? json(nullptr) : json(Pl.Bytes);
      if (K.BytesAtMost)
        E["bytes_at_most"] = *K.BytesAtMost;
      E["min_seconds"] = Pl.MinSeconds;
    }
    // The level that bytes, intensity and ridge are of.
    E["bytes_level"] = K.TrafficUnknown ? json(nullptr) : json(Pl.BytesLevel);
    if (auto A = K.achievedFlops()) {
      E["measured_seconds"] = *K.MeasuredSeconds;
      E["achieved_flops_per_s"] = *A;
      E["efficiency"] = *K.efficiency();
    }
    json Levels = json::array();
    for (const LevelBound &L : Pl.Levels) {
      if (!levelKnown(L, K)) {
        Levels.push_back({{"level", L.Level},
                          {"bytes", nullptr},
                          {"bytes_per_s", L.BytesPerSecond},
                          {"intensity", nullptr},
                          {"attainable_flops_per_s", nullptr},
                          {"seconds", nullptr},
                          {"source", "unknown"}});
        continue;
      }
      Levels.push_back(
          {{"level", L.Level},
           {"bytes", L.Bytes},
           {"bytes_per_s", L.BytesPerSecond},
           {"intensity", number(L.Intensity)},
           {"attainable_flops_per_s",
            number(std::min(Pl.PeakFlops, L.BytesPerSecond * L.Intensity))},
           {"seconds", L.Seconds},
           {"source", K.bytesSource(L.Level)}});
    }
    E["levels"] = Levels;
    if (K.SizesKnown) {
      // Counted bytes: of the DRAM spaces (load, store), of every space
      // but shared (counted_bytes, the first level's traffic).
      E["bytes_load"] = K.BytesLoad;
      E["bytes_store"] = K.BytesStore;
      E["counted_bytes"] = K.Counted;
      E["footprint_bytes"] = K.Footprint ? json(*K.Footprint) : json(nullptr);
    }
    E["exact"] = K.Kernel.Exact;
    std::vector<std::string> Notes = Pl.Notes;
    Notes.insert(Notes.end(), K.Notes.begin(), K.Notes.end());
    E["notes"] = Notes;
    E["static_notes"] = K.Kernel.Notes;
    E["assumptions"] = K.Kernel.Assumptions;
    Kernels.push_back(E);
  }
  J["kernels"] = Kernels;
  return J;
}

static std::string csvCell(const std::string &S) {
  if (S.find_first_of(",\"\n") == std::string::npos)
    return S;
  std::string Q = "\"";
  for (char C : S)
    Q += C == '"' ? std::string("\"\"") : std::string(1, C);
  return Q + "\"";
}

std::string renderCSV(const Report &R) {
  std::ostringstream OS;
  // One bytes and one intensity column per memory level of the platform.
  OS << "name,display_name,file,line,flops,bytes,intensity,ridge,bound,"
        "attainable_flops_per_s,min_seconds,achieved_flops_per_s,efficiency,"
        "exact,platform,convention,limiter,counted_bytes,footprint_bytes";
  for (const MemoryLevel &M : R.Plat.Memory)
    OS << "," << M.Level << "_bytes," << M.Level << "_intensity";
  // After the levels: their columns keep their places; each column added
  // since goes last.
  OS << ",work,intops,bytes_level,bytes_at_most\n";
  for (const KernelRow &K : R.Rows) {
    const Placement &Pl = K.Place;
    // Whole numbers in full (1048576, not 1.04858e+06), others to 9
    // significant digits.
    auto Num = [](double V) -> std::string {
      if (!std::isfinite(V))
        return "";
      if (V == std::floor(V) && std::fabs(V) < 1e15)
        return fixed(V, "%.0f");
      return fixed(V, "%.9g");
    };
    OS << csvCell(K.Kernel.Name) << "," << csvCell(K.Kernel.DisplayName) << ","
       << csvCell(K.Kernel.File) << "," << K.Kernel.Line << ","
       << (K.SizesKnown ? Num(Pl.Flops) : "") << ","
       << (K.SizesKnown && !K.TrafficUnknown ? Num(Pl.Bytes) : "") << ","
       << (K.TrafficUnknown ? "" : Num(Pl.Intensity))
       << "," << Num(Pl.Ridge) << "," << boundText(K) << ","
       << Num(Pl.Attainable) << "," << (K.SizesKnown ? Num(Pl.MinSeconds) : "")
       << "," << (K.achievedFlops() ? Num(*K.achievedFlops()) : "") << ","
       << (K.efficiency() ? Num(*K.efficiency()) : "") << ","
       << (K.Kernel.Exact ? "true" : "false") << "," << R.Plat.Name << ","
       << conventionName(R.Options.Conv) << "," << Pl.Limiter << ","
       << (K.SizesKnown ? Num(K.Counted) : "") << ","
       << (K.SizesKnown && K.Footprint ? Num(*K.Footprint) : "");
    for (const LevelBound &L : Pl.Levels)
      OS << "," << (K.SizesKnown && levelKnown(L, K) ? Num(L.Bytes) : "") << ","
         << (levelKnown(L, K) ? Num(L.Intensity) : "");
    OS << "," << K.workName() << ","
       << (K.SizesKnown ? Num(K.IntOps) : "") << ","
       << (K.TrafficUnknown ? "" : Pl.BytesLevel) << ","
       << (K.SizesKnown && K.BytesAtMost && !K.TrafficUnknown ? Num(*K.BytesAtMost)
                                                              : "")
       << "\n";
  }
  return OS.str();
}

/// A table cell's text: `|` would end the cell (operator|), even in code.
static std::string markdownCell(const std::string &S) {
  std::string Out;
  for (char C : S)
    Out += C == '|' ? std::string("\\|") : std::string(1, C);
  return Out;
}

std::string renderMarkdown(const Report &R) {
  std::ostringstream OS;
  OS << "### Roofline report\n\n";
  for (const std::string &L : reportPreamble(R))
    OS << "- " << L << "\n";
  OS << "\n| kernel | where | intensity (FLOP/B) | bound | attainable | min "
        "time | measured | counts | per level |\n"
        "|---|---|--:|---|--:|--:|--:|---|---|\n";
  for (const KernelRow &K : R.Rows) {
    // The table's figures and words, a mark before the bound.
    const char *Mark = K.TrafficUnknown        ? "⬜ "
                       : K.Place.MemoryBound ? "🟧 "
                                             : "🟩 ";
    OS << "| `" << markdownCell(K.Kernel.DisplayName) << "` | " << location(K.Kernel)
       << " | " << intensityText(K)
       << (K.Placed == WorkKind::Flops ? "" : " " + std::string(K.unit()) + "/B")
       << " | " << Mark << limiterText(K) << " | "
       << siUnit(K.Place.Attainable, K.rateUnit()) << " | "
       << (K.SizesKnown ? secondsText(K.Place.MinSeconds) : "–") << " | "
       << measuredText(K, "–") << " | " << (K.Kernel.Exact ? "exact" : "estimate")
       << " | ";
    bool First = true;
    for (const LevelBound &L : K.Place.Levels)
      if (L.Bytes > 0) {
        OS << (First ? "" : "; ") << L.Level << " I " << fixed(L.Intensity)
           << (K.measuredAt(L.Level) ? " (measured)" : "");
        First = false;
      }
    OS << " |\n";
  }
  bool Any = false;
  for (const KernelRow &K : R.Rows)
    if (!K.Place.NextStep.empty() && !K.TrafficUnknown && K.SizesKnown) {
      OS << (Any ? "" : "\n**Next steps**\n\n") << "- `"
         << markdownCell(K.Kernel.DisplayName) << "` (" << limiterText(K)
         << "): " << K.Place.NextStep << "\n";
      Any = true;
    }
  return OS.str();
}

std::string renderSARIF(const Report &R,
                        const std::vector<std::string> &Violations,
                        const std::string &Check, const std::string &SourceRoot) {
  json Rules = json::array(
      {sarifRule("roofline/kernel", "A kernel's place on the platform's roofline",
                 "Where the kernel sits on the roofline of the platform: its "
                 "arithmetic intensity, whether memory or compute bounds it, and the "
                 "FLOP/s it can reach at best. A note, not a problem.",
                 "report.md#what-it-computes"),
       sarifRule("roofline/memory-bound", "Kernel is memory-bound on the target platform",
                 "The kernel moves too many bytes per FLOP for the platform: its "
                 "intensity is below the ridge, so memory bandwidth, not compute, "
                 "bounds it. Reuse data in cache or registers (tiling, fusion) or "
                 "move fewer bytes (narrower types) to raise its intensity.",
                 "ci.md"),
       sarifRule("roofline/low-intensity", "Kernel's arithmetic intensity is below the threshold",
                 "The kernel's FLOPs per byte are below the threshold the CI check "
                 "(--check=min-intensity=X) asks for.",
                 "ci.md"),
       sarifRule("roofline/low-efficiency", "Kernel reaches too small a share of its roofline bound",
                 "The measured FLOP/s are a smaller share of the attainable FLOP/s "
                 "than the CI check (--check=min-efficiency=X) asks for: the kernel "
                 "is far from its bound on this platform.",
                 "ci.md")});
  std::string FailRule = Check == "memory-bound" ? "roofline/memory-bound"
                         : Check.rfind("min-intensity", 0) == 0
                             ? "roofline/low-intensity"
                             : "roofline/low-efficiency";
  json Results = json::array();
  for (const KernelRow &K : R.Rows) {
    bool Violates = false;
    for (const std::string &V : Violations)
      if (V.find(" " + K.Kernel.DisplayName + " ") != std::string::npos)
        Violates = true;
    // A kernel without floating-point work has no place on a roofline.
    if (!Violates && !(K.Place.Flops > 0))
      continue;
    char Msg[512];
    std::string Bound = K.TrafficUnknown      ? "bound unknown (traffic)"
                        : K.Place.MemoryBound ? "memory-bound (" + K.Place.Limiter + ")"
                                              : "compute-bound";
    std::snprintf(Msg, sizeof(Msg),
                  "%s: I = %s %s/B, %s on %s (ridge %s %s/B), "
                  "attainable %s%s",
                  K.Kernel.DisplayName.c_str(), intensityText(K).c_str(),
                  K.unit(), Bound.c_str(), R.Plat.Name.c_str(),
                  fixed(K.Place.Ridge).c_str(), K.unit(),
                  siUnit(K.Place.Attainable, K.rateUnit()).c_str(),
                  K.Kernel.Exact ? "" : " (estimated counts)");
    std::string Rule = Violates ? FailRule : "roofline/kernel";
    json Artifact = sarifArtifact(K.Kernel.File, SourceRoot);
    json Loc = {{"physicalLocation",
                 {{"artifactLocation", Artifact},
                  {"region", {{"startLine", std::max(1u, K.Kernel.Line)}}}}}};
    Results.push_back(
        {{"ruleId", Rule},
         {"level", Violates ? "warning" : "note"},
         {"message", {{"text", Msg}}},
         {"locations", json::array({Loc})},
         {"partialFingerprints",
          {{"rooflineKernel/v1",
            sarifFingerprint(Rule + "\n" + K.Kernel.Name + "\n" +
                             Artifact["uri"].get<std::string>())}}}});
  }
  return sarifLog("roofline-report", Rules, Results, SourceRoot);
}

} // namespace roofline
