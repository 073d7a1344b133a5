// A gather: idx and y exact (4n B each), x between 0 and its counted 4n B.
void gather(int n, const int *idx, const float *x, float *y) {
  for (int i = 0; i < n; ++i)
    y[i] = 2.0f * x[idx[i]];
}
