//===- FusionOutput.h - roofline-report --fusion: rendering -----*- C++ -*-===//
//
// The fusion candidates of a traced run (roofline/Model/TraceFusion.h) as a
// table or JSON.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_TOOLS_REPORT_FUSIONOUTPUT_H
#define ROOFLINE_TOOLS_REPORT_FUSIONOUTPUT_H

#include "Report.h"

#include "roofline/Model/TraceFusion.h"

#include <string>

namespace roofline {

Result<std::string> renderFusion(const FusionAnalysis &A, const Platform &P,
                                 const ReportOptions &Options,
                                 const std::string &Format);

} // namespace roofline

#endif
