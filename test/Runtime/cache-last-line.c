// The traced copy skips an access of the line the thread's model touched
// last when it would change nothing there (a read, or a write to a line
// already dirty). Each kernel below would lose traffic if the skip were
// taken where it must not be:
//
// The model: every set simulated (ROOFLINE_CACHE_SAMPLE=1), a 512-byte
// 2-way l1 (4 sets of 64-byte lines; line L is in set L % 4) and a 1 MiB
// l2. buf is 64-byte aligned; "line L" is buf[8L .. 8L + 7]. Each kernel
// touches lines no kernel touched before it, so each starts cold.
//
//  - after_call (n = 1000): reads line 4i, calls evict, which reads lines
//    4(1000 + 2i) and 4(1000 + 2i + 1), both in set 0 with 4i (2 ways: 4i
//    is evicted), then reads line 4i again. 4 misses an iteration:
//    4 x 64 x 1000 = 256000 B at l1 (evict's included: it is a straight-line
//    helper counted in its caller). Skipping the second read (no reset
//    after the call) would give 192000.
//  - straddle (n = 1000): reads line 2i + 20000 (buf[8(2i + 20000)]), then
//    a 16-byte vector at its last 8 bytes, which reaches into line
//    2i + 20001: 2 misses, 2 x 64 x 1000 = 128000 B. Skipping the vector
//    because it starts in the line just read would give 64000.
//  - dirty (n = 1000): reads line i + 30000, then writes it. Every line is
//    dirty and written back when evicted: 1000 lines, less the at most 8
//    that are left in the l1 at the end, are written back from l1:
//    between 992 x 64 = 63488 and 64000 B. Skipping the write because it
//    follows a read of the same line would leave them clean: 0.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %roofline_clang -mllvm -roofline-cache-model -O2 %s -o %t/a
// RUN: env ROOFLINE_PROFILE=%t/p.json ROOFLINE_CACHE=512:2:64,1M:16:64 ROOFLINE_CACHE_SAMPLE=1 %t/a
// RUN: python3 %S/Inputs/traffic.py %t/p.json --bounds=dirty:l1:63488:64000 | FileCheck %s
// CHECK-DAG: after_call l1 size 512 fill 256000 writeback
// CHECK-DAG: straddle l1 size 512 fill 128000 writeback
// CHECK-DAG: dirty l1 size 512 fill 64000 writeback
// CHECK-DAG: dirty l1 writeback within [63488, 64000]: ok
#include <stdlib.h>

#define LINE(L) (8 * (long)(L))

__attribute__((noinline)) double evict(const double *buf, long i) {
  // A barrier: the compiler may not move after_call's loads across the call.
  __asm__ volatile("" ::: "memory");
  return buf[LINE(4 * (1000 + 2 * i))] + buf[LINE(4 * (1000 + 2 * i + 1))];
}

__attribute__((noinline)) double after_call(const double *buf, long n) {
  double s = 0;
  for (long i = 0; i < n; ++i) {
    s += buf[LINE(4 * i)];
    s += evict(buf, i);
    s += buf[LINE(4 * i) + 1];
  }
  return s;
}

typedef double v2 __attribute__((vector_size(16), aligned(8)));

__attribute__((noinline)) double straddle(const double *buf, long n) {
  double s = 0;
  for (long i = 0; i < n; ++i) {
    s += buf[LINE(2 * i + 20000)];
    v2 v = *(const v2 *)&buf[LINE(2 * i + 20000) + 7];
    s += v[0] * v[1];
  }
  return s;
}

__attribute__((noinline)) void dirty(double *buf, long n) {
  for (long i = 0; i < n; ++i) {
    double *p = &buf[LINE(i + 30000)];
    *p = *p + 1;
  }
}

int main(void) {
  double *buf = aligned_alloc(64, 64 * 40000);
  for (long i = 0; i < 8 * 40000; ++i)
    ((volatile double *)buf)[i] = 1;
  volatile double s = after_call(buf, 1000) + straddle(buf, 1000);
  dirty(buf, 1000);
  (void)s;
  free(buf);
  return 0;
}
