// A tiny kernel called 10^6 times: every call counted.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %roofline_clangxx -O2 %s -o %t/a
// RUN: env ROOFLINE_PROFILE=%t/p.json %t/a
// RUN: FileCheck %s --input-file=%t/p.json
#include <cstdio>

// n = 4 per call: 4 fmuladds = 8 FLOPs, 16 B loaded, 16 B stored; 10^6
// calls: 8e6 FLOPs, 1.6e7 B each way.
// CHECK-LABEL: "display_name": "tiny(int, float*, float const*)"
// CHECK: "calls": 1000000,
// CHECK: "total": 8000000,
// CHECK: "bytes": {"load": 32000000, "store": 16000000
__attribute__((noinline)) void tiny(int n, float *y, const float *x) {
  for (int i = 0; i < n; ++i)
    y[i] = y[i] * 0.5f + x[i];
}

int main(int argc, char **) {
  float y[4] = {1, 2, 3, 4}, x[4] = {1, 1, 1, 1};
  int n = argc + 3; // 4, unknown to the compiler
  for (int r = 0; r < 1000000; ++r)
    tiny(n, y, x);
  std::printf("%g\n", y[0]);
}
