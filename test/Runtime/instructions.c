// Machine instructions, counted by a run and estimated by the summary
// (docs/counting.md, "Instructions"). Built without vectorisation or
// unrolling, the code that runs is the code the summary read, so the
// profile's count is the summary's formula at n = 1000 less what the run
// does not count: blocks of control alone outside loops (a few
// instructions a call). Both are derived by hand below (x86-64). With
// vectorisation the code as it runs differs, and only the profile follows
// it.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %roofline_clang -O2 -fno-vectorize -fno-slp-vectorize -fno-unroll-loops %s -o %t/scalar -mllvm -roofline-json=%t/summary.json
// RUN: env ROOFLINE_PROFILE=%t/scalar.json %t/scalar > %t/scalar.out
// RUN: FileCheck %s --input-file=%t/scalar.json
// RUN: FileCheck %s --check-prefix=STATIC --input-file=%t/summary.json
// RUN: %roofline_clang -O2 %s -o %t/vector
// RUN: env ROOFLINE_PROFILE=%t/vector.json %t/vector > %t/vector.out
// RUN: FileCheck %s --check-prefix=VECTOR --input-file=%t/vector.json
// RUN: clang -O2 %s -o %t/plain && %t/plain > %t/plain.out
// RUN: diff %t/plain.out %t/scalar.out
// RUN: diff %t/plain.out %t/vector.out
#include <stdio.h>
#include <stdlib.h>

#define KERNEL __attribute__((noinline))

// Per iteration: the idx load (its value addresses x: not foldable), the
// x load (stored: not foldable), the store, the i++ add, the compare and
// the branch: 6; the GEPs fold into the addresses (0). Outside the loop:
// the n > 0 test and its branch (2), ret (1); the preheader's branch falls
// through (0). The summary: 6n + 3. The run: the entry test's block and
// the return's have no work and are outside the loop: not counted, 6n =
// 6000.
// CHECK-LABEL: "display_name": "gather"
// CHECK: "instructions": 6000
// STATIC-LABEL: "display_name": "gather"
// STATIC: "instructions": "6*n + 3"
KERNEL void gather(long n, const long *idx, const double *x, double *y) {
  for (long i = 0; i < n; i++)
    y[i] = x[idx[i]];
}

// Per iteration: the x load folds into the compare (x86 compares against
// memory: 0), the fcmp, the zext of its result, c's add, i++, the compare
// and the branch: 6. The summary 6n + 3, the run 6n = 6000, all of it in
// its loop row.
// CHECK-LABEL: "display_name": "count_positive"
// CHECK: "instructions": 6000
// CHECK: "loops": [
// CHECK: "instructions": 6000
// STATIC-LABEL: "display_name": "count_positive"
// STATIC: "instructions": "6*n + 3"
KERNEL long count_positive(long n, const double *x) {
  long c = 0;
  for (long i = 0; i < n; i++)
    if (x[i] > 0)
      c++;
  return c;
}

// Vectorised and unrolled, count_positive runs fewer instructions than the
// scalar 6000 (the number depends on the target's vectors); its FLOPs and
// bytes are the same.
// VECTOR-LABEL: "display_name": "count_positive"
// VECTOR: "instructions": {{[1-5]?[0-9][0-9]?[0-9]?}},
// VECTOR-LABEL: "display_name": "main"

int main(void) {
  long n = 1000;
  long *idx = malloc(n * sizeof(long));
  double *x = malloc(n * sizeof(double)), *y = malloc(n * sizeof(double));
  for (long i = 0; i < n; i++) {
    idx[i] = (i * 7) % n;
    x[i] = i % 3 - 1.0;
  }
  gather(n, idx, x, y);
  printf("%g %ld\n", y[5], count_positive(n, y));
  return 0;
}
