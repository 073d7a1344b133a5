// A triangular nest: the inner trip count is the outer index, so the total
// is a sum over i of i, n(n-1)/2, not n^2.
// RUN: %clangxx_roofline -O2 -g -c %s -o /dev/null -Rpass-analysis=roofline 2>&1 | FileCheck %s
// RUN: %clangxx_roofline -O0 -g -c %s -o /dev/null -Rpass-analysis=roofline 2>&1 | FileCheck %s

// Lower-triangular matrix-vector product without the diagonal:
// sum_{i=0}^{n-1} i = n(n-1)/2 fmuladds = n^2 - n FLOPs; two 4-byte loads
// each = 4n^2 - 4n B; one 4-byte store per row = 4n B.
// CHECK: remark: strict_lower_mv(int, float const*, float const*, float*): n^2 - n FLOP fp32 (exact), load 4*n^2 - 4*n B, store 4*n B, I -> 0.25 FLOP/B
void strict_lower_mv(int n, const float *L, const float *x, float *y) {
  for (int i = 0; i < n; ++i) {
    float acc = 0;
    for (int j = 0; j < i; ++j)
      acc += L[i * n + j] * x[j];
    y[i] = acc;
  }
}

// Including the diagonal (j <= i): sum (i+1) = n(n+1)/2 multiplies of a
// double: (n^2 + n)/2 FLOPs, 8 B loaded and stored each.
// CHECK: remark: scale_lower(int, double*): (n^2 + n)/2 FLOP fp64 (exact), load 4*n^2 + 4*n B, store 4*n^2 + 4*n B
void scale_lower(int n, double *a) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j <= i; ++j)
      a[i * n + j] *= 2.0;
}
