// An OpenMP parallel region's work counts for the function that forks it,
// over every thread of the team, as any callee's does: its FLOPs, its bytes
// and (ROOFLINE_CACHE) its cache traffic. A region nested in another runs
// on the thread that reached it, and counts once.
// REQUIRES: openmp
// RUN: rm -rf %t && mkdir -p %t
// RUN: %roofline_clang -mllvm -roofline-cache-model -O2 -fopenmp %s -o %t/a
//
// driver: 4 steps of stream(), each 2 FLOPs and 8 B loaded, 4 B stored per
// element (n = 65536), plus one add of y[t] per step:
//   FLOPs 4 * 2n + 4 = 524292; stores 4 * 4n = 1048576 B.
// nested: 64 rows of a parallel loop, each calling row(), whose parallel
// loop over 1024 elements runs on the calling thread (nesting is off):
//   2 * 64 * 1024 = 131072 FLOPs, 64 * 1024 * 4 = 262144 B stored.
// main: both, and its own loop storing x and y (2 * 4n = 524288 B):
//   524292 + 131072 = 655364 FLOPs; 524288 + 1048576 + 262144 = 1835008 B.
// All are the same for 1, 3 and 4 threads.
// RUN: env OMP_NUM_THREADS=4 ROOFLINE_PROFILE=%t/p4.json %t/a | FileCheck %s --check-prefix=OUT
// RUN: python3 %S/Inputs/records.py %t/p4.json | FileCheck %s
// RUN: env OMP_NUM_THREADS=3 ROOFLINE_PROFILE=%t/p3.json %t/a
// RUN: python3 %S/Inputs/records.py %t/p3.json | FileCheck %s
// RUN: env OMP_NUM_THREADS=1 ROOFLINE_PROFILE=%t/p1.json %t/a
// RUN: python3 %S/Inputs/records.py %t/p1.json | FileCheck %s
// OUT: 65536 131072
// CHECK-DAG: driver: calls=1 flops=524292 load={{[0-9]+}} store=1048576 {{.*}} uncounted=-
// CHECK-DAG: stream.omp_outlined: calls={{[0-9]+}} flops=524288 load={{[0-9]+}} store=1048576
// CHECK-DAG: main: calls=1 flops=655364 load={{[0-9]+}} store=1835008 {{.*}} uncounted=printf
// CHECK-DAG: nested.omp_outlined: calls={{[0-9]+}} flops=131072 load={{[0-9]+}} store=262144
// CHECK-DAG: row.omp_outlined: calls=64 flops=131072 load={{[0-9]+}} store=262144
//
// Traffic, every set simulated: a private 32 KiB 8-way l1 per thread and a
// shared 1 MiB 16-way l2. x and y are 256 KiB each, 64-byte aligned; the
// static schedule gives each thread the same line-aligned chunk at every
// step, more than its l1 holds: each step fills every line of x and y into
// one thread's l1 once, 4 * 512 KiB = 2097152 B, whatever the thread count.
// main adds its own loop's x and y (524288 B) and nested's m (262144 B):
// 2883584 B at l1. At l2 x, y and m are filled once each: 786432 B. Up to
// 8 KiB more: y[t] in driver, the regions' arguments and the threads'
// stack lines. Before a region's team counted for its caller, driver had
// only the forking thread's share (1/4 at four threads), and main's l2 had
// only the forking thread's rows of m.
// DEFINE: %{fills} = --fills=driver:l1:2097152:2105344 \
// DEFINE:   --fills=stream.omp_outlined:l1:2097152:2105344 \
// DEFINE:   --fills=main:l1:2883584:2891776 --fills=main:l2:786432:794624
// RUN: env OMP_NUM_THREADS=4 ROOFLINE_CACHE=32K:8:64,1M:16:64 ROOFLINE_CACHE_SAMPLE=1 ROOFLINE_PROFILE=%t/c4.json %t/a | FileCheck %s --check-prefix=OUT
// RUN: python3 %S/Inputs/traffic.py %t/c4.json %{fills} | FileCheck %s --check-prefix=TRAFFIC
// RUN: env OMP_NUM_THREADS=1 ROOFLINE_CACHE=32K:8:64,1M:16:64 ROOFLINE_CACHE_SAMPLE=1 ROOFLINE_PROFILE=%t/c1.json %t/a | FileCheck %s --check-prefix=OUT
// RUN: python3 %S/Inputs/traffic.py %t/c1.json %{fills} | FileCheck %s --check-prefix=TRAFFIC
// TRAFFIC: driver l1 fill within [2097152, 2105344]: ok
// TRAFFIC: stream.omp_outlined l1 fill within [2097152, 2105344]: ok
// TRAFFIC: main l1 fill within [2883584, 2891776]: ok
// TRAFFIC: main l2 fill within [786432, 794624]: ok
#include <stdio.h>

enum { N = 65536, Rows = 64, Cols = 1024 };
static float x[N] __attribute__((aligned(64)));
static float y[N] __attribute__((aligned(64)));
static float m[Rows][Cols] __attribute__((aligned(64)));

__attribute__((noinline)) void stream(int n, float a) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; ++i)
    y[i] = a * x[i] + y[i];
}

__attribute__((noinline)) float driver(int steps, int n) {
  float s = 0;
  for (int t = 0; t < steps; ++t) {
    stream(n, 0.5f);
    s += y[t];
  }
  return s;
}

__attribute__((noinline)) void row(float *r, int n, float a) {
#pragma omp parallel for
  for (int j = 0; j < n; ++j)
    r[j] = a * r[j] + 1.0f;
}

__attribute__((noinline)) void nested(int rows, int cols) {
#pragma omp parallel for
  for (int i = 0; i < rows; ++i)
    row(m[i], cols, 2.0f);
}

int main(void) {
  for (int i = 0; i < N; ++i) {
    x[i] = 1;
    y[i] = 2;
  }
  float s = driver(4, N);
  nested(Rows, Cols);
  printf("%d %d\n", (int)(s > 0) * N, Rows * Cols * 2);
  return 0;
}
