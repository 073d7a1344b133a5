/* Kernels with reuse, the cases of issue 15 where counted bytes against
 * the DRAM roof made measured runs "beat" the roofline (bench/bounds.py).
 * Each is a noinline function called from main so that it is a kernel of
 * its own in the profile; with -DINLINED each is static, and main inlines
 * it (its record has inlined_into, and its footprint is measured at each
 * entry). */
#include <stdio.h>
#include <stdlib.h>

#ifdef INLINED
#define KERNEL static
#else
#define KERNEL __attribute__((noinline))
#endif

/* Register-tiled DGEMM: 4 x 4 blocks of C in registers, k innermost. */
KERNEL void dgemm_tiled(int n, const double *A,
                                           const double *B, double *C) {
  for (int i = 0; i < n; i += 4)
    for (int j = 0; j < n; j += 4) {
      double c[4][4] = {{0}};
      for (int k = 0; k < n; ++k)
        for (int a = 0; a < 4; ++a)
          for (int b = 0; b < 4; ++b)
            c[a][b] += A[(i + a) * n + k] * B[k * n + j + b];
      for (int a = 0; a < 4; ++a)
        for (int b = 0; b < 4; ++b)
          C[(i + a) * n + j + b] = c[a][b];
    }
}

/* Naive i-k-j SGEMM. */
KERNEL void sgemm_ikj(int n, const float *A, const float *B,
                                         float *C) {
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < n; ++k)
      for (int j = 0; j < n; ++j)
        C[i * n + j] += A[i * n + k] * B[k * n + j];
}

/* One sweep of a 5-point stencil over an n x n grid's interior. */
KERNEL void stencil5(int n, const float *a, float *b) {
  for (int i = 1; i < n - 1; ++i)
    for (int j = 1; j < n - 1; ++j)
      b[i * n + j] = 0.2f * (a[i * n + j] + a[i * n + j - 1] +
                             a[i * n + j + 1] + a[(i - 1) * n + j] +
                             a[(i + 1) * n + j]);
}

/* y = 0.5*y + x on small arrays, called many times (cache-resident). */
KERNEL void axpy_small(int n, const float *x, float *y) {
  for (int i = 0; i < n; ++i)
    y[i] = 0.5f * y[i] + x[i];
}

int main(void) {
  int n = 512;
  double *A = malloc(8L * n * n), *B = malloc(8L * n * n), *C = malloc(8L * n * n);
  for (long i = 0; i < (long)n * n; ++i)
    A[i] = 1.0 / (1 + i % 7), B[i] = 1.0 / (1 + i % 5), C[i] = 0;
  dgemm_tiled(n, A, B, C);

  int m = 256;
  float *a = malloc(4L * m * m), *b = malloc(4L * m * m), *c = calloc((size_t)m * m, 4);
  for (long i = 0; i < (long)m * m; ++i)
    a[i] = 1.0f / (1 + i % 3), b[i] = 1.0f / (1 + i % 11);
  sgemm_ikj(m, a, b, c);

  int g = 200;
  float *s = malloc(4L * g * g), *t = calloc((size_t)g * g, 4);
  for (long i = 0; i < (long)g * g; ++i)
    s[i] = (float)(i % 13);
  for (int r = 0; r < 400; ++r) {
    stencil5(g, s, t);
    float *u = s;
    s = t, t = u;
  }

  int v = 4096; /* 16 KiB per array */
  float *x = malloc(4L * v), *y = malloc(4L * v);
  for (int i = 0; i < v; ++i)
    x[i] = 1, y[i] = 0;
  for (int r = 0; r < 20000; ++r)
    axpy_small(v, x, y);

  printf("%g %g %g %g\n", C[7], c[9], s[g + 3], y[5]);
  return 0;
}
