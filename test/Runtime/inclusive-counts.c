// A kernel's measured counts include what its callees did for it, as its
// static count does: a straight-line helper kept out of line (its fixed
// cost counted with the call's block), a helper with a data-dependent
// branch, a callee with a loop (both measured: how much their counters
// grew during the call), a recursive helper, and a call into a library the
// plugin never saw (left out of both counts, and the record says so).
// RUN: rm -rf %t && mkdir -p %t
// RUN: clang -O2 -c %S/Inputs/uncounted_lib.c -o %t/lib.o
// RUN: %roofline_clang -O2 %s %t/lib.o -o %t/a
// RUN: env ROOFLINE_PROFILE=%t/p.json %t/a 1000 | FileCheck %s --check-prefix=OUT
// RUN: python3 %S/Inputs/records.py %t/p.json | FileCheck %s
// The same at -O0, where nothing is inlined and every helper is a call.
// RUN: %roofline_clang -O0 %s %t/lib.o -o %t/a0
// RUN: env ROOFLINE_PROFILE=%t/p0.json %t/a0 1000 | FileCheck %s --check-prefix=OUT
// RUN: python3 %S/Inputs/records.py %t/p0.json | FileCheck %s
#include <stdio.h>
#include <stdlib.h>

double library_scale(double v);

// 4 FLOPs a call (a*b, c*a, +, -), the same on every call.
__attribute__((noinline)) double straight(double a, double b, double c) {
  return a * b + c * a - b;
}

// Adds v / 2 to a total when v > 1: 2 FLOPs, 8 B loaded and 8 B stored
// then; nothing otherwise (a store on one path only: it stays a branch).
double Total;
__attribute__((noinline)) void branchy(double v) {
  if (v > 1.0)
    Total += v * 0.5;
}

// 2n FLOPs (a multiply and an add per element), 16n bytes loaded.
__attribute__((noinline)) double dot(int n, const double *x, const double *y) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i] * y[i];
  return s;
}

// 2d FLOPs: a multiply and an add at each of d levels.
__attribute__((noinline)) double rec(int d) {
  if (d == 0)
    return 1.0;
  return rec(d - 1) * 1.5 + 0.5;
}

// Per element: straight (4) + the add of 1.0 (1) = 5 FLOPs; 16 B loaded
// (x[i], y[i]), 8 B stored: n = 1000 gives 5000 FLOPs, 16000 B, 8000 B.
// CHECK-DAG: apply: calls=1 flops=5000 load=16000 store=8000 static=5*n uncounted=-
__attribute__((noinline)) void apply(int n, const double *x, double *y) {
  for (int i = 0; i < n; ++i)
    y[i] = straight(x[i], y[i], 2.0) + 1.0;
}

// x[i] = i % 4: 0, 1, 2, 3 repeating, so x[i] > 1 for half of the
// elements: 500 x 2 = 1000 FLOPs from branchy, plus the add per element:
// 2000. Loaded: x[i] twice (2 x 8n = 16000: the call may write what x
// points to, a double as Total is) and branchy's 500 x 8 = 4000; stored: y
// (8000) and branchy's 4000.
// CHECK-DAG: classify: calls=1 flops=2000 load=20000 store=12000 static={{.*}} uncounted=-
__attribute__((noinline)) void classify(int n, const double *x, double *y) {
  for (int i = 0; i < n; ++i) {
    branchy(x[i]);
    y[i] = x[i] + 1.0;
  }
}

// Two dots (2 x 2n = 4000 FLOPs, 2 x 16n = 32000 B) and their product (1).
// CHECK-DAG: dots: calls=1 flops=4001 load=32000 store=0 static=4*n + 1 uncounted=-
__attribute__((noinline)) double dots(int n, const double *x, const double *y) {
  return dot(n, x, y) * dot(n, y, x);
}

// dot's own record: its two calls from dots, 2 x 2000 FLOPs.
// CHECK-DAG: dot: calls=2 flops=4000 load=32000 store=0 static=2*n uncounted=-

// reps = 2: rec(10) and rec(11), 20 + 22 FLOPs, and an add each: 44.
// (The argument changes with k: a pure rec(10) would be hoisted out of
// the loop and run once.)
// CHECK-DAG: recursive: calls=1 flops=44 load=0 store=0 static={{.*}} uncounted=-
__attribute__((noinline)) double recursive(int reps) {
  double s = 0;
  for (int k = 0; k < reps; ++k)
    s += rec(10 + k);
  return s;
}

// The library's multiply and add are in no count: n adds of its own.
// CHECK-DAG: with_library: calls=1 flops=1000 load=8000 store=8000 static=n uncounted=library_scale
__attribute__((noinline)) void with_library(int n, double *y) {
  for (int i = 0; i < n; ++i)
    y[i] = library_scale(y[i]) + 1.0;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1000;
  double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
  for (int i = 0; i < n; ++i) {
    x[i] = i % 4;
    y[i] = 1;
  }
  apply(n, x, y);
  classify(n, x, y);
  double d = dots(n, x, y);
  double r = recursive(argc > 2 ? atoi(argv[2]) : 2);
  with_library(n, y);
  // OUT: done
  printf("%g %g %g\ndone\n", y[n - 1], d, r);
  return 0;
}
