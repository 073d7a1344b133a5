// A CUDA program for the launch shim: four kernels, a loop of launches on
// two streams, <<<...>>> and a direct cudaLaunchKernel, dynamic shared
// memory. The counts each launch must give are derived in
// test/CUDA/Inputs/check_launches.py.
//
//   launches          the counting run (prints what it did)
//   launches --time   kernel times (median of 21 launches, CUDA events)
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

constexpr int N = 1 << 20;      // elements
constexpr int Rows = 4096, Cols = 256;
constexpr int Block = 256;

__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

__global__ void rowsum(int rows, int cols, const double *a, double *out) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  double s = 0;
  for (int c = 0; c < cols; ++c)
    s += a[size_t(r) * cols + c];
  out[r] = s;
}

// One partial sum per block, in dynamic shared memory (blockDim.x floats).
__global__ void blocksum(const float *in, float *out) {
  extern __shared__ float sh[];
  unsigned t = threadIdx.x;
  sh[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s)
      sh[t] += sh[t + s];
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = sh[0];
}

__global__ void hfma(int n, const __half2 *a, const __half2 *b, __half2 *c) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = __hfma2(a[i], b[i], c[i]);
}

static bool check(cudaError_t E, const char *What) {
  if (E == cudaSuccess)
    return true;
  std::printf("%s: %s\n", What, cudaGetErrorString(E));
  return false;
}

struct Buffers {
  float *X = nullptr, *Y = nullptr, *Partial = nullptr;
  double *A = nullptr, *Sums = nullptr;
  __half2 *H1 = nullptr, *H2 = nullptr, *H3 = nullptr;
};

static void launchBlocksum(Buffers &B, cudaStream_t S) {
  // Direct cudaLaunchKernel, Block floats of dynamic shared memory.
  void *Args[] = {&B.X, &B.Partial};
  check(cudaLaunchKernel((const void *)blocksum, dim3(N / Block), dim3(Block),
                         Args, Block * sizeof(float), S),
        "blocksum");
}

static float timeOne(const char *Name, void (*Launch)(Buffers &), Buffers &B) {
  cudaEvent_t E0, E1;
  cudaEventCreate(&E0);
  cudaEventCreate(&E1);
  std::vector<float> Ms;
  for (int I = 0; I < 22; ++I) {
    cudaEventRecord(E0);
    Launch(B);
    cudaEventRecord(E1);
    cudaEventSynchronize(E1);
    float T = 0;
    cudaEventElapsedTime(&T, E0, E1);
    if (I)
      Ms.push_back(T); // the first launch warms up
  }
  std::sort(Ms.begin(), Ms.end());
  std::printf("time %s %.6f ms\n", Name, Ms[Ms.size() / 2]);
  return Ms[Ms.size() / 2];
}

int main(int argc, char **argv) {
  bool Time = argc > 1 && !std::strcmp(argv[1], "--time");
  Buffers B;
  bool Ok = check(cudaMalloc(&B.X, N * sizeof(float)), "cudaMalloc") &&
            check(cudaMalloc(&B.Y, N * sizeof(float)), "cudaMalloc") &&
            check(cudaMalloc(&B.Partial, N / Block * sizeof(float)), "cudaMalloc") &&
            check(cudaMalloc(&B.A, size_t(Rows) * Cols * sizeof(double)), "cudaMalloc") &&
            check(cudaMalloc(&B.Sums, Rows * sizeof(double)), "cudaMalloc") &&
            check(cudaMalloc(&B.H1, N / 2 * sizeof(__half2)), "cudaMalloc") &&
            check(cudaMalloc(&B.H2, N / 2 * sizeof(__half2)), "cudaMalloc") &&
            check(cudaMalloc(&B.H3, N / 2 * sizeof(__half2)), "cudaMalloc");
  if (Ok) {
    cudaMemset(B.X, 0, N * sizeof(float));
    cudaMemset(B.Y, 0, N * sizeof(float));
    cudaMemset(B.A, 0, size_t(Rows) * Cols * sizeof(double));
    cudaMemset(B.H1, 0, N / 2 * sizeof(__half2));
    cudaMemset(B.H2, 0, N / 2 * sizeof(__half2));
    cudaMemset(B.H3, 0, N / 2 * sizeof(__half2));
  }
  if (Time) {
    if (!Ok)
      return 1;
    timeOne("saxpy", [](Buffers &B) {
      saxpy<<<N / Block, Block>>>(N, 2.0f, B.X, B.Y);
    }, B);
    timeOne("rowsum", [](Buffers &B) {
      rowsum<<<Rows / 128, 128>>>(Rows, Cols, B.A, B.Sums);
    }, B);
    timeOne("blocksum", [](Buffers &B) { launchBlocksum(B, 0); }, B);
    timeOne("hfma", [](Buffers &B) {
      hfma<<<N / 2 / Block, Block>>>(N / 2, B.H1, B.H2, B.H3);
    }, B);
    return 0;
  }
  // The counting run: 10 rounds of saxpy on stream 1 and rowsum on stream
  // 2, then blocksum (direct launch) and hfma on the default stream.
  cudaStream_t S1 = nullptr, S2 = nullptr;
  cudaStreamCreate(&S1);
  cudaStreamCreate(&S2);
  for (int Round = 0; Round < 10; ++Round) {
    saxpy<<<N / Block, Block, 0, S1>>>(N, 2.0f, B.X, B.Y);
    check(cudaGetLastError(), "saxpy");
    rowsum<<<Rows / 128, 128, 0, S2>>>(Rows, Cols, B.A, B.Sums);
    check(cudaGetLastError(), "rowsum");
  }
  launchBlocksum(B, 0);
  hfma<<<N / 2 / Block, Block>>>(N / 2, B.H1, B.H2, B.H3);
  check(cudaGetLastError(), "hfma");
  check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  std::printf("done\n");
  return 0;
}
