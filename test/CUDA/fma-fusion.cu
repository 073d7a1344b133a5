// FMA fusion counted as the NVPTX back end emits it, checked against the
// PTX itself: at -O2 and -O0, the FLOP classes the pass counts per kernel
// equal the fma.rn.f32 and mul.f32 instructions in llc's output (add/sub
// instructions are adds; neg.f32 is a sign flip, not a FLOP).
// REQUIRES: cuda
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cuda_device -O2 -S %s -o %t/o2.ptx
// RUN: python3 %S/Inputs/ptx_flops.py < %t/o2.ptx | FileCheck %s --check-prefixes=PTX,PTX2
// RUN: %cuda_device -O2 -S -emit-llvm %s -o - | %opt_roofline -passes='print<roofline>' -disable-output | FileCheck %s --check-prefixes=PASS,PASS2
// RUN: %cuda_device -O0 -S %s -o %t/o0.ptx
// RUN: python3 %S/Inputs/ptx_flops.py < %t/o0.ptx | FileCheck %s --check-prefixes=PTX,PTX0
// RUN: %cuda_device -O0 -S -emit-llvm %s -o - | %opt_roofline -passes='print<roofline>' -disable-output | FileCheck %s --check-prefixes=PASS,PASS0

// a*b + c*d: one product fuses, the other stays a multiply: 3 FLOPs (the
// pass counted 2 FMAs, 4 FLOPs, before).
// PTX-LABEL: _Z3twoPfPKfS1_S1_S1_: add 0 mul 1 fma 1
// PASS-LABEL: kernel two(
// PASS: fp32 ops: mul 1; fma 1;
__global__ void two(float *o, const float *a, const float *b, const float *c, const float *d) {
  int i = threadIdx.x;
  o[i] = a[i] * b[i] + c[i] * d[i];
}

// a*b - c*d: the same, with a negation (no FLOP).
// PTX-LABEL: _Z3subPfPKfS1_S1_S1_: add 0 mul 1 fma 1
// PASS-LABEL: kernel sub(
// PASS: fp32 ops: mul 1; fma 1;
__global__ void sub(float *o, const float *a, const float *b, const float *c, const float *d) {
  int i = threadIdx.x;
  o[i] = a[i] * b[i] - c[i] * d[i];
}

// (a*b + c*d) + a*d: the outer add fuses a*d, the inner one a*b.
// PTX-LABEL: _Z5threePfPKfS1_S1_S1_: add 0 mul 1 fma 2
// PASS-LABEL: kernel three(
// PASS: fp32 ops: mul 1; fma 2;
__global__ void three(float *o, const float *a, const float *b, const float *c, const float *d) {
  int i = threadIdx.x;
  o[i] = a[i] * b[i] + c[i] * d[i] + a[i] * d[i];
}

// A product used by two adds: with optimisation NVPTX fuses it into both
// (two FMAs, 4 FLOPs); at -O0 it is one multiply, an add and a subtract.
// PTX2-LABEL: _Z10shared_mulPfPKfS1_S1_: add 0 mul 0 fma 2
// PTX0-LABEL: _Z10shared_mulPfPKfS1_S1_: add 2 mul 1 fma 0
// PASS-LABEL: kernel shared_mul(
// PASS2: fp32 ops: fma 2;
// PASS0: fp32 ops: add 2; mul 1;
__global__ void shared_mul(float *o, const float *a, const float *b, const float *c) {
  int i = threadIdx.x;
  float m = a[i] * b[i];
  o[i] = m + c[i];
  o[i + 32] = m - c[i];
}
