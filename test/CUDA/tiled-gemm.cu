// A shared-memory tiled SGEMM: global and shared bytes are kept apart; -O0
// gives the same counts (no arithmetic is removed by optimisation here).
// REQUIRES: cuda
// RUN: %cuda_device -O2 -g -c %s -o /dev/null -Rpass-analysis=roofline 2>&1 | FileCheck %s
// RUN: %cuda_device -O0 -g -c %s -o /dev/null -Rpass-analysis=roofline 2>&1 | FileCheck %s
// RUN: %cuda_device -O2 -g -S -emit-llvm %s -o - | %opt_roofline -passes='print<roofline>' -disable-output | FileCheck %s --check-prefix=PRINT

#define TILE 16
// Per thread and tile step (K/TILE steps, floor(K/16)):
//   global: one A and one B element loaded (8 B); shared: both stored (8 B);
//   inner product over the tile (fully unrolled): 16 contracted
//   multiply-adds = 16 FMA = 32 FLOPs, reading 16 + 16 shared floats (128 B).
// After the loop, one 4-B global store of C.
// FLOPs 32*floor(K/16); global load 8*floor(K/16), store 4;
// shared load 128*floor(K/16), store 8*floor(K/16). I -> 32/8 = 4 on DRAM.
// CHECK: remark: sgemm_tiled(int, int, int, float const*, float const*, float*): 32*floor(K/16) FLOP fp32 (exact), load 8*floor(K/16) B, store 4 B, I -> 4 FLOP/B for large sizes, per thread
// PRINT: kernel sgemm_tiled(int, int, int, float const*, float const*, float*) [cuda-kernel, per thread]
// PRINT: fp32 ops: fma 16*floor(K/16);
// PRINT: global: load 8*floor(K/16), store 4
// PRINT-NEXT: shared: load 128*floor(K/16), store 8*floor(K/16)
// PRINT: assumes: K > 15 (guard at tiled-gemm.cu:[[@LINE+7]])
// PRINT-NEXT: assumes: floor(K/16) - 1 >= 0 (loop at tiled-gemm.cu:[[@LINE+6]])
__global__ void sgemm_tiled(int M, int N, int K, const float *A, const float *B, float *C) {
  __shared__ float As[TILE][TILE], Bs[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0;
  for (int t = 0; t < K / TILE; ++t) {
    As[threadIdx.y][threadIdx.x] = A[row * K + t * TILE + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[(t * TILE + threadIdx.y) * N + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  C[row * N + col] = acc;
}
