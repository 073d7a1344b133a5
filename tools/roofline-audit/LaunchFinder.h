//===- LaunchFinder.h - Launch sequences in host functions ------*- C++ -*-===//
//
// The Clang front end: in every function defined in the main file (host
// code), the calls that launch counted kernels (`k<<<g, b>>>(...)`,
// cudaLaunchKernel, calls of C++ functions the static summaries count), and
// in source order the events between them (HostCode.h).
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_TOOLS_AUDIT_LAUNCHFINDER_H
#define ROOFLINE_TOOLS_AUDIT_LAUNCHFINDER_H

#include "HostCode.h"

#include "clang/Tooling/Tooling.h"

#include <memory>
#include <vector>

namespace roofline {

/// A factory of actions that append the host functions of each translation
/// unit (those with at least one launch) to \p Out.
std::unique_ptr<clang::tooling::FrontendActionFactory>
newLaunchFinderFactory(const KernelTable &Kernels,
                       std::vector<HostFunction> &Out);

} // namespace roofline

#endif
