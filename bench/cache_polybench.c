// PolyBench/C 4.2.1's 30 kernels (bench/polybench_kernels.h) for the cache
// model's check against cachegrind (bench/cache_polybench.py). One kernel a
// process, at PolyBench's own MEDIUM or LARGE dataset sizes:
//
//   cache_polybench KERNEL MEDIUM|LARGE [TSTEPS]   (cache_polybench list: the names)
//
// Built with -fno-inline, so that each kernel_* is its own function (the
// model's profile and cachegrind's counts both name it). As PolyBench runs
// a kernel: its arrays allocated page-aligned (PolyBench's xmalloc is
// posix_memalign(4096)) and initialised, the caches flushed by reading
// 32 MiB (polybench_flush_cache), then the kernel once. Every array lies in
// one arena aligned to 4 MiB at fixed offsets, so that the plain run (under
// cachegrind) and the instrumented one map every line to the same set at
// every level, whatever else either process allocated. The initialisation
// and the flush are functions of their own with floating-point work, so
// that the model sees them too (it sees only instrumented code).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "polybench_kernels.h"

static char *Arena;
static size_t ArenaUsed, ArenaSize;

static void *array(size_t bytes) {
  void *P = Arena + ArenaUsed;
  ArenaUsed += (bytes + 4095) / 4096 * 4096;
  if (ArenaUsed > ArenaSize) {
    fprintf(stderr, "cache_polybench: arena too small\n");
    exit(2);
  }
  return P;
}
#define DOUBLES(n) ((double *)array((size_t)(n) * sizeof(double)))
#define FLOATS(n) ((float *)array((size_t)(n) * sizeof(float)))
#define INTS(n) ((int *)array((size_t)(n) * sizeof(int)))

// Values in [1, 2): no data-dependent path in any kernel but the two
// integer ones, whose data is the same in both runs.
__attribute__((noinline)) void init_d(size_t n, double *a, double seed) {
  for (size_t i = 0; i < n; i++)
    a[i] = 1.0 + (double)((i * 7 + 3) % 97) / 97.0 + 0.001 * seed;
}
__attribute__((noinline)) void init_f(size_t n, float *a, float seed) {
  for (size_t i = 0; i < n; i++)
    a[i] = 1.0f + (float)((i * 7 + 3) % 97) / 97.0f + 0.001f * seed;
}
__attribute__((noinline)) void init_i(size_t n, int *a, int mod) {
  for (size_t i = 0; i < n; i++)
    a[i] = mod ? (int)((i * 7) % (size_t)mod) + (int)(0.5 * (double)mod) : 0;
}
__attribute__((noinline)) void init_c(size_t n, char *a) {
  for (size_t i = 0; i < n; i++)
    a[i] = (char)((i + 1) % 4 + 0 * (double)i);
}

// polybench_flush_cache: 32 MiB read (PolyBench's POLYBENCH_CACHE_SIZE_KB
// is 32770).
enum { FlushBytes = 32 << 20 };
__attribute__((noinline)) double flush(size_t n, const double *a) {
  double s = 0;
  for (size_t i = 0; i < n; i++)
    s += a[i];
  return s;
}

static double Check;
static const double *FlushBuf;
static void flush_caches(void) { Check += flush(FlushBytes / sizeof(double), FlushBuf); }

static double sum_d(size_t n, const double *a) { return a[0] + a[n / 2] + a[n - 1]; }

enum { MEDIUM, LARGE };
// PolyBench/C 4.2.1's sizes (utilities/polybench.spec), MEDIUM then LARGE.
#define PICK(m, l) (size == MEDIUM ? (m) : (l))
// A stencil's time steps, unless given (a shorter run to trace).
static int Tsteps;
#define TSTEPS(m, l) (Tsteps ? Tsteps : PICK(m, l))

