// Calls of a small leaf in a loop keep the leaf's counters in the loop's
// registers and add them at the loop's exit (lib/Transforms/KeptCalls.h):
// the counts are exactly those of every call adding to the leaf's block
// (the same records as with -roofline-kept-calls=false, the leaf's
// footprint from its arguments included: the calling loop works it out,
// once on entry where the leaf's n is the same every call (sweep, main)
// and at each call where it is not (varying)), from a kernel's
// loop, from a caller that is not instrumented, on other threads, and
// under ROOFLINE_TRACE and ROOFLINE_CACHE (every call through the leaf's
// own entry).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %roofline_clang -mllvm -roofline-cache-model -O2 %s -o %t/kept -lpthread
// RUN: env ROOFLINE_PROFILE=%t/kept.json %t/kept 1000 | FileCheck %s --check-prefix=OUT
// RUN: python3 %S/Inputs/kept_records.py %t/kept.json > %t/kept.txt
// RUN: FileCheck %s < %t/kept.txt
// Every call adding to the block itself: the same records, loops included.
// RUN: %roofline_clang -mllvm -roofline-cache-model -O2 -mllvm -roofline-kept-calls=false %s -o %t/each -lpthread
// RUN: env ROOFLINE_PROFILE=%t/each.json %t/each 1000 > /dev/null
// RUN: python3 %S/Inputs/kept_records.py %t/each.json > %t/each.txt
// RUN: diff %t/each.txt %t/kept.txt
// The forward path: tracing, and the cache model.
// RUN: env ROOFLINE_PROFILE=%t/trace.json ROOFLINE_TRACE=1 %t/kept 1000 > /dev/null
// RUN: python3 %S/Inputs/kept_records.py %t/trace.json > %t/trace.txt
// RUN: diff %t/each.txt %t/trace.txt
// RUN: env ROOFLINE_PROFILE=%t/cache.json ROOFLINE_CACHE=32K:8:64,1M:16:64 %t/kept 1000 > /dev/null
// RUN: python3 %S/Inputs/kept_records.py %t/cache.json > %t/cache.txt
// RUN: diff %t/each.txt %t/cache.txt
// Only the leaf instrumented: its callers are not, and still keep its
// counters; its record is the same.
// RUN: %roofline_clang -mllvm -roofline-cache-model -O2 -mllvm -roofline-kernels='^leaf$' %s -o %t/leaf -lpthread
// RUN: env ROOFLINE_PROFILE=%t/leaf.json %t/leaf 1000 > /dev/null
// RUN: python3 %S/Inputs/kept_records.py --only leaf %t/leaf.json > %t/leaf.txt
// RUN: python3 %S/Inputs/kept_records.py --only leaf %t/each.json | diff - %t/leaf.txt
// At -O0, where nothing is inferred of the functions: the same counts.
// RUN: %roofline_clang -mllvm -roofline-cache-model -O0 %s -o %t/o0 -lpthread
// RUN: env ROOFLINE_PROFILE=%t/o0.json %t/o0 1000 | FileCheck %s --check-prefix=OUT
// RUN: python3 %S/Inputs/kept_records.py %t/o0.json | FileCheck %s
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

// Per element: a multiply-add (2 FLOPs), x[i] and y[i] loaded (8 B), y[i]
// stored (4 B).
__attribute__((noinline)) void leaf(int n, float a, const float *x, float *y) {
  for (int i = 0; i < n; ++i)
    y[i] += a * x[i];
}

// reps calls of leaf(8): 16 FLOPs, 64 B loaded, 32 B stored each.
// Three calls (main's and two threads'), reps = 1000: 3 x 16000 FLOPs,
// 3 x 64000 B loaded, 3 x 32000 B stored.
// CHECK-DAG: sweep: calls=3 flops=48000 load=192000 store=96000
__attribute__((noinline)) void sweep(int reps, int n, const float *x,
                                     float *y) {
  for (int r = 0; r < reps; ++r)
    leaf(n, 0.5f, x, y);
}

// leaf(r % 9): 0 to 8 elements, n = 0 entering no loop. Over r < 1000:
// 111 cycles of 0 + 1 + ... + 8 = 36, and r = 999 (0 elements): 3996
// elements, 7992 FLOPs, 31968 B loaded, 15984 B stored.
// CHECK-DAG: varying: calls=1 flops=7992 load=31968 store=15984
__attribute__((noinline)) void varying(int reps, const float *x, float *y) {
  for (int r = 0; r < reps; ++r)
    leaf(r % 9, 0.25f, x, y);
}

// Two calls of leaf in one loop of a kernel, which reads leaf's counters
// around each: not kept (the loop's growth of leaf's block would be both
// calls'). 1000 x (2 + 3) elements: 10000 FLOPs, 40000 B loaded, 20000 B
// stored.
// CHECK-DAG: twice: calls=1 flops=10000 load=40000 store=20000
__attribute__((noinline)) void twice(int reps, const float *x, float *y) {
  for (int r = 0; r < reps; ++r) {
    leaf(2, 0.5f, x, y);
    leaf(3, 0.5f, x, y + 4);
  }
}

// A helper with a branch (its calls are measured, not a fixed cost):
// the multiply's block runs once on every call, so the calling loop adds
// its counter at its exit, before the calling kernel reads the growth.
float Total;
__attribute__((noinline)) float eos(float v) {
  float p = v * 0.5f;
  if (v > 1.0f)
    Total += p;
  return p;
}

// 1000 calls of eos(r % 3): 1000 multiplies, and v = 2 for r = 2, 5, ...,
// 998 (333 calls: an add, 4 B loaded and stored each); the loop's own
// 1000 adds: 2333 FLOPs, 1332 B loaded, 1332 B stored.
// CHECK-DAG: energy: calls=1 flops=2333 load=1332 store=1332
__attribute__((noinline)) float energy(int reps) {
  float s = 0;
  for (int r = 0; r < reps; ++r)
    s += eos((float)(r % 3));
  return s;
}

static float TX[16], TY[2][16];

static void *thread(void *Arg) {
  sweep(1000, 8, TX, TY[(long)Arg]);
  return 0;
}

// leaf's calls: sweep's 3 x 1000 (8 elements each: 24000), varying's 1000
// (3996), twice's 2000 (5000), main's loop's 1000 (3 elements each: 3000)
// and the 3 of the loop that prints (5 each: 15): 7003 calls and 36011
// elements, 72022 FLOPs, 288088 B loaded, 144044 B stored.
// CHECK-DAG: leaf: calls=7003 flops=72022 load=288088 store=144044
int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 1000;
  float x[16], y[16];
  for (int i = 0; i < 16; ++i) {
    x[i] = TX[i] = i;
    y[i] = TY[0][i] = TY[1][i] = 0;
  }
  sweep(reps, 8, x, y);
  varying(reps, x, y);
  twice(reps, x, y);
  float en = energy(reps);
  // main's own loop: kept too.
  for (int r = 0; r < reps; ++r)
    leaf(3, 0.125f, x, y);
  // A loop that calls printf (which may not return) is not kept: each
  // call adds to the block itself.
  for (int r = 0; r < 3; ++r) {
    leaf(5, 1.0f, x, y);
    printf("%d ", r);
  }
  pthread_t T[2];
  for (long t = 0; t < 2; ++t)
    pthread_create(&T[t], 0, thread, (void *)t);
  for (int t = 0; t < 2; ++t)
    pthread_join(T[t], 0);
  // OUT: 0 1 2 done
  printf("done %g %g %g\n", y[1], TY[1][7], en);
  return 0;
}
