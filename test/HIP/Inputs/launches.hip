// test/CUDA/Inputs/launches.cu for HIP (scripts/gpu-check.sh's AMD path):
// the same kernels but hfma (ROCm 5.2's hip_fp16.h does not build with
// clang-22), the same launches, the same counts
// (test/CUDA/Inputs/check_launches.py --device hip).
//
//   launches          the counting run (prints what it did)
//   launches --time   kernel times (median of 21 launches, HIP events)
#include <hip/hip_runtime.h>

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

static bool check(hipError_t E, const char *What) {
  if (E == hipSuccess)
    return true;
  std::printf("%s: %s\n", What, hipGetErrorString(E));
  return false;
}

struct Buffers {
  float *X = nullptr, *Y = nullptr, *Partial = nullptr;
  double *A = nullptr, *Sums = nullptr;
};

static void launchBlocksum(Buffers &B, hipStream_t S) {
  // Direct hipLaunchKernel, Block floats of dynamic shared memory.
  void *Args[] = {&B.X, &B.Partial};
  check(hipLaunchKernel((const void *)blocksum, dim3(N / Block), dim3(Block),
                         Args, Block * sizeof(float), S),
        "blocksum");
}

static float timeOne(const char *Name, void (*Launch)(Buffers &), Buffers &B) {
  hipEvent_t E0, E1;
  (void)hipEventCreate(&E0);
  (void)hipEventCreate(&E1);
  std::vector<float> Ms;
  for (int I = 0; I < 22; ++I) {
    (void)hipEventRecord(E0);
    Launch(B);
    (void)hipEventRecord(E1);
    (void)hipEventSynchronize(E1);
    float T = 0;
    (void)hipEventElapsedTime(&T, E0, E1);
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
  bool Ok = check(hipMalloc(&B.X, N * sizeof(float)), "hipMalloc") &&
            check(hipMalloc(&B.Y, N * sizeof(float)), "hipMalloc") &&
            check(hipMalloc(&B.Partial, N / Block * sizeof(float)), "hipMalloc") &&
            check(hipMalloc(&B.A, size_t(Rows) * Cols * sizeof(double)), "hipMalloc") &&
            check(hipMalloc(&B.Sums, Rows * sizeof(double)), "hipMalloc");
  if (Ok) {
    (void)hipMemset(B.X, 0, N * sizeof(float));
    (void)hipMemset(B.Y, 0, N * sizeof(float));
    (void)hipMemset(B.A, 0, size_t(Rows) * Cols * sizeof(double));
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
    return 0;
  }
  // The counting run: 10 rounds of saxpy on stream 1 and rowsum on stream
  // 2, then blocksum (direct launch) on the default stream.
  hipStream_t S1 = nullptr, S2 = nullptr;
  (void)hipStreamCreate(&S1);
  (void)hipStreamCreate(&S2);
  for (int Round = 0; Round < 10; ++Round) {
    saxpy<<<N / Block, Block, 0, S1>>>(N, 2.0f, B.X, B.Y);
    check(hipGetLastError(), "saxpy");
    rowsum<<<Rows / 128, 128, 0, S2>>>(Rows, Cols, B.A, B.Sums);
    check(hipGetLastError(), "rowsum");
  }
  launchBlocksum(B, 0);
  check(hipDeviceSynchronize(), "hipDeviceSynchronize");
  std::printf("done\n");
  return 0;
}
