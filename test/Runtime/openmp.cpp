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
// threads; each thread runs the outlined region once, and also loads what
// the outlined function receives by reference: n (4 B), its global thread
// id (4 B), the pointers x and y (8 + 8 B) and a (4 B, once per chunk):
// 28 B per thread. (Its loop bounds live in allocas: stack traffic.)
// CHECK-LABEL: "display_name": "omp_saxpy(int, float, float const*, float*) [clone .omp_outlined]"
// FOUR: "calls": 4,
// ONE: "calls": 1,
// CHECK: "total": 200000,
// FOUR: "bytes": {"load": 800112, "store": 400000
// ONE: "bytes": {"load": 800028, "store": 400000
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
