// An LLM decode step's mat-vec, called once a token: each row is one chain
// of FMAs (no reassociation without -ffast-math); for
// test/InCore/chains.test.
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) void matvec(long rows, long cols, const double *W,
                                      const double *x, double *y) {
  for (long i = 0; i < rows; ++i) {
    double acc = 0;
    for (long j = 0; j < cols; ++j)
      acc += W[i * cols + j] * x[j];
    y[i] = acc;
  }
}

int main(int argc, char **argv) {
  long rows = argc > 1 ? atol(argv[1]) : 100;
  long cols = argc > 2 ? atol(argv[2]) : 512;
  double *W = malloc(rows * cols * sizeof(double));
  double *x = malloc(cols * sizeof(double)), *y = malloc(rows * sizeof(double));
  for (long k = 0; k < rows * cols; ++k)
    W[k] = 1.0 / (double)(k % 97 + 1);
  for (long j = 0; j < cols; ++j)
    x[j] = 1.0 + (double)j / cols;
  double s = 0;
  for (int t = 0; t < 10; ++t) {
    matvec(rows, cols, W, x, y);
    s += y[t % rows];
  }
  printf("%.6f\n", s);
  free(W), free(x), free(y);
  return 0;
}
