// HIP device code (amdgcn) counted as CUDA's is: per-thread formulas in
// threadIdx, blockIdx, blockDim and gridDim as HIP spells them (AMDGPU
// reads the indices from intrinsics and the dimensions from the dispatch
// packet: DeviceCode.h), index guards, grid-stride loops, bytes by address
// space (global, LDS), footprints per launch; placed on mi250x and mi300x.
// REQUIRES: hip
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hip_device --offload-arch=gfx90a -O2 -g %s -Rpass-analysis=roofline -mllvm -roofline-json=%t/ 2>&1 | FileCheck %s
// RUN: %hip_device --offload-arch=gfx90a -O0 -g %s -Rpass-analysis=roofline 2>&1 | FileCheck %s --check-prefix=O0
// RUN: FileCheck %s --check-prefix=JSON --input-file=%t/kernels.hip.amdgcn-amd-amdhsa-gfx90a.roofline.json
// RUN: %roofline_report %t --platform mi250x --assume n=4096,blockDim.x=256,gridDim.x=16,threads=4096 --kernels saxpy | FileCheck %s --check-prefix=MI250X
// RUN: %roofline_report %t --kernels saxpy | FileCheck %s --check-prefix=DEFAULT
#include <hip/hip_runtime.h>

// One thread per element under the guard i < n: 2 FLOPs (an FMA), x[i] and
// y[i] read (8 B), y[i] written (4 B), exact for every thread that passes
// the guard; the launch reads 8n B and writes 4n B once gridDim.x *
// blockDim.x covers n. The index arithmetic is not integer work (intops 0).
// CHECK: remark: saxpy(int, float, float const*, float*): 2 FLOP fp32 (exact), load 8 B, store 4 B, I = 0.1667 FLOP/B, per thread; footprint per launch: read 8*n B, written 4*n B (exact if gridDim.x*blockDim.x >= n)
// -O0 keeps variables in scratch behind flat pointers and reads blockDim.x
// as OpenCL's clamped local size; the analysis copy promotes the one and
// folds the other (uniform work-groups): the same counts as -O2.
// O0: remark: saxpy(int, float, float const*, float*): 2 FLOP fp32 (exact), load 8 B, store 4 B, I = 0.1667 FLOP/B, per thread; footprint per launch: read 8*n B, written 4*n B (exact if gridDim.x*blockDim.x >= n)
// JSON: "display_name": "saxpy(int, float, float const*, float*)"
// JSON: "intops": {
// JSON: "total": 0
// JSON: "kind": "hip-kernel"
// JSON: "name": "_Z5saxpyifPKfPf"
__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

// The stride blockDim.x * gridDim.x is one load on AMDGPU (the dispatch
// packet's grid size in work-items): a thread starting at
// first = blockDim.x*blockIdx.x + threadIdx.x < n runs
// floor((n - first - 1)/stride) + 1 iterations, 1 FLOP, 4 B in and 4 B out
// each; every element is visited once: 4n B read and written per launch.
// CHECK: remark: scale(int, float, float*): floor((-blockDim.x*blockIdx.x + n - threadIdx.x - 1)/(blockDim.x*gridDim.x)) + 1 FLOP fp32 (exact)
// CHECK-SAME: footprint per launch: read 4*n B, written 4*n B (exact)
__global__ void scale(int n, float a, float *x) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    x[i] = a * x[i];
}

// Threads 1..n-2 (i < n - 1): 3 products and 2 sums (2 FMAs and a multiply:
// 5 FLOPs), 12 B read, 4 B written each; the launch reads in[0..n-1] (4n B)
// and writes out[1..n-2] (4n - 8 B); at n = 2 no thread passes and
// nothing is read: the union's 4n holds for n >= 3.
// CHECK: remark: stencil(int, float const*, float*): 5 FLOP fp32 (exact), load 12 B, store 4 B, I = 0.3125 FLOP/B, per thread; footprint per launch: read 4*n B, written 4*n - 8 B (exact if n - 3 >= 0 for in; gridDim.x*blockDim.x >= n - 2)
// O0: remark: stencil(int, float const*, float*): 5 FLOP fp32 (exact), load 12 B, store 4 B, I = 0.3125 FLOP/B, per thread; footprint per launch: read 4*n B, written 4*n - 8 B (exact if {{(n - 3 >= 0 for in; )?}}gridDim.x*blockDim.x >= n - 2)
__global__ void stencil(int n, const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x + 1;
  if (i < n - 1)
    out[i] = 0.25f * in[i - 1] + 0.5f * in[i] + 0.25f * in[i + 1];
}

