//===- DeviceLaunches.h - CUDA kernels' launches, as recorded ---*- C++ -*-===//
//
// Per device kernel: its meta data (parameters, static per-thread formulas),
// its totals over all launches, and one compact record per launch (up to
// ROOFLINE_LAUNCH_RECORDS, default 10^6, per process; later launches are
// still in the totals). Internal to libroofline_rt.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_RUNTIME_DEVICELAUNCHES_H
#define ROOFLINE_RUNTIME_DEVICELAUNCHES_H

#include "DescriptorText.h"

#include "roofline/Runtime/CostKinds.h"

#include <cstdint>
#include <string>
#include <vector>

namespace roofline {
namespace rt {

struct LaunchRecord {
  uint32_t Grid[3], Block[3];
  uint32_t Stream;
  uint64_t SharedBytes;
  double Start, Seconds;
  uint64_t Threads, Flops, Load, Store; ///< FLOPs and DRAM bytes
  uint32_t FirstArg;                    ///< index into DeviceKernel::Args
};

struct DeviceKernel {
  std::string Name, File, Flops, Load, Store;
  std::string Device; ///< "cuda" or "hip": the runtime it ran on
  uint32_t Line = 0;
  bool Exact = false;
  std::vector<ParamText> Params;
  std::vector<std::string> PointerLines; ///< "index\tread\twritten", per thread
  std::string Footprint; ///< "read\twritten\texact", per launch; "" without
  uint64_t Launches = 0, Threads = 0;
  double Seconds = 0;
  uint64_t Slots[NumRunSlots] = {};
  std::vector<LaunchRecord> Records;
  std::vector<double> Args; ///< Params.size() values per record
  uint64_t Dropped = 0;     ///< launches beyond the record limit
};

/// Drains launches in flight, then shows every device kernel to \p Visit
/// (under the registry's lock: no copy of a million records).
void visitDeviceKernels(void (*Visit)(const DeviceKernel &, void *),
                        void *Context);
/// Zeroes the device counts (roofline_reset, a forked child).
void resetDeviceLaunches();

} // namespace rt
} // namespace roofline

#endif
