// What static analysis cannot make exact, a run measures exactly: a
// data-dependent branch, a data-dependent while loop, recursion.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %roofline_clangxx -O2 %s -o %t/a
// RUN: env ROOFLINE_PROFILE=%t/p.json %t/a
// RUN: FileCheck %s --input-file=%t/p.json
#include <cstdio>
#include <vector>
#define KERNEL __attribute__((noinline))

// 37 of the 100 elements are positive: 37 multiplies, 37*4 = 148 B stored,
// all 100 elements loaded (400 B).
// CHECK-LABEL: "display_name": "double_positive(int, float const*, float*)"
// CHECK: "total": 37,
// CHECK: "bytes": {"load": 400, "store": 148
KERNEL void double_positive(int n, const float *x, float *y) {
  for (int i = 0; i < n; ++i)
    if (x[i] > 0)
      y[i] = 2 * x[i];
}

// Halving 1.0 until below 1e-3 multiplies 10 times (1, 1/2, ..., 1/512 are
// all >= 1e-3; 1/1024 is not).
// CHECK-LABEL: "display_name": "halve_until_small(float*)"
// CHECK: "total": 10,
KERNEL void halve_until_small(float *x) {
  int i = 0;
  while (x[i] > 1e-3f) {
    x[i + 1] = x[i] * 0.5f;
    ++i;
  }
}

// A recursive sum of 64 doubles split in `parts` = 2 at each level: 63
// inner calls of one add each (the first part's sum is the start value),
// 64 leaves of one 8-byte load: 127 calls, 63 adds, 512 B loaded.
// CHECK-LABEL: "display_name": "tree_sum(int, int, double const*)"
// CHECK: "calls": 127,
// CHECK: "total": 63,
// CHECK: "bytes": {"load": 512, "store": 0
KERNEL double tree_sum(int parts, int n, const double *x) {
  if (n == 1)
    return x[0];
  int len = n / parts;
  double s = tree_sum(parts, len, x);
  for (int k = 1; k < parts; ++k)
    s += tree_sum(parts, len, x + k * len);
  return s;
}

int main(int argc, char **) {
  std::vector<float> x(100), y(100, 0.0f), h(64, 0.0f);
  for (int i = 0; i < 100; ++i)
    x[i] = i < 37 ? 1.0f + i : -1.0f;
  double_positive(100, x.data(), y.data());
  h[0] = 1.0f;
  halve_until_small(h.data());
  std::vector<double> d(64, 0.25);
  std::printf("%g %g %g\n", y[36], h[10], tree_sum(argc + 1, 64, d.data()));
}
