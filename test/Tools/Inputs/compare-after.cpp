// compare-before.cpp's chain fused into one kernel: a and b stay in
// registers (test/Tools/compare.test).
void mul_add_relu(int n, const float *x, const float *y, const float *z,
                  float *c) {
  for (int i = 0; i < n; ++i) {
    float b = x[i] * y[i] + z[i];
    c[i] = b > 0.0f ? b : 0.0f;
  }
}

// Unchanged by the fusion: in both files.
void scale(int n, float s, float *v) {
  for (int i = 0; i < n; ++i)
    v[i] *= s;
}
