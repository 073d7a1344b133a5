//===- Chart.cpp - The roofline chart as SVG and HTML ---------------------===//
#include "Chart.h"
#include "Formats.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace roofline {

namespace {

std::string escape(const std::string &S) {
  std::string O;
  for (char C : S) {
    switch (C) {
    case '&':
      O += "&amp;";
      break;
    case '<':
      O += "&lt;";
      break;
    case '>':
      O += "&gt;";
      break;
    case '"':
      O += "&quot;";
      break;
    default:
      O += C;
    }
  }
  return O;
}

std::string num(double V) {
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "%.1f", V);
  return Buf;
}

std::string shortNum(double V) {
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "%.3g", V);
  return Buf;
}

/// Maps log10 data coordinates to the plot area.
struct Axes {
  double X0, X1, Y0, Y1; // decades
  double Left = 90, Top = 50, Width = 640, Height = 420;
  double x(double V) const {
    return Left + (std::log10(V) - X0) / (X1 - X0) * Width;
  }
  double y(double V) const {
    return Top + Height - (std::log10(V) - Y0) / (Y1 - Y0) * Height;
  }
};

const char *Palette[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
                         "#8c564b", "#e377c2", "#17becf", "#bcbd22"};

/// A compute roof as drawn: the platform's roofs of one value (fp32
/// vector = fp64 tensor on an H100), named together.
struct RoofGroup {
  double Flops = 0;
  std::string Label;
  bool Tensor = true; ///< every roof of it a tensor roof (dashed)
  std::string Rate = "FLOP/s"; ///< "inst/s" for the instruction issue roof
};

/// The compute roofs to draw: those the kernels are judged against (all of
/// them with --all-roofs, or when no kernel names one), equal values merged,
/// highest first.
std::vector<RoofGroup> drawnRoofs(const Report &R) {
  std::vector<RoofGroup> Groups;
  std::vector<bool> Used;
  for (const ComputePeak &C : R.Plat.Compute) {
    bool Judged = std::any_of(R.Rows.begin(), R.Rows.end(), [&](const KernelRow &K) {
      return K.Place.Roof.find(C.label()) != std::string::npos;
    });
    auto G = std::find_if(Groups.begin(), Groups.end(), [&](const RoofGroup &X) {
      return std::fabs(X.Flops - C.FlopsPerSecond) <= 1e-3 * C.FlopsPerSecond;
    });
    // The issue roof is another quantity's: drawn for the kernels on it.
    if (C.Unit == "issue" && !Judged)
      continue;
    if (G == Groups.end()) {
      Groups.push_back({C.FlopsPerSecond, C.label(), C.Unit == "tensor",
                        C.Unit == "issue" ? "inst/s" : "FLOP/s"});
      Used.push_back(Judged);
      continue;
    }
    // The roof a kernel is judged against is named first.
    G->Label = Judged ? C.label() + " = " + G->Label : G->Label + " = " + C.label();
    G->Tensor &= C.Unit == "tensor";
    Used[G - Groups.begin()] = Used[G - Groups.begin()] || Judged;
  }
  bool Any = std::find(Used.begin(), Used.end(), true) != Used.end();
  std::vector<RoofGroup> Out;
  for (size_t I = 0; I < Groups.size(); ++I)
    if (Used[I] || R.Options.AllRoofs || !Any)
      Out.push_back(Groups[I]);
  std::sort(Out.begin(), Out.end(),
            [](const RoofGroup &X, const RoofGroup &Y) { return X.Flops > Y.Flops; });
  return Out;
}

/// The legend's names of a memory roof and of a compute roof.
std::string memoryLegend(const MemoryLevel &M) {
  return M.Level + (M.Name.empty() ? "" : " (" + M.Name + ")") + " " +
         siUnit(M.BytesPerSecond, "B/s");
}
std::string computeLegend(const RoofGroup &C, double DRAM) {
  return C.Label + " " + siUnit(C.Flops, C.Rate.c_str()) + ", ridge " + shortNum(C.Flops / DRAM);
}