// A tiled GEMM through LDS (__shared__, address space 3), T = 16: per tile
// (floor(n/16) of them) a thread loads one element of A and one of B from
// global memory (8 B) and stores them to LDS (8 B), then reads 2 x 16
// floats from LDS (128 B) for 16 FMAs (32 FLOPs); it writes C once (4 B).
// __syncthreads (s_barrier and its fences) costs nothing.
// CHECK: remark: gemm_lds(int, float const*, float const*, float*): 32*floor(n/16) FLOP fp32 (exact), load 8*floor(n/16) B, store 4 B
// (At -O0 __syncthreads' `if (flags)` is folded once its argument is known.)
// O0: remark: gemm_lds(int, float const*, float const*, float*): 32*floor(n/16) FLOP fp32 (exact), load 8*floor(n/16) B, store 4 B
// JSON: "display_name": "gemm_lds(int, float const*, float const*, float*)"
// JSON: "bytes_by_space": {
// JSON-NEXT: "global": {
// JSON-NEXT: "load": "8*floor(n/16)",
// JSON-NEXT: "store": "4"
// JSON-NEXT: },
// JSON-NEXT: "shared": {
// JSON-NEXT: "load": "128*floor(n/16)",
// JSON-NEXT: "store": "8*floor(n/16)"
#define T 16
__global__ void gemm_lds(int n, const float *A, const float *B, float *C) {
  __shared__ float As[T][T], Bs[T][T];
  int row = blockIdx.y * T + threadIdx.y, col = blockIdx.x * T + threadIdx.x;
  float acc = 0;
  for (int t = 0; t < n / T; ++t) {
    As[threadIdx.y][threadIdx.x] = A[row * n + t * T + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[(t * T + threadIdx.y) * n + col];
    __syncthreads();
    for (int k = 0; k < T; ++k)
      acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  C[row * n + col] = acc;
}

// On the MI250X (platforms/mi250x.json: 47.9 TFLOP/s fp32 vector,
// 3.2 TB/s), 4096 threads of saxpy at n = 4096: 8192 FLOPs, 48 KiB moved
// (the footprint: 32 KiB read, 16 KiB written), I = 8192/49152 = 0.1667:
// memory-bound at 3.2 TB/s x 0.1667 = 533 GFLOP/s, 49152 B / 3.2 TB/s =
// 15.4 ns.
// MI250X: platform: mi250x
// MI250X: saxpy(int, float, float const*, float*) {{.*}} 8.19 k  49.2 kB 0.167 15 memory (dram)  533 GFLOP/s  15.4 ns
// Without --platform a HIP kernel is placed on the MI300X.
// DEFAULT: platform: mi300x ({{.*}}); the default for GPU kernels

// One thread of each block adds to y[0], then every thread to y[i]: the
// equality threadIdx.x == 0 singles out threads, so no per-thread count
// may assume it either way (the work is 1 FLOP for thread 0 of a block, 2
// for the rest: an estimate). At -O0 HIP's threadIdx.x, its wrappers
// inlined, is a truncation of a widening of the intrinsic: seen through
// all of its casts (a daily difftest-hip seed, 249507, found it assumed).
// RUN: %hip_device --offload-arch=gfx90a -O0 -g %s -Rpass-analysis=roofline 2>&1 | FileCheck %s --check-prefix=SINGLE
// Before: "2 FLOP fp32 (exact) ... threadIdx.x == 0 (guard at ...)".
// SINGLE: remark: firstThread(int, float*): 11/8 FLOP fp32 (estimate), load 11/2 B, store 11/2 B, {{.*}}; branch at kernels.hip:{{[0-9]+}} singles out threads (an equality on the thread index): counts below it are estimates (static branch probabilities)
__global__ void firstThread(int n, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  if (threadIdx.x == 0)
    y[0] += 1.0f;
  y[i] += 2.0f;
}
