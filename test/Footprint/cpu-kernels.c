// Static footprints (distinct bytes per call) of kernels with reuse, each
// against a count derived by hand; at -O2 and at -O0 they must agree.
// RUN: %clang_roofline -O2 -g -c %s -o /dev/null -Rpass-analysis=roofline 2>&1 | FileCheck %s --check-prefixes=CHECK,O2
// RUN: %clang_roofline -O0 -g -c %s -o /dev/null -Rpass-analysis=roofline 2>&1 | FileCheck %s --check-prefixes=CHECK,O0

// Transpose: B[j*n + i] = A[i*n + j]: each matrix once, 8n^2 B each way
// (counted: the same, no reuse).
// CHECK: remark: transpose: {{.*}}; footprint per call: read 8*n^2 B, written 8*n^2 B (exact{{.*}})
void transpose(int n, const double *A, double *B) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      B[j * n + i] = A[i * n + j];
}

// 5-point Jacobi sweep over the interior of an n x n grid: the five reads
// are the same (n-2)^2 box shifted by one row or column; their union is
// the whole grid less its 4 corners: n^2 - 4 floats read (4n^2 - 16 B),
// (n-2)^2 written (4n^2 - 16n + 16 B). The union formula needs n >= 4.
// CHECK: remark: jacobi: {{.*}}; footprint per call: read 4*n^2 - 16 B, written 4*n^2 - 16*n + 16 B (exact if n - 4 >= 0 for a)
void jacobi(int n, const float *a, float *b) {
  for (int i = 1; i < n - 1; ++i)
    for (int j = 1; j < n - 1; ++j)
      b[i * n + j] = 0.2f * (a[i * n + j] + a[i * n + j - 1] +
                             a[i * n + j + 1] + a[(i - 1) * n + j] +
                             a[(i + 1) * n + j]);
}

// Lower-triangular matrix-vector product: L's lower triangle,
// sum_{i<n} (i + 1) = n(n+1)/2 doubles = 4n^2 + 4n B (not the 8n^2 of its
// address range); x[j], j <= i < n: n doubles; y: n doubles written.
// (At -O0 nothing states n >= 1, so the walk of x says it needs its row
// loop to run once: "exact if n - 1 >= 0 for x".)
// CHECK: remark: trmv: {{.*}}; footprint per call: read 4*n^2 + 12*n B, written 8*n B (exact{{.*}})
void trmv(int n, const double *L, const double *x, double *y) {
  for (int i = 0; i < n; ++i) {
    double s = 0;
    for (int j = 0; j <= i; ++j)
      s += L[i * n + j] * x[j];
    y[i] = s;
  }
}

// Banded (tridiagonal) matrix-vector product over the interior: the band
// is stored as 3 diagonals of n (d[k*n + i]); rows 1..n-2 read 3 of each:
// 3(n-2) band doubles; x[i-1..i+1] over i in [1, n-1): all n of x;
// y: n-2 written. Read 8*3(n-2) + 8n = 32n - 48 B, written 8n - 16 B.
// (The diagonals are n apart, more than the n-2 each walk covers: their
// footprints add up; x's three walks, one apart, make one range.)
// CHECK: remark: tridiag: {{.*}}; footprint per call: read 32*n - 48 B, written 8*n - 16 B (exact{{.*}})
void tridiag(int n, const double *d, const double *x, double *y) {
  for (int i = 1; i < n - 1; ++i)
    y[i] = d[i] * x[i - 1] + d[n + i] * x[i] + d[2 * n + i] * x[i + 1];
}

// 1-D convolution, valid part: y[i] = sum_k x[i + k] w[k], i < n, k < m:
// x[i + k] covers n + m - 1 floats with no gap (a dense range), w m
// floats, y n floats. Read 4(n + m - 1) + 4m B.
// CHECK: remark: conv1d: {{.*}}; footprint per call: read 4*n + 8*m - 4 B, written 4*n B (exact{{.*}})
void conv1d(int n, int m, const float *x, const float *w, float *y) {
  for (int i = 0; i < n; ++i) {
    float s = 0;
    for (int k = 0; k < m; ++k)
      s += x[i + k] * w[k];
    y[i] = s;
  }
}

// 2-D convolution of an H x W image with a 3 x 3 filter (valid part,
// (H-2) x (W-2) outputs): each row walk in[(i+r)*W + j + c] is a shifted
// box; the 9 boxes unite to the whole image (H*W floats) plus the filter
// (9 floats): 4HW + 36 B read; 4(H-2)(W-2) written. At -O2 the row
// loop's test of W > 2 is hoisted above it, its W <= 2 side a loop with no
// inner loop: the side with the deeper nest is assumed (Guards.cpp), and
// counts and footprint are exact at both levels.
// CHECK: remark: conv3x3: 18*H*W - 36*H - 36*W + 72 FLOP fp32 (exact){{.*}}; footprint per call: read 4*H*W + 36 B, written 4*H*W - 8*H - 8*W + 16 B (exact
// O0-SAME: assumes H - 2 >= 0 (loop at cpu-kernels.c:[[#@LINE+3]])
// O2-SAME: assumes H > 2 (guard at cpu-kernels.c:[[#@LINE+2]]); W > 2 (guard at cpu-kernels.c:[[#@LINE+3]])
void conv3x3(int H, int W, const float *in, const float *f, float *out) {
  for (int i = 0; i < H - 2; ++i)
    for (int j = 0; j < W - 2; ++j) {
      float s = 0;
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c)
          s += in[(i + r) * W + j + c] * f[r * 3 + c];
      out[i * W + j] = s;
    }
}

// A reduction: n doubles read, 8 B written (the one result).
// CHECK: remark: sum_to: {{.*}}; footprint per call: read 8*n B, written 8 B (exact{{.*}})
void sum_to(int n, const double *x, double *out) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i];
  *out = s;
}

// CSR sparse matrix-vector product: rp (n + 1 ints) is exact; v, col and x
// are read where rp says: not exact, at most their counted bytes. The
// footprint says so and gives bounds (the trip of the row loop is unknown).
// CHECK: remark: spmv: {{.*}}; footprint per call: read 4*n + 4 to {{.*}}trip_L[[@LINE+5]]{{.*}} B, written 8*n B (bounds)
void spmv(int n, const int *rp, const int *col, const double *v,
          const double *x, double *y) {
  for (int i = 0; i < n; ++i) {
    double s = 0;
    for (int j = rp[i]; j < rp[i + 1]; ++j)
      s += v[j] * x[col[j]];
    y[i] = s;
  }
}

// Two reads one element apart, x[i] and x[i+1] for 1 <= i < m (a
// difference stencil): x[1 .. m], m floats, 4*m B, once the loop runs. At
// m = 1 it does not, and nothing is read: the union's formula holds only
// for m >= 2, which the footprint states (difftest_footprint seed 415978);
// at -O2 the loop's guard (m > 1) says it already.
// O0: remark: diff1: {{.*}}; footprint per call: read 4*m B, written 4*m - 4 B (exact if m - 2 >= 0 for x)
// O2: remark: diff1: {{.*}}; footprint per call: read 4*m B, written 4*m - 4 B (exact); assumes m > 1
void diff1(int m, const float *x, float *d) {
  for (int i = 1; i < m; ++i)
    d[i] = x[i + 1] - x[i];
}
