// A sum that may not be reassociated: one add per add latency, whatever
// the roofs; for test/InCore/report.test.
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) double sum(long n, const double *a) {
  double s = 0;
  for (long i = 0; i < n; ++i)
    s += a[i];
  return s;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 100000;
  double *a = malloc(n * sizeof(double));
  for (long i = 0; i < n; ++i)
    a[i] = 1.0 / (double)(i + 1);
  double s = 0;
  for (int r = 0; r < 20; ++r)
    s += sum(n, a);
  printf("%.6f\n", s);
  free(a);
  return 0;
}
