//===- CompileFlags.h - How a loop was compiled, from DWARF -----*- C++ -*-===//
//
// A compile unit's DW_AT_producer is clang's version and, built with
// -grecord-command-line (roofline-clang adds it), the command line. The
// advice for a loop leaves out the flags it was already built with.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_MODEL_COMPILEFLAGS_H
#define ROOFLINE_MODEL_COMPILEFLAGS_H

#include <string>

namespace roofline {

struct CompileFlags {
  bool Recorded = false;  ///< the producer holds the command line
  std::string Optimize;   ///< the last -O option ("-O3"), "" for none
  std::string Arch;       ///< the last -march= option, "" for none
  bool Vectorize = false; ///< the loop vectoriser ran (-O2 and up, not -fno-vectorize)
  bool Reassociate = false; ///< FP reassociation allowed (-ffast-math, -Ofast, ...)
  bool ContractFast = false; ///< FMAs fused across statements (-ffp-contract=fast)
};

/// The flags in \p Producer that the advice depends on; the last of
/// contradicting ones wins, as in clang.
CompileFlags compileFlags(const std::string &Producer);

} // namespace roofline

#endif