/// The plot's decades: every drawn roof (\p Roofs), ridge and kernel,
/// padded by a decade.
Axes axesOf(const Report &R, const std::vector<RoofGroup> &Roofs) {
  const Platform &P = R.Plat;
  double Beta = P.dram().BytesPerSecond;
  double MinI = 1e9, MaxI = 1e-9, MinP = 1e30, MaxP = 0;
  for (const RoofGroup &C : Roofs) {
    double Ridge = C.Flops / Beta;
    MinI = std::min(MinI, Ridge);
    MaxI = std::max(MaxI, Ridge);
    MaxP = std::max(MaxP, C.Flops);
    MinP = std::min(MinP, C.Flops);
  }
  if (R.Second)
    for (const ComputePeak &C : R.Second->Compute) {
      MinP = std::min(MinP, C.FlopsPerSecond);
      MaxP = std::max(MaxP, C.FlopsPerSecond);
      double Ridge = C.FlopsPerSecond / R.Second->dram().BytesPerSecond;
      MinI = std::min(MinI, Ridge);
      MaxI = std::max(MaxI, Ridge);
    }
  for (const KernelRow &K : R.Rows) {
    double I = K.Place.Intensity;
    if (std::isfinite(I) && I > 0) {
      MinI = std::min(MinI, I);
      MaxI = std::max(MaxI, I);
    }
    double Y = K.achievedFlops() ? *K.achievedFlops() : K.Place.Attainable;
    if (Y > 0) {
      MinP = std::min(MinP, Y);
      MaxP = std::max(MaxP, Y);
    }
  }
  Axes A;
  A.X0 = std::floor(std::log10(MinI)) - 1;
  A.X1 = std::ceil(std::log10(MaxI)) + 1;
  A.Y0 = std::floor(std::log10(std::min(MinP, Beta * std::pow(10, A.X0)))) ;
  A.Y0 = std::max(A.Y0, std::floor(std::log10(MaxP)) - 8);
  A.Y1 = std::ceil(std::log10(MaxP * 1.5));
  return A;
}

/// The chart, drawn in named steps into one SVG document.
class ChartWriter {
public:
  /// \p Work: the unit of the kernels' work ("FLOP", "intop", "inst", or
  /// "op" when the kernels are on different rooflines).
  ChartWriter(const Axes &A, std::string Work)
      : A(A), XMin(std::pow(10, A.X0)), XMax(std::pow(10, A.X1)),
        LegendY(A.Top + 10), Work(std::move(Work)) {}

  /// The document's start, title, clip path, grid, ticks, frame and axis
  /// labels.
  void frame(const Platform &P, Convention Conv, double W, double H) {
    S << "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"roofline-chart\" "
         "width=\""
      << W << "\" height=\"" << H << "\" viewBox=\"0 0 " << W << " " << H
      << "\" font-family=\"sans-serif\" font-size=\"12\">\n";
    S << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    S << "<text class=\"title\" x=\"" << A.Left << "\" y=\"24\" font-size=\"15\" "
         "font-weight=\"bold\">Roofline: "
      << escape(P.DisplayName) << " (" << conventionName(Conv)
      << " convention)</text>\n";
    // Clip roofs to the plot area.
    S << "<defs><clipPath id=\"plot\"><rect x=\"" << A.Left << "\" y=\"" << A.Top
      << "\" width=\"" << A.Width << "\" height=\"" << A.Height
      << "\"/></clipPath></defs>\n";
    // Grid and ticks: one per decade.
    S << "<g class=\"grid\" stroke=\"#e5e5e5\">\n";
    for (int D = int(A.X0); D <= int(A.X1); ++D)
      S << "<line x1=\"" << num(A.x(std::pow(10, D))) << "\" y1=\"" << A.Top
        << "\" x2=\"" << num(A.x(std::pow(10, D))) << "\" y2=\""
        << A.Top + A.Height << "\"/>\n";
    for (int D = int(A.Y0); D <= int(A.Y1); ++D)
      S << "<line x1=\"" << A.Left << "\" y1=\"" << num(A.y(std::pow(10, D)))
        << "\" x2=\"" << A.Left + A.Width << "\" y2=\""
        << num(A.y(std::pow(10, D))) << "\"/>\n";
    S << "</g>\n<g class=\"ticks\" fill=\"#333\">\n";
    for (int D = int(A.X0); D <= int(A.X1); ++D)
      S << "<text x=\"" << num(A.x(std::pow(10, D))) << "\" y=\""
        << A.Top + A.Height + 18 << "\" text-anchor=\"middle\">"
        << escape(D >= 3 ? siNumber(std::pow(10, D)) : shortNum(std::pow(10, D)))
        << "</text>\n";
    for (int D = int(A.Y0); D <= int(A.Y1); ++D)
      S << "<text x=\"" << A.Left - 8 << "\" y=\""
        << num(A.y(std::pow(10, D)) + 4) << "\" text-anchor=\"end\">"
        << escape(siNumber(std::pow(10, D))) << "</text>\n";
    S << "</g>\n";
    S << "<rect x=\"" << A.Left << "\" y=\"" << A.Top << "\" width=\"" << A.Width
      << "\" height=\"" << A.Height
      << "\" fill=\"none\" stroke=\"#333\"/>\n";
    S << "<text class=\"axis-label x\" x=\"" << A.Left + A.Width / 2 << "\" y=\""
      << A.Top + A.Height + 42
      << "\" text-anchor=\"middle\">"
      << (Work == "inst" ? "Instruction" : "Arithmetic") << " intensity ("
      << Work << "/byte)</text>\n";
    S << "<text class=\"axis-label y\" transform=\"translate(22," << A.Top + A.Height / 2
      << ") rotate(-90)\" text-anchor=\"middle\">Performance (" << Work
      << "/s)</text>\n";
  }

