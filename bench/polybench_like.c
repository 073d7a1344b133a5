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

static void kernel_gemm(int ni, int nj, int nk, double alpha, double beta,
                        double *C, const double *A, const double *B) {
  for (int i = 0; i < ni; i++) {
    for (int j = 0; j < nj; j++) C[i * nj + j] *= beta;
    for (int k = 0; k < nk; k++)
      for (int j = 0; j < nj; j++) C[i * nj + j] += alpha * A[i * nk + k] * B[k * nj + j];
  }
}

static void kernel_atax(int m, int n, const double *A, const double *x,
                        double *y, double *tmp) {
  for (int i = 0; i < n; i++) y[i] = 0;
  for (int i = 0; i < m; i++) {
    tmp[i] = 0.0;
    for (int j = 0; j < n; j++) tmp[i] = tmp[i] + A[i * n + j] * x[j];
    for (int j = 0; j < n; j++) y[j] = y[j] + A[i * n + j] * tmp[i];
  }
}

static void kernel_jacobi_1d(int tsteps, int n, double *A, double *B) {
  for (int t = 0; t < tsteps; t++) {
    for (int i = 1; i < n - 1; i++) B[i] = 0.33333 * (A[i - 1] + A[i] + A[i + 1]);
    for (int i = 1; i < n - 1; i++) A[i] = 0.33333 * (B[i - 1] + B[i] + B[i + 1]);
  }
}

static void kernel_jacobi_2d(int tsteps, int n, double *A, double *B) {
  for (int t = 0; t < tsteps; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        B[i * n + j] = 0.2 * (A[i * n + j] + A[i * n + j - 1] + A[i * n + j + 1] +
                              A[(i + 1) * n + j] + A[(i - 1) * n + j]);
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        A[i * n + j] = 0.2 * (B[i * n + j] + B[i * n + j - 1] + B[i * n + j + 1] +
                              B[(i + 1) * n + j] + B[(i - 1) * n + j]);
  }
}

static void kernel_floyd_warshall(int n, int *path) {
  for (int k = 0; k < n; k++)
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++)
        path[i * n + j] = path[i * n + j] < path[i * n + k] + path[k * n + j]
                              ? path[i * n + j] : path[i * n + k] + path[k * n + j];
}

static void kernel_trisolv(int n, const double *L, double *x, const double *b) {
  for (int i = 0; i < n; i++) {
    x[i] = b[i];
    for (int j = 0; j < i; j++) x[i] -= L[i * n + j] * x[j];
    x[i] = x[i] / L[i * n + i];
  }
}

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
