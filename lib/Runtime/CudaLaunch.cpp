//===- CudaLaunch.cpp - The CUDA launch shim (libroofline_rt_cuda) --------===//
//
// The instrumentation pass sends host code's cudaLaunchKernel calls (the
// <<<...>>> stubs make them too) here; DeviceShim.inc does the rest. For a
// kernel the pass instrumented, the shim finds its device counter buffer
// without help from the program: cudaGetFuncBySymbol gives the kernel's
// CUfunction, the driver gives its module and, by name, the buffer
// __roofline_counts_<kernel> and the meta string __roofline_meta_<kernel>.
//
// Linked as a static archive so that it calls the CUDA runtime the program
// itself links (static or shared): one runtime, one set of kernels.
//
//===----------------------------------------------------------------------===//
#include "DescriptorText.h"

#include "roofline/Runtime/CostKinds.h"
#include "roofline/Runtime/Descriptor.h"
#include "roofline/Runtime/DeviceLaunch.h"

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

extern "C" cudaError_t cudaLaunchKernel_ptsz(const void *, dim3, dim3, void **,
                                             size_t, cudaStream_t);

// The CUDA runtime, for DeviceShim.inc.
#define ROOFLINE_GPU(Name) cuda##Name
#define ROOFLINE_GPU_VENDOR "CUDA"
#define ROOFLINE_GPU_MALLOC_HOST(P, Bytes) cudaMallocHost(P, Bytes)

#include "DeviceShim.inc"

namespace {

using FuncGetModuleFn = CUresult (*)(CUmodule *, CUfunction);
using ModuleGetGlobalFn = CUresult (*)(CUdeviceptr *, size_t *, CUmodule,
                                       const char *);

/// The driver's entry points the runtime does not wrap.
struct Driver {
  FuncGetModuleFn FuncGetModule = nullptr;
  ModuleGetGlobalFn ModuleGetGlobal = nullptr;
};

Driver &driver() {
  static Driver D;
  return D;
}

bool loadDriver(Driver &D) {
  if (D.FuncGetModule && D.ModuleGetGlobal)
    return true;
  cudaDriverEntryPointQueryResult Q;
  void *P = nullptr;
  if (ok(cudaGetDriverEntryPointByVersion("cuFuncGetModule", &P, 12000,
                                          cudaEnableDefault, &Q)) &&
      Q == cudaDriverEntryPointSuccess)
    D.FuncGetModule = reinterpret_cast<FuncGetModuleFn>(P);
  if (ok(cudaGetDriverEntryPointByVersion("cuModuleGetGlobal", &P, 12000,
                                          cudaEnableDefault, &Q)) &&
      Q == cudaDriverEntryPointSuccess)
    D.ModuleGetGlobal = reinterpret_cast<ModuleGetGlobalFn>(P);
  return D.FuncGetModule && D.ModuleGetGlobal;
}

void lookUp(Shim &S, const void *Func, Kernel &K) {
  cudaFunction_t F = nullptr;
  cudaError_t E = cudaGetFuncBySymbol(&F, Func);
  if (!ok(E)) {
    if (E == cudaErrorNoDevice || E == cudaErrorInsufficientDriver)
      sayOnce(S.SaidNoDevice, std::string("no CUDA device (") + cudaGetErrorString(E) +
                     "): kernels are launched as without instrumentation "
                     "and nothing is measured");
    return;
  }
  const char *Name = nullptr;
  CUmodule Mod = nullptr;
  Driver &D = driver();
  if (!ok(cudaFuncGetName(&Name, Func)) || !Name || !loadDriver(D) ||
      D.FuncGetModule(&Mod, F) != CUDA_SUCCESS)
    return;
  CUdeviceptr Counts = 0, MetaPtr = 0;
  size_t Bytes = 0, MetaBytes = 0;
  if (D.ModuleGetGlobal(&Counts, &Bytes, Mod,
                        (ROOFLINE_DEVICE_COUNTS_PREFIX + std::string(Name))
                            .c_str()) != CUDA_SUCCESS)
    return; // not instrumented
  if (D.ModuleGetGlobal(&MetaPtr, &MetaBytes, Mod,
                        (ROOFLINE_DEVICE_META_PREFIX + std::string(Name))
                            .c_str()) != CUDA_SUCCESS ||
      Bytes != CountWords * sizeof(uint64_t)) {
    sayOtherVersion(Name);
    return;
  }
  std::string Meta(MetaBytes, '\0');
  if (!ok(cudaMemcpy(&Meta[0], reinterpret_cast<void *>(MetaPtr), MetaBytes,
                     cudaMemcpyDeviceToHost)))
    return;
  registerKernel(K, reinterpret_cast<void *>(Counts), Name, std::move(Meta));
}

} // namespace

extern "C" cudaError_t __roofline_cudaLaunchKernel(const void *Func, dim3 Grid,
                                                   dim3 Block, void **Args,
                                                   size_t Shared,
                                                   cudaStream_t Stream) {
  return launch(cudaLaunchKernel, Func, Grid, Block, Args, Shared, Stream);
}

extern "C" cudaError_t
__roofline_cudaLaunchKernel_ptsz(const void *Func, dim3 Grid, dim3 Block,
                                 void **Args, size_t Shared,
                                 cudaStream_t Stream) {
  return launch(cudaLaunchKernel_ptsz, Func, Grid, Block, Args, Shared,
                Stream);
}
