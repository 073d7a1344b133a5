/* The 2-D five-point and 3-D seven-point Jacobi stencils the way
 * performance-model validation suites (kerncraft's examples, likwid's
 * stencil benchmarks) write them: C99 variable-length arrays, the
 * innermost index contiguous, source and destination swapped each sweep.
 *
 *   stencils 2d|3d BYTES SWEEPS   (BYTES: both grids together, e.g. 24K)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bytes_arg.h"
#include <string.h>

void jacobi_2d5pt(int M, int N, double a[M][N], double b[M][N], double s) {
  for (int j = 1; j < M - 1; ++j)
    for (int i = 1; i < N - 1; ++i)
      b[j][i] = (a[j][i - 1] + a[j][i + 1] + a[j - 1][i] + a[j + 1][i]) * s;
}

void jacobi_3d7pt(int M, int N, int P, double a[M][N][P], double b[M][N][P],
                  double s) {
  for (int k = 1; k < M - 1; ++k)
    for (int j = 1; j < N - 1; ++j)
      for (int i = 1; i < P - 1; ++i)
        b[k][j][i] = (a[k][j][i - 1] + a[k][j][i + 1] + a[k][j - 1][i] +
                      a[k][j + 1][i] + a[k - 1][j][i] + a[k + 1][j][i]) * s;
}

int main(int argc, char **argv) {
  int three = argc == 4 && !strcmp(argv[1], "3d");
  if (argc != 4 || (!three && strcmp(argv[1], "2d")) || atoi(argv[3]) < 1) {
    fprintf(stderr, "usage: stencils 2d|3d BYTES SWEEPS\n");
    return 2;
  }
  long points = parse_bytes(argv[2]) / (2 * sizeof(double));
  int sweeps = atoi(argv[3]);
  int side = three ? (int)cbrt((double)points) : (int)sqrt((double)points);
  if (side < 3) {
    fprintf(stderr, "stencils: BYTES too small\n");
    return 2;
  }
  long total = three ? (long)side * side * side : (long)side * side;
  double *a = malloc(total * sizeof(double)), *b = malloc(total * sizeof(double));
  if (!a || !b)
    return 1;
  for (long p = 0; p < total; ++p)
    a[p] = b[p] = (p % 13) * 0.25;
  for (int t = 0; t < sweeps; ++t) {
    if (three)
      jacobi_3d7pt(side, side, side, (double(*)[side][side])a,
                   (double(*)[side][side])b, 1.0 / 6);
    else
      jacobi_2d5pt(side, side, (double(*)[side])a, (double(*)[side])b, 0.25);
    double *tmp = a;
    a = b;
    b = tmp;
  }
  printf("%s side %d, %d sweeps, a[total/2] %.12g\n", argv[1], side, sweeps, a[total / 2]);
  return 0;
}
