// A stand-in for the HIP runtime, for testing the HIP launch shim
// (libroofline_rt_hip) on a machine without an AMD GPU: "device memory" is
// host memory, streams run at once, each event is a fake clock 1 ms apart,
// and a kernel is a host function that adds what the instrumented device
// code would to its counter buffer. Variables are found as ROCm finds them:
// __hipRegisterVar ties a host variable to a device name, and
// hipGetSymbolAddress looks that name up in the code object (here, the
// names the test gave fakeGlobal). FAKE_HIP_NO_DEVICE=1 behaves like a
// machine without a GPU; FAKE_HIP_CAPTURING=1 like streams capturing a graph.
#include "fake_hip.h"

#include <cstdlib>
#include <cstring>
#include <map>
#include <string>

namespace {
std::map<const void *, FakeBody> &kernels() {
  static std::map<const void *, FakeBody> K;
  return K;
}
std::map<std::string, std::pair<void *, size_t>> &globals() {
  static std::map<std::string, std::pair<void *, size_t>> G;
  return G;
}
std::map<const void *, std::string> &registeredVars() {
  static std::map<const void *, std::string> V;
  return V;
}
hipError_t LastError = hipSuccess;
double Clock = 0; // ms
int Module = 0;   // the one code object's handle points here
bool flag(const char *Name) {
  const char *E = std::getenv(Name);
  return E && *E == '1';
}
hipError_t fail(hipError_t E) { return LastError = E; }
/// The code object's variable behind host variable \p Var.
const std::pair<void *, size_t> *variable(const void *Var) {
  auto R = registeredVars().find(Var);
  if (R == registeredVars().end())
    return nullptr;
  auto G = globals().find(R->second);
  return G == globals().end() ? nullptr : &G->second;
}
} // namespace

void fakeKernel(const void *Handle, FakeBody Body) { kernels()[Handle] = Body; }
void fakeGlobal(const char *Name, void *P, size_t Bytes) {
  globals()[Name] = {P, Bytes};
}

extern "C" {
void **__hipRegisterFatBinary(const void *) {
  static void *Handle = &Module;
  return &Handle;
}
int __hipRegisterFunction(void **, const void *, char *, const char *,
                          unsigned, void *, void *, void *, void *, int *) {
  return 0;
}
void __hipUnregisterFatBinary(void **) {}
// The <<<...>>> configuration: pushed by the caller, popped by the stub.
dim3 PushedGrid, PushedBlock;
size_t PushedShared = 0;
hipStream_t PushedStream = nullptr;
hipError_t __hipPushCallConfiguration(dim3 G, dim3 B, size_t Shared,
                                      hipStream_t S) {
  PushedGrid = G, PushedBlock = B, PushedShared = Shared, PushedStream = S;
  return hipSuccess;
}
hipError_t __hipPopCallConfiguration(dim3 *G, dim3 *B, size_t *Shared,
                                     hipStream_t *S) {
  *G = PushedGrid, *B = PushedBlock, *Shared = PushedShared, *S = PushedStream;
  return hipSuccess;
}
void __hipRegisterVar(void **M, void *Var, char *, char *DeviceName, int,
                      size_t, int, int) {
  if (M && *M == &Module)
    registeredVars()[Var] = DeviceName;
}
hipError_t hipGetLastError(void) {
  hipError_t E = LastError;
  LastError = hipSuccess;
  return E;
}
const char *hipGetErrorString(hipError_t E) {
  return E == hipErrorNoDevice ? "no ROCm-capable device is detected"
                               : "fake error";
}
hipError_t hipGetSymbolAddress(void **P, const void *Var) {
  if (flag("FAKE_HIP_NO_DEVICE"))
    return fail(hipErrorNoDevice);
  const std::pair<void *, size_t> *V = variable(Var);
  if (!V)
    return fail(hipErrorInvalidSymbol);
  *P = V->first;
  return hipSuccess;
}
hipError_t hipGetSymbolSize(size_t *Bytes, const void *Var) {
  const std::pair<void *, size_t> *V = variable(Var);
  if (!V)
    return fail(hipErrorInvalidSymbol);
  *Bytes = V->second;
  return hipSuccess;
}
hipError_t hipMemcpy(void *D, const void *S, size_t N, hipMemcpyKind) {
  std::memcpy(D, S, N);
  return hipSuccess;
}
hipError_t hipMemcpyAsync(void *D, const void *S, size_t N, hipMemcpyKind,
                          hipStream_t) {
  std::memcpy(D, S, N);
  return hipSuccess;
}
hipError_t hipMemsetAsync(void *D, int V, size_t N, hipStream_t) {
  std::memset(D, V, N);
  return hipSuccess;
}
hipError_t hipHostMalloc(void **P, size_t N, unsigned) {
  *P = std::malloc(N);
  return hipSuccess;
}
hipError_t hipEventCreate(hipEvent_t *E) {
  *E = reinterpret_cast<hipEvent_t>(new double(0));
  return hipSuccess;
}
hipError_t hipEventRecord(hipEvent_t E, hipStream_t) {
  *reinterpret_cast<double *>(E) = Clock;
  return hipSuccess;
}
hipError_t hipEventSynchronize(hipEvent_t) { return hipSuccess; }
hipError_t hipStreamWaitEvent(hipStream_t, hipEvent_t, unsigned int) {
  return hipSuccess;
}
hipError_t hipEventElapsedTime(float *Ms, hipEvent_t A, hipEvent_t B) {
  *Ms = float(*reinterpret_cast<double *>(B) - *reinterpret_cast<double *>(A));
  return hipSuccess;
}
hipError_t hipStreamIsCapturing(hipStream_t, hipStreamCaptureStatus *S) {
  *S = flag("FAKE_HIP_CAPTURING") ? hipStreamCaptureStatusActive
                                  : hipStreamCaptureStatusNone;
  return hipSuccess;
}
hipError_t hipLaunchKernel(const void *Handle, dim3 G, dim3 B, void **Args,
                           size_t, hipStream_t) {
  if (flag("FAKE_HIP_NO_DEVICE"))
    return fail(hipErrorNoDevice);
  auto It = kernels().find(Handle);
  if (It == kernels().end())
    return fail(hipErrorInvalidDeviceFunction);
  It->second(G, B, Args);
  Clock += 1.0; // every launch takes 1 ms
  return hipSuccess;
}
}
