// Host functions whose variables are not named as the kernels' parameters,
// for roofline-audit on summaries compiled without -g, where the kernels'
// parameters are arg0, arg1, ... (test/Audit/positional.test derives every
// figure by hand).
#include <vector>

void mul(int n, const float *x, const float *y, float *a) {
  for (int i = 0; i < n; ++i)
    a[i] = x[i] * y[i];
}

void add(int n, const float *a, const float *z, float *b) {
  for (int i = 0; i < n; ++i)
    b[i] = a[i] + z[i];
}

// The length second: arg1 in a summary without -g.
void add_head(const float *a, int m, const float *z, float *b) {
  for (int i = 0; i < m; ++i)
    b[i] = a[i] + z[i];
}

// a = x*y; b = a + z over rows*cols elements.
void grid(int rows, int cols, const float *x, const float *y, const float *z,
          float *b) {
  int len = rows * cols;
  std::vector<float> a(len);
  mul(len, x, y, a.data());
  add(len, a.data(), z, b);
}

// mul writes all len elements of a; add_head reads the first head of them.
void prefix(int len, int head, const float *x, const float *y, const float *z,
            float *b) {
  std::vector<float> a(len);
  mul(len, x, y, a.data());
  add_head(a.data(), head, z, b);
}
