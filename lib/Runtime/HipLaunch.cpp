//===- HipLaunch.cpp - The HIP launch shim (libroofline_rt_hip) -----------===//
//
// The instrumentation pass sends host code's hipLaunchKernel calls (the
// <<<...>>> and hipLaunchKernelGGL stubs make them) here; DeviceShim.inc
// does the rest. HIP has no call that gives a kernel's module, so the
// shim finds a kernel's buffer as the program finds its own __device__
// variables: the pass calls __roofline_hip_register_kernel after each
// __hipRegisterFunction (in the module's constructor), and the shim
// registers two variables of that code object with __hipRegisterVar, as
// clang does for __device__ variables:
//   __roofline_counts_<kernel>   the counter buffer, and
//   __roofline_metaref_<kernel>  {address, bytes} of the meta string,
// whose addresses hipGetSymbolAddress gives at the first launch. A kernel
// whose code object lacks them (not instrumented) is launched untouched.
//
// Linked as a static archive so that it calls the HIP runtime the program
// itself links.
//
//===----------------------------------------------------------------------===//
#include "DescriptorText.h"

#include "roofline/Runtime/CostKinds.h"
#include "roofline/Runtime/Descriptor.h"
#include "roofline/Runtime/DeviceLaunch.h"

#include <hip/hip_runtime_api.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

// The registration calls clang's HIP host code makes (not in the headers).
extern "C" void __hipRegisterVar(void **Module, void *HostVar, char *HostName,
                                 char *DeviceName, int Ext, size_t Bytes,
                                 int Constant, int Global);

// The HIP runtime, for DeviceShim.inc.
#define ROOFLINE_GPU(Name) hip##Name
#define ROOFLINE_GPU_VENDOR "HIP"
#define ROOFLINE_GPU_MALLOC_HOST(P, Bytes) hipHostMalloc(P, Bytes, 0)

#include "DeviceShim.inc"

namespace {

/// What __roofline_metaref_<kernel> holds.
struct MetaRef {
  uint64_t Address; ///< of __roofline_meta_<kernel>, on the device
  uint64_t Bytes;
};

/// A kernel registered with the HIP runtime, and the host shadows of its
/// two variables (the runtime keys the variables by their addresses).
struct Registered {
  std::string Name, CountsName, RefName;
  std::unique_ptr<uint64_t[]> Counts;
  MetaRef Ref{};
};

struct Registry {
  std::mutex M;
  std::map<const void *, std::unique_ptr<Registered>> Kernels;
};

Registry &registry() {
  static Registry *R = new Registry; // leaked: used at exit
  return *R;
}

void lookUp(Shim &S, const void *Func, Kernel &K) {
  Registered *R = nullptr;
  {
    Registry &Reg = registry();
    std::lock_guard<std::mutex> L(Reg.M);
    auto It = Reg.Kernels.find(Func);
    if (It == Reg.Kernels.end())
      return; // from code compiled without the plugin: untouched
    R = It->second.get();
  }
  // (As const void *: HIP's template overloads take the variable itself.)
  const void *CountsVar = R->Counts.get(), *RefVar = &R->Ref;
  void *Counts = nullptr, *RefAddress = nullptr;
  size_t Bytes = 0;
  hipError_t E = hipGetSymbolAddress(&Counts, CountsVar);
  if (!ok(E)) {
    if (E == hipErrorNoDevice || E == hipErrorInvalidDevice ||
        E == hipErrorInsufficientDriver)
      sayOnce(S.SaidNoDevice, std::string("no HIP device (") +
                                  hipGetErrorString(E) +
                                  "): kernels are launched as without "
                                  "instrumentation and nothing is measured");
    return; // not instrumented
  }
  MetaRef Ref{};
  if (!ok(hipGetSymbolSize(&Bytes, CountsVar)) ||
      Bytes != CountWords * sizeof(uint64_t) ||
      !ok(hipGetSymbolAddress(&RefAddress, RefVar)) ||
      !ok(hipMemcpy(&Ref, RefAddress, sizeof(Ref), hipMemcpyDeviceToHost)) ||
      Ref.Bytes == 0 || Ref.Bytes > (1u << 24)) {
    sayOtherVersion(R->Name.c_str());
    return;
  }
  std::string Meta(Ref.Bytes, '\0');
  if (!ok(hipMemcpy(&Meta[0], reinterpret_cast<void *>(Ref.Address),
                    Ref.Bytes, hipMemcpyDeviceToHost)))
    return;
  registerKernel(K, Counts, R->Name.c_str(), std::move(Meta));
}

} // namespace

/// After __hipRegisterFunction(Module, Kernel, ..., Name, ...): registers
/// the kernel's two variables in the same code object.
extern "C" void __roofline_hip_register_kernel(void **Module,
                                               const void *KernelHandle,
                                               const char *Name) {
  if (!Module || !KernelHandle || !Name)
    return;
  auto R = std::make_unique<Registered>();
  R->Name = Name;
  R->CountsName = ROOFLINE_DEVICE_COUNTS_PREFIX + R->Name;
  R->RefName = ROOFLINE_DEVICE_METAREF_PREFIX + R->Name;
  R->Counts.reset(new uint64_t[CountWords]());
  __hipRegisterVar(Module, R->Counts.get(), &R->CountsName[0],
                   &R->CountsName[0], 0, CountWords * sizeof(uint64_t), 0, 0);
  __hipRegisterVar(Module, &R->Ref, &R->RefName[0], &R->RefName[0], 0,
                   sizeof(MetaRef), 0, 0);
  Registry &Reg = registry();
  std::lock_guard<std::mutex> L(Reg.M);
  Reg.Kernels[KernelHandle] = std::move(R);
}

extern "C" hipError_t __roofline_hipLaunchKernel(const void *Func, dim3 Grid,
                                                 dim3 Block, void **Args,
                                                 size_t Shared,
                                                 hipStream_t Stream) {
  return launch(hipLaunchKernel, Func, Grid, Block, Args, Shared, Stream);
}
