//===- CudaLaunch.cpp - The CUDA launch shim (libroofline_rt_cuda) --------===//
//
// The instrumentation pass sends host code's cudaLaunchKernel calls (the
// <<<...>>> stubs make them too) here. For a kernel the pass instrumented,
// the shim finds its device counter buffer without help from the program:
// cudaGetFuncBySymbol gives the kernel's CUfunction, the driver gives its
// module and, by name, the buffer __roofline_counts_<kernel>. Around each
// launch it zeroes the buffer, records CUDA events, and copies the buffer
// back on the launch's stream; the copy is read when the next launch of the
// same kernel needs the buffer, or at exit. So launches of one kernel are
// serialised (host waits for the previous one); different kernels on
// different streams still overlap.
//
// Linked as a static archive so that it calls the CUDA runtime the program
// itself links (static or shared): one runtime, one set of kernels.
//
//===----------------------------------------------------------------------===//
#include "roofline/Analysis/CostKinds.h"
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

namespace {

using FuncGetModuleFn = CUresult (*)(CUmodule *, CUfunction);
using ModuleGetGlobalFn = CUresult (*)(CUdeviceptr *, size_t *, CUmodule,
                                       const char *);
using LaunchFn = cudaError_t (*)(const void *, dim3, dim3, void **, size_t,
                                 cudaStream_t);

constexpr size_t CountWords = ROOFLINE_DEVICE_SLOTS + roofline::NumSlots;

/// One kernel as the shim knows it, and its launch in flight.
struct Kernel {
  int Id = -1; // -1: not instrumented (or no device): launched untouched
  CUdeviceptr Counts = 0;
  std::vector<std::string> ParamTypes;
  cudaEvent_t Start = nullptr, Stop = nullptr, Copied = nullptr;
  uint64_t *Host = nullptr; // pinned copy of the device buffer
  bool InFlight = false;
  roofline_launch Launch{};
  std::vector<double> Args;
  std::vector<uint64_t> ArgBits;
};

struct Shim {
  std::mutex M;
  std::map<const void *, Kernel> Kernels;
  std::map<cudaStream_t, uint32_t> Streams;
  FuncGetModuleFn FuncGetModule = nullptr;
  ModuleGetGlobalFn ModuleGetGlobal = nullptr;
  cudaEvent_t Epoch = nullptr; // at the first launch: "start" is from here
  bool SaidNoDevice = false, SaidCaptured = false;
  uint64_t Lost = 0;
};

Shim &shim() {
  static Shim *S = new Shim; // leaked: used at exit
  return *S;
}

void sayOnce(bool &Said, const std::string &What) {
  if (Said)
    return;
  Said = true;
  std::fprintf(stderr, "roofline: %s\n", What.c_str());
}

/// A failed CUDA runtime call of ours must not be what the program's next
/// cudaGetLastError() reports.
bool ok(cudaError_t E) {
  if (E == cudaSuccess)
    return true;
  cudaGetLastError();
  return false;
}

bool loadDriver(Shim &S) {
  if (S.FuncGetModule && S.ModuleGetGlobal)
    return true;
  cudaDriverEntryPointQueryResult Q;
  void *P = nullptr;
  if (ok(cudaGetDriverEntryPointByVersion("cuFuncGetModule", &P, 12000,
                                          cudaEnableDefault, &Q)) &&
      Q == cudaDriverEntryPointSuccess)
    S.FuncGetModule = reinterpret_cast<FuncGetModuleFn>(P);
  if (ok(cudaGetDriverEntryPointByVersion("cuModuleGetGlobal", &P, 12000,
                                          cudaEnableDefault, &Q)) &&
      Q == cudaDriverEntryPointSuccess)
    S.ModuleGetGlobal = reinterpret_cast<ModuleGetGlobalFn>(P);
  return S.FuncGetModule && S.ModuleGetGlobal;
}

std::vector<std::string> paramTypes(const std::string &Meta) {
  std::vector<std::string> Types;
  size_t At = Meta.find("params\t");
  if (At == std::string::npos)
    return Types;
  std::string Line = Meta.substr(At + 7, Meta.find('\n', At) - At - 7);
  size_t Begin = 0;
  while (Begin < Line.size()) {
    size_t Tab = Line.find('\t', Begin);
    std::string P = Line.substr(Begin, Tab == std::string::npos ? Tab : Tab - Begin);
    Types.push_back(P.substr(P.rfind(':') + 1));
    if (Tab == std::string::npos)
      break;
    Begin = Tab + 1;
  }
  return Types;
}

/// Finds \p Func's counter buffer; Id stays -1 when it has none.
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
  if (!ok(cudaFuncGetName(&Name, Func)) || !Name || !loadDriver(S) ||
      S.FuncGetModule(&Mod, F) != CUDA_SUCCESS)
    return;
  CUdeviceptr Counts = 0, MetaPtr = 0;
  size_t Bytes = 0, MetaBytes = 0;
  if (S.ModuleGetGlobal(&Counts, &Bytes, Mod,
                        (ROOFLINE_DEVICE_COUNTS_PREFIX + std::string(Name))
                            .c_str()) != CUDA_SUCCESS)
    return; // not instrumented
  if (S.ModuleGetGlobal(&MetaPtr, &MetaBytes, Mod,
                        (ROOFLINE_DEVICE_META_PREFIX + std::string(Name))
                            .c_str()) != CUDA_SUCCESS ||
      Bytes != CountWords * sizeof(uint64_t)) {
    std::fprintf(stderr,
                 "roofline: CUDA kernel %s was instrumented by another "
                 "version of Roofline; its counts are not recorded\n",
                 Name);
    return;
  }
  std::string Meta(MetaBytes, '\0');
  if (!ok(cudaMemcpy(&Meta[0], reinterpret_cast<void *>(MetaPtr), MetaBytes,
                     cudaMemcpyDeviceToHost)))
    return;
  Meta.resize(std::strlen(Meta.c_str()));
  if (!ok(cudaMallocHost(reinterpret_cast<void **>(&K.Host),
                         CountWords * sizeof(uint64_t))) ||
      !ok(cudaEventCreate(&K.Start)) || !ok(cudaEventCreate(&K.Stop)) ||
      !ok(cudaEventCreate(&K.Copied)))
    return;
  K.Counts = Counts;
  K.ParamTypes = paramTypes(Meta);
  K.Id = __roofline_device_kernel(Name, Meta.c_str());
}

