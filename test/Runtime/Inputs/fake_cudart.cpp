// A stand-in for the CUDA runtime and driver, for testing the launch shim
// (libroofline_rt_cuda) on a machine without a GPU: "device memory" is host
// memory, streams run at once, each event is a fake clock 1 ms apart, and a
// kernel is a host function that adds what the instrumented device code
// would to its counter buffer. FAKE_CUDA_NO_DEVICE=1 behaves like a machine
// without a GPU; FAKE_CUDA_CAPTURING=1 like streams capturing a graph.
#include "fake_cudart.h"

#include <cstdlib>
#include <cstring>
#include <map>
#include <string>

namespace {
struct FakeKernel {
  std::string Name;
  FakeBody Body;
};
std::map<const void *, FakeKernel> &kernels() {
  static std::map<const void *, FakeKernel> K;
  return K;
}
std::map<std::string, std::pair<void *, size_t>> &globals() {
  static std::map<std::string, std::pair<void *, size_t>> G;
  return G;
}
cudaError_t LastError = cudaSuccess;
double Clock = 0; // ms
bool noDevice() {
  const char *E = std::getenv("FAKE_CUDA_NO_DEVICE");
  return E && *E == '1';
}
cudaError_t fail(cudaError_t E) { return LastError = E; }

CUresult fakeFuncGetModule(CUmodule *M, CUfunction) {
  *M = reinterpret_cast<CUmodule>(0x1);
  return CUDA_SUCCESS;
}
CUresult fakeModuleGetGlobal(CUdeviceptr *P, size_t *Bytes, CUmodule,
                             const char *Name) {
  auto It = globals().find(Name);
  if (It == globals().end())
    return CUDA_ERROR_NOT_FOUND;
  *P = reinterpret_cast<CUdeviceptr>(It->second.first);
  *Bytes = It->second.second;
  return CUDA_SUCCESS;
}
} // namespace

void fakeKernel(const void *Stub, const char *Name, FakeBody Body) {
  kernels()[Stub] = {Name, Body};
}
void fakeGlobal(const char *Name, void *P, size_t Bytes) {
  globals()[Name] = {P, Bytes};
}

extern "C" {
cudaError_t cudaGetLastError(void) {
  cudaError_t E = LastError;
  LastError = cudaSuccess;
  return E;
}
const char *cudaGetErrorString(cudaError_t E) {
  return E == cudaErrorNoDevice ? "no CUDA-capable device is detected"
                                : "fake error";
}
cudaError_t cudaGetFuncBySymbol(cudaFunction_t *F, const void *Stub) {
  if (noDevice())
    return fail(cudaErrorNoDevice);
  if (!kernels().count(Stub))
    return fail(cudaErrorInvalidDeviceFunction);
  *F = reinterpret_cast<cudaFunction_t>(const_cast<void *>(Stub));
  return cudaSuccess;
}
cudaError_t cudaFuncGetName(const char **Name, const void *Stub) {
  *Name = kernels()[Stub].Name.c_str();
  return cudaSuccess;
}
cudaError_t cudaGetDriverEntryPointByVersion(
    const char *Symbol, void **Fn, unsigned int, unsigned long long,
    cudaDriverEntryPointQueryResult *Q) {
  *Q = cudaDriverEntryPointSuccess;
  if (!std::strcmp(Symbol, "cuFuncGetModule"))
    *Fn = reinterpret_cast<void *>(fakeFuncGetModule);
  else if (!std::strcmp(Symbol, "cuModuleGetGlobal"))
    *Fn = reinterpret_cast<void *>(fakeModuleGetGlobal);
  else
    *Q = cudaDriverEntryPointSymbolNotFound;
  return cudaSuccess;
}
cudaError_t cudaMemcpy(void *D, const void *S, size_t N, cudaMemcpyKind) {
  std::memcpy(D, S, N);
  return cudaSuccess;
}
cudaError_t cudaMemcpyAsync(void *D, const void *S, size_t N, cudaMemcpyKind,
                            cudaStream_t) {
  std::memcpy(D, S, N);
  return cudaSuccess;
}
cudaError_t cudaMemsetAsync(void *D, int V, size_t N, cudaStream_t) {
  std::memset(D, V, N);
  return cudaSuccess;
}
cudaError_t cudaMallocHost(void **P, size_t N) {
  *P = std::malloc(N);
  return cudaSuccess;
}
cudaError_t cudaEventCreate(cudaEvent_t *E) {
  *E = reinterpret_cast<cudaEvent_t>(new double(0));
  return cudaSuccess;
}
cudaError_t cudaEventRecord(cudaEvent_t E, cudaStream_t) {
  *reinterpret_cast<double *>(E) = Clock;
  return cudaSuccess;
}
cudaError_t cudaEventSynchronize(cudaEvent_t) { return cudaSuccess; }
cudaError_t cudaStreamWaitEvent(cudaStream_t, cudaEvent_t, unsigned int) {
  return cudaSuccess;
}
cudaError_t cudaEventElapsedTime(float *Ms, cudaEvent_t A, cudaEvent_t B) {
  *Ms = float(*reinterpret_cast<double *>(B) - *reinterpret_cast<double *>(A));
  return cudaSuccess;
}
static cudaError_t run(const void *Stub, dim3 G, dim3 B, void **Args) {
  if (noDevice())
    return fail(cudaErrorNoDevice);
  auto It = kernels().find(Stub);
  if (It == kernels().end())
    return fail(cudaErrorInvalidDeviceFunction);
  It->second.Body(G, B, Args);
  Clock += 1.0; // every launch takes 1 ms
  return cudaSuccess;
}
cudaError_t cudaStreamIsCapturing(cudaStream_t, cudaStreamCaptureStatus *S) {
  const char *E = std::getenv("FAKE_CUDA_CAPTURING");
  *S = E && *E == '1' ? cudaStreamCaptureStatusActive
                      : cudaStreamCaptureStatusNone;
  return cudaSuccess;
}
cudaError_t cudaLaunchKernel(const void *Stub, dim3 G, dim3 B, void **Args,
                             size_t, cudaStream_t) {
  return run(Stub, G, B, Args);
}
cudaError_t cudaLaunchKernel_ptsz(const void *Stub, dim3 G, dim3 B,
                                  void **Args, size_t, cudaStream_t) {
  return run(Stub, G, B, Args);
}
}
