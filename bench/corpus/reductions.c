/* Sum and dot-product reductions as numerical codes write them (a plain
 * loop into a double accumulator, as in BLAS reference ddot or a
 * conjugate-gradient norm), repeated over a working set.
 *
 *   reductions BYTES REPEATS     (BYTES: the working set, e.g. 16K, 256K, 256M)
 *
 * Built -O3 -march=native the adds stay in source order: one chain through
 * the accumulator. With -ffast-math the compiler reassociates them into
 * several vector accumulators.
 */
#include <stdio.h>
#include <stdlib.h>

#include "bytes_arg.h"

double sum(const double *x, long n) {
  double s = 0.0;
  for (long i = 0; i < n; i++)
    s += x[i];
  return s;
}

double dot(const double *x, const double *y, long n) {
  double s = 0.0;
  for (long i = 0; i < n; i++)
    s += x[i] * y[i];
  return s;
}

int main(int argc, char **argv) {
  if (argc != 3 || parse_bytes(argv[1]) < 64 || atol(argv[2]) < 1) {
    fprintf(stderr, "usage: reductions BYTES REPEATS\n");
    return 2;
  }
  long n = parse_bytes(argv[1]) / (2 * sizeof(double)), repeats = atol(argv[2]);
  double *x = malloc(n * sizeof(double)), *y = malloc(n * sizeof(double));
  if (!x || !y)
    return 1;
  for (long i = 0; i < n; i++)
    x[i] = 1.0 / (i + 1), y[i] = (i % 7) * 0.5;
  double total = 0;
  for (long r = 0; r < repeats; r++) {
    total += sum(x, n);
    total += dot(x, y, n);
    x[r % n] += 1e-9;
  }
  printf("n %ld, %ld repeats, total %.12g\n", n, repeats, total);
  return 0;
}
