// A kernel's cache traffic from the model (ROOFLINE_CACHE) includes what
// its callees moved for it, as its counts do: a straight-line helper kept
// out of line (no record of its own: its traced form counts only for the
// calls it is inside) and a callee with a loop (a kernel of its own, whose
// record keeps its own traffic).
//
// Every set is simulated (32 KiB 8-way l1, 256 KiB 8-way l2, 64-byte
// lines); flush() reads 1 MiB first, so the kernels start cold and their
// fills at each level are their arrays' lines, each once:
//  - sums: x is 8n doubles (n = 16384: 1 MiB), y is n doubles (128 KiB):
//    1048576 + 131072 = 1179648 B. line_sum loads x; before, sums had
//    only y's 131072.
//  - dot (256 calls, n = 512): A is 256 rows of 4 KiB (1 MiB) and v 4 KiB,
//    which stays in l1 (one line per set; each row brings one line of A
//    per set, and v's is used again in the same row): 1048576 + 4096 =
//    1052672 B.
//  - rows: dot's 1052672 + out, 256 doubles (2 KiB): 1054720 B.
//  - then main calls dot itself, after another flush, over two cold arrays
//    of 65536 doubles (512 KiB each): dot's record gains 1048576 B (2101248
//    in all), and rows' does not: a miss at dot's site counts for rows
//    only while dot runs inside rows (the runtime keeps each site's rows
//    per calling context).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %roofline_clang -mllvm -roofline-cache-model -O2 %s -o %t/a
// RUN: env ROOFLINE_PROFILE=%t/p.json ROOFLINE_CACHE=32K:8:64,256K:8:64 ROOFLINE_CACHE_SAMPLE=1 %t/a | FileCheck %s --check-prefix=OUT
// RUN: python3 %S/Inputs/traffic.py %t/p.json | FileCheck %s
// OUT: 1179648 1054720
// CHECK-DAG: sums l1 size 32768 fill 1179648 writeback
// CHECK-DAG: sums l2 size 262144 fill 1179648 writeback
// CHECK-DAG: dot l1 size 32768 fill 2101248 writeback
// CHECK-DAG: dot l2 size 262144 fill 2101248 writeback
// CHECK-DAG: rows l1 size 32768 fill 1054720 writeback
// CHECK-DAG: rows l2 size 262144 fill 1054720 writeback
// CHECK-NOT: line_sum
//
// At -O0 every access of the frames is traced too: a few stack lines more.
// RUN: %roofline_clang -mllvm -roofline-cache-model -O0 %s -o %t/a0
// RUN: env ROOFLINE_PROFILE=%t/p0.json ROOFLINE_CACHE=32K:8:64,256K:8:64 ROOFLINE_CACHE_SAMPLE=1 %t/a0 | FileCheck %s --check-prefix=OUT
// RUN: python3 %S/Inputs/traffic.py %t/p0.json --fills=sums:l1:1179648:1180672 \
// RUN:   --fills=rows:l1:1054720:1055744 --fills=dot:l1:2101248:2102272 | FileCheck %s --check-prefix=O0
// O0: sums l1 fill within [1179648, 1180672]: ok
// O0: rows l1 fill within [1054720, 1055744]: ok
// O0: dot l1 fill within [2101248, 2102272]: ok
//
// A run without the model is unchanged by it, and has no traffic.
// RUN: env ROOFLINE_PROFILE=%t/off.json %t/a | FileCheck %s --check-prefix=OUT
// RUN: python3 %S/Inputs/traffic.py %t/off.json | FileCheck %s --check-prefix=OFF
// OFF: sums no traffic
#include <stdio.h>
#include <stdlib.h>

// 7 FLOPs, one 64-byte line: no loop, the same work on every call.
__attribute__((noinline)) double line_sum(const double *p) {
  return p[0] + p[1] + p[2] + p[3] + p[4] + p[5] + p[6] + p[7];
}

__attribute__((noinline)) void sums(long n, const double *x, double *y) {
  for (long i = 0; i < n; ++i)
    y[i] = line_sum(x + 8 * i);
}

__attribute__((noinline)) double dot(long n, const double *a, const double *v) {
  double s = 0;
  for (long j = 0; j < n; ++j)
    s += a[j] * v[j];
  return s;
}

__attribute__((noinline)) void rows(long m, long n, const double *A, const double *v,
                                    double *out) {
  for (long r = 0; r < m; ++r)
    out[r] = dot(n, A + r * n, v);
}

__attribute__((noinline)) double flush(long n, const double *b) {
  double s = 0;
  for (long i = 0; i < n; i += 8)
    s += b[i];
  return s;
}

static double *array(long n) {
  double *p = aligned_alloc(64, n * sizeof(double));
  for (long i = 0; i < n; ++i)
    p[i] = (double)(i % 7);
  return p;
}

int main(void) {
  long n = 16384, m = 256, k = 512, f = 1 << 17;
  double *x = array(8 * n), *y = array(n), *A = array(m * k), *v = array(k),
         *out = array(m), *b = array(f);
  double s = flush(f, b);
  sums(n, x, y);
  s += flush(f, b);
  rows(m, k, A, v, out);
  double *c = array(f / 2), *d = array(f / 2);
  s += flush(f, b);
  s += dot(f / 2, c, d);
  s += y[5] + out[3];
  printf("%ld %ld\n", 8 * n * 8 + n * 8, m * k * 8 + k * 8 + m * 8);
  return s < 0;
}
