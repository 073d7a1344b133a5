// The pass over code that is hard to instrument: exceptions, setjmp/longjmp,
// computed goto, coroutines, a musttail call, at -O0 to -O3. The
// instrumented IR verifies, the programs give the plain program's output.
// RUN: rm -rf %t && mkdir -p %t
// RUN: clang++ -O2 -std=c++20 %s -o %t/plain && %t/plain > %t/plain.out
// RUN: %roofline_clangxx -O0 -std=c++20 -S -emit-llvm %s -o %t/o0.ll && opt -passes=verify -disable-output %t/o0.ll
// RUN: %roofline_clangxx -O1 -std=c++20 -S -emit-llvm %s -o %t/o1.ll && opt -passes=verify -disable-output %t/o1.ll
// RUN: %roofline_clangxx -O2 -std=c++20 -S -emit-llvm %s -o %t/o2.ll && opt -passes=verify -disable-output %t/o2.ll
// RUN: %roofline_clangxx -O3 -std=c++20 -S -emit-llvm %s -o %t/o3.ll && opt -passes=verify -disable-output %t/o3.ll
// RUN: %roofline_clangxx -O0 -std=c++20 %s -o %t/a0 && env ROOFLINE_PROFILE=%t/p0.json %t/a0 > %t/a0.out && diff %t/plain.out %t/a0.out
// RUN: %roofline_clangxx -O2 -std=c++20 %s -o %t/a2 && env ROOFLINE_PROFILE=%t/p2.json %t/a2 > %t/a2.out && diff %t/plain.out %t/a2.out
// RUN: %roofline_clangxx -O3 -std=c++20 %s -o %t/a3 && env ROOFLINE_PROFILE=%t/p3.json %t/a3 > %t/a3.out && diff %t/plain.out %t/a3.out
// main calls catcher once; catcher calls may_throw three times, inlined at
// -O2 and -O3, and each call throws at x[50] after 51 iterations: three
// entries into may_throw's inlined body and into its loop, 153 iterations,
// 50 FMAs per call (300 FLOPs), 153 loads of 8 B. (Out of line, may_throw
// would never return normally and have no completed call to report.)
// RUN: FileCheck %s --input-file=%t/p2.json
// RUN: FileCheck %s --input-file=%t/p3.json
// CHECK: "display_name": "catcher(int, double const*)",
// CHECK-NEXT: "file"
// CHECK-NEXT: "line"
// CHECK-NEXT: "calls": 1,
// CHECK: "display_name": "may_throw(int, double const*)",
// CHECK-NEXT: "file"
// CHECK-NEXT: "line": 37,
// CHECK-NEXT: "inlined_into": ["catcher(int, double const*)"],
// CHECK-NEXT: "calls": 3,
// CHECK: "flops": {"fp16": 0, "bf16": 0, "fp32": 0, "fp64": 300,
// CHECK: "bytes": {"load": 1224, "store": 0
// CHECK: {"line": 39, {{.*}} "flops": 300, "flop_classes": {"fp64": {"fma": 150}}, "bytes_load": 1224, "bytes_store": 0, "entries": 3, "iterations": 153, "iterations_per_entry": 51,
#include <coroutine>
#include <csetjmp>
#include <stdexcept>
#include <vector>
#include <cstdio>
double may_throw(int n, const double *x) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    if (x[i] < 0) throw std::runtime_error("neg");
    s += x[i] * 2;
  }
  return s;
}
double catcher(int n, const double *x) {
  double t = 0;
  for (int r = 0; r < 3; ++r) {
    try { t += may_throw(n, x); } catch (const std::exception &) { t -= 1; }
  }
  return t;
}
static jmp_buf J;
double jumper(int n, double *x) {
  double s = 0;
  if (setjmp(J)) return s;
  for (int i = 0; i < n; ++i) { s += x[i]; if (s > 1e9) longjmp(J, 1); }
  return s;
}
int computed(int n, const int *ops, float *acc) {
  static void *T[] = {&&add, &&mul, &&done};
  int i = 0;
  goto *T[ops[i]];
add: acc[0] += 1.0f; if (++i < n) goto *T[ops[i]]; goto done;
mul: acc[0] *= 2.0f; if (++i < n) goto *T[ops[i]]; goto done;
done: return i;
}
struct Gen { struct promise_type { float v; Gen get_return_object() { return {std::coroutine_handle<promise_type>::from_promise(*this)}; }
  std::suspend_always initial_suspend() { return {}; } std::suspend_always final_suspend() noexcept { return {}; }
  std::suspend_always yield_value(float x) { v = x; return {}; } void return_void() {} void unhandled_exception() {} };
  std::coroutine_handle<promise_type> h; };
Gen counter(int n) { float x = 0; for (int i = 0; i < n; ++i) { x = x * 0.5f + i; co_yield x; } }
__attribute__((noinline)) double tail(int n, double *x);
double tail2(int n, double *x) { for (int i = 0; i < n; ++i) x[i] += 1; [[clang::musttail]] return tail(n, x); }
double tail(int n, double *x) { double s = 0; for (int i = 0; i < n; ++i) s += x[i]; return s; }
int main() {
  std::vector<double> x(100, 1.0);
  x[50] = -1;
  int ops[5] = {0, 1, 0, 1, 2}; float acc[1] = {1};
  auto g = counter(5); float last = 0; while (!g.h.done()) { g.h.resume(); last = g.h.promise().v; } g.h.destroy();
  std::printf("%g %g %d %g %g %g\n", catcher(100, x.data()), jumper(100, x.data()), computed(5, ops, acc), acc[0], last, tail2(10, x.data()));
}
