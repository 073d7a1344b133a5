//===- LocalPlatform.h - This machine's probed roofs, cached ----*- C++ -*-===//
//
// The platform a CPU profile is placed on when none is named: this
// machine's, measured once by `roofline-probe --quick` and kept in the
// user's cache directory ($XDG_CACHE_HOME/roofline, else ~/.cache/roofline)
// under a name made of the CPU model and its logical CPU count, so a
// machine with another CPU measures its own.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_TOOLS_LOCALPLATFORM_H
#define ROOFLINE_TOOLS_LOCALPLATFORM_H

#include "roofline/Model/Platform.h"
#include "roofline/Model/Result.h"

#include <string>

namespace roofline {

/// Where this machine's probed platform is cached.
std::string localPlatformCachePath();

/// This machine's platform: the cached probe, or a quick probe now (with
/// roofline-probe beside \p Argv0's executable), cached for next time.
/// \p Note says which.
Result<Platform> localPlatform(const char *Argv0, std::string &Note);

} // namespace roofline

#endif
