// The fake HIP runtime's test hooks (see fake_hip.cpp).
#include <hip/hip_runtime_api.h>

using FakeBody = void (*)(dim3 Grid, dim3 Block, void **Args);
/// A kernel: its host handle (what hipLaunchKernel is given) and body.
void fakeKernel(const void *Handle, FakeBody Body);
/// A variable of the fake code object, found by its device name once the
/// program has registered a host variable for it (__hipRegisterVar).
void fakeGlobal(const char *Name, void *P, size_t Bytes);

// What clang's HIP host code calls to register a code object's kernels.
extern "C" void **__hipRegisterFatBinary(const void *Data);
extern "C" int __hipRegisterFunction(void **Module, const void *Handle,
                                     char *HostName, const char *DeviceName,
                                     unsigned ThreadLimit, void *, void *,
                                     void *, void *, int *);
