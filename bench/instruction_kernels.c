#include <stdlib.h>
#define NOINLINE __attribute__((noinline))
NOINLINE void saxpy(long n, float a, const float *x, float *y) {
  for (long i = 0; i < n; ++i) y[i] = a * x[i] + y[i];
}
NOINLINE double dot(long n, const double *x, const double *y) {
  double s = 0;
  for (long i = 0; i < n; ++i) s += x[i] * y[i];
  return s;
}
NOINLINE void stencil(long n, const double *a, double *b) {
  for (long i = 1; i < n - 1; ++i) b[i] = 0.25 * a[i - 1] + 0.5 * a[i] + 0.25 * a[i + 1];
}
NOINLINE void floyd(long n, int *d) {
  for (long k = 0; k < n; ++k)
    for (long i = 0; i < n; ++i)
      for (long j = 0; j < n; ++j) {
        int via = d[i * n + k] + d[k * n + j];
        if (via < d[i * n + j]) d[i * n + j] = via;
      }
}
NOINLINE void copy(long n, const double *x, double *y) {
  for (long i = 0; i < n; ++i) y[i] = x[i];
}
NOINLINE void matvec(long n, const double *A, const double *x, double *y) {
  for (long i = 0; i < n; ++i) {
    double s = 0;
    for (long j = 0; j < n; ++j) s += A[i * n + j] * x[j];
    y[i] = s;
  }
}
int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 1000;
  float *xf = calloc(n, 4), *yf = calloc(n, 4);
  double *x = calloc(n, 8), *y = calloc(n, 8), *A = calloc(n * n, 8);
  int *d = calloc(n * n, 4);
  for (long i = 0; i < n * n; ++i) d[i] = (int)((i * 7919) % 1000);
  saxpy(n, 2.0f, xf, yf);
  double s = dot(n, x, y);
  stencil(n, x, y);
  floyd(n / 10, d);
  copy(n, x, y);
  matvec(n / 10, A, x, y);
  return (int)s + d[3];
}
