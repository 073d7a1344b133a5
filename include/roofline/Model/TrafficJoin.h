//===- TrafficJoin.h - Time from one run, traffic from another --*- C++ -*-===//
//
// `roofline-report TIME.json --traffic TRAFFIC.json`: the cache model makes a
// run several times slower, so its times are not the kernels'. The counts
// and times come from a run without the model, the per-level traffic from a
// ROOFLINE_CACHE run of the same binary on the same input; their counts must
// agree, kernel by kernel.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_MODEL_TRAFFICJOIN_H
#define ROOFLINE_MODEL_TRAFFICJOIN_H

#include "roofline/Model/Result.h"

#include <nlohmann/json.hpp>
#include <string>

namespace roofline {

/// \p Time with each kernel's and loop nest's "traffic" taken from
/// \p Traffic (marked "traffic_from": its path). Fails, naming the kernel,
/// when a kernel's calls, FLOPs or bytes differ, or when \p Traffic has no
/// traffic at all (not a cache-model run).
Result<nlohmann::json> joinTraffic(const nlohmann::json &Time,
                                   const std::string &TimePath,
                                   const nlohmann::json &Traffic,
                                   const std::string &TrafficPath);

} // namespace roofline

#endif
