// A kernel in a shared library and one in the program: one runtime in the
// process, one profile with both.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %roofline_clangxx -O2 -fPIC -shared -DLIBRARY %s -o %t/libkern.so
// RUN: %roofline_clangxx -O2 %s -o %t/a -L%t -lkern -Wl,-rpath,%t
// RUN: env ROOFLINE_PROFILE=%t/p.json %t/a
// RUN: FileCheck %s --input-file=%t/p.json
#include <cstdio>
#include <vector>

// scale in the library, n = 500, 3 calls: 1500 multiplies.
// CHECK-DAG: "display_name": "scale(int, double*)",
// CHECK-DAG: "total": 1500,
// add_one in the program, n = 500: 500 adds.
// CHECK-DAG: "display_name": "add_one(int, double*)",
// CHECK-DAG: "total": 500,
void scale(int n, double *x);
#ifdef LIBRARY
void scale(int n, double *x) {
  for (int i = 0; i < n; ++i)
    x[i] *= 2.0;
}
#else
__attribute__((noinline)) void add_one(int n, double *x) {
  for (int i = 0; i < n; ++i)
    x[i] += 1.0;
}
int main() {
  std::vector<double> x(500, 1.0);
  for (int r = 0; r < 3; ++r)
    scale(500, x.data());
  add_one(500, x.data());
  std::printf("%g\n", x[0]);
}
#endif
