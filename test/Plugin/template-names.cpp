// With line tables only (what roofline-clang++ adds) there are no variable
// names in the debug info: the formulas name parameters from the source,
// also for a template instance, whose debug name is "axpy<float>" while its
// source says "axpy".
// RUN: %clangxx_roofline -O2 -gline-tables-only -c %s -o /dev/null -Rpass-analysis=roofline 2>&1 | FileCheck %s
// CHECK: template-names.cpp:[[@LINE+2]]:1: remark: void axpy<float>(int, float, float const*, float*): 2*n FLOP fp32 (exact), load 8*n B, store 4*n B
template <typename T>
__attribute__((noinline)) void axpy(int n, T a, const T *x, T *y) {
  for (int i = 0; i < n; ++i)
    y[i] += a * x[i];
}
template void axpy<float>(int, float, const float *, float *);
