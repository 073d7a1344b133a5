// Exact dynamic counts of the static pass's test kernels, at -O0 and -O2,
// derived by hand; the instrumented program's output equals the plain one's.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %roofline_clangxx -O2 %s -o %t/o2
// RUN: env ROOFLINE_PROFILE=%t/o2-%%p.json %t/o2 > %t/o2.out
// RUN: cat %t/o2-*.json | FileCheck %s --check-prefixes=CHECK,O2 --allow-unused-prefixes
// RUN: %roofline_clangxx -O0 %s -o %t/o0
// RUN: env ROOFLINE_PROFILE=%t/o0.json %t/o0 > %t/o0.out
// RUN: FileCheck %s --check-prefixes=CHECK,O0 --input-file=%t/o0.json
// RUN: clang++ -O2 %s -o %t/plain && %t/plain > %t/plain.out
// RUN: diff %t/plain.out %t/o2.out
// RUN: diff %t/plain.out %t/o0.out
#include <cstdio>
#include <vector>

#define KERNEL __attribute__((noinline))

// saxpy, called with n = 1000 and n = 777: 2 calls, 2*1777 = 3554 FLOPs,
// 8*1777 = 14216 B loaded, 4*1777 = 7108 B stored (no reuse is possible).
// CHECK-LABEL: "display_name": "saxpy(int, float, float const*, float*)"
// CHECK: "calls": 2,
// CHECK: "flops": {"fp16": 0, "bf16": 0, "fp32": 3554, "fp64": 0, "other": 0, "total": 3554, "special": 0},
// CHECK-NEXT: "flop_classes": {"fp32": {"fma": 1777}},
// CHECK-NEXT: "bytes": {"load": 14216, "store": 7108
KERNEL void saxpy(int n, float a, const float *x, float *y) {
  for (int i = 0; i < n; ++i)
    y[i] = a * x[i] + y[i];
}

// dot in double, n = 1000: 2000 FLOPs, 16000 B loaded, nothing stored.
// CHECK-LABEL: "display_name": "ddot(int, double const*, double const*)"
// CHECK: "calls": 1,
// CHECK: "fp64": 2000
// CHECK: "bytes": {"load": 16000, "store": 0
KERNEL double ddot(int n, const double *x, const double *y) {
  double acc = 0;
  for (int i = 0; i < n; ++i)
    acc += x[i] * y[i];
  return acc;
}

// GEMM 8 x 12 x 16: 2*M*N*K = 3072 FLOPs. At -O0 every load the source
// writes happens: 8*M*N*K = 12288 B loaded, 4*M*N = 384 B stored. At -O2 the
// vectorised code reuses loads of A across j, so only FLOPs are checked.
// CHECK-LABEL: "display_name": "gemm(int, int, int, float const*, float const*, float*)"
// CHECK: "total": 3072,
// O0: "bytes": {"load": 12288, "store": 384
KERNEL void gemm(int M, int N, int K, const float *A, const float *B, float *C) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0;
      for (int k = 0; k < K; ++k)
        acc += A[i * K + k] * B[k * N + j];
      C[i * N + j] = acc;
    }
}

// 5-point stencil on a 20 x 20 grid: 6 FLOPs per interior point, 18^2 =
// 324 points: 1944 FLOPs; at -O0 5 loads and 1 store per point: 6480 B
// loaded, 1296 B stored.
// CHECK-LABEL: "display_name": "stencil5(int, float, float, float const*, float*)"
// CHECK: "total": 1944,
// O0: "bytes": {"load": 6480, "store": 1296
KERNEL void stencil5(int n, float c0, float c1, const float *in, float *out) {
  for (int i = 1; i < n - 1; ++i)
    for (int j = 1; j < n - 1; ++j)
      out[i * n + j] = c0 * in[i * n + j] +
                       c1 * (in[(i - 1) * n + j] + in[(i + 1) * n + j] +
                             in[i * n + j - 1] + in[i * n + j + 1]);
}

// Strictly lower triangular mat-vec, n = 50: n(n-1)/2 = 1225 fmuladds =
// 2450 FLOPs; 2 loads each (9800 B) and n stores (200 B) at -O0.
// CHECK-LABEL: "display_name": "strict_lower_mv(int, float const*, float const*, float*)"
// CHECK: "total": 2450,
// O0: "bytes": {"load": 9800, "store": 200
KERNEL void strict_lower_mv(int n, const float *L, const float *x, float *y) {
  for (int i = 0; i < n; ++i) {
    float acc = 0;
    for (int j = 0; j < i; ++j)
      acc += L[i * n + j] * x[j];
    y[i] = acc;
  }
}

int main() {
  std::vector<float> x(1000, 1.0f), y(1000, 2.0f);
  saxpy(1000, 3.0f, x.data(), y.data());
  saxpy(777, 0.5f, x.data(), y.data());
  std::vector<double> dx(1000, 0.5), dy(1000, 4.0);
  double d = ddot(1000, dx.data(), dy.data());
  std::vector<float> A(8 * 16, 1.0f), B(16 * 12, 0.25f), C(8 * 12);
  gemm(8, 12, 16, A.data(), B.data(), C.data());
  std::vector<float> in(400, 1.0f), out(400, 0.0f);
  stencil5(20, 0.5f, 0.125f, in.data(), out.data());
  std::vector<float> L(2500, 1.0f), v(50, 2.0f), w(50);
  strict_lower_mv(50, L.data(), v.data(), w.data());
  std::printf("%g %g %g %g %g %g\n", y[0], y[999], d, C[95], out[21], w[49]);
  return 0;
}
