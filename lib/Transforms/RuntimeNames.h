//===- RuntimeNames.h - The runtime's entry points, by name -----*- C++ -*-===//
//
// Names of the runtime's entry points and of generated globals the
// instrumentation refers to, in one place (include/roofline/Runtime/
// Descriptor.h declares the functions).
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_LIB_TRANSFORMS_RUNTIMENAMES_H
#define ROOFLINE_LIB_TRANSFORMS_RUNTIMENAMES_H

namespace roofline {

constexpr const char *RegisterFn = "__roofline_register";
constexpr const char *RegisterThreadFn = "__roofline_register_thread";
constexpr const char *TimedReturnFn = "__roofline_timed_return";
constexpr const char *RegionBeginFn = "__roofline_region_begin";
constexpr const char *RegionEndFn = "__roofline_region_end";
constexpr const char *TraceFn = "__roofline_trace";
constexpr const char *TracingFlag = "__roofline_tracing";
constexpr const char *CtorName = "roofline.module_ctor";
/// Named metadata of a module already instrumented (LTO runs it twice).
constexpr const char *InstrumentedMarker = "roofline.instrumented";

} // namespace roofline

#endif
