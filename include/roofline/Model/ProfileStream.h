//===- ProfileStream.h - Reading a profile without its launch rows -*- C++ -*-===//
//
// A profile with a million CUDA launch records is a hundred megabytes and
// more of rows; as a parse tree it was 600 MB. Read through nlohmann's SAX
// interface, the document is built as usual except for each CUDA kernel's
// "launches" array, whose rows go, one at a time, to whoever reads the
// profile (the report groups them into launch configurations, merge keeps
// where they are in the file). Memory is the document without the rows.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_MODEL_PROFILESTREAM_H
#define ROOFLINE_MODEL_PROFILESTREAM_H

#include "roofline/Model/LaunchGroups.h"
#include "roofline/Model/LaunchRows.h"
#include "roofline/Model/Result.h"
#include "roofline/Runtime/ProfileKeys.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <string>

namespace roofline {

/// Where the rows of each kernel's launch array go while a file is read.
class LaunchArrays {
public:
  virtual ~LaunchArrays() = default;
  /// A "kernels" array begins (a later one replaces an earlier one).
  virtual void reset() {}
  /// The sink for the rows of kernels[Kernel].launches; \p SoFar is the
  /// kernel object as read up to its "launches" key.
  virtual LaunchRowSink &begin(size_t Kernel, const nlohmann::json &SoFar) = 0;
  /// The array was read: its bytes in the file, [Begin, End), and rows.
  virtual void end(size_t Kernel, uint64_t Begin, uint64_t End, size_t Rows) {}
};

/// Reads the JSON object in \p Path, as readJSONFile does, except that
/// the rows of every kernels[i].launches array go to \p Arrays and the
/// document holds an empty array in their place. Errors name the file.
Result<nlohmann::json> readProfileStream(const std::string &Path,
                                         LaunchArrays &Arrays);

/// Each kernel's launch rows, as a file is read: grouped by configuration,
/// and where they are in the file.
class KernelLaunches : public LaunchArrays {
public:
  struct Array {
    std::unique_ptr<LaunchGroups> Groups;
    uint64_t Begin = 0, End = 0;
    size_t Rows = 0;
  };
  std::map<size_t, Array> ByKernel;

  void reset() override { ByKernel.clear(); }
  LaunchRowSink &begin(size_t Kernel, const nlohmann::json &SoFar) override {
    auto Columns = SoFar.find(key::LaunchColumns);
    Array &A = ByKernel[Kernel];
    A = Array();
    A.Groups = std::make_unique<LaunchGroups>(
        Columns != SoFar.end() ? &*Columns : nullptr);
    return *A.Groups;
  }
  void end(size_t Kernel, uint64_t Begin, uint64_t End, size_t Rows) override {
    Array &A = ByKernel[Kernel];
    A.Begin = Begin, A.End = End, A.Rows = Rows;
  }
  const Array *of(size_t Kernel) const {
    auto It = ByKernel.find(Kernel);
    return It == ByKernel.end() ? nullptr : &It->second;
  }
};

} // namespace roofline

#endif
