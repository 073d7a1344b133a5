//===- GPUStub.cpp - The probe without CUDA --------------------------------===//
#include "GPU.h"

namespace roofline {
namespace probe {

bool probeGPU(GPUResult &, bool, std::string &Why) {
  Why = "roofline-probe was built without the CUDA toolkit";
  return false;
}

} // namespace probe
} // namespace roofline
