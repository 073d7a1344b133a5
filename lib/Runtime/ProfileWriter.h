//===- ProfileWriter.h - The profile JSON, written atomically ---*- C++ -*-===//
#ifndef ROOFLINE_RUNTIME_PROFILEWRITER_H
#define ROOFLINE_RUNTIME_PROFILEWRITER_H

#include <string>

namespace roofline {
namespace rt {

/// The profile of this process so far, as JSON text (docs/profile-schema.md).
std::string profileJSON();

/// This process's MPI rank from its launcher's environment (Open MPI,
/// PMIx, MPICH/PMI, Slurm), or -1.
int launcherRank();

/// Expands %p (pid), %h (host name), %r (the MPI rank) and %% in
/// \p Pattern; an unknown %x, or %r outside a launcher, is an error (empty
/// result, \p Error set).
std::string expandProfilePattern(const std::string &Pattern,
                                 std::string &Error);

/// Writes the profile to \p Path (null: $ROOFLINE_PROFILE, default
/// roofline-%p.json) through a temporary file and a rename. Returns 0 or an
/// errno value, after one "roofline:" line on stderr.
int writeProfile(const char *Path);

} // namespace rt
} // namespace roofline

#endif
