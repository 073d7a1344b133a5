// The elementwise chain a = x*y; b = a + z; c = relu(b) as three kernels
// (test/Tools/compare.test; compare-after.cpp is the same chain fused).
void mul(int n, const float *x, const float *y, float *a) {
  for (int i = 0; i < n; ++i)
    a[i] = x[i] * y[i];
}

void add(int n, const float *a, const float *z, float *b) {
  for (int i = 0; i < n; ++i)
    b[i] = a[i] + z[i];
}

void relu(int n, const float *b, float *c) {
  for (int i = 0; i < n; ++i)
    c[i] = b[i] > 0.0f ? b[i] : 0.0f;
}

// Unchanged by the fusion: in both files.
void scale(int n, float s, float *v) {
  for (int i = 0; i < n; ++i)
    v[i] *= s;
}
