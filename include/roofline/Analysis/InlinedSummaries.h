//===- InlinedSummaries.h - Static summaries of inlined kernels -*- C++ -*-===//
//
// A kernel's static formulas in its own parameters are worth most before
// the inliner folds it into a caller whose constants hide them. So each
// kernel's summary is taken once its own simplification is done, before
// its callers inline it, and travels with its code: as metadata on its
// entry marker (roofline/Transforms/InlinedFunctions.h), which inlining
// copies into every caller. The summary pass then reports the kernels
// that were inlined away, and the instrumentation gives their records
// their static formulas.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_ANALYSIS_INLINEDSUMMARIES_H
#define ROOFLINE_ANALYSIS_INLINEDSUMMARIES_H

#include "roofline/Analysis/KernelSummary.h"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class Instruction;
class MDNode;
class Module;
} // namespace llvm

namespace roofline {

/// Attaches \p K's summary (its JSON and its remark) to \p Marker.
void attachSummary(llvm::Instruction &Marker, const KernelSummary &K);

/// The formulas' name of each of the kernel's parameters, by position,
/// that \p I (a copy of its entry marker) carries; empty when none.
std::vector<std::string> carriedParameterNames(const llvm::Instruction &I);

/// Whether \p I (a copy of an entry marker) carries a summary.
bool carriesSummary(const llvm::Instruction &I);

/// What the instrumentation uses of a carried summary, read from its JSON
/// in this one place: the formulas a record's descriptor carries, and the
/// footprint each entry counts.
struct CarriedKernel {
  std::string Flops, Load, Store; ///< the formulas' text, for the descriptor
  bool Exact = false;
  /// The footprint per entry (read, written: its lower bounds where it has
  /// them); unset when the summary has none or it does not parse.
  std::optional<Polynomial> Footprint[2];
  bool FootprintExact = false;
  /// The kernel's assumptions, then its footprint's (words alone where
  /// one does not read as a condition).
  std::vector<Assumption> Assumptions;
};

/// The summaries instructions carry, each parsed once (every copy of a
/// marker shares its metadata node). One per pass run: it holds pointers
/// into the module's metadata.
class CarriedSummaries {
public:
  /// The summary JSON \p I carries, or null.
  const nlohmann::json *of(const llvm::Instruction &I);
  /// The same summary, decoded; null when \p I carries none. Copies of
  /// one marker give the same pointer.
  const CarriedKernel *kernelOf(const llvm::Instruction &I);

private:
  std::optional<unsigned> Kind; ///< the metadata kind's id, once looked up
  std::map<const llvm::MDNode *, nlohmann::json> Parsed;
  std::map<const nlohmann::json *, CarriedKernel> Decoded;
};

/// A kernel inlined into other functions, from the summary its marker
/// carries.
struct InlinedSummary {
  nlohmann::json Summary; ///< kernelJSON, plus "inlined_into"
  std::string Remark;     ///< kernelRemark
  const llvm::Instruction *At; ///< one copy of its marker (for the remark)
};

/// Every function inlined into another whose marker carries a summary, once
/// (callers' display names in "inlined_into"); functions named in \p Known
/// (reported already, from their own code) are left out.
std::vector<InlinedSummary>
inlinedSummaries(const llvm::Module &M, const std::vector<std::string> &Known);

} // namespace roofline

#endif
