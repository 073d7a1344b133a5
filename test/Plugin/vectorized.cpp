// A loop the vectorizer vectorizes (8-wide with interleaving at -O3) has the
// same totals as the scalar loop: the analysis counts operations, and
// vectorisation only packs them. The remark is identical with and without
// vectorisation; the vector code really is vectorised (checked in the IR).
// RUN: %clangxx_roofline -O3 -g -c %s -o /dev/null -Rpass-analysis=roofline 2>&1 | FileCheck %s
// RUN: %clangxx_roofline -O3 -g -fno-vectorize -fno-slp-vectorize -c %s -o /dev/null -Rpass-analysis=roofline 2>&1 | FileCheck %s
// RUN: %clangxx_roofline -O3 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR

// Per element: a*x + y -> fmuladd (2 FLOPs), b * that -> fmul (1): 3 FLOPs,
// loads x, y (8 B), stores z (4 B).
// CHECK: remark: scaled_axpy(int, float, float, float const*, float const*, float*): 3*n FLOP fp32 (exact), load 8*n B, store 4*n B
// IR: fmuladd.v4f32
void scaled_axpy(int n, float a, float b, const float *__restrict x,
                 const float *__restrict y, float *__restrict z) {
  for (int i = 0; i < n; ++i)
    z[i] = b * (a * x[i] + y[i]);
}
