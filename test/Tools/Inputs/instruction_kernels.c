void gather(long n, const long *idx, const double *x, double *y) {
  for (long i = 0; i < n; i++)
    y[i] = x[idx[i]];
}
void saxpy(long n, float a, const float *x, float *y) {
  for (long i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
}
