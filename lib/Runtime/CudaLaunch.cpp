//===- CudaLaunch.cpp - The CUDA launch shim (libroofline_rt_cuda) --------===//
//
// The instrumentation pass sends host code's cudaLaunchKernel calls (the
// <<<...>>> stubs make them too) here. For a kernel the pass instrumented,
// the shim finds its device counter buffer without help from the program:
// cudaGetFuncBySymbol gives the kernel's CUfunction, the driver gives its
// module and, by name, the buffer __roofline_counts_<kernel>. Around each
// launch it zeroes the buffer, records CUDA events, and copies the buffer
// back on the launch's stream into one of a ring of pinned host copies; a
// copy is read when its slot is needed again or at exit. Launches of one
// kernel use one device buffer, so each waits on the device (an event, not
// the host) for the previous one's copy; the host waits only when eight
// launches of the same kernel are in flight. Different kernels on
// different streams overlap freely.
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

namespace {

using namespace roofline::rt;
using FuncGetModuleFn = CUresult (*)(CUmodule *, CUfunction);
using ModuleGetGlobalFn = CUresult (*)(CUdeviceptr *, size_t *, CUmodule,
                                       const char *);
using LaunchFn = cudaError_t (*)(const void *, dim3, dim3, void **, size_t,
                                 cudaStream_t);

constexpr size_t CountWords = ROOFLINE_DEVICE_SLOTS + roofline::NumRunSlots;

/// One launch on its way: its events, its pinned copy of the counters,
/// what the runtime will be told when it is read.
struct Flight {
  cudaEvent_t Start = nullptr, Stop = nullptr, Copied = nullptr;
  uint64_t *Host = nullptr;
  roofline_launch Launch{};
  std::vector<double> Args;
  std::vector<uint64_t> ArgBits;
};

constexpr size_t RingSize = 8;

/// One kernel as the shim knows it, and its launches in flight (a ring,
/// oldest first).
struct Kernel {
  int Id = -1; // -1: not instrumented (or no device): launched untouched
  CUdeviceptr Counts = 0;
  std::vector<std::string> ParamTypes;
  std::vector<Flight> Ring;
  size_t Oldest = 0, InFlight = 0;
  cudaEvent_t LastCopied = nullptr; // the previous launch's copy, done
};

struct Shim {
  std::mutex M;
  std::map<const void *, Kernel> Kernels;
  std::map<cudaStream_t, uint32_t> Streams; // 0: the default stream
  uint32_t StreamsSeen = 0;
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
  K.Ring.resize(RingSize);
  K.Counts = Counts;
  for (const ParamText &P : parseParams(metaField(Meta.c_str(), ROOFLINE_META_KEY_Params).c_str()))
    K.ParamTypes.push_back(P.Type);
  K.Id = __roofline_device_kernel(Name, Meta.c_str());
}

/// A ring slot's events and pinned memory, made on its first use.
bool prepare(Flight &F) {
  if (F.Host)
    return true;
  if (!ok(cudaEventCreate(&F.Start)) || !ok(cudaEventCreate(&F.Stop)) ||
      !ok(cudaEventCreate(&F.Copied)) ||
      !ok(cudaMallocHost(reinterpret_cast<void **>(&F.Host),
                         CountWords * sizeof(uint64_t)))) {
    F.Host = nullptr;
    return false;
  }
  return true;
}

/// Waits for \p K's oldest launch in flight and hands it to the runtime.
void finishOldest(Shim &S, Kernel &K) {
  Flight &F = K.Ring[K.Oldest];
  K.Oldest = (K.Oldest + 1) % RingSize;
  --K.InFlight;
  float StartMs = 0, Ms = 0;
  if (!ok(cudaEventSynchronize(F.Copied)) ||
      !ok(cudaEventElapsedTime(&Ms, F.Start, F.Stop)) ||
      !ok(cudaEventElapsedTime(&StartMs, S.Epoch, F.Start))) {
    ++S.Lost;
    return;
  }
  F.Launch.Start = StartMs / 1e3;
  F.Launch.Seconds = Ms / 1e3;
  F.Launch.Counts = F.Host;
  F.Launch.Args = F.Args.data();
  F.Launch.NumArgs = uint32_t(F.Args.size());
  F.Launch.ArgBits = F.ArgBits.data();
  __roofline_device_launch(K.Id, &F.Launch);
}

void drain() {
  Shim &S = shim();
  std::lock_guard<std::mutex> L(S.M);
  for (auto &[Func, K] : S.Kernels)
    while (K.InFlight)
      finishOldest(S, K);
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
  if (K.InFlight == RingSize)
    finishOldest(S, K); // its slot is this launch's now
  Flight &F = K.Ring[(K.Oldest + K.InFlight) % RingSize];
  if (!prepare(F)) {
    L.unlock();
    return Real(Func, Grid, Block, Args, Shared, Stream);
  }
  // The device buffer is free once the previous launch's copy is done,
  // whichever stream that was on: a wait on the device, not the host.
  if (K.LastCopied)
    cudaStreamWaitEvent(Stream, K.LastCopied, 0);
  cudaMemsetAsync(reinterpret_cast<void *>(K.Counts), 0,
                  CountWords * sizeof(uint64_t), Stream);
  cudaEventRecord(F.Start, Stream);
  cudaError_t E = Real(Func, Grid, Block, Args, Shared, Stream);
  if (E != cudaSuccess)
    return E;
  cudaEventRecord(F.Stop, Stream);
  cudaMemcpyAsync(F.Host, reinterpret_cast<void *>(K.Counts),
                  CountWords * sizeof(uint64_t), cudaMemcpyDeviceToHost,
                  Stream);
  cudaEventRecord(F.Copied, Stream);
  K.LastCopied = F.Copied;
  ++K.InFlight;
  roofline_launch &R = F.Launch;
  R = roofline_launch{};
  R.Grid[0] = Grid.x, R.Grid[1] = Grid.y, R.Grid[2] = Grid.z;
  R.Block[0] = Block.x, R.Block[1] = Block.y, R.Block[2] = Block.z;
  R.SharedBytes = Shared;
  auto [SIt, NewStream] = S.Streams.try_emplace(Stream, 0);
  if (NewStream && Stream)
    SIt->second = ++S.StreamsSeen;
  R.Stream = SIt->second;
  F.Args.clear();
  F.ArgBits.clear();
  for (size_t A = 0; A < K.ParamTypes.size(); ++A) {
    F.Args.push_back(Args ? argValue(K.ParamTypes[A], Args[A]) : std::nan(""));
    F.ArgBits.push_back(Args ? argBits(K.ParamTypes[A], Args[A]) : 0);
  }
  if (__roofline_tracing)
    __roofline_device_trace(K.Id, R.Grid, R.Block, F.ArgBits.data());
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
