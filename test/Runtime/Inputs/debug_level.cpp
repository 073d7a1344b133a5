// saxpy (never inlined) and scale (static: inlined into main at -O2),
// called once each with n from the command line.
#include <cstdio>
#include <cstdlib>
#include <vector>
__attribute__((noinline)) void saxpy(int n, float a, const float *x, float *y) {
  for (int i = 0; i < n; ++i)
    y[i] = a * x[i] + y[i];
}
static void scale(int n, float s, float *y) {
  for (int i = 0; i < n; ++i)
    y[i] *= s;
}
int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 1000;
  std::vector<float> x(n, 1.0f), y(n, 2.0f);
  saxpy(n, 3.0f, x.data(), y.data());
  scale(n, 0.5f, y.data());
  std::printf("%g\n", y[n - 1]);
}
