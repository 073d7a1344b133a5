//===- GPU.h - The probe's CUDA measurements --------------------*- C++ -*-===//
#ifndef ROOFLINE_TOOLS_PROBE_GPU_H
#define ROOFLINE_TOOLS_PROBE_GPU_H

#include <string>

namespace roofline {
namespace probe {

struct GPUResult {
  std::string Name;        ///< the device's name
  int Major = 0, Minor = 0; ///< compute capability
  int SMs = 0;
  double FP32 = 0, FP64 = 0;  ///< FMA peak, FLOP/s (best run)
  double Bandwidth = 0;       ///< device memory, copy kernel, B/s (read + write)
};

/// Measures device 0; false with \p Why when there is no usable device (or
/// the probe was built without CUDA).
bool probeGPU(GPUResult &R, bool Quick, std::string &Why);

} // namespace probe
} // namespace roofline

#endif
