// Host functions launching counted CUDA kernels, for roofline-audit's tests
// (test/Audit/cuda.test derives every figure by hand).
#include <cuda_runtime.h>

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

__global__ void scale(int n, float s, const float *a, float *d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] = s * a[i];
}

__global__ void gemm(int M, int N, int K, const float *A, const float *B,
                     float *C) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < M && col < N) {
    float s = 0.0f;
    for (int k = 0; k < K; ++k)
      s += A[row * K + k] * B[k * N + col];
    C[row * N + col] = s;
  }
}

__global__ void bias_relu(int M, int N, const float *C, const float *bias,
                          float *D) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < M && col < N) {
    float v = C[row * N + col] + bias[col];
    D[row * N + col] = v > 0.0f ? v : 0.0f;
  }
}

// a = x*y; b = a + z; c = relu(b): a and b need not leave the chip.
void chain(int n, const float *x, const float *y, const float *z, float *c) {
  float *a, *b;
  cudaMalloc(&a, n * sizeof(float));
  cudaMalloc(&b, n * sizeof(float));
  mul<<<(n + 255) / 256, 256>>>(n, x, y, a);
  add<<<(n + 255) / 256, 256>>>(n, a, z, b);
  relu<<<(n + 255) / 256, 256>>>(n, b, c);
  cudaFree(a);
  cudaFree(b);
}

// GEMM then bias + ReLU on its output, on the same 16x16 tiles: the
// epilogue can be fused.
void dense(int M, int N, int K, const float *A, const float *B,
           const float *bias, float *D) {
  float *C;
  cudaMalloc(&C, M * N * sizeof(float));
  dim3 block(16, 16);
  dim3 grid((N + 15) / 16, (M + 15) / 16);
  gemm<<<grid, block>>>(M, N, K, A, B, C);
  bias_relu<<<grid, block>>>(M, N, C, bias, D);
  cudaFree(C);
}

// a is read again by scale after add: it must still be written.
void reused(int n, const float *x, const float *y, const float *z, float *b,
            float *d) {
  float *a;
  cudaMalloc(&a, n * sizeof(float));
  mul<<<(n + 255) / 256, 256>>>(n, x, y, a);
  add<<<(n + 255) / 256, 256>>>(n, a, z, b);
  scale<<<(n + 255) / 256, 256>>>(n, 2.0f, a, d);
  cudaFree(a);
}

// The host waits for mul before launching add.
void synced(int n, const float *x, const float *y, const float *z, float *b) {
  float *a;
  cudaMalloc(&a, n * sizeof(float));
  mul<<<(n + 255) / 256, 256>>>(n, x, y, a);
  cudaDeviceSynchronize();
  add<<<(n + 255) / 256, 256>>>(n, a, z, b);
  cudaFree(a);
}

// Blocks of 256 threads, then of 128: the thread mappings differ.
void reshaped(int n, const float *x, const float *y, const float *z,
              float *b) {
  float *a;
  cudaMalloc(&a, n * sizeof(float));
  mul<<<(n + 255) / 256, 256>>>(n, x, y, a);
  add<<<(n + 127) / 128, 128>>>(n, a, z, b);
  cudaFree(a);
}

// The chain's first pair through cudaLaunchKernel.
void launched(int n, const float *x, const float *y, const float *z,
              float *b) {
  float *a;
  cudaMalloc(&a, n * sizeof(float));
  void *mulArgs[] = {&n, &x, &y, &a};
  cudaLaunchKernel((const void *)mul, dim3((n + 255) / 256), dim3(256),
                   mulArgs, 0, nullptr);
  void *addArgs[] = {&n, &a, &z, &b};
  cudaLaunchKernel((const void *)add, dim3((n + 255) / 256), dim3(256),
                   addArgs, 0, nullptr);
  cudaFree(a);
}

// The launch shape in locals assigned once (not const): b and g stand for
// their values, so the saving is t's footprint, 8n, whatever the block size.
void locals(int n, const float *x, const float *y, const float *c, float *u) {
  float *t;
  cudaMalloc(&t, n * sizeof(float));
  int b = 256, g = (n + b - 1) / b;
  mul<<<g, b>>>(n, x, y, t);
  add<<<g, b>>>(n, t, c, u);
  cudaFree(t);
}
