//===- Formats.h - The report's text formats --------------------*- C++ -*-===//
#ifndef ROOFLINE_TOOLS_FORMATS_H
#define ROOFLINE_TOOLS_FORMATS_H

#include "Report.h"

#include <nlohmann/json.hpp>

#include <string>

namespace roofline {

/// The terminal table; \p Color adds ANSI colours (only on a tty).
std::string renderTable(const Report &R, bool Color);
nlohmann::json reportJSON(const Report &R);
std::string renderCSV(const Report &R);
/// A pull-request comment.
std::string renderMarkdown(const Report &R);
/// SARIF 2.1.0; \p Violations from --check become warnings; kernels
/// without FLOPs are not results. Files under \p SourceRoot get URIs
/// relative to it (%SRCROOT%).
std::string renderSARIF(const Report &R,
                        const std::vector<std::string> &Violations,
                        const std::string &Check, const std::string &SourceRoot = "");
/// The header lines every format states: platform, roofs, convention.
std::vector<std::string> reportPreamble(const Report &R);

} // namespace roofline

#endif