  /// The platform's memory diagonals and compute roofs with their ridges,
  /// and \p Second's, clipped to the plot.
  void roofs(const Platform &P, const std::vector<RoofGroup> &Roofs,
             const Platform *Second) {
    S << "<g class=\"roofs\" clip-path=\"url(#plot)\">\n";
    // The top compute roof bounds every memory diagonal.
    double Top = 0;
    for (const RoofGroup &C : Roofs)
      Top = std::max(Top, C.Flops);
    for (size_t I = 0; I < P.Memory.size(); ++I) {
      const MemoryLevel &M = P.Memory[I];
      double XEnd = Top / M.BytesPerSecond;
      std::string Style = std::string("stroke=\"") +
                          (M.Level == "dram" ? "#333" : "#888") +
                          "\" stroke-width=\"" +
                          (M.Level == "dram" ? "2.5" : "1.5") + "\"" +
                          (M.Level == "dram" ? "" : " stroke-dasharray=\"6 3\"");
      S << "<line class=\"memory-roof\" data-level=\"" << M.Level << "\" x1=\""
        << num(A.x(XMin)) << "\" y1=\"" << num(A.y(M.BytesPerSecond * XMin))
        << "\" x2=\"" << num(A.x(XEnd)) << "\" y2=\"" << num(A.y(Top)) << "\" "
        << Style << "><title>" << escape(M.Level) << " "
        << escape(siNumber(M.BytesPerSecond)) << "B/s</title></line>\n";
      legendItem("memory", Style, memoryLegend(M));
    }
    for (size_t I = 0; I < Roofs.size(); ++I) {
      const RoofGroup &C = Roofs[I];
      double Ridge = C.Flops / P.dram().BytesPerSecond;
      std::string Color = Palette[I % 8];
      std::string Style = "stroke=\"" + Color + "\" stroke-width=\"2\"" +
                          std::string(C.Tensor ? " stroke-dasharray=\"8 4\"" : "");
      S << "<line class=\"compute-roof\" data-roof=\"" << escape(C.Label)
        << "\" x1=\"" << num(A.x(Ridge)) << "\" y1=\""
        << num(A.y(C.Flops)) << "\" x2=\"" << num(A.x(XMax))
        << "\" y2=\"" << num(A.y(C.Flops)) << "\" " << Style
        << "><title>" << escape(C.Label) << " "
        << escape(siUnit(C.Flops, C.Rate.c_str())) << "</title></line>\n";
      // Named on the line itself, at its right end.
      S << "<text class=\"roof-label\" x=\"" << num(A.x(XMax) - 4) << "\" y=\""
        << num(A.y(C.Flops) - 4) << "\" text-anchor=\"end\" font-size=\"10\" fill=\""
        << Color << "\">" << escape(C.Label + " " + siUnit(C.Flops, C.Rate.c_str()))
        << "</text>\n";
      S << "<circle class=\"ridge\" cx=\"" << num(A.x(Ridge)) << "\" cy=\""
        << num(A.y(C.Flops)) << "\" r=\"3.5\" fill=\"" << Color
        << "\"><title>ridge " << escape(C.Label) << ": " << shortNum(Ridge)
        << " " << C.Rate.substr(0, C.Rate.size() - 2) << "/B</title></circle>\n";
      legendItem("compute", Style, computeLegend(C, P.dram().BytesPerSecond));
    }
    if (Second)
      secondRoofs(*Second);
    S << "</g>\n";
  }

