/* Gauss-Seidel sweeps for the 2-D Laplace equation, in place, as textbooks
 * and solver codes write them: each point is replaced by the mean of its
 * four neighbours, two of which were updated earlier in the same sweep, so
 * every point waits for the one before it (a chain through memory).
 *
 *   gauss_seidel N SWEEPS        (an N x N grid of doubles)
 */
#include <stdio.h>
#include <stdlib.h>

void gauss_seidel(int n, double phi[n][n]) {
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < n - 1; j++)
      phi[i][j] = 0.25 * (phi[i - 1][j] + phi[i + 1][j] + phi[i][j - 1] +
                          phi[i][j + 1]);
}

int main(int argc, char **argv) {
  if (argc != 3 || atoi(argv[1]) < 3 || atoi(argv[2]) < 1) {
    fprintf(stderr, "usage: gauss_seidel N SWEEPS\n");
    return 2;
  }
  int n = atoi(argv[1]), sweeps = atoi(argv[2]);
  double(*phi)[n] = malloc(sizeof(double[n][n]));
  if (!phi)
    return 1;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      phi[i][j] = (i == 0 || j == 0) ? 1.0 : 0.0;
  for (int s = 0; s < sweeps; s++)
    gauss_seidel(n, phi);
  printf("%dx%d, %d sweeps, phi[n/2][n/2] %.12g\n", n, n, sweeps, phi[n / 2][n / 2]);
  return 0;
}
