// Half precision through cuda_fp16.h: __hfma2 and __hadd2 are inline PTX,
// counted from the asm text; __half2float conversions cost nothing.
// REQUIRES: cuda
// RUN: %cuda_device -O2 -g -c %s -o /dev/null -Rpass-analysis=roofline 2>&1 | FileCheck %s
#include <cuda_fp16.h>

// Per thread: __hfma2 = 2 half FMAs (4 FLOPs), __hadd2 = 2 half adds
// (2 FLOPs): 6 FLOPs. Loads a[i], b[i], c[i] (3 x 4 B), stores c[i] (4 B).
// CHECK: remark: hfma2(int, __half2 const*, __half2 const*, __half2*): 6 FLOP fp16 (exact), load 12 B, store 4 B, I = 0.375 FLOP/B, per thread
__global__ void hfma2(int n, const __half2 *a, const __half2 *b, __half2 *c) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = __hadd2(__hfma2(a[i], b[i], c[i]), a[i]);
}
