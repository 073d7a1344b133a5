// Kernels for the cache model's check against cachegrind (bench/cache_model.py
// and test/Runtime/cache-model.test). Each is its own function (built with
// -fno-inline, as cachegrind counts per function), run once in this order:
// the order matters, as `reread` reads what `rewrite` left in cache.
//
// Usage: cache_kernels SCALE   (SCALE 1: the suite's sizes, about 1 MB of
//        data a kernel; 4: MEDIUM, 2 to 20 MB a kernel)
#include <stdio.h>
#include <stdlib.h>

#include "polybench_kernels.h"

// Page-aligned, so that every array maps to the same cache sets in the
// plain run (under cachegrind) and the instrumented one, whatever the
// runtime allocated before: the sampled sets then see the same accesses.
static double *array(size_t n) {
  size_t bytes = (n * sizeof(double) + 4095) / 4096 * 4096;
  return aligned_alloc(4096, bytes);
}

// Fills with floating-point work, so that the fill is a kernel too (the
// model sees only instrumented functions' accesses; cachegrind sees all).
__attribute__((noinline)) void init(size_t n, double *a, double seed) {
  for (size_t i = 0; i < n; i++)
    a[i] = 1.0 + 0.5 * (double)(i % 7) + seed;
}

__attribute__((noinline)) void gemm_naive(int n, const double *A, const double *B,
                                          double *C) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double s = 0;
      for (int k = 0; k < n; k++)
        s += A[i * n + k] * B[k * n + j];
      C[i * n + j] = s;
    }
}

__attribute__((noinline)) void gemm_blocked(int n, const double *A, const double *B,
                                            double *C) {
  enum { T = 32 };
  for (int ii = 0; ii < n; ii += T)
    for (int kk = 0; kk < n; kk += T)
      for (int jj = 0; jj < n; jj += T)
        for (int i = ii; i < ii + T && i < n; i++)
          for (int k = kk; k < kk + T && k < n; k++) {
            double a = A[i * n + k];
            for (int j = jj; j < jj + T && j < n; j++)
              C[i * n + j] += a * B[k * n + j];
          }
}

__attribute__((noinline)) void stencil5(int n, int sweeps, const double *A, double *B) {
  for (int t = 0; t < sweeps; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        B[i * n + j] = 0.2 * (A[i * n + j] + A[i * n + j - 1] + A[i * n + j + 1] +
                              A[(i - 1) * n + j] + A[(i + 1) * n + j]);
}

__attribute__((noinline)) void transpose(int n, const double *A, double *B) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      B[j * n + i] = 1.0 * A[i * n + j];
}

__attribute__((noinline)) double strided(size_t n, size_t stride, const double *a) {
  double s = 0;
  for (size_t i = 0; i < n; i += stride)
    s += a[i];
  return s;
}

__attribute__((noinline)) void gather(size_t n, const int *idx, const double *x,
                                      double *y) {
  for (size_t i = 0; i < n; i++)
    y[i] = 2.0 * x[idx[i]];
}

__attribute__((noinline)) void rewrite(size_t n, double *a) {
  for (size_t i = 0; i < n; i++)
    a[i] = a[i] * 0.5 + 1.0;
}

// Reads what rewrite just wrote: it fits in the last level, so the last
// level fills almost nothing.
__attribute__((noinline)) double reread(size_t n, const double *a) {
  double s = 0;
  for (size_t i = 0; i < n; i++)
    s += a[i];
  return s;
}

int main(int argc, char **argv) {
  int scale = argc > 1 ? atoi(argv[1]) : 1;
  if (scale < 1 || scale > 16) {
    fprintf(stderr, "usage: cache_kernels SCALE (1..16)\n");
    return 2;
  }
  double check = 0;
  int g = 96 * scale;                   // GEMMs: 3 n^2 doubles
  double *A = array(g * g), *B = array(g * g), *C = array(g * g);
  init(g * g, A, 1), init(g * g, B, 2), init(g * g, C, 3);
  gemm_naive(g, A, B, C);
  gemm_blocked(g, A, B, C);
  check += C[g + 1];
  int s = 256 * scale;                  // stencil, transpose: 2 n^2 doubles
  double *S = array(s * s), *T = array(s * s);
  init(s * s, S, 4), init(s * s, T, 5);
  stencil5(s, 2, S, T);
  transpose(s, S, T);
  check += T[s + 3];
  size_t v = 131072 * scale * scale;    // 1 MiB .. 16 MiB
  double *V = array(v);
  init(v, V, 6);
  check += strided(v, 2, V) + strided(v, 16, V);
  int *idx = malloc(v / 4 * sizeof(int));
  unsigned r = 12345;
  for (size_t i = 0; i < v / 4; i++) {
    r = r * 1103515245u + 12345u;
    idx[i] = (int)((r >> 8) % v);
  }
  double *Y = array(v / 4);
  gather(v / 4, idx, V, Y);
  check += Y[7];
  size_t w = 16384 * scale;             // 128 KiB .. : fits the last level
  double *W = array(w);
  init(w, W, 7);
  rewrite(w, W);
  check += reread(w, W);
  int m = 112 * scale;                  // PolyBench kernels
  double *L = array(m * m), *x = array(m), *b = array(m), *t = array(m);
  init(m * m, L, 8), init(m, b, 9), init(m, t, 10);
  kernel_atax(m, m, L, b, x, t);
  kernel_trisolv(m, L, x, b);
  double *J1 = array(v / 8), *J2 = array(v / 8);
  init(v / 8, J1, 11), init(v / 8, J2, 12);
  kernel_jacobi_1d(4, (int)(v / 8), J1, J2);
  double *G1 = array(m * m), *G2 = array(m * m), *G3 = array(m * m);
  init(m * m, G1, 13), init(m * m, G2, 14), init(m * m, G3, 15);
  kernel_gemm(m, m, m, 1.5, 1.2, G3, G1, G2);
  int j2 = 128 * scale;
  kernel_jacobi_2d(2, j2, S, T);
  int f = 48 * scale;
  int *path = malloc(sizeof(int) * f * f);
  for (int i = 0; i < f * f; i++) path[i] = (i * 7) % 13 + 1;
  kernel_floyd_warshall(f, path);
  check += x[m / 2] + J1[9] + G3[5] + S[j2 + 1] + path[f + 2];
  printf("%g\n", check);
  return 0;
}
