//===- CacheTracing.h - Traced copies for the run-time cache model -*- C++ -*-===//
//
// ROOFLINE_CACHE (docs/instrumentation.md, "Traffic from a run") needs
// every load and store of a kernel; passing them all to the runtime in
// every run would cost each one a test. Instead each instrumented function
// gets a second, traced copy (the "bursty tracing" of Hirzel and
// Chilimbi, with the burst being the whole run): at entry the function
// reads __roofline_cache_on once and, when the model is on, calls its
// traced copy, in which every access tests the set sample inline and
// passes the sampled ones to __roofline_cache_access_line, but for those
// that would leave the line the thread's model touched last as it is (the
// runtime returns it; any call forgets it). A run without the model pays
// that one load and branch per call.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_TRANSFORMS_CACHETRACING_H
#define ROOFLINE_TRANSFORMS_CACHETRACING_H

#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstrTypes.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace roofline {

/// A memory access of an instrumented function and where its traffic is
/// counted: its part << 16 | its loop nest (1-based, 0: none).
using AccessSite = std::pair<llvm::Instruction *, uint32_t>;

/// A call whose callee's work counts for the instrumented function, and
/// where: in the traced copy the callee's traffic counts there too
/// (inclusive traffic). A straight-line helper (\p Fixed: no counters, no
/// copy of its own) is called in its traced form.
struct CallSite {
  llvm::CallBase *Call;
  uint32_t Site;
  bool Fixed;
};

/// True for the instructions a traced copy passes to the model.
bool isTracedAccess(const llvm::Instruction &I);

/// Gives \p F (already instrumented, with descriptor \p Desc) its traced
/// copy and the choice at entry. Returns "" or why \p F keeps no traced
/// copy (variadic functions, for example), or why a call's traffic is not
/// in it (a straight-line helper with no traced form).
std::string addTracedCopy(llvm::Function &F, llvm::GlobalVariable *Desc,
                          const std::vector<AccessSite> &Sites,
                          const std::vector<CallSite> &Calls);

/// -roofline-cache-model (default on).
bool tracedCopiesEnabled();

} // namespace roofline

#endif
