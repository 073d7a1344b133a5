// -roofline-kernels keeps only kernels whose name matches (mangled or
// demangled); functions without work in loops are not kernels.
// RUN: %clangxx_roofline -O2 -g -c %s -o /dev/null -Rpass-analysis=roofline 2>&1 | FileCheck %s --check-prefix=ALL
// RUN: %clangxx_roofline -O2 -g -c %s -o /dev/null -Rpass-analysis=roofline -mllvm -roofline-kernels='^scale' 2>&1 | FileCheck %s --check-prefix=ONE
// RUN: %clangxx_roofline -O2 -g -c %s -o /dev/null -mllvm -roofline-kernels='(' 2>&1 | FileCheck %s --check-prefix=BAD

// ALL-DAG: remark: scale(int, float*)
// ALL-DAG: remark: shift(int, float*)
// ALL-NOT: remark: no_loop
// ONE: remark: scale(int, float*)
// ONE-NOT: remark: shift
// BAD: warning: roofline: invalid -roofline-kernels regex '(': parentheses not balanced
void scale(int n, float *x) {
  for (int i = 0; i < n; ++i)
    x[i] *= 2;
}
void shift(int n, float *x) {
  for (int i = 0; i < n; ++i)
    x[i] += 1;
}
float no_loop(float a, float b) { return a * b + 1; }
