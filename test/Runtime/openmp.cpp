// OpenMP: the outlined parallel region is counted on every thread; its
// totals are exact whatever the thread count.
// REQUIRES: openmp
// RUN: rm -rf %t && mkdir -p %t
// RUN: %roofline_clangxx -O2 -fopenmp %s -o %t/a
// RUN: env OMP_NUM_THREADS=4 ROOFLINE_PROFILE=%t/p4.json %t/a
// RUN: FileCheck %s --input-file=%t/p4.json --check-prefixes=CHECK,FOUR
// RUN: env OMP_NUM_THREADS=1 ROOFLINE_PROFILE=%t/p1.json %t/a
// RUN: FileCheck %s --input-file=%t/p1.json --check-prefixes=CHECK,ONE
#include <cstdio>
#include <vector>

// n = 100000: 2n = 200000 FLOPs, 8n B loaded, 4n B stored, split over the
// threads; each thread runs the outlined region once, and also loads the
// shared variables it captures (n, a, x, y: 4 + 4 + 8 + 8 = 24 B).
// CHECK-LABEL: "display_name": "omp_saxpy(int, float, float const*, float*) [clone .omp_outlined]"
// FOUR: "calls": 4,
// ONE: "calls": 1,
// CHECK: "total": 200000,
// FOUR: "bytes": {"load": 800096, "store": 400000
// ONE: "bytes": {"load": 800024, "store": 400000
void omp_saxpy(int n, float a, const float *x, float *y) {
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    y[i] = a * x[i] + y[i];
}

int main() {
  std::vector<float> x(100000, 1.0f), y(100000, 2.0f);
  omp_saxpy(100000, 3.0f, x.data(), y.data());
  std::printf("%g\n", y[99999]);
}
