// A mat-vec inlined at two call sites of layers() (two copies of its
// loops in one function, beside a fast loop of layers' own), and a loop in
// main that calls dot() beside a short FMA chain of its own; for
// test/InCore/copies.test.
#include <stdio.h>
#include <stdlib.h>

static inline void matvec(long rows, long cols, const double *W,
                          const double *x, double *y) {
  for (long i = 0; i < rows; ++i) {
    double acc = 0;
    for (long j = 0; j < cols; ++j)
      acc += W[i * cols + j] * x[j];
    y[i] = acc;
  }
}

__attribute__((noinline)) void layers(int times, long rows, long cols,
                                      const double *W1, const double *W2,
                                      const double *x, double *y, double *z) {
  for (int t = 0; t < times; ++t) {
    matvec(rows, cols, W1, x, y);
    matvec(rows, cols, W2, x, z);
    for (long i = 0; i < rows; ++i)
      z[i] = z[i] * 0.5 + y[i];
  }
}

__attribute__((noinline)) double dot(long n, const double *a, const double *b) {
  double s = 0;
  for (long j = 0; j < n; ++j)
    s += a[j] * b[j];
  return s;
}

int main(int argc, char **argv) {
  long rows = argc > 1 ? atol(argv[1]) : 200;
  long cols = argc > 2 ? atol(argv[2]) : 64;
  double *W1 = malloc(rows * cols * sizeof(double));
  double *W2 = malloc(rows * cols * sizeof(double));
  double *x = malloc(cols * sizeof(double));
  double *y = malloc(rows * sizeof(double)), *z = malloc(rows * sizeof(double));
  for (long k = 0; k < rows * cols; ++k)
    W1[k] = 1.0 / (double)(k % 97 + 1), W2[k] = 1.0 / (double)(k % 89 + 1);
  for (long j = 0; j < cols; ++j)
    x[j] = 1.0 + (double)j / cols;
  layers(10, rows, cols, W1, W2, x, y, z);
  double s = 0;
  for (int t = 0; t < 10; ++t) {
    double acc = dot(cols, x, x);
    for (long j = 0; j < cols; ++j)
      acc = acc * 0.999 + x[j];
    s += acc + z[t % rows];
  }
  printf("%.6f\n", s);
  return 0;
}
