//===- MergedProfile.h - A merged profile, written as it is read -*- C++ -*-===//
//
// `roofline-report merge` of profiles with a million CUDA launch records:
// the merged document is small but for its launch rows, which stay in the
// input files (where each kernel's are, in input order) until the merged
// profile is written; they are read again then, one row at a time.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_MODEL_MERGEDPROFILE_H
#define ROOFLINE_MODEL_MERGEDPROFILE_H

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace roofline {

struct MergedProfile {
  /// The merged profile, each kernel's "launches" (when an array) empty.
  nlohmann::json Doc;
  /// Launch rows of one input's kernel: bytes [Begin, End) of the file.
  struct Rows {
    size_t Input;
    uint64_t Begin, End;
    size_t Count;
  };
  /// Per kernel of Doc["kernels"], its rows in order.
  std::vector<std::vector<Rows>> Launches;
  std::vector<std::string> Inputs;
};

/// Writes \p M as `M.Doc.dump(2)` with each kernel's rows in its
/// "launches", and a newline, through \p Write; "" or what went wrong (an
/// input changed since it was read).
std::string
writeMergedProfile(const MergedProfile &M,
                   const std::function<void(const char *, size_t)> &Write);

} // namespace roofline

#endif
