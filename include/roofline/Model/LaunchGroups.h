//===- LaunchGroups.h - CUDA launches by launch configuration ---*- C++ -*-===//
//
// The report shows a CUDA kernel's launches grouped by configuration (grid,
// block, dynamic shared memory, scalar arguments): one row each, measured
// over its launches, with the static per-thread formulas times its
// threads. Rows are added one at a time as the profile is read, so memory
// is per configuration, not per launch.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_MODEL_LAUNCHGROUPS_H
#define ROOFLINE_MODEL_LAUNCHGROUPS_H

#include "roofline/Model/LaunchRows.h"
#include "roofline/Model/Result.h"
#include "roofline/Model/StaticSummary.h"

#include <nlohmann/json.hpp>

#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace roofline {

class LaunchGroups : public LaunchRowSink {
public:
  /// \p Columns: the kernel's launch_columns, when read before its rows
  /// (else the rows are kept until records() has them).
  explicit LaunchGroups(const nlohmann::json *Columns);
  void row(const LaunchRow &R) override;
  size_t rows() const { return Rows; }

  /// The kernel \p K's records, one per configuration (and one for the
  /// launches not recorded), from its total record \p Total; errors begin
  /// with \p Where ("p.json: kernels[3]").
  Result<std::vector<KernelRecord>> records(const nlohmann::json &K,
                                            const KernelRecord &Total,
                                            const std::string &Where);

  ~LaunchGroups() override;

private:
  struct Group;
  struct StaticPrediction;
  struct KeyHash {
    size_t operator()(const std::vector<uint64_t> &K) const;
  };
  void setColumns(const nlohmann::json *Columns);
  void add(const LaunchRow &R, size_t Index);

  std::vector<std::string> Columns;
  std::string ColumnsError; ///< why launch_columns cannot name the rows
  bool Known = false;       ///< the columns were read before the rows
  std::vector<LaunchRow> Pending; ///< rows read before their columns
  size_t Rows = 0;
  std::string RowError; ///< the first bad row's message
  std::vector<std::unique_ptr<Group>> Groups; ///< in order of first launch
  std::map<std::string, size_t> ByConfig;
  // The configuration of each distinct row (its numbers' bits), so that
  // a row costs a lookup rather than a formatted key.
  std::unordered_map<std::vector<uint64_t>, size_t, KeyHash> ByBits;
  std::vector<uint64_t> Bits;
};

} // namespace roofline

#endif
