// The loops that broke instrumented builds (issue 13): the exit test reads
// the counter before its increment ('j <= n' exits give ScalarEvolution an
// i128 count), and __int128 counters. They compile at -O2 and -O0, run,
// and print what plain clang's build prints; the counts are exact.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %roofline_clang -O2 %s -o %t/o2
// RUN: %roofline_clang -O0 %s -o %t/o0
// RUN: clang -O2 %s -o %t/plain
// RUN: %t/plain > %t/plain.out
// RUN: env ROOFLINE_PROFILE=%t/o2.json %t/o2 > %t/o2.out
// RUN: env ROOFLINE_PROFILE=%t/o0.json %t/o0 > %t/o0.out
// RUN: diff %t/plain.out %t/o2.out
// RUN: diff %t/plain.out %t/o0.out
// RUN: FileCheck %s --input-file=%t/o2.json
// RUN: FileCheck %s --input-file=%t/o0.json
#include <stdio.h>

// j = m, m+3, ... while j <= n, and once more (the test is after the
// body): with m = 0, n = 30: j = 0..30 step 3 runs 11 times, then j = 33
// runs and exits: 12 fadds, 12 loads and 12 stores of 4 B.
// CHECK-LABEL: "display_name": "f"
// CHECK: "total": 12,
// CHECK: "bytes": {"load": 48, "store": 48
__attribute__((noinline)) void f(float *a, long n, long m) {
  for (long j = m;; j += 3) {
    a[j & 255] += 1.0f;
    if (!(j <= n))
      break;
  }
}

// i = 0 .. n-1 with n = 100: 100 fadds, 400 B each way.
// CHECK-LABEL: "display_name": "g"
// CHECK: "total": 100,
// CHECK: "bytes": {"load": 400, "store": 400
__attribute__((noinline)) void g(float *a, __int128 n) {
  for (__int128 i = 0; i < n; ++i)
    a[i & 255] += 1.0f;
}

int main(int argc, char **argv) {
  static float a[256];
  volatile long n = 30, m = 0;
  volatile int k = 100;
  (void)argv;
  f(a, n, m + (argc - 1));
  g(a, k);
  double s = 0;
  for (int i = 0; i < 256; ++i)
    s += a[i];
  printf("%g\n", s);
  return 0;
}