  void kernels(const std::vector<KernelRow> &Rows) {
    // Kernels: static ones at their bound (hollow), measured ones at their
    // achieved FLOP/s (filled).
    S << "<g class=\"kernels\" clip-path=\"url(#plot)\">\n";
    // Labels are moved down, a line at a time, until they clear the labels
    // placed before them (points close together would print over each other).
    struct Box {
      double X, Y, W;
    };
    std::vector<Box> Placed;
    auto Clear = [&](const Box &B) {
      for (const Box &P : Placed)
        if (B.X < P.X + P.W && P.X < B.X + B.W && std::fabs(B.Y - P.Y) < 13)
          return false;
      return true;
    };
    for (size_t I = 0; I < Rows.size(); ++I) {
      const KernelRow &K = Rows[I];
      double X = K.Place.Intensity;
      if (!std::isfinite(X) || X <= 0)
        X = std::pow(10, A.X1);
      bool Measured = K.achievedFlops().has_value();
      double Y = Measured ? *K.achievedFlops() : K.Place.Attainable;
      // No FLOPs (a copy), or none measured: no place on a log-scale
      // FLOP/s axis (the tables list it).
      if (!(Y > 0) || !std::isfinite(Y) || !(K.Place.Flops > 0))
        continue;
      std::string Tip = K.Kernel.DisplayName + "\nI = " +
                        (K.TrafficUnknown ? "?" : shortNum(K.Place.Intensity)) +
                        " " + K.unit() + "/B" + K.bytesLevelSuffix() + ", " +
                        (K.TrafficUnknown        ? "bound unknown (traffic)"
                         : K.Place.MemoryBound ? "memory-bound"
                                               : "compute-bound") +
                        "\nattainable " + siUnit(K.Place.Attainable, K.rateUnit()) +
                        " (" + limiterName(K.Place) + ")" +
                        (Measured ? "\nmeasured " + siUnit(Y, K.rateUnit()) : "");
      std::string Label =
          K.Kernel.DisplayName.substr(0, K.Kernel.DisplayName.find('('));
      Box L{A.x(X) + 9, A.y(Y) - 8, 6.5 * double(Label.size())};
      for (int Try = 0; Try < 12 && !Clear(L); ++Try)
        L.Y += 13;
      Placed.push_back(L);
      S << "<g class=\"kernel\" data-kernel=\"" << escape(K.Kernel.DisplayName)
        << "\" data-index=\"" << I << "\">";
      // One point per level with traffic, at that level's intensity and
      // the kernel's performance, joined (the integrated roofline).
      for (const LevelBound &Lv : K.Place.Levels) {
        if (!(Lv.Bytes > 0) || !std::isfinite(Lv.Intensity) ||
            Lv.Level == K.Place.BytesLevel)
          continue;
        double LX = Lv.Intensity;
        S << "<line class=\"level-link\" x1=\"" << num(A.x(LX)) << "\" y1=\""
          << num(A.y(Y)) << "\" x2=\"" << num(A.x(X)) << "\" y2=\""
          << num(A.y(Y)) << "\" stroke=\"#ff7f0e\" stroke-dasharray=\"3,3\"/>"
          << "<circle class=\"level-point\" data-level=\"" << Lv.Level
          << "\" data-source=\"" << K.bytesSource(Lv.Level)
          << "\" cx=\"" << num(A.x(LX)) << "\" cy=\"" << num(A.y(Y))
          << "\" r=\"3.5\" fill=\"#ff7f0e\"><title>" << escape(Lv.Level)
          << ": " << escape(siUnit(Lv.Bytes, "B")) << ", I = "
          << shortNum(Lv.Intensity) << " FLOP/B"
          << (K.measuredAt(Lv.Level) ? " (measured by the cache model)" : "")
          << "</title></circle>";
      }
      // A footprint known between bounds: a bar from the intensity at its
      // upper bound to the point's, at the lower.
      if (K.BytesAtMost && *K.BytesAtMost > 0)
        S << "<line class=\"bytes-range\" x1=\""
          << num(A.x(K.Place.Flops / *K.BytesAtMost)) << "\" y1=\"" << num(A.y(Y))
          << "\" x2=\"" << num(A.x(X)) << "\" y2=\"" << num(A.y(Y))
          << "\" stroke=\"#ff7f0e\" stroke-width=\"3\"><title>traffic between "
          << escape(siUnit(K.Place.Bytes, "B") + " and " + siUnit(*K.BytesAtMost, "B"))
          << "</title></line>";
      // The in-core ceiling of its loops as compiled: a short bar at the
      // FLOP/s the core allows them, above or on the point.
      if (K.Place.InCore && K.Place.InCoreFlops > 0 &&
          std::isfinite(K.Place.InCoreFlops))
        S << "<line class=\"incore-ceiling\" x1=\"" << num(A.x(X) - 10)
          << "\" y1=\"" << num(A.y(K.Place.InCoreFlops)) << "\" x2=\""
          << num(A.x(X) + 10) << "\" y2=\"" << num(A.y(K.Place.InCoreFlops))
          << "\" stroke=\"#9467bd\" stroke-width=\"2.5\"><title>in-core ceiling "
          << escape(siUnit(K.Place.InCoreFlops, K.rateUnit())) << ": "
          << escape(K.Place.InCore->Detail) << "</title></line>";
      (Measured ? DrewMeasured : DrewStatic) = true;
      // A measured point, joined to its bound above it: the gap is what
      // is left to gain.
      if (Measured && K.Place.Attainable > Y)
        S << "<line class=\"bound-link\" x1=\"" << num(A.x(X)) << "\" y1=\""
          << num(A.y(Y)) << "\" x2=\"" << num(A.x(X)) << "\" y2=\""
          << num(A.y(K.Place.Attainable)) << "\" stroke=\"#ff7f0e\" "
             "stroke-width=\"1\" stroke-dasharray=\"2,2\"><title>bound "
          << escape(siUnit(K.Place.Attainable, K.rateUnit())) << "</title></line>";
      S << "<circle class=\"kernel-point\" cx=\""
        << num(A.x(X)) << "\" cy=\"" << num(A.y(Y)) << "\" r=\"6\" fill=\""
        << (Measured ? "#ff7f0e" : "white")
        << "\" stroke=\"#ff7f0e\" stroke-width=\"2\"><title>" << escape(Tip)
        << "</title></circle><text class=\"kernel-label\" x=\"" << num(L.X)
        << "\" y=\"" << num(L.Y) << "\">" << escape(Label) << "</text></g>\n";
    }
    S << "</g>\n";
  }

