// Totals are exact across threads: 4 std::threads, and OpenMP.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %roofline_clangxx -O2 %s -o %t/a -pthread
// RUN: env ROOFLINE_PROFILE=%t/p.json %t/a
// RUN: FileCheck %s --input-file=%t/p.json
#include <cstdio>
#include <thread>
#include <vector>
#define KERNEL __attribute__((noinline))

// 4 threads x 10 calls x n = 1000: 40 calls, 2*40000 = 80000 FLOPs,
// 8*40000 B loaded, 4*40000 B stored.
// CHECK-LABEL: "display_name": "saxpy(int, float, float const*, float*)"
// CHECK: "calls": 40,
// CHECK: "total": 80000,
// CHECK: "bytes": {"load": 320000, "store": 160000
KERNEL void saxpy(int n, float a, const float *x, float *y) {
  for (int i = 0; i < n; ++i)
    y[i] = a * x[i] + y[i];
}

int main() {
  std::vector<std::vector<float>> X(4, std::vector<float>(1000, 1.0f));
  std::vector<std::vector<float>> Y(4, std::vector<float>(1000, 0.0f));
  std::vector<std::thread> T;
  for (int t = 0; t < 4; ++t)
    T.emplace_back([&, t] {
      for (int r = 0; r < 10; ++r)
        saxpy(1000, 1.0f, X[t].data(), Y[t].data());
    });
  for (auto &Th : T)
    Th.join();
  std::printf("%g\n", Y[3][999]);
}
