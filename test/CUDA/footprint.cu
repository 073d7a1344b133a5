// Per-launch footprints of CUDA kernels, over the whole grid, derived by
// hand; -O2 and -O0 agree.
// REQUIRES: cuda
// RUN: %cuda_device -O2 -g -c %s -o /dev/null -Rpass-analysis=roofline 2>&1 | FileCheck %s
// RUN: %cuda_device -O0 -g -c %s -o /dev/null -Rpass-analysis=roofline 2>&1 | FileCheck %s

// One thread per output of C = A*B, guarded by row < M && col < N: the
// threads that pass cover the M x N outputs; thread (row, col) reads row
// `row` of A and column `col` of B. A: M*K floats, B: K*N, C: M*N written.
// CHECK: remark: gemm(int, int, int, float const*, float const*, float*): {{.*}}; footprint per launch: read 4*M*K + 4*N*K B, written 4*M*N B (exact if gridDim.y*blockDim.y >= M; gridDim.x*blockDim.x >= N)
__global__ void gemm(int M, int N, int K, const float *A, const float *B,
                     float *C) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < M && col < N) {
    float s = 0;
    for (int k = 0; k < K; ++k)
      s += A[row * K + k] * B[k * N + col];
    C[row * N + col] = s;
  }
}

// A grid-stride loop: thread g visits g, g + T, g + 2T, ... below n (T the
// threads of the launch); together they visit each i < n once: 4n read,
// 4n written, whatever the launch.
// CHECK: remark: scale(int, float const*, float*): {{.*}}; footprint per launch: read 4*n B, written 4*n B (exact)
__global__ void scale(int n, const float *x, float *y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = 2 * x[i];
}

// No guard: every thread of the launch touches its own element:
// 4*gridDim.x*blockDim.x each way.
// CHECK: remark: copy(float const*, float*): {{.*}}; footprint per launch: read 4*blockDim.x*gridDim.x B, written 4*blockDim.x*gridDim.x B (exact)
__global__ void copy(const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = x[i];
}

// A block sum through shared memory: x is read once per thread of the
// guarded grid (4n); out[blockIdx.x] is written by thread 0 only, a branch
// that singles out threads: at most gridDim.x floats, at least none.
// Shared memory is not DRAM traffic.
// CHECK: remark: block_sum(int, float const*, float*): {{.*}}; footprint per launch: read 4*n B, written 0 to 4*gridDim.x B (bounds)
__global__ void block_sum(int n, const float *x, float *out) {
  __shared__ float buf[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  buf[threadIdx.x] = i < n ? x[i] : 0;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    if (threadIdx.x < s)
      buf[threadIdx.x] += buf[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    out[blockIdx.x] = buf[0];
}

// An interior stencil guarded by 0 < i < n - 1: threads 1..n-2 pass (the
// launch must hold threads 0..n-2: n - 1 of them); they read in[0..n-1]
// (4n B) and write out[1..n-2] (4n - 8 B). The guard's own range
// conditions (i <= 2^31 - 1) bound nothing: the footprint once counted
// 2^31 threads from them (8589934600 B). At n = 2 no thread passes and
// nothing is read: the union's 4n holds for n >= 3.
// CHECK: remark: interior(int, float const*, float*): {{.*}}; footprint per launch: read 4*n B, written 4*n - 8 B (exact if n - 3 >= 0 for in; gridDim.x*blockDim.x >= n - 1)
__global__ void interior(int n, const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1)
    out[i] = 0.25f * in[i - 1] + 0.5f * in[i] + 0.25f * in[i + 1];
}

// llm.c's token + position embedding: thread idx writes element idx of
// out; its row bt = idx / C indexes the tokens. The element index splits
// into the digits of its rows (LaunchFootprint.cpp's splitRows): bt =
// T*b + t over B*T rows (the guard idx < B*T*C is B*T*C divided by C*T:
// B blocks of T rows), c over a row. inp's b*T + t is bt: 4*B*T B. wpe's
// t*C + c covers T rows once: 4*T*C B. out's b*T*C + t*C + c is idx:
// 4*B*T*C written. wte's rows come through a loaded token: 0 to its
// counted bytes, 4 B a thread.
// CHECK: remark: encoder(float*, int const*, float const*, float const*, int, int, int): {{.*}}; footprint per launch: read 4*B*T + 4*T*C to 4*blockDim.x*blockDim.y*blockDim.z*gridDim.x*gridDim.y*gridDim.z + 4*B*T + 4*T*C B, written 4*B*T*C B (bounds)
__global__ void encoder(float *out, const int *inp, const float *wte,
                        const float *wpe, int B, int T, int C) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  int N = B * T * C;
  if (idx < N) {
    int bt = idx / C;
    int b = bt / T;
    int t = bt % T;
    int c = idx % C;
    int ix = inp[b * T + t];
    out[b * T * C + t * C + c] = wte[ix * C + c] + wpe[t * C + c];
  }
}