  /// The legend (the roofs as drawn, then the kernel markers) and the
  /// document's end.
  std::string finish() {
    for (bool Measured : {false, true}) {
      if (!(Measured ? DrewMeasured : DrewStatic))
        continue; // no key for what is not drawn
      Legend << "<g class=\"legend-item kernel\"><circle cx=\""
             << A.Left + A.Width + 32 << "\" cy=\"" << LegendY
             << "\" r=\"5\" fill=\"" << (Measured ? "#ff7f0e" : "white")
             << "\" stroke=\"#ff7f0e\" stroke-width=\"2\"/><text x=\""
             << A.Left + A.Width + 50 << "\" y=\"" << LegendY + 4 << "\">"
             << (Measured ? "kernel, measured" : "kernel, static bound")
             << "</text></g>\n";
      LegendY += 18;
    }
    S << "<g class=\"legend\">\n" << Legend.str() << "</g>\n";
    S << "</svg>\n";
    return S.str();
  }

private:
  /// A second platform (e.g. this machine measured by roofline-probe next
  /// to its datasheet): its DRAM and compute roofs, grey, in the legend.
  void secondRoofs(const Platform &Q) {
    double QTop = 0;
    for (const ComputePeak &C : Q.Compute)
      QTop = std::max(QTop, C.FlopsPerSecond);
    for (const MemoryLevel &M : Q.Memory) {
      std::string Style = "stroke=\"#999\" stroke-width=\"1.5\" "
                          "stroke-dasharray=\"2 3\"";
      S << "<line class=\"memory-roof second\" data-level=\"" << M.Level
        << "\" x1=\"" << num(A.x(XMin)) << "\" y1=\""
        << num(A.y(M.BytesPerSecond * XMin)) << "\" x2=\""
        << num(A.x(QTop / M.BytesPerSecond)) << "\" y2=\"" << num(A.y(QTop))
        << "\" " << Style << "><title>" << escape(Q.Name + ": " + M.Level)
        << "</title></line>\n";
      legendItem("memory second", Style,
                 Q.Name + ": " + M.Level + " " + siUnit(M.BytesPerSecond, "B/s") +
                     "");
    }
    for (const ComputePeak &C : Q.Compute) {
      double Ridge = C.FlopsPerSecond / Q.dram().BytesPerSecond;
      std::string Style = "stroke=\"#777\" stroke-width=\"1.5\" "
                          "stroke-dasharray=\"2 3\"";
      S << "<line class=\"compute-roof second\" data-roof=\""
        << escape(Q.Name + ": " + C.label()) << "\" x1=\"" << num(A.x(Ridge))
        << "\" y1=\"" << num(A.y(C.FlopsPerSecond)) << "\" x2=\""
        << num(A.x(XMax)) << "\" y2=\"" << num(A.y(C.FlopsPerSecond)) << "\" "
        << Style << "/>\n";
      legendItem("compute second", Style,
                 Q.Name + ": " + C.label() + " " + siUnit(C.FlopsPerSecond, "FLOP/s") +
                     "");
    }
  }

