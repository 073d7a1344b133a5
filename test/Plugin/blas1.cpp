// BLAS-1 kernels at -O2: exact counts derived by hand, float and double.
// RUN: %clangxx_roofline -O2 -g -c %s -o /dev/null -Rpass-analysis=roofline 2>&1 | FileCheck %s

// saxpy: per element one fmuladd (2 FLOPs), loads x[i], y[i] (2 x 4 B),
// stores y[i] (4 B): 2n FLOP, 8n B loaded, 4n B stored. I = 2n/12n = 1/6.
// CHECK: blas1.cpp:[[@LINE+2]]:{{[0-9]+}}: remark: saxpy(int, float, float const*, float*): 2*n FLOP fp32 (exact), load 8*n B, store 4*n B, I -> 0.1667 FLOP/B for large sizes, per call; footprint per call: read 8*n B, written 4*n B (exact); assumes n > 0
// CHECK: blas1.cpp:[[@LINE+2]]:3: remark: loop in saxpy{{.*}}: trip n, 2*n FLOP, load 8*n B, store 4*n B
void saxpy(int n, float a, const float *x, float *y) {
  for (int i = 0; i < n; ++i)
    y[i] = a * x[i] + y[i];
}

// daxpy: the same in double: 16n B loaded, 8n B stored. I = 2n/24n.
// CHECK: remark: daxpy(int, double, double const*, double*): 2*n FLOP fp64 (exact), load 16*n B, store 8*n B, I -> 0.08333 FLOP/B
void daxpy(int n, double a, const double *x, double *y) {
  for (int i = 0; i < n; ++i)
    y[i] = a * x[i] + y[i];
}

// dot: acc += x[i]*y[i] is one fmuladd per element: 2n FLOP, 8n B loaded,
// nothing stored (the result is returned in a register).
// CHECK: remark: dot(int, float const*, float const*): 2*n FLOP fp32 (exact), load 8*n B, store 0 B, I -> 0.25 FLOP/B
float dot(int n, const float *x, const float *y) {
  float acc = 0;
  for (int i = 0; i < n; ++i)
    acc += x[i] * y[i];
  return acc;
}

// ddot with a constant length: exact numbers, no formula. 100 fmuladds =
// 200 FLOPs, 1600 B loaded.
// CHECK: remark: ddot100(double const*, double const*): 200 FLOP fp64 (exact), load 1600 B, store 0 B, I = 0.125 FLOP/B
double ddot100(const double *x, const double *y) {
  double acc = 0;
  for (int i = 0; i < 100; ++i)
    acc += x[i] * y[i];
  return acc;
}
