//===- Profile.h - Reading and merging runtime profiles ---------*- C++ -*-===//
//
// A profile (docs/profile-schema.md) is what an instrumented run measured:
// per kernel its calls, wall time, exact FLOPs by precision and class, and
// bytes by memory space. The report places measured kernels on the roofline
// at their achieved FLOP/s; merge sums profiles of many processes.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_MODEL_PROFILE_H
#define ROOFLINE_MODEL_PROFILE_H

#include "roofline/Model/MergedProfile.h"
#include "roofline/Model/ProfileStream.h"
#include "roofline/Model/Result.h"
#include "roofline/Model/StaticSummary.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace roofline {

/// Reads and parses a JSON object from \p Path; errors name the file.
Result<nlohmann::json> readJSONFile(const std::string &Path);

/// True when \p J is a runtime profile (rather than a static summary).
bool isProfile(const nlohmann::json &J);

/// What a report row is: a function (a kernel, inlined or not) or one of
/// their top-level loop nests.
enum class RowsBy { Function, Loop };

/// The kernels of a profile as report records: Measured set, the static
/// formulas from the descriptor as the formulas. By loop: one record per
/// measured loop nest of the host kernels instead. A GPU kernel's launch
/// rows are \p Streamed's when the file was read by readProfileStream,
/// else the document's.
Result<std::vector<KernelRecord>>
parseProfile(const nlohmann::json &J, const std::string &Path,
             RowsBy By = RowsBy::Function,
             const KernelLaunches *Streamed = nullptr);

/// The records of several inputs as one list: measurements of one kernel
/// (one CUDA launch configuration) add up; a kernel with a static summary
/// keeps its formulas (\p Static first, in their order).
std::vector<KernelRecord> joinRecords(std::vector<KernelRecord> Static,
                                      std::vector<KernelRecord> Measured);

/// Reads static summaries and profiles alike; a kernel found in both keeps
/// the static formulas and gains the measurements. By loop, only
/// profiles' loop nests (static summaries have no loop records to place).
/// \p TrafficPath (may be empty): a ROOFLINE_CACHE run whose per-level
/// traffic replaces each profile's (TrafficJoin.h).
Result<std::vector<KernelRecord>>
loadInputs(const std::vector<std::string> &Paths, RowsBy By = RowsBy::Function,
           const std::string &TrafficPath = "");

/// Sums profiles (many processes, e.g. MPI ranks): per kernel calls, time
/// and every count; per loop nest by line; CUDA launch rows in input order
/// (written by writeMergedProfile). Errors name the file at fault.
Result<MergedProfile> mergeProfiles(const std::vector<std::string> &Paths);

} // namespace roofline

#endif