  void legendItem(const std::string &Cls, const std::string &Style,
                  const std::string &Label) {
    Legend << "<g class=\"legend-item " << Cls << "\"><line x1=\""
           << A.Left + A.Width + 20 << "\" y1=\"" << LegendY << "\" x2=\""
           << A.Left + A.Width + 44 << "\" y2=\"" << LegendY << "\" " << Style
           << "/><text x=\"" << A.Left + A.Width + 50 << "\" y=\""
           << LegendY + 4 << "\">" << escape(Label) << "</text></g>\n";
    LegendY += 18;
  }

  const Axes A;
  const double XMin, XMax;
  std::ostringstream S, Legend;
  bool DrewStatic = false, DrewMeasured = false; ///< kernel points drawn
  double LegendY;
  const std::string Work;
};

} // namespace

std::string renderSVG(const Report &R) {
  std::vector<RoofGroup> Roofs = drawnRoofs(R);
  Axes A = axesOf(R, Roofs);
  std::string Work;
  for (const KernelRow &K : R.Rows)
    Work = Work.empty() || Work == K.unit() ? K.unit() : "op";
  ChartWriter C(A, Work.empty() ? "FLOP" : Work);
  // Wide enough for the longest legend entry (about 6.5 px a character).
  size_t Longest = 20;
  for (const MemoryLevel &M : R.Plat.Memory)
    Longest = std::max(Longest, memoryLegend(M).size());
  for (const RoofGroup &G : Roofs)
    Longest = std::max(Longest, computeLegend(G, R.Plat.dram().BytesPerSecond).size());
  C.frame(R.Plat, R.Options.Conv,
          A.Left + A.Width + std::max(260.0, 70 + 6.5 * double(Longest)),
          A.Top + A.Height + 70);
  C.roofs(R.Plat, Roofs, R.Second ? &*R.Second : nullptr);
  C.kernels(R.Rows);
  return C.finish();
}

