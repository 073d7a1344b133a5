//===- LaunchIndex.h - A GPU thread's index in polynomials ------*- C++ -*-===//
//
// Internal to lib/Analysis: what the launch footprint's steps
// (LaunchFootprint.cpp, RowSplit.cpp, LaunchGuards.cpp) share about the
// thread and block indices of an axis ("x", "y", "z") in a polynomial.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_LIB_ANALYSIS_LAUNCHINDEX_H
#define ROOFLINE_LIB_ANALYSIS_LAUNCHINDEX_H

#include "roofline/Model/Polynomial.h"

#include <map>
#include <string>

namespace roofline::detail {

/// A guard bound this close to a 32-bit index's largest value restates
/// the index type's range (its conditions carry it): it bounds nothing a
/// launch reaches.
constexpr double IndexTypeLimit = 2147483647.0 - 65536;

/// \p P with \p Values substituted, inside floors too.
Polynomial substituteDeep(const Polynomial &P,
                          const std::map<std::string, Polynomial> &Values);

/// \p P mentions the thread or block index of \p Axis, in a floor too.
bool mentionsAxis(const Polynomial &P, const char *Axis);

/// \p Fact (>= 0) leaves no thread of a launch out: it restates the range
/// of the index's type (g <= 2^31 - 1, g + 1 <= 2^31 - 1, g >= -2^31), or
/// it holds at index 0 and never falls (g >= 0). \p Warp: the threads of a
/// warp (a wavefront) along the axis.
bool leavesNoThreadOut(const Polynomial &Fact, const char *Axis, unsigned Warp);

/// \p Fact limits threads in a part of the index (lane, warp, block) that
/// \p Offset moves with (a guard on the row of a row-wise access, not the
/// row guard of a per-lane one); true when either cannot be probed.
bool limitsAccess(const Polynomial &Fact, const Polynomial &Offset, const char *Axis,
                  unsigned Warp);

} // namespace roofline::detail

#endif
