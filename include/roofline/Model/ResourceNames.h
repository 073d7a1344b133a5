//===- ResourceNames.h - Scheduler resources, said in words ------*- C++ -*-===//
//
// LLVM's scheduling models name their processor resources for their
// authors (Zn4FP45, SKXPort237, SPRPort02_03_10). A bound that reads "on
// Zn4FP45" says nothing to a user; "on the FP load, store and FP-to-integer
// pipes (Zn4FP45)" does. A table for the models Roofline uses (Zen 3, 4
// and 5; Haswell to Ice Lake; Alder Lake and Sapphire Rapids; generic
// x86-64, which is Sandy Bridge's), from each model's comments and the
// vendors' optimisation manuals; any other name is kept as it is.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_MODEL_RESOURCENAMES_H
#define ROOFLINE_MODEL_RESOURCENAMES_H

#include <string>

namespace roofline {

/// "the FP add pipes (Zn4FPFAdd01)"; for a name not in the table,
/// "the scheduling model's resource NAME".
std::string resourceWords(const std::string &Name);

} // namespace roofline

#endif
