/* A STREAM benchmark in the manner of McCalpin's stream.c (v5.10): the four
 * kernels Copy, Scale, Add and Triad over three arrays of doubles, OpenMP
 * threads with a static schedule and first-touch placement, NTIMES repeats
 * of each kernel, the first discarded, the best time kept, and the bytes
 * counted as STREAM counts them (Copy and Scale 16 B per element, Add and
 * Triad 24 B: no write-allocate traffic). Results are checked as STREAM
 * checks them. bench/stream_probe.py runs it against roofline-probe.
 *
 *   cc -O3 -march=native -fopenmp bench/stream.c -o stream
 *   ./stream ELEMENTS          (per array; STREAM's rule: 4x the LLC in all)
 *
 * Prints one line per kernel: "Copy: BEST_BYTES_PER_S AVG MIN_S MAX_S".
 */
#include <float.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define NTIMES 10

static double *a, *b, *c;

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 10000000L;
  if (n <= 0) {
    fprintf(stderr, "stream: ELEMENTS must be a positive integer\n");
    return 2;
  }
  a = aligned_alloc(64, ((n * sizeof(double) + 63) / 64) * 64);
  b = aligned_alloc(64, ((n * sizeof(double) + 63) / 64) * 64);
  c = aligned_alloc(64, ((n * sizeof(double) + 63) / 64) * 64);
  if (!a || !b || !c) {
    fprintf(stderr, "stream: cannot allocate 3 x %ld doubles\n", n);
    return 1;
  }
#pragma omp parallel for schedule(static)
  for (long j = 0; j < n; j++) {
    a[j] = 1.0;
    b[j] = 2.0;
    c[j] = 0.0;
  }
#pragma omp parallel for schedule(static)
  for (long j = 0; j < n; j++)
    a[j] = 2.0 * a[j];

  const double scalar = 3.0;
  double times[4][NTIMES];
  for (int k = 0; k < NTIMES; k++) {
    double t = omp_get_wtime();
#pragma omp parallel for schedule(static)
    for (long j = 0; j < n; j++)
      c[j] = a[j];
    times[0][k] = omp_get_wtime() - t;
    t = omp_get_wtime();
#pragma omp parallel for schedule(static)
    for (long j = 0; j < n; j++)
      b[j] = scalar * c[j];
    times[1][k] = omp_get_wtime() - t;
    t = omp_get_wtime();
#pragma omp parallel for schedule(static)
    for (long j = 0; j < n; j++)
      c[j] = a[j] + b[j];
    times[2][k] = omp_get_wtime() - t;
    t = omp_get_wtime();
#pragma omp parallel for schedule(static)
    for (long j = 0; j < n; j++)
      a[j] = b[j] + scalar * c[j];
    times[3][k] = omp_get_wtime() - t;
  }

  /* STREAM's validation: replay the kernels on scalars. */
  double aj = 2.0, bj = 2.0, cj = 0.0;
  for (int k = 0; k < NTIMES; k++) {
    cj = aj;
    bj = scalar * cj;
    cj = aj + bj;
    aj = bj + scalar * cj;
  }
  double errs[3] = {0, 0, 0};
  for (long j = 0; j < n; j++) {
    errs[0] += fabs(a[j] - aj);
    errs[1] += fabs(b[j] - bj);
    errs[2] += fabs(c[j] - cj);
  }
  for (int i = 0; i < 3; i++)
    if (errs[i] / n > 1e-13 * fabs(i == 0 ? aj : i == 1 ? bj : cj)) {
      fprintf(stderr, "stream: validation failed (array %c)\n", 'a' + i);
      return 1;
    }

  const char *names[4] = {"Copy", "Scale", "Add", "Triad"};
  const double bytes[4] = {2.0 * sizeof(double) * n, 2.0 * sizeof(double) * n,
                           3.0 * sizeof(double) * n, 3.0 * sizeof(double) * n};
  printf("threads: %d, elements per array: %ld (%.1f MiB each)\n",
         omp_get_max_threads(), n, n * sizeof(double) / 1048576.0);
  for (int j = 0; j < 4; j++) {
    double mn = FLT_MAX, mx = 0, avg = 0;
    for (int k = 1; k < NTIMES; k++) { /* the first pass is discarded */
      avg += times[j][k];
      mn = times[j][k] < mn ? times[j][k] : mn;
      mx = times[j][k] > mx ? times[j][k] : mx;
    }
    avg /= NTIMES - 1;
    printf("%s: %.6e %.6e %.6e %.6e\n", names[j], bytes[j] / mn, avg, mn, mx);
  }
  return 0;
}
