// PolyBench/C-style kernels for bench/overhead.py --suite polybench: static
// functions with compile-time sizes, called from main, so that at -O2 each
// is inlined into main (as PolyBench's kernel_* are). Sizes are chosen for
// about 0.2-0.5 s a kernel here, between PolyBench's MEDIUM and LARGE.
// Usage: polybench_like gemm|atax|jacobi1d|jacobi2d|floyd|trisolv
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NI 800
#define NJ 880
#define NK 960
#define AN 2000
#define J1T 2000
#define J1N 100000
#define J2T 120
#define J2N 1000
#define FN 700
#define TN 3000

#include "polybench_kernels.h"

static double *array(size_t n, int seed) {
  double *a = malloc(n * sizeof(double));
  for (size_t i = 0; i < n; i++) a[i] = 1.0 + (double)((i * 7 + seed) % 11) / 11.0;
  return a;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "gemm";
  double check = 0;
  if (!strcmp(mode, "gemm")) {
    double *A = array(NI * NK, 1), *B = array(NK * NJ, 2), *C = array(NI * NJ, 3);
    kernel_gemm(NI, NJ, NK, 1.5, 1.2, C, A, B);
    check = C[NI * NJ / 2];
  } else if (!strcmp(mode, "atax")) {
    double *A = array(AN * AN, 1), *x = array(AN, 2), *y = array(AN, 3), *t = array(AN, 4);
    for (int r = 0; r < 20; r++) kernel_atax(AN, AN, A, x, y, t);
    check = y[AN / 2];
  } else if (!strcmp(mode, "jacobi1d")) {
    double *A = array(J1N, 1), *B = array(J1N, 2);
    kernel_jacobi_1d(J1T, J1N, A, B);
    check = A[J1N / 2];
  } else if (!strcmp(mode, "jacobi2d")) {
    double *A = array(J2N * J2N, 1), *B = array(J2N * J2N, 2);
    kernel_jacobi_2d(J2T, J2N, A, B);
    check = A[J2N * J2N / 2 + 7];
  } else if (!strcmp(mode, "floyd")) {
    int *path = malloc(sizeof(int) * FN * FN);
    for (int i = 0; i < FN * FN; i++) path[i] = (i * 7) % 13 + 1;
    kernel_floyd_warshall(FN, path);
    check = path[FN * FN / 2];
  } else if (!strcmp(mode, "trisolv")) {
    double *L = array(TN * TN, 1), *x = array(TN, 2), *b = array(TN, 3);
    for (int r = 0; r < 30; r++) kernel_trisolv(TN, L, x, b);
    check = x[TN / 2];
  }
  printf("%.6g\n", check);
  return 0;
}
