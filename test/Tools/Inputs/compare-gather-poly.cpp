// The gather with 100 dependent multiply-adds an element: 200 FLOPs.
void gather_poly(int n, const int *idx, const float *x, float *y) {
  for (int i = 0; i < n; ++i) {
    float v = x[idx[i]];
    for (int k = 0; k < 100; ++k)
      v = v * v + 0.5f;
    y[i] = v;
  }
}
