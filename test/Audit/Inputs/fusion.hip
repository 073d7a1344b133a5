// Host functions launching counted HIP kernels, for roofline-audit's tests
// (test/Audit/hip.test derives every figure by hand).
#include <hip/hip_runtime.h>

__global__ void mul(int n, const float *x, const float *y, float *a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] = x[i] * y[i];
}

__global__ void add(int n, const float *a, const float *z, float *b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    b[i] = a[i] + z[i];
}

__global__ void relu(int n, const float *b, float *c) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = b[i] > 0.0f ? b[i] : 0.0f;
}

// a = x*y; b = a + z; c = relu(b), launched as HIP spells it.
void chain(int n, const float *x, const float *y, const float *z, float *c) {
  float *a, *b;
  hipMalloc(&a, n * sizeof(float));
  hipMalloc(&b, n * sizeof(float));
  hipLaunchKernelGGL(mul, dim3((n + 255) / 256), dim3(256), 0, 0, n, x, y, a);
  hipLaunchKernelGGL(add, dim3((n + 255) / 256), dim3(256), 0, 0, n, a, z, b);
  relu<<<(n + 255) / 256, 256>>>(n, b, c);
  hipFree(a);
  hipFree(b);
}

// The host waits for mul before launching add.
void synced(int n, const float *x, const float *y, const float *z, float *b) {
  float *a;
  hipMalloc(&a, n * sizeof(float));
  hipLaunchKernelGGL(mul, dim3((n + 255) / 256), dim3(256), 0, 0, n, x, y, a);
  hipDeviceSynchronize();
  hipLaunchKernelGGL(add, dim3((n + 255) / 256), dim3(256), 0, 0, n, a, z, b);
  hipFree(a);
}
