// An ordinary C++ program for ci-recipe.test: a kernel (saxpy: 2n FLOPs,
// 12n bytes), a function without floating-point work (copy), and
// libstdc++ (std::vector, std::sort) at -O0.
#include <algorithm>
#include <cstdio>
#include <vector>

void saxpy(int n, float a, const float *x, float *y) {
  for (int i = 0; i < n; ++i)
    y[i] = a * x[i] + y[i];
}

void copy(int n, const float *x, float *y) {
  for (int i = 0; i < n; ++i)
    y[i] = x[i];
}

int main() {
  std::vector<float> x(1000, 1.0f), y(1000, 2.0f);
  saxpy(1000, 2.0f, x.data(), y.data());
  copy(1000, y.data(), x.data());
  std::sort(x.begin(), x.end());
  std::printf("%g\n", x[0]);
  return 0;
}
