// Tensor cores through nvcuda::wmma: 2*M*N*K FLOPs per warp-wide MMA.
// REQUIRES: cuda
// RUN: %cuda_device -O2 -g -c %s -o /dev/null -Rpass-analysis=roofline 2>&1 | FileCheck %s
#include <mma.h>
using namespace nvcuda;

// Per warp and k-step: one m16n16k16 MMA = 2*16*16*16 = 8192 FLOPs, i.e.
// 256 per thread; the A and B fragments are 16x16 halves each (512 B per
// warp, 16 B per thread each). The loop runs ceil(K/16) =
// floor((K - 1)/16) + 1 times; the f32 accumulator store is 16x16x4 B =
// 1024 B per warp, 32 B per thread.
// CHECK: remark: wmma_gemm(__half const*, __half const*, float*, int): 256*floor((K - 1)/16) + 256 FLOP fp16 (exact), load 32*floor((K - 1)/16) + 32 B, store 32 B, I -> 8 FLOP/B for large sizes, per thread
__global__ void wmma_gemm(const half *a, const half *b, float *c, int K) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  for (int k = 0; k < K; k += 16) {
    wmma::load_matrix_sync(fa, a + k, K);
    wmma::load_matrix_sync(fb, b + k, K);
    wmma::mma_sync(fc, fa, fb, fc);
  }
  wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}
