// PolyBench/C 4.2.1-style kernels, as static functions (PolyBench's
// kernel_* are), for test/Inlining/polybench-like.c (which derives their
// counts by hand) and bench/polybench_like.c (which times them): the same
// code in both.
#ifndef ROOFLINE_BENCH_POLYBENCH_KERNELS_H
#define ROOFLINE_BENCH_POLYBENCH_KERNELS_H

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

#endif
