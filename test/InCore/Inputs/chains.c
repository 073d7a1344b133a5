// Loops whose chains test/InCore/chains.test derives by hand on Skylake's
// scheduling model (-mcpu=skylake), built with -O1 -mavx2 -mfma.

// A decode step's mat-vec: each row is one chain of FMAs (no reassociation
// without -ffast-math); the row loop enters it once a row.
void matvec(long rows, long cols, const double *W, const double *x, double *y) {
  for (long i = 0; i < rows; ++i) {
    double acc = 0;
    for (long j = 0; j < cols; ++j)
      acc += W[i * cols + j] * x[j];
    y[i] = acc;
  }
}

// A Gauss-Seidel sweep in place: A[i][j-1], read at step j, is what step
// j-1 just wrote (the compiler keeps it in a register).
void seidel(long n, double *A) {
  for (long i = 1; i < n - 1; ++i)
    for (long j = 1; j < n - 1; ++j)
      A[i * n + j] = 0.2 * (A[i * n + j] + A[(i - 1) * n + j] + A[(i + 1) * n + j] +
                            A[i * n + j - 1] + A[i * n + j + 1]);
}

// A sweep whose update reads the value stored two steps before: the chain
// runs through memory (a store, then a load of it two iterations later).
void lag2(long n, double *x, const double *b) {
  for (long i = 2; i < n; ++i)
    x[i] = 0.5 * (x[i - 2] + b[i]);
}
