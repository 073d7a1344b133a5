// A footprint measured at each call holds under the analysis's assumptions,
// which the call tests (FormulaCode.cpp, from typed conditions): here a
// compound guard, "n > 4 && m > 8". Before conditions were typed, the text
// "n > 4 && m > 8 (guard at ...)" could not be tested and such a kernel had
// no measured footprint at all.
//
// sten(n, m, x, y): y[i] = x[i-1] + x[i] + x[i+1] for 1 <= i < m-1 when
// n > 4 && m > 8. Distinct bytes per call: x[0..m-1], 4m read; y[1..m-2],
// 4m - 8 written (exact, under the guard).
// RUN: %clang_roofline -O2 -g -c %s -o /dev/null -Rpass-analysis=roofline 2>&1 | FileCheck %s --check-prefix=STATIC
// STATIC: remark: sten: {{.*}}; footprint per call: read 4*m B, written 4*m - 8 B (exact)
// STATIC-SAME: ; assumes n > 4 && m > 8 (guard at measured-assumptions.c:[[#@LINE+6]])
//
// Three calls with n = 5, m = 1000 meet it: 3 x 4000 = 12000 B read, 3 x 3992
// = 11976 B written, exact.
__attribute__((noinline)) void sten(long n, long m, const float *x,
                                    float *y) {
  if (n > 4 && m > 8)
    for (long i = 1; i < m - 1; ++i)
      y[i] = x[i - 1] + x[i] + x[i + 1];
}

// RUN: %roofline_clang -O2 -g %s -o %t.exe
// RUN: env ROOFLINE_PROFILE=%t.met.json %t.exe 3 0 && FileCheck %s --check-prefix=MET --input-file=%t.met.json
// MET: "name": "sten"
// MET: "footprint": {"read": 12000, "written": 11976, "exact": true}
//
// A fourth call with n = 3 breaks the guard: it runs no iteration and adds
// 0, and the sum is a lower bound, no longer exact.
// RUN: env ROOFLINE_PROFILE=%t.broken.json %t.exe 3 1 && FileCheck %s --check-prefix=BROKEN --input-file=%t.broken.json
// BROKEN: "name": "sten"
// BROKEN: "footprint": {"read": 12000, "written": 11976, "exact": false}

#include <stdlib.h>

int main(int argc, char **argv) {
  float *x = malloc(1000 * sizeof(float)), *y = malloc(1000 * sizeof(float));
  int met = atoi(argv[1]), broken = atoi(argv[2]);
  for (int i = 0; i < 1000; ++i)
    x[i] = y[i] = (float)(i % argc);
  for (int r = 0; r < met; ++r)
    sten(5, 1000, x, y);
  for (int r = 0; r < broken; ++r)
    sten(3, 1000, x, y);
  int out = y[3] < 0; // never: 0, with y used
  free(x);
  free(y);
  return out;
}
