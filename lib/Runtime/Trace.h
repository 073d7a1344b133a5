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

namespace roofline {
namespace rt {

/// Reads ROOFLINE_TRACE and ROOFLINE_TRACE_RECORDS (once).
void startTrace();
/// Appends the profile's "trace" member (with a leading comma), if tracing.
void appendTrace(std::string &J);
/// Forgets the records (roofline_reset, a forked child).
void resetTrace();
/// The JSON text of one argument of type \p Type ("i32", "ptr", "f64"...).
std::string argumentText(const std::string &Type, uint64_t Bits);

} // namespace rt
} // namespace roofline

#endif