std::string renderHTML(const Report &R) {
  std::ostringstream H;
  H << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
       "<title>Roofline: "
    << escape(R.Plat.DisplayName)
    << "</title>\n<style>\n"
       "body{font-family:sans-serif;margin:24px;color:#222}\n"
       "table{border-collapse:collapse;margin-top:16px}\n"
       "th,td{border:1px solid #ccc;padding:4px 8px;text-align:left}\n"
       "th{background:#f3f3f3;cursor:pointer;user-select:none}\n"
       "th.sorted-asc::after{content:' \\25B2'}th.sorted-desc::after{content:' \\25BC'}\n"
       "td.num{text-align:right;font-variant-numeric:tabular-nums}\n"
       "tr.hl td{background:#fff3d6}\n"
       "tr.loop-row td{color:#555;font-size:13px}tr.loop-row td:first-child{padding-left:24px}\n"
       ".kernel.hl circle{stroke:#000;stroke-width:3}\n"
       "#details{margin-top:12px;padding:8px;border:1px solid #ddd;min-height:1.5em;white-space:pre-line}\n"
       "ul.pre{font-size:13px;color:#555}\n"
       "</style></head><body>\n<h1>Roofline report</h1>\n<ul class=\"pre\">\n";
  for (const std::string &L : reportPreamble(R))
    H << "<li>" << escape(L) << "</li>\n";
  H << "</ul>\n" << renderSVG(R);
  H << "<div id=\"details\">Hover over a kernel for details.</div>\n";
  H << "<table id=\"kernels\"><thead><tr>"
       "<th data-type=\"text\">kernel</th><th data-type=\"text\">where</th>"
       "<th data-type=\"num\">FLOPs</th><th data-type=\"num\">bytes</th>"
       "<th data-type=\"num\">intensity</th><th data-type=\"text\">bound</th>"
       "<th data-type=\"num\">attainable</th><th data-type=\"num\">min time</th>"
       "<th data-type=\"num\">achieved</th><th data-type=\"text\">counts</th>"
       "</tr></thead><tbody>\n";
  // One table row; a loop nest's row sits under its function's, indented
  // (class loop-row, data-parent: the function's index).
  auto Row = [&](const KernelRow &K, const std::string &Index, const std::string &Parent) {
    // Each cell with its unit (the sort reads data-v, the number itself).
    auto Cell = [&](double V, bool Show, const char *Unit,
                    const std::string &After = "") {
      if (!Show || !std::isfinite(V))
        return std::string("<td class=\"num\" data-v=\"\">-</td>");
      std::ostringstream C;
      C << "<td class=\"num\" data-v=\"" << V << "\">"
        << escape((Unit == std::string("s") ? secondsText(V) : siUnit(V, Unit)) + After)
        << "</td>";
      return C.str();
    };
    std::string Details = K.Kernel.DisplayName + "\nroof: " + K.Place.Roof +
                          (K.Placed == WorkKind::Flops
                               ? " (FMA-adjusted " + siUnit(K.Place.FMAPeakFlops, "FLOP/s") + ")"
                               : " (" + siUnit(K.Place.PeakFlops, K.rateUnit()) + ")") +
                          ", limiter: " + limiterName(K.Place);
    std::string PerByte = K.unit() + std::string("/B");
    for (const std::string &N : K.Place.Notes)
      Details += "\n- " + N;
    for (const std::string &N : K.Notes)
      Details += "\n- " + N;
    for (const std::string &N : K.Kernel.Notes)
      Details += "\n- " + N;
    for (const std::string &N : K.Kernel.Assumptions)
      Details += "\n- assumes " + N;
    std::string File = K.Kernel.File.substr(K.Kernel.File.rfind('/') + 1);
    H << "<tr" << (Parent.empty() ? "" : " class=\"loop-row\" data-parent=\"" + Parent + "\"")
      << " data-index=\"" << Index << "\" data-details=\"" << escape(Details)
      << "\"><td>" << (Parent.empty() ? "" : "&#8627; ") << escape(K.Kernel.DisplayName)
      << "</td><td>" << escape(File) << ":" << K.Kernel.Line << "</td>"
      << Cell(K.Place.Flops, K.SizesKnown, K.unit())
      << Cell(K.Place.Bytes, K.SizesKnown && !K.TrafficUnknown, "B",
              K.bytesSuffix())
      << Cell(K.Place.Intensity, !K.TrafficUnknown, PerByte.c_str()) << "<td>"
      << (K.TrafficUnknown        ? "unknown"
          : K.Place.MemoryBound ? "memory"
                                : "compute")
      << "</td>"
      << Cell(K.Place.Attainable, true, K.rateUnit())
      << Cell(K.Place.MinSeconds, K.SizesKnown, "s")
      << Cell(K.achievedFlops().value_or(0), K.achievedFlops().has_value(), K.rateUnit())
      << "<td>" << (K.Kernel.Exact ? "exact" : "estimate") << "</td></tr>\n";
  };
  for (size_t I = 0; I < R.Rows.size(); ++I) {
    Row(R.Rows[I], std::to_string(I), "");
    // Its loop nests (a profile's, placed on the same platform).
    size_t N = 0;
    for (const KernelRow &L : R.LoopRows)
      if (L.Kernel.Name.rfind(R.Rows[I].Kernel.Name + ":", 0) == 0)
        Row(L, std::to_string(I) + "." + std::to_string(N++), std::to_string(I));
  }
  H << "</tbody></table>\n<script>\n"
       "(function(){\n"
       "var table=document.getElementById('kernels');\n"
       "var details=document.getElementById('details');\n"
       "function rows(){return Array.prototype.slice.call(table.tBodies[0].rows);}\n"
       "function parents(){return rows().filter(function(r){return !r.classList.contains('loop-row');});}\n"
       "table.tHead.querySelectorAll('th').forEach(function(th,col){\n"
       "  th.addEventListener('click',function(){\n"
       "    var asc=!th.classList.contains('sorted-asc');\n"
       "    table.tHead.querySelectorAll('th').forEach(function(o){o.classList.remove('sorted-asc','sorted-desc');});\n"
       "    th.classList.add(asc?'sorted-asc':'sorted-desc');\n"
       "    var num=th.dataset.type==='num';\n"
       "    var sorted=parents().sort(function(a,b){\n"
       "      var x=a.cells[col],y=b.cells[col];\n"
       "      var u=num?parseFloat(x.dataset.v):x.textContent,v=num?parseFloat(y.dataset.v):y.textContent;\n"
       "      if(num){u=isNaN(u)?-Infinity:u;v=isNaN(v)?-Infinity:v;return asc?u-v:v-u;}\n"
       "      return asc?u.localeCompare(v):v.localeCompare(u);});\n"
       "    var loops=rows().filter(function(r){return r.classList.contains('loop-row');});\n"
       "    sorted.forEach(function(r){table.tBodies[0].appendChild(r);\n"
       "      loops.forEach(function(l){if(l.dataset.parent===r.dataset.index)table.tBodies[0].appendChild(l);});});\n"
       "  });\n"
       "});\n"
       "function highlight(i,on){\n"
       "  rows().forEach(function(r){if(r.dataset.index===i){r.classList.toggle('hl',on);if(on)details.textContent=r.dataset.details;}});\n"
       "  document.querySelectorAll('.kernel').forEach(function(g){if(g.dataset.index===i)g.classList.toggle('hl',on);});\n"
       "}\n"
       "document.querySelectorAll('.kernel').forEach(function(g){\n"
       "  g.addEventListener('mouseenter',function(){highlight(g.dataset.index,true);});\n"
       "  g.addEventListener('mouseleave',function(){highlight(g.dataset.index,false);});\n"
       "});\n"
       "rows().forEach(function(r){\n"
       "  r.addEventListener('mouseenter',function(){highlight(r.dataset.index,true);});\n"
       "  r.addEventListener('mouseleave',function(){highlight(r.dataset.index,false);});\n"
       "});\n"
       "})();\n</script>\n</body></html>\n";
  return H.str();
}

} // namespace roofline