static int run(const char *k, int size) {
  if (!strcmp(k, "correlation") || !strcmp(k, "covariance")) {
    int m = PICK(240, 1200), n = PICK(260, 1400);
    double *data = DOUBLES(n * m), *c = DOUBLES(m * m), *mean = DOUBLES(m),
           *sd = DOUBLES(m);
    init_d((size_t)n * m, data, 1);
    flush_caches();
    if (k[1] == 'o' && k[2] == 'r')
      kernel_correlation(m, n, (double)n, data, c, mean, sd);
    else
      kernel_covariance(m, n, (double)n, data, c, mean);
    Check += sum_d((size_t)m * m, c);
  } else if (!strcmp(k, "gemm")) {
    int ni = PICK(200, 1000), nj = PICK(220, 1100), nk = PICK(240, 1200);
    double *C = DOUBLES(ni * nj), *A = DOUBLES(ni * nk), *B = DOUBLES(nk * nj);
    init_d((size_t)ni * nj, C, 1), init_d((size_t)ni * nk, A, 2), init_d((size_t)nk * nj, B, 3);
    flush_caches();
    kernel_gemm(ni, nj, nk, 1.5, 1.2, C, A, B);
    Check += sum_d((size_t)ni * nj, C);
  } else if (!strcmp(k, "gemver")) {
    int n = PICK(400, 2000);
    double *A = DOUBLES(n * n), *v[8];
    for (int i = 0; i < 8; i++)
      v[i] = DOUBLES(n);
    init_d((size_t)n * n, A, 1);
    for (int i = 0; i < 8; i++)
      init_d(n, v[i], 2 + i);
    flush_caches();
    kernel_gemver(n, 1.5, 1.2, A, v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]);
    Check += sum_d(n, v[4]);
  } else if (!strcmp(k, "gesummv")) {
    int n = PICK(250, 1300);
    double *A = DOUBLES(n * n), *B = DOUBLES(n * n), *tmp = DOUBLES(n), *x = DOUBLES(n),
           *y = DOUBLES(n);
    init_d((size_t)n * n, A, 1), init_d((size_t)n * n, B, 2), init_d(n, x, 3);
    flush_caches();
    kernel_gesummv(n, 1.5, 1.2, A, B, tmp, x, y);
    Check += sum_d(n, y);
  } else if (!strcmp(k, "symm") || !strcmp(k, "trmm")) {
    int m = PICK(200, 1000), n = PICK(240, 1200);
    double *C = DOUBLES(m * n), *A = DOUBLES(m * m), *B = DOUBLES(m * n);
    init_d((size_t)m * n, C, 1), init_d((size_t)m * m, A, 2), init_d((size_t)m * n, B, 3);
    flush_caches();
    if (k[0] == 's')
      kernel_symm(m, n, 1.5, 1.2, C, A, B);
    else
      kernel_trmm(m, n, 1.5, A, B);
    Check += sum_d((size_t)m * n, C) + sum_d((size_t)m * n, B);
  } else if (!strcmp(k, "syr2k") || !strcmp(k, "syrk")) {
    int m = PICK(200, 1000), n = PICK(240, 1200);
    double *C = DOUBLES(n * n), *A = DOUBLES(n * m), *B = DOUBLES(n * m);
    init_d((size_t)n * n, C, 1), init_d((size_t)n * m, A, 2), init_d((size_t)n * m, B, 3);
    flush_caches();
    if (!strcmp(k, "syr2k"))
      kernel_syr2k(n, m, 1.5, 1.2, C, A, B);
    else
      kernel_syrk(n, m, 1.5, 1.2, C, A);
    Check += sum_d((size_t)n * n, C);
  } else if (!strcmp(k, "2mm")) {
    int ni = PICK(180, 800), nj = PICK(190, 900), nk = PICK(210, 1100), nl = PICK(220, 1200);
    double *tmp = DOUBLES(ni * nj), *A = DOUBLES(ni * nk), *B = DOUBLES(nk * nj),
           *C = DOUBLES(nj * nl), *D = DOUBLES(ni * nl);
    init_d((size_t)ni * nk, A, 1), init_d((size_t)nk * nj, B, 2);
    init_d((size_t)nj * nl, C, 3), init_d((size_t)ni * nl, D, 4);
    flush_caches();
    kernel_2mm(ni, nj, nk, nl, 1.5, 1.2, tmp, A, B, C, D);
    Check += sum_d((size_t)ni * nl, D);
  } else if (!strcmp(k, "3mm")) {
    int ni = PICK(180, 800), nj = PICK(190, 900), nk = PICK(200, 1000), nl = PICK(210, 1100),
        nm = PICK(220, 1200);
    double *E = DOUBLES(ni * nj), *A = DOUBLES(ni * nk), *B = DOUBLES(nk * nj),
           *F = DOUBLES(nj * nl), *C = DOUBLES(nj * nm), *D = DOUBLES(nm * nl),
           *G = DOUBLES(ni * nl);
    init_d((size_t)ni * nk, A, 1), init_d((size_t)nk * nj, B, 2);
    init_d((size_t)nj * nm, C, 3), init_d((size_t)nm * nl, D, 4);
    flush_caches();
    kernel_3mm(ni, nj, nk, nl, nm, E, A, B, F, C, D, G);
    Check += sum_d((size_t)ni * nl, G);
  } else if (!strcmp(k, "atax")) {
    int m = PICK(390, 1900), n = PICK(410, 2100);
    double *A = DOUBLES(m * n), *x = DOUBLES(n), *y = DOUBLES(n), *tmp = DOUBLES(m);
    init_d((size_t)m * n, A, 1), init_d(n, x, 2);
    flush_caches();
    kernel_atax(m, n, A, x, y, tmp);
    Check += sum_d(n, y);
  } else if (!strcmp(k, "bicg")) {
    int m = PICK(390, 1900), n = PICK(410, 2100);
    double *A = DOUBLES(n * m), *s = DOUBLES(m), *q = DOUBLES(n), *p = DOUBLES(m),
           *r = DOUBLES(n);
    init_d((size_t)n * m, A, 1), init_d(m, p, 2), init_d(n, r, 3);
    flush_caches();
    kernel_bicg(m, n, A, s, q, p, r);
    Check += sum_d(m, s) + sum_d(n, q);
  } else if (!strcmp(k, "doitgen")) {
    int nq = PICK(40, 140), nr = PICK(50, 150), np = PICK(60, 160);
    double *A = DOUBLES(nr * nq * np), *C4 = DOUBLES(np * np), *sum = DOUBLES(np);
    init_d((size_t)nr * nq * np, A, 1), init_d((size_t)np * np, C4, 2);
    flush_caches();
    kernel_doitgen(nr, nq, np, A, C4, sum);
    Check += sum_d((size_t)nr * nq * np, A);
  } else if (!strcmp(k, "mvt")) {
    int n = PICK(400, 2000);
    double *x1 = DOUBLES(n), *x2 = DOUBLES(n), *y1 = DOUBLES(n), *y2 = DOUBLES(n),
           *A = DOUBLES(n * n);
    init_d(n, x1, 1), init_d(n, x2, 2), init_d(n, y1, 3), init_d(n, y2, 4);
    init_d((size_t)n * n, A, 5);
    flush_caches();
    kernel_mvt(n, x1, x2, y1, y2, A);
    Check += sum_d(n, x1) + sum_d(n, x2);
  } else if (!strcmp(k, "cholesky") || !strcmp(k, "lu")) {
    int n = PICK(400, 2000);
    double *A = DOUBLES(n * n);
    init_d((size_t)n * n, A, 1);
    flush_caches();
    if (k[0] == 'c')
      kernel_cholesky(n, A);
    else
      kernel_lu(n, A);
    Check += sum_d((size_t)n * n, A);
  } else if (!strcmp(k, "durbin")) {
    int n = PICK(400, 2000);
    double *r = DOUBLES(n), *y = DOUBLES(n), *z = DOUBLES(n);
    init_d(n, r, 1);
    flush_caches();
    kernel_durbin(n, r, y, z);
    Check += sum_d(n, y);
  } else if (!strcmp(k, "gramschmidt")) {
    int m = PICK(200, 1000), n = PICK(240, 1200);
    double *A = DOUBLES(m * n), *R = DOUBLES(n * n), *Q = DOUBLES(m * n);
    init_d((size_t)m * n, A, 1);
    flush_caches();
    kernel_gramschmidt(m, n, A, R, Q);
    Check += sum_d((size_t)n * n, R);
  } else if (!strcmp(k, "ludcmp")) {
    int n = PICK(400, 2000);
    double *A = DOUBLES(n * n), *b = DOUBLES(n), *x = DOUBLES(n), *y = DOUBLES(n);
    init_d((size_t)n * n, A, 1), init_d(n, b, 2);
    flush_caches();
    kernel_ludcmp(n, A, b, x, y);
    Check += sum_d(n, x);
  } else if (!strcmp(k, "trisolv")) {
    int n = PICK(400, 2000);
    double *L = DOUBLES(n * n), *x = DOUBLES(n), *b = DOUBLES(n);
    init_d((size_t)n * n, L, 1), init_d(n, b, 2);
    flush_caches();
    kernel_trisolv(n, L, x, b);
    Check += sum_d(n, x);
  } else if (!strcmp(k, "deriche")) {
    int w = PICK(720, 4096), h = PICK(480, 2160);
    float *in = FLOATS(w * h), *out = FLOATS(w * h), *y1 = FLOATS(w * h),
          *y2 = FLOATS(w * h);
    init_f((size_t)w * h, in, 1);
    flush_caches();
    kernel_deriche(w, h, 0.25f, in, out, y1, y2);
    Check += out[w * h / 2];
  } else if (!strcmp(k, "floyd-warshall")) {
    int n = PICK(500, 2800);
    int *path = INTS(n * n);
    init_i((size_t)n * n, path, 13);
    flush_caches();
    kernel_floyd_warshall(n, path);
    Check += path[n + 2];
  } else if (!strcmp(k, "nussinov")) {
    int n = PICK(500, 2500);
    char *seq = array(n);
    int *table = INTS(n * n);
    init_c(n, seq), init_i((size_t)n * n, table, 0);
    flush_caches();
    kernel_nussinov(n, seq, table);
    Check += table[n - 1];
  } else if (!strcmp(k, "adi")) {
    int t = TSTEPS(100, 500), n = PICK(200, 1000);
    double *u = DOUBLES(n * n), *v = DOUBLES(n * n), *p = DOUBLES(n * n), *q = DOUBLES(n * n);
    init_d((size_t)n * n, u, 1);
    flush_caches();
    kernel_adi(t, n, u, v, p, q);
    Check += sum_d((size_t)n * n, u);
  } else if (!strcmp(k, "fdtd-2d")) {
    int t = TSTEPS(100, 500), nx = PICK(200, 1000), ny = PICK(240, 1200);
    double *ex = DOUBLES(nx * ny), *ey = DOUBLES(nx * ny), *hz = DOUBLES(nx * ny),
           *fict = DOUBLES(t);
    init_d((size_t)nx * ny, ex, 1), init_d((size_t)nx * ny, ey, 2);
    init_d((size_t)nx * ny, hz, 3), init_d(t, fict, 4);
    flush_caches();
    kernel_fdtd_2d(t, nx, ny, ex, ey, hz, fict);
    Check += sum_d((size_t)nx * ny, hz);
  } else if (!strcmp(k, "heat-3d")) {
    int t = TSTEPS(100, 500), n = PICK(40, 120);
    double *A = DOUBLES(n * n * n), *B = DOUBLES(n * n * n);
    init_d((size_t)n * n * n, A, 1), init_d((size_t)n * n * n, B, 2);
    flush_caches();
    kernel_heat_3d(t, n, A, B);
    Check += sum_d((size_t)n * n * n, A);
  } else if (!strcmp(k, "jacobi-1d")) {
    int t = TSTEPS(100, 500), n = PICK(400, 2000);
    double *A = DOUBLES(n), *B = DOUBLES(n);
    init_d(n, A, 1), init_d(n, B, 2);
    flush_caches();
    kernel_jacobi_1d(t, n, A, B);
    Check += sum_d(n, A);
  } else if (!strcmp(k, "jacobi-2d")) {
    int t = TSTEPS(100, 500), n = PICK(250, 1300);
    double *A = DOUBLES(n * n), *B = DOUBLES(n * n);
    init_d((size_t)n * n, A, 1), init_d((size_t)n * n, B, 2);
    flush_caches();
    kernel_jacobi_2d(t, n, A, B);
    Check += sum_d((size_t)n * n, A);
  } else if (!strcmp(k, "seidel-2d")) {
    int t = TSTEPS(100, 500), n = PICK(400, 2000);
    double *A = DOUBLES(n * n);
    init_d((size_t)n * n, A, 1);
    flush_caches();
    kernel_seidel_2d(t, n, A);
    Check += sum_d((size_t)n * n, A);
  } else {
    return 0;
  }
  return 1;
}

