//===- Descriptors.h - Each instrumented function's descriptor --*- C++ -*-===//
//
// The roofline_kernel constant the runtime reads an instrumented function's
// counts by (include/roofline/Runtime/Descriptor.h): its costs, parts and
// loop nests from the function's CountLayout, the static formulas it is
// compared with, and one module constructor that registers them all. The
// IR struct types and the initializers both come from the one field list,
// DescriptorFields.inc.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_LIB_TRANSFORMS_DESCRIPTORS_H
#define ROOFLINE_LIB_TRANSFORMS_DESCRIPTORS_H

#include "CountLayout.h"
#include "roofline/Analysis/InlinedSummaries.h"
#include "roofline/Analysis/KernelSummary.h"
#include "roofline/Transforms/Instrumentation.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/GlobalVariable.h"

#include <string>
#include <utility>

namespace roofline {

/// The IR types of roofline_kernel, roofline_cost, roofline_part and
/// roofline_loop.
struct DescriptorTypes {
  explicit DescriptorTypes(llvm::LLVMContext &Ctx);
  llvm::StructType *Kernel, *Cost, *Part, *Loop;
};

/// What the descriptor says of the function's record besides its layout.
struct DescriptorFacts {
  bool OwnKernel = false;        ///< a kernel with a record of its own
  bool CountedFootprint = false; ///< its footprint is its counted bytes
  bool Footprint = false;        ///< its footprint is counted at entry
  bool Traced = false;           ///< the cache model sees all its code
};

/// Sets \p Desc's initializer for \p F. \p Sources and \p Carried give
/// the summaries of the kernels inlined into it (their static formulas).
void fillDescriptor(llvm::GlobalVariable &Desc, llvm::Function &F,
                    const DescriptorTypes &T, const CountLayout &L,
                    const StaticFormulas &SF, const InlinedFunctions &Sources,
                    CarriedSummaries &Carried, const DescriptorFacts &Facts);

/// One constructor that registers every descriptor of \p M.
void registerDescriptors(llvm::Module &M,
                         llvm::ArrayRef<llvm::GlobalVariable *> Descs);

/// What the descriptor carries of a kernel's static summary.
StaticFormulas formulasOf(const KernelSummary *K);

/// The summary's assumptions as conditions; none when one of them is not
/// a condition of comparisons in 64 bits (then no call can test them all).
std::optional<std::vector<Condition>>
conditionsOf(const std::vector<Assumption> &Assumptions);
/// The file (with its directory) and line where \p F is defined.
std::pair<std::string, unsigned> sourceLocation(const llvm::Function &F);
/// The parameter list of a kernel's descriptor or meta string: name:type each.
std::string paramList(const llvm::Function &F, const StaticFormulas &SF);

} // namespace roofline

#endif
