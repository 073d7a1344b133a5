// A loop's time. A function whose one source loop is all it does (its
// compiled loops, a vector loop and its remainder, are that loop's; the
// code around them is their setup and calls nothing) is timed by its
// calls alone: the loop's "seconds" are the calls', and its code reads the
// clock twice a timed call, not once more at each loop's entry and exit.
// Any other loop keeps its own timer.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %roofline_clang -O2 %s -o %t/a
// RUN: env ROOFLINE_PROFILE=%t/p.json %t/a > %t/out
// RUN: FileCheck %s --input-file=%t/p.json
// RUN: %roofline_clang -O2 -S -emit-llvm %s -o %t/a.ll
// RUN: FileCheck %s --check-prefix=IR --input-file=%t/a.ll
#include <stdio.h>

#define KERNEL __attribute__((noinline))

// whole: one source loop, nothing else. Its loop row's seconds are the
// function's, to the digit (the same ticks, scaled by the same calls).
// CHECK-LABEL: "display_name": "whole"
// CHECK: "calls": 3000,
// CHECK: "seconds": [[WHOLE:[0-9.e+-]+]],
// CHECK-NEXT: "timing": "calls",
// CHECK: "loops": [
// CHECK-NEXT: {"line": [[@LINE+10]], {{.*}} "entries": 3000, {{.*}} "seconds": [[WHOLE]], "instructions"
// The call's clock at entry and at return, no other; the read that stops
// a timer is rdtscp, which waits for the work before it to execute (an
// out-of-order core runs a plain rdtsc ahead of a draining chain):
// IR-LABEL: define {{.*}} @whole(
// IR: call i64 @llvm.readcyclecounter()
// IR: call { i64, i32 } @llvm.x86.rdtscp()
// IR-NOT: {{readcyclecounter|rdtscp}}
// IR-LABEL: define {{.*}} @around(
KERNEL void whole(int n, float a, const float *x, float *y) {
  for (int i = 0; i < n; ++i)
    y[i] += a * x[i];
}

// around: a call before its loop (printf's time is not the loop's): the
// loop keeps its own timer, beside the calls' two reads at least one at
// the entry and one at the exit of each of its compiled loops (the vector
// loop and its remainder).
// CHECK-LABEL: "display_name": "around"
// CHECK: "loops": [
// CHECK-NEXT: {"line": [[@LINE+5]], {{.*}} "entries": 1, {{.*}} "seconds": {{[0-9.e+-]+}}, "instructions"
// IR-COUNT-8: call {{i64 @llvm.readcyclecounter|\{ i64, i32 \} @llvm.x86.rdtscp}}()
// IR-LABEL: define {{.*}} @twoLoops(
KERNEL void around(int n, const float *x, float *y) {
  printf("around %d\n", n);
  for (int i = 0; i < n; ++i)
    y[i] = 2.0f * x[i];
}

// twoLoops: two source loops, each timed on its own (two rows whose times
// are theirs, not the call's); neither is vectorised or unrolled here.
// CHECK-LABEL: "display_name": "twoLoops"
// CHECK: "loops": [
// CHECK-NEXT: {"line": [[@LINE+8]], {{.*}} "entries": 10, {{.*}} "seconds": {{[0-9.e+-]+}}, "instructions"
// CHECK-NEXT: {"line": [[@LINE+10]], {{.*}} "entries": 10, {{.*}} "seconds": {{[0-9.e+-]+}}, "instructions"
// IR-COUNT-6: call {{i64 @llvm.readcyclecounter|\{ i64, i32 \} @llvm.x86.rdtscp}}()
// IR-NOT: {{readcyclecounter|rdtscp}}
// IR-LABEL: define {{.*}} @main(
KERNEL float twoLoops(int n, const float *x) {
  float s = 0, t = 1;
#pragma clang loop vectorize(disable) unroll(disable)
  for (int i = 0; i < n; ++i)
    s += x[i];
#pragma clang loop vectorize(disable) unroll(disable)
  for (int i = 0; i < n; ++i)
    t *= x[i];
  return s + t;
}

int main(void) {
  static float x[1000], y[1000];
  for (int i = 0; i < 1000; ++i)
    x[i] = 1.0f;
  for (int r = 0; r < 3000; ++r)
    whole(1000, 0.5f, x, y);
  around(1000, x, y);
  float s = 0;
  for (int r = 0; r < 10; ++r)
    s += twoLoops(1000, x);
  printf("%g %g\n", y[5], s);
  return 0;
}