/// Waits for \p K's launch in flight and hands it to the runtime.
void finish(Shim &S, Kernel &K) {
  if (!K.InFlight)
    return;
  K.InFlight = false;
  float StartMs = 0, Ms = 0;
  if (!ok(cudaEventSynchronize(K.Copied)) ||
      !ok(cudaEventElapsedTime(&Ms, K.Start, K.Stop)) ||
      !ok(cudaEventElapsedTime(&StartMs, S.Epoch, K.Start))) {
    ++S.Lost;
    return;
  }
  K.Launch.Start = StartMs / 1e3;
  K.Launch.Seconds = Ms / 1e3;
  K.Launch.Counts = K.Host;
  K.Launch.Args = K.Args.data();
  K.Launch.NumArgs = uint32_t(K.Args.size());
  K.Launch.ArgBits = K.ArgBits.data();
  __roofline_device_launch(K.Id, &K.Launch);
}

void drain() {
  Shim &S = shim();
  std::lock_guard<std::mutex> L(S.M);
  for (auto &[Func, K] : S.Kernels)
    finish(S, K);
  if (S.Lost)
    std::fprintf(stderr,
                 "roofline: %llu CUDA launches could not be read back (the "
                 "CUDA context was gone); they are not in the profile\n",
                 (unsigned long long)S.Lost);
  S.Lost = 0;
}

/// A scalar argument's value, NaN for pointers and aggregates.
double argValue(const std::string &Type, const void *P) {
  if (Type == "i8")
    return *static_cast<const int8_t *>(P);
  if (Type == "i16")
    return *static_cast<const int16_t *>(P);
  if (Type == "i32")
    return *static_cast<const int32_t *>(P);
  if (Type == "i64")
    return double(*static_cast<const int64_t *>(P));
  if (Type == "f32")
    return *static_cast<const float *>(P);
  if (Type == "f64")
    return *static_cast<const double *>(P);
  return std::nan("");
}

