// Compile-time intensity warnings against a platform, for CI.
// RUN: %clangxx_roofline -O2 -g -c %s -o /dev/null -mllvm -roofline-platform=h100-sxm -mllvm -roofline-warn=memory-bound 2>&1 | FileCheck %s
// RUN: %clangxx_roofline -O2 -gline-tables-only -c %s -o /dev/null -mllvm -roofline-platform=h100-sxm -mllvm -roofline-warn=memory-bound 2>&1 | FileCheck %s
// RUN: not %clangxx_roofline -O2 -g -Werror -c %s -o /dev/null -mllvm -roofline-platform=h100-sxm -mllvm -roofline-warn=memory-bound 2>&1 | FileCheck %s --check-prefix=WERROR
// RUN: %clangxx_roofline -O2 -g -c %s -o /dev/null -mllvm -roofline-platform=h100-sxm -mllvm -roofline-warn=memory-bound -mllvm -roofline-assume=M=4,N=4,K=4,n=100 2>&1 | FileCheck %s --check-prefix=SIZES
// RUN: %clangxx_roofline -O2 -g -c %s -o /dev/null -mllvm -roofline-platform=h100-sxm -mllvm -roofline-warn=intensity-below=0.2 2>&1 | FileCheck %s --check-prefix=BELOW
// RUN: %clangxx_roofline -O2 -g -c %s -o /dev/null -mllvm -roofline-warn=fast 2>&1 | FileCheck %s --check-prefix=BADVALUE
// RUN: %clangxx_roofline -O2 -g -c %s -o %t.o -mllvm -roofline-platform=h200x -mllvm -roofline-warn=memory-bound 2>&1 | FileCheck %s --check-prefix=BADPLATFORM
// RUN: test -s %t.o
// Roofline's findings alone, silenced, promoted to errors or made remarks
// (-Wno-pass-failed would silence clang's own loop-transform warnings too):
// RUN: %clangxx_roofline -O2 -g -c %s -o /dev/null -mllvm -roofline-platform=h100-sxm -mllvm -roofline-warn=memory-bound -mllvm -roofline-warnings=off 2>&1 | count 0
// RUN: not %clangxx_roofline -O2 -g -c %s -o /dev/null -mllvm -roofline-platform=h100-sxm -mllvm -roofline-warn=memory-bound -mllvm -roofline-warnings=error 2>&1 | FileCheck %s --check-prefix=ERROR
// ERROR: error: {{.*}}warn.cpp:{{[0-9]+}}:{{[0-9]+}}: roofline: saxpy(int, float, float const*, float*) is memory-bound on h100-sxm
// ERROR-NOT: warning:
// RUN: %clangxx_roofline -O2 -g -c %s -o /dev/null -mllvm -roofline-platform=h100-sxm -mllvm -roofline-warn=memory-bound -mllvm -roofline-warnings=remark -Rpass-analysis=roofline 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: warn.cpp:{{[0-9]+}}:{{[0-9]+}}: remark: saxpy(int, float, float const*, float*) is memory-bound on h100-sxm
// REMARK-NOT: warning: saxpy
// RUN: %clangxx_roofline -O2 -g -c %s -o /dev/null -mllvm -roofline-platform=h100-sxm -mllvm -roofline-warn=memory-bound -mllvm -roofline-warnings=loud 2>&1 | FileCheck %s --check-prefix=BADSEVERITY
// BADSEVERITY: warning: roofline: -roofline-warnings: unknown value 'loud' (expected warning, error, remark or off)
// RUN: %clangxx_roofline -O2 -g -emit-llvm -S -o /dev/null -Xclang -verify=verify %s -mllvm -roofline-platform=h100-sxm -mllvm -roofline-warn=memory-bound

// saxpy: 2n FLOP / 12n B of footprint (x read, y read and written) -> 1/6
// FLOP/B for any n: far below h100-sxm's 20 FLOP/B ridge (67 TFLOP/s /
// 3.35 TB/s); attainable 3.35e12/6 = 558 GFLOP/s.
// CHECK: warn.cpp:[[@LINE+4]]:1: warning: saxpy(int, float, float const*, float*) is memory-bound on h100-sxm: asymptotic footprint intensity 0.167 FLOP/B < ridge 20 FLOP/B; attainable 558 GFLOP/s of 67 TFLOP/s [-Wpass-failed=roofline]
// WERROR: warn.cpp:[[@LINE+3]]:1: error: saxpy(int, float, float const*, float*) is memory-bound on h100-sxm
// BELOW: warn.cpp:[[@LINE+2]]:1: warning: saxpy(int, float, float const*, float*) has asymptotic footprint intensity 0.167 FLOP/B < 0.2 on h100-sxm (ridge 20 FLOP/B)
// verify-warning@+1 {{saxpy(int, float, float const*, float*) is memory-bound on h100-sxm}}
void saxpy(int n, float a, const float *x, float *y) {
  for (int i = 0; i < n; ++i)
    y[i] = a * x[i] + y[i];
}

// The naive GEMM is judged on its footprint, the three matrices: 2MNK /
// 4(MK + KN + MN) grows without bound with the sizes, so it is not
// memory-bound (its counted bytes, the L1 traffic, would say 0.25 FLOP/B).
// With sizes given, M = N = K = 4: 128 / 192 = 0.667 FLOP/B < 20.
// CHECK-NOT: warning: gemm
// SIZES-DAG: warn.cpp:[[@LINE+3]]:1: warning: gemm(int, int, int, float const*, float const*, float*) is memory-bound on h100-sxm: footprint intensity 0.667 FLOP/B < ridge 20 FLOP/B
// SIZES-DAG: warn.cpp:[[@LINE-11]]:1: warning: saxpy{{.*}}: footprint intensity 0.167 FLOP/B
// BELOW-NOT: gemm
void gemm(int M, int N, int K, const float *A, const float *B, float *C) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0;
      for (int k = 0; k < K; ++k)
        acc += A[i * K + k] * B[k * N + j];
      C[i * N + j] = acc;
    }
}

// A compute-bound kernel: per element 128 fmuladds (256 FLOPs) for 8 bytes
// moved: I = 32 FLOP/B > 20. No warning.
// CHECK-NOT: horner
void horner(int n, const float *x, float *y) {
  for (int i = 0; i < n; ++i) {
    float v = x[i], acc = 0;
    for (int k = 0; k < 128; ++k)
      acc = acc * v + 0.5f;
    y[i] = acc;
  }
}

// BADVALUE: warning: roofline: -roofline-warn: unknown value 'fast' (expected memory-bound, intensity-below=X or incore-below=F)
// BADPLATFORM: warning: roofline: -roofline-platform: unknown platform 'h200x'; did you mean 'h200'
