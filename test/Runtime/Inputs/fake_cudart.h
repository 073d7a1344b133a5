// The fake CUDA runtime's test hooks (see fake_cudart.cpp).
#include <cuda.h>
#include <cuda_runtime_api.h>

using FakeBody = void (*)(dim3 Grid, dim3 Block, void **Args);
/// A kernel: its host stub (the launch handle), mangled name, and body.
void fakeKernel(const void *Stub, const char *Name, FakeBody Body);
/// A device global the driver finds by name.
void fakeGlobal(const char *Name, void *P, size_t Bytes);
