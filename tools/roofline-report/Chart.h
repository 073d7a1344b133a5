//===- Chart.h - The roofline chart as SVG and HTML -------------*- C++ -*-===//
#ifndef ROOFLINE_TOOLS_CHART_H
#define ROOFLINE_TOOLS_CHART_H

#include "Report.h"

#include <string>

namespace roofline {

/// A log-log roofline: every compute and memory roof of the platform, the
/// ridge points, one labelled point per kernel, axes with units, a legend.
std::string renderSVG(const Report &R);
/// A self-contained page (no network): the chart, a sortable table and
/// hover details.
std::string renderHTML(const Report &R);

} // namespace roofline

#endif
