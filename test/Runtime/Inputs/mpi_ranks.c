// An MPI program whose ranks do unequal work (load imbalance), for
// mpi.test: rank r scales n = 100000 * (r + 1) doubles, 10 times, so rank 3
// of 4 does four times rank 0's work. Over 4 ranks: 40 calls of scale,
// 10 * 100000 * (1 + 2 + 3 + 4) = 10000000 multiplies.
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) void scale(int n, double a, double *x) {
  for (int i = 0; i < n; ++i)
    x[i] *= a;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int n = 100000 * (rank + 1);
  double *x = malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i)
    x[i] = 1.0;
  for (int r = 0; r < 10; ++r)
    scale(n, 1.0001, x);
  double local = x[n - 1], sum = 0;
  MPI_Reduce(&local, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("%.4f\n", sum);
  free(x);
  MPI_Finalize();
  return 0;
}
