//===- Trace.h - Call records for fusion analysis (ROOFLINE_TRACE) --*- C++ -*-===//
//
// With ROOFLINE_TRACE=1 every call of an instrumented function is recorded
// in order with its arguments (pointers as addresses), up to
// ROOFLINE_TRACE_RECORDS calls (default 10^5): `roofline-report --fusion`
// follows the buffers from the kernel that writes them to the kernels that
// read them. Internal to libroofline_rt.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_RUNTIME_TRACE_H
#define ROOFLINE_RUNTIME_TRACE_H

#include "roofline/Runtime/Descriptor.h"

#include <string>
#include <vector>

namespace roofline {
namespace rt {

/// Reads ROOFLINE_TRACE and ROOFLINE_TRACE_RECORDS (once).
void startTrace();
/// Appends the profile's "trace" member (with a leading comma), if tracing.
void appendTrace(std::string &J);
/// Forgets the records (roofline_reset, a forked child).
void resetTrace();
/// Records a CUDA launch (ROOFLINE_TRACE): the kernel, its parameter types,
/// its arguments' bits and its threads.
void traceDeviceLaunch(const std::string &Name,
                       const std::vector<std::string> &Types,
                       const uint64_t *Bits, uint64_t Threads);

/// The JSON text of one argument of type \p Type ("i32", "ptr", "f64"...).
std::string argumentText(const std::string &Type, uint64_t Bits);

} // namespace rt
} // namespace roofline

#endif
