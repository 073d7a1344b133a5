// llm.c's bf16 kernels (train_gpt2.cu, floatX = __nv_bfloat16): 128-bit
// loads through __ldcs (inline PTX "ld.global.cs.v4.s32"), stores of the
// packed x128 and, in the scalar kernels, __stcs ("st.global.cs.b16").
// Issue 52: the inline PTX's loads and stores are in the footprint and in
// pointer_params, and the shifts that unpack the bf16 pairs are
// conversions, not integer work.
// REQUIRES: cuda
// RUN: %cuda_device -O2 -g -c %s -o /dev/null -Rpass-analysis=roofline 2>&1 | FileCheck %s
// RUN: %cuda_device -O3 -g -c %s -o /dev/null -Rpass-analysis=roofline 2>&1 | FileCheck %s
// RUN: %cuda_device -O0 -g -c %s -o /dev/null -Rpass-analysis=roofline 2>&1 | FileCheck %s
// The pointers the asm reads through are the kernel's pointer parameters,
// as fusion analysis needs them: inp1 and inp2 read, out written.
// RUN: rm -rf %t && mkdir %t
// RUN: %cuda_device -O2 -g -c %s -o /dev/null -mllvm -roofline-json=%t/
// RUN: python3 -c "import json,glob; [print(k['display_name'].split('(')[0], [(p['name'], p['access']) for p in k['pointer_params']]) for k in json.load(open(glob.glob('%t/*.json')[0]))['kernels']]" | FileCheck %s --check-prefix=PARAMS
// PARAMS: residual_forward_kernel [('out', 'written'), ('inp1', 'read'), ('inp2', 'read')]
// PARAMS: residual_scalar [('out', 'written'), ('inp1', 'read'), ('inp2', 'read')]
#include "Inputs/x128.cuh"


// Each thread adds 8 pairs: 8 fp32 adds. inp1 and inp2 are read 16 B a
// thread by the asm, out written 16 B by a plain store. Over the launch
// (T = gridDim.x*blockDim.x threads, 8 elements each): read 2 x 16T B,
// written 16T B. The 8 shifts that take the high bf16 of each 32-bit
// word are packing: no integer operations.
// CHECK: remark: residual_forward_kernel(__nv_bfloat16*, __nv_bfloat16 const*, __nv_bfloat16 const*): 8 FLOP fp32 (exact), load 32 B, store 16 B, I = 0.1667 FLOP/B, per thread
// CHECK-SAME: footprint per launch: read 32*blockDim.x*gridDim.x B, written 16*blockDim.x*gridDim.x B (exact)
// CHECK-NOT: integer
__global__ void residual_forward_kernel(floatX *out, const floatX *inp1,
                                        const floatX *inp2) {
  int idx = (blockIdx.x * blockDim.x + threadIdx.x) * 8;
  x128 packed_out;
  x128 packed_inp1 = load128cs(inp1 + idx);
  x128 packed_inp2 = load128cs(inp2 + idx);
  for (int k = 0; k < 8; k++)
    packed_out[k] = (floatX)((float)packed_inp1[k] + (float)packed_inp2[k]);
  store128(out + idx, packed_out);
}

// One element a thread, loaded and stored through __ldcs and __stcs (the
// store is "st.global.cs.b16 [$0], $1"): 1 add; N threads pass the guard:
// read 2 x 2N B, written 2N B.
// CHECK: remark: residual_scalar(__nv_bfloat16*, __nv_bfloat16 const*, __nv_bfloat16 const*, int): 1 FLOP fp32 (exact), load 4 B, store 2 B
// CHECK-SAME: footprint per launch: read 4*N B, written 2*N B (exact if gridDim.x*blockDim.x >= N)
__global__ void residual_scalar(floatX *out, const floatX *inp1,
                                const floatX *inp2, int N) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < N)
    __stcs(&out[idx], (floatX)((float)__ldcs(&inp1[idx]) + (float)__ldcs(&inp2[idx])));
}

// An asm that computes its own address ("add.u64 a, $1, 16"): the bytes
// are counted (4 B); which bytes, the footprint cannot say, and it is
// unknown rather than out's 4 B a thread alone (its note names the asm).
// CHECK: remark: own_address(float*, float const*): {{.*}}load 4 B, store 4 B
// CHECK-SAME: footprint per launch: read unknown B, written unknown B (bounds)
__global__ void own_address(float *out, const float *in) {
  float v;
  asm("{.reg .u64 a; add.u64 a, %1, 16; ld.global.f32 %0, [a];}" : "=f"(v) : "l"(in));
  out[threadIdx.x] = v;
}
