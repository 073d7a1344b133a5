// The calls a function times itself (not a calling loop's kept calls):
// a timed call hands its ticks and its weight (the calls it stands for:
// 1 for a thread's first 1024 calls, 64 for the one in 64 timed up to
// 65536 calls, 1024 for the one in 1024 after) to __roofline_timed_return
// at its return, which also registers the thread's block on its first call
// (always timed: it saw no call before it). A block the runtime never
// learned of would lose its thread's counts. "timed_calls" is the sum of
// the weights: the calls the timed ones stand for.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %roofline_clangxx -O2 %s -o %t/a -pthread
// RUN: env ROOFLINE_PROFILE=%t/p.json %t/a
// RUN: FileCheck %s --input-file=%t/p.json
#include <cstdio>
#include <thread>
#include <vector>
#define KERNEL __attribute__((noinline))

// once: one call per thread, from no loop: 4 threads, 4 calls, each
// thread's block registered by its only call; 2 FLOPs (an FMA) x 100
// elements x 4 calls = 800, 8 B read and 4 B written an element.
// CHECK-LABEL: "display_name": "once(int, float const*, float*)"
// CHECK: "calls": 4,
// CHECK-NEXT: "threads": 4,
// CHECK: "timed_calls": 4,
// CHECK: "total": 800,
// CHECK: "bytes": {"load": 3200, "store": 1600
KERNEL void once(int n, const float *x, float *y) {
  for (int i = 0; i < n; ++i)
    y[i] = 3.0f * x[i] + y[i];
}

// rec: depth 5, 6 calls a thread, all entered before any returns (each
// saw 0 calls, so each is timed); the innermost's return is the thread's
// first and registers the block. Each call adds 10 floats to 0 (10
// additions: 0 + x is not x for x = -0), and all but the innermost add
// what they called: 6 x 10 + 5 = 65 a thread, 260 in all.
// CHECK-LABEL: "display_name": "rec(int, int, float const*)"
// CHECK: "calls": 24,
// CHECK-NEXT: "threads": 4,
// CHECK: "timed_calls": 24,
// CHECK: "total": 260,
KERNEL float rec(int d, int n, const float *x) {
  float s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i];
  return d == 0 ? s : s + rec(d - 1, n, x);
}

// viaPointer: 3000 calls a thread through a pointer (no kept call): the
// first 1024 are timed (weight 1), then those that find a multiple of 64
// calls before them, 1024, 1088, ..., 2944: 31 more, of weight 64. 2
// threads: 6000 calls, 2 x (1024 + 31 x 64) = 6016.
// CHECK-LABEL: "display_name": "viaPointer(int, float*)"
// CHECK: "calls": 6000,
// CHECK-NEXT: "threads": 2,
// CHECK: "timed_calls": 6016,
// CHECK: "total": 48000,
KERNEL void viaPointer(int n, float *y) {
  for (int i = 0; i < n; ++i)
    y[i] = y[i] * 0.5f + 1.0f;
}

// sparse: 70000 calls in one thread: 1024 of weight 1; the multiples of
// 64 from 1024 to 65472, 1008 of weight 64 (64512); the multiples of 1024
// from 65536 to 69632, 5 of weight 1024 (5120): 70656, against 70000
// calls (the last stride is cut short by the run's end).
// CHECK-LABEL: "display_name": "sparse(int, float*)"
// CHECK: "calls": 70000,
// CHECK-NEXT: "threads": 1,
// CHECK: "timed_calls": 70656,
KERNEL void sparse(int n, float *y) {
  for (int i = 0; i < n; ++i)
    y[i] = y[i] * 0.5f + 1.0f;
}

int main() {
  std::vector<std::vector<float>> X(4, std::vector<float>(100, 1.0f));
  std::vector<std::vector<float>> Y(4, std::vector<float>(100, 0.0f));
  float R[4] = {};
  std::vector<std::thread> T;
  for (int t = 0; t < 4; ++t)
    T.emplace_back([&, t] {
      once(100, X[t].data(), Y[t].data());
      R[t] = rec(5, 10, X[t].data());
    });
  for (auto &Th : T)
    Th.join();
  void (*volatile Call)(int, float *) = viaPointer;
  std::vector<std::thread> U;
  for (int t = 0; t < 2; ++t)
    U.emplace_back([&, t] {
      for (int r = 0; r < 3000; ++r)
        Call(4, Y[t].data());
    });
  for (auto &Th : U)
    Th.join();
  void (*volatile Sparse)(int, float *) = sparse;
  for (int r = 0; r < 70000; ++r)
    Sparse(1, Y[0].data());
  std::printf("%g %g %g\n", Y[3][99], R[2], Y[1][3]);
}
