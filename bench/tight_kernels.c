// Kernels for bench/tightness.py: streaming, a stencil, reductions, a naive
// and a blocked GEMM, each called often enough to be timed, at a working
// set chosen by argv[1] ("l1", "l2" or "dram"). One process per size, so
// each profile row is one kernel at one size.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KERNEL __attribute__((noinline))

KERNEL void triad(long n, double *a, const double *b, const double *c, double s) {
  for (long i = 0; i < n; ++i)
    a[i] = b[i] + s * c[i];
}

KERNEL void daxpy(long n, double s, const double *x, double *y) {
  for (long i = 0; i < n; ++i)
    y[i] += s * x[i];
}

KERNEL double sum(long n, const double *a) {
  double s = 0;
  for (long i = 0; i < n; ++i)
    s += a[i];
  return s;
}

KERNEL double dot(long n, const double *a, const double *b) {
  double s = 0;
  for (long i = 0; i < n; ++i)
    s += a[i] * b[i];
  return s;
}

KERNEL void jacobi(long side, const double *in, double *out) {
  for (long i = 1; i < side - 1; ++i)
    for (long j = 1; j < side - 1; ++j)
      out[i * side + j] = 0.2 * (in[i * side + j] + in[(i - 1) * side + j] +
                                 in[(i + 1) * side + j] + in[i * side + j - 1] +
                                 in[i * side + j + 1]);
}

KERNEL void gemm_naive(long n, const double *A, const double *B, double *C) {
  for (long i = 0; i < n; ++i)
    for (long j = 0; j < n; ++j) {
      double acc = 0;
      for (long k = 0; k < n; ++k)
        acc += A[i * n + k] * B[k * n + j];
      C[i * n + j] = acc;
    }
}

// i-k-j order in 64 x 64 blocks: the inner loop streams a row of B and C.
KERNEL void gemm_blocked(long n, const double *A, const double *B, double *C) {
  const long T = 64;
  for (long ii = 0; ii < n; ii += T)
    for (long kk = 0; kk < n; kk += T)
      for (long i = ii; i < ii + T && i < n; ++i)
        for (long k = kk; k < kk + T && k < n; ++k) {
          double a = A[i * n + k];
          for (long j = 0; j < n; ++j)
            C[i * n + j] += a * B[k * n + j];
        }
}

static double *array(long n, double v) {
  double *p = aligned_alloc(4096, ((size_t)n * sizeof(double) + 4095) / 4096 * 4096);
  for (long i = 0; i < n; ++i)
    p[i] = v + (double)(i % 7) * 1e-3;
  return p;
}

int main(int argc, char **argv) {
  const char *size = argc > 1 ? argv[1] : "l2";
  // Working sets: about 24 KiB (l1), 600 KiB (l2), 256 MiB (past the l3).
  int l1 = !strcmp(size, "l1"), dram = !strcmp(size, "dram");
  long n = l1 ? 1024 : dram ? 11184810 : 25600;     // 3 arrays of n doubles
  long side = l1 ? 40 : dram ? 4096 : 192;         // 2 grids of side^2
  long g = l1 ? 32 : dram ? 1280 : 160;            // 3 matrices of g^2
  long work = dram ? 1 : 1L << 27;                 // element-steps per kernel
  double *a = array(n, 1), *b = array(n, 2), *c = array(n, 3);
  double *in = array(side * side, 1), *out = array(side * side, 0);
  double *A = array(g * g, 1), *B = array(g * g, 0.5), *C = array(g * g, 0);
  double check = 0;
  long reps = work / n > 0 ? work / n : 1;
  for (long r = 0; r < reps; ++r)
    triad(n, a, b, c, 1.0000001);
  for (long r = 0; r < reps; ++r)
    daxpy(n, 1e-9, b, a);
  for (long r = 0; r < reps; ++r)
    check += sum(n, a);
  for (long r = 0; r < reps; ++r)
    check += dot(n, a, b);
  long sreps = work / (side * side) > 0 ? work / (side * side) : 1;
  for (long r = 0; r < sreps; ++r)
    jacobi(side, (r & 1) ? out : in, (r & 1) ? in : out);
  long greps = (work / 16) / (g * g * g) > 0 ? (work / 16) / (g * g * g) : 1;
  for (long r = 0; r < greps; ++r)
    gemm_naive(g, A, B, C);
  for (long r = 0; r < (dram ? 2 : greps * 4); ++r)
    gemm_blocked(g, A, B, C);
  printf("%s: check %.6e %.6e %.6e\n", size, check, in[side + 1], C[g + 1]);
  return 0;
}