/// An argument as ROOFLINE_TRACE records it (see roofline_launch).
uint64_t argBits(const std::string &Type, const void *P) {
  uint64_t Bits = 0;
  if (Type == "ptr") {
    std::memcpy(&Bits, P, sizeof(void *));
  } else if (Type == "f32" || Type == "f64") {
    double D = argValue(Type, P);
    std::memcpy(&Bits, &D, sizeof(D));
  } else if (Type == "i64") {
    std::memcpy(&Bits, P, sizeof(Bits));
  } else if (Type == "i8" || Type == "i16" || Type == "i32") {
    Bits = uint64_t(int64_t(argValue(Type, P))); // exact below 2^53
  }
  return Bits;
}

cudaError_t launch(LaunchFn Real, const void *Func, dim3 Grid, dim3 Block,
                   void **Args, size_t Shared, cudaStream_t Stream) {
  Shim &S = shim();
  std::unique_lock<std::mutex> L(S.M);
  auto [It, New] = S.Kernels.try_emplace(Func);
  Kernel &K = It->second;
  if (New)
    lookUp(S, Func, K);
  // A launch captured into a CUDA graph runs later, maybe many times: its
  // counts cannot be read back here, and waiting on the capture would
  // invalidate it. It goes to the runtime untouched.
  cudaStreamCaptureStatus Capture = cudaStreamCaptureStatusNone;
  if (K.Id >= 0 && ok(cudaStreamIsCapturing(Stream, &Capture)) &&
      Capture != cudaStreamCaptureStatusNone) {
    sayOnce(S.SaidCaptured,
            "launches captured into CUDA graphs are not recorded");
  }
  if (K.Id < 0 || Capture != cudaStreamCaptureStatusNone) {
    L.unlock();
    return Real(Func, Grid, Block, Args, Shared, Stream);
  }
  if (!S.Epoch) {
    // Launches still in flight at exit are read back before the CUDA
    // runtime goes (atexit handlers run in reverse: this one was last).
    std::atexit(drain);
    __roofline_set_device_drain(drain);
    if (ok(cudaEventCreate(&S.Epoch)))
      cudaEventRecord(S.Epoch, Stream);
  }
  finish(S, K); // the buffer is this launch's now
  cudaMemsetAsync(reinterpret_cast<void *>(K.Counts), 0,
                  CountWords * sizeof(uint64_t), Stream);
  cudaEventRecord(K.Start, Stream);
  cudaError_t E = Real(Func, Grid, Block, Args, Shared, Stream);
  if (E != cudaSuccess)
    return E;
  cudaEventRecord(K.Stop, Stream);
  cudaMemcpyAsync(K.Host, reinterpret_cast<void *>(K.Counts),
                  CountWords * sizeof(uint64_t), cudaMemcpyDeviceToHost,
                  Stream);
  cudaEventRecord(K.Copied, Stream);
  roofline_launch &R = K.Launch;
  R = roofline_launch{};
  R.Grid[0] = Grid.x, R.Grid[1] = Grid.y, R.Grid[2] = Grid.z;
  R.Block[0] = Block.x, R.Block[1] = Block.y, R.Block[2] = Block.z;
  R.SharedBytes = Shared;
  auto [SIt, NewStream] =
      S.Streams.try_emplace(Stream, Stream ? uint32_t(S.Streams.size() + 1) : 0);
  R.Stream = SIt->second;
  K.Args.clear();
  K.ArgBits.clear();
  for (size_t A = 0; A < K.ParamTypes.size(); ++A) {
    K.Args.push_back(Args ? argValue(K.ParamTypes[A], Args[A]) : std::nan(""));
    K.ArgBits.push_back(Args ? argBits(K.ParamTypes[A], Args[A]) : 0);
  }
  K.InFlight = true;
  if (__roofline_tracing)
    __roofline_device_trace(K.Id, R.Grid, R.Block, K.ArgBits.data());
  return E;
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