static const char *const Kernels[] = {
    "correlation", "covariance", "gemm",    "gemver",         "gesummv",  "symm",
    "syr2k",       "syrk",       "trmm",    "2mm",            "3mm",      "atax",
    "bicg",        "doitgen",    "mvt",     "cholesky",       "durbin",   "gramschmidt",
    "lu",          "ludcmp",     "trisolv", "deriche",        "floyd-warshall",
    "nussinov",    "adi",        "fdtd-2d", "heat-3d",        "jacobi-1d", "jacobi-2d",
    "seidel-2d"};

int main(int argc, char **argv) {
  if (argc == 2 && !strcmp(argv[1], "list")) {
    for (size_t i = 0; i < sizeof(Kernels) / sizeof(Kernels[0]); i++)
      printf("%s\n", Kernels[i]);
    return 0;
  }
  int size = argc < 3 || argc > 4  ? -1
             : !strcmp(argv[2], "MEDIUM") ? MEDIUM
             : !strcmp(argv[2], "LARGE")  ? LARGE
                                          : -1;
  if (argc == 4 && (Tsteps = atoi(argv[3])) < 1)
    size = -1;
  if (size < 0) {
    fprintf(stderr, "usage: cache_polybench KERNEL MEDIUM|LARGE [TSTEPS], or cache_polybench list\n");
    return 2;
  }
  // The flush buffer and the largest LARGE kernel (deriche, 4 x 35 MB).
  ArenaSize = (size_t)256 << 20;
  if (posix_memalign((void **)&Arena, (size_t)4 << 20, ArenaSize)) {
    fprintf(stderr, "cache_polybench: out of memory\n");
    return 2;
  }
  FlushBuf = (const double *)array(FlushBytes);
  if (!run(argv[1], size)) {
    fprintf(stderr, "cache_polybench: no kernel '%s' (cache_polybench list)\n", argv[1]);
    return 2;
  }
  printf("%g\n", Check);
  return 0;
}
