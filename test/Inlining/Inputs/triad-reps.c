// A STREAM triad as a static function, called argv[1] times from main.
#include <stdio.h>
#include <stdlib.h>
static void triad(int n, double s, const double *b, const double *c, double *a) {
  for (int i = 0; i < n; ++i) a[i] = b[i] + s * c[i];
}
int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 1, n = 1000;
  double *a = malloc(n * sizeof(double)), *b = malloc(n * sizeof(double)),
         *c = malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i) b[i] = c[i] = i % (reps + 2);
  for (int r = 0; r < reps; ++r) triad(n, 3.0, b, c, a);
  printf("%g\n", a[n - 1]);
  return 0;
}
