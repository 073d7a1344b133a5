// Counts that wrap, do-while loops, truncated parameters and overflowing
// closed forms (issue 13): exact only with the range conditions that make
// them so, never negative, never 'invalid'. Static at -O2 and -O0, and the
// exact ones checked against a run of the same code.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang_roofline -O2 -g -c %s -o %t/o2.o -Rpass-analysis=roofline 2>&1 | FileCheck %s --check-prefixes=CHECK,O2
// RUN: %clang_roofline -O0 -g -c %s -o %t/o0.o -Rpass-analysis=roofline 2>&1 | FileCheck %s --check-prefixes=CHECK,O0
// RUN: %roofline_clang -O2 %s -o %t/run
// RUN: env ROOFLINE_PROFILE=%t/run.json %t/run
// RUN: FileCheck %s --check-prefix=MEASURED --input-file=%t/run.json
#include <stdint.h>

// An 8-bit counter from 22 up to 5: 22..127 is 106 values, then it wraps to
// -128 and runs to 4: 133 more: 239 iterations (the count was -17, exact).
// At -O0 ScalarEvolution cannot see the i8 counter: an unknown trip.
// O2: remark: wrap8: 239 FLOP fp32 (exact), load 956 B, store 956 B
// O0: remark: wrap8: trip_L[[@LINE+4]] - 1 FLOP fp32 (estimate)
// MEASURED-LABEL: "display_name": "wrap8"
// MEASURED: "total": 239,
__attribute__((noinline)) void wrap8(float *a) {
  for (int8_t i = 22; i != 5; i += 1)
    a[(uint8_t)i] += 1.0f;
}

// do { ... i += 16; } while (i < m) from i = n: the body runs once, then
// while n + 16k < m: 1 + floor((m - n - 1)/16) times when m > n; when
// m <= n it runs once, where the formula may be 0 or negative: so the
// test passing on entry is stated (it was not, and the count went negative).
// n = 0, m = 100: 1 + floor(99/16) = 7.
// CHECK: remark: dowhile: floor((-n + m - 1)/16) + 1 FLOP fp32 (exact), {{.*}}; assumes -n + m - 1 >= 0 (loop at wrap-and-ranges.c:[[@LINE+5]])
// MEASURED-LABEL: "display_name": "dowhile"
// MEASURED: "total": 7,
__attribute__((noinline)) void dowhile(float *a, long n, long m) {
  long i = n;
  do {
    a[i & 255] += 1.0f;
    i += 16;
  } while (i < m);
}

// The bound is (uint8_t)n, n's low 8 bits: the count is n - 256*floor(n/256)
// for every n (n = 300 runs 44 times; it was n, exact only for n <= 255,
// the range stated). n = 200: 200. -O2 tests n % 256 != 0 before the loop.
// CHECK: remark: trunc8: n - 256*floor(n/256) FLOP fp32 (exact)
// O2-SAME: assumes n - 256*floor(n/256) != 0 (guard at wrap-and-ranges.c:[[@LINE+4]]); n - 256*floor(n/256) - 1 >= 0 (loop at wrap-and-ranges.c:[[@LINE+4]])
// MEASURED-LABEL: "display_name": "trunc8"
// MEASURED: "total": 200,
__attribute__((noinline)) void trunc8(float *a, long n) {
  for (uint8_t i = 0; i < (uint8_t)n; ++i)
    a[i] += 1.0f;
}

// 2^40 x 2^40 = 2^80 iterations: past 64-bit coefficients. The formula is
// the unknown 'unknown' and the kernel an estimate (it was "invalid").
// CHECK: remark: huge: unknown FLOP fp32 (estimate), {{.*}}loop at wrap-and-ranges.c:[[@LINE+2]]: a count overflows 64-bit coefficients
__attribute__((noinline)) void huge(float *a) {
  for (long i = 0; i < (1L << 40); i++)
    for (long j = 0; j < (1L << 40); j++)
      a[(i + j) & 255] += 1.0f;
}

// A strided inner loop that starts at the outer counter: its count is a
// quotient of the outer counter, which cannot be summed: an unknown trip,
// never a formula with an internal name ($iv1).
// CHECK: remark: tri: {{.*}}trip_L[[@LINE+4]]{{.*}} (estimate)
// CHECK-NOT: $iv
__attribute__((noinline)) void tri(float *a, long n) {
  for (long i = 0; i < n; i++)
    for (long j = i; j < n; j += 4)
      a[(i + j) & 255] += 1.0f;
}

// An unsigned counter from a signed parameter: with n = -6 it starts at
// 2^64 - 6 and never runs; 30 - n counts it only for n >= 0, which is
// stated (it was 36, exact, under 'n < 30' alone).
// O2: remark: from_signed: -n + 30 FLOP fp32 (exact), {{.*}}n >= 0
__attribute__((noinline)) void from_signed(float *a, long n) {
  for (unsigned long i = n; i < 30; i += 1)
    a[i & 255] += 1.0f;
}

// The inner loop is skipped when i0 = -1 (17 > (unsigned long)-1 fails),
// where its trip formula 17 - i0 says 18: not exact (it was 145, exact;
// the run counts 10 + (9 + 10 + ... + 17) = 127).
// O2: remark: skipped_inner: 145 FLOP fp32 (estimate), {{.*}}the guard of loop at wrap-and-ranges.c:[[@LINE+4]]: skips it on some iterations, where its trip formula is not 0
__attribute__((noinline)) void skipped_inner(float *a) {
  for (int i0 = 8; i0 != -2; i0 -= 1) {
    a[(unsigned long)(3 * i0) & 255] += 1.0f;
    for (unsigned long i1 = 17; i1 > i0; i1 -= 1)
      a[(i0 + i1) & 255] += 2.0f;
  }
}

// A triangular nest whose inner guard LLVM writes 'i != 0': the nest is
// skipped only at i = 0, where the trip formula i is 0: exact.
// CHECK: remark: triangle: (n^2 - n)/2 FLOP fp32 (exact)
__attribute__((noinline)) void triangle(float *a, int n) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i; j++)
      a[(i + j) & 255] += 1.0f;
}

int main(int argc, char **argv) {
  static float a[256];
  volatile long zero = 0;
  (void)argv;
  wrap8(a);
  dowhile(a, zero, 100 + zero);
  trunc8(a, 200 + zero + (argc - 1));
  tri(a, 10 + zero);
  return a[0] > 1e9f;
}
