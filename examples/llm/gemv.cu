// The decode step's projections as a CUDA kernel: y (N x Dout) = x (N x Din)
// W^T with fp16 weights and activations, one thread per output row (the
// natural GEMV mapping), for comparison with llm.cpp's linear<_Float16>.
// Analysed statically (no GPU needed): the plugin's counts are per thread;
// a projection's launch is Dout threads (--assume threads=Dout).
//
// USAGE: scripts/examples.sh llm-cuda
//   clang++-22 -x cuda --cuda-path=/usr/local/cuda --cuda-gpu-arch=sm_90 \
//     -Wno-unknown-cuda-version --cuda-device-only -O2 -g \
//     -fpass-plugin=build/lib/RooflinePass.so -mllvm -roofline-json=gemv.json \
//     -c examples/llm/gemv.cu -o /dev/null
//
// Thread o streams row o of W once and keeps the NB tokens' sums in
// registers, so across the launch every weight is read once, as in llm.cpp;
// but every thread reads all NB rows of x from global memory (llm.cpp copies
// them on chip once), so x's bytes are Dout times larger. The FMAs are fp16
// (__hfma, inline PTX fma.rn.f16), as llm.cpp's _Float16 arithmetic.
#include <cuda_fp16.h>

template <int NB>
__device__ void gemv(int Din, int Dout, const __half *x, const __half *W,
                     __half *y) {
  int o = blockIdx.x * blockDim.x + threadIdx.x;
  if (o < Dout) {
    __half acc[NB];
#pragma unroll
    for (int t = 0; t < NB; ++t)
      acc[t] = __float2half(0.0f);
    for (int i = 0; i < Din; ++i) {
      __half w = W[o * Din + i];
#pragma unroll
      for (int t = 0; t < NB; ++t)
        acc[t] = __hfma(w, x[t * Din + i], acc[t]);
    }
#pragma unroll
    for (int t = 0; t < NB; ++t)
      y[t * Dout + o] = acc[t];
  }
}

// Decode at batch 1 (one token) and batch 8 (eight sequences' tokens).
__global__ void gemv_fp16_b1(int Din, int Dout, const __half *x,
                             const __half *W, __half *y) {
  gemv<1>(Din, Dout, x, W, y);
}
__global__ void gemv_fp16_b8(int Din, int Dout, const __half *x,
                             const __half *W, __half *y) {
  gemv<8>(Din, Dout, x, W, y);
}
