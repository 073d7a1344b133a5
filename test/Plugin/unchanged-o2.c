// Without -roofline-instrument the plugin analyses and changes nothing: at
// -O2, with and without -g, the IR and the machine code are those of a
// compile without it. (With -g the plugin marks each kernel's entry and
// loops before inlining, so that axpy, inlined into run, is still reported;
// the markers are removed after the analysis, and the memory effects the
// optimiser inferred while they were there are inferred again without
// them.) The remarks show the plugin ran.
// RUN: rm -rf %t && mkdir -p %t
// RUN: clang -O2 -g -S -emit-llvm %s -o %t/plain-g.ll
// RUN: %clang_roofline -O2 -g -S -emit-llvm %s -o %t/plugin-g.ll -Rpass-analysis=roofline 2>&1 | FileCheck %s
// RUN: diff %t/plain-g.ll %t/plugin-g.ll
// RUN: clang -O2 -g -S %s -o %t/plain-g.s
// RUN: %clang_roofline -O2 -g -S %s -o %t/plugin-g.s
// RUN: diff %t/plain-g.s %t/plugin-g.s
// RUN: clang -O2 -S -emit-llvm %s -o %t/plain.ll
// RUN: %clang_roofline -O2 -S -emit-llvm %s -o %t/plugin.ll
// RUN: diff %t/plain.ll %t/plugin.ll
// CHECK-DAG: remark: {{.*}}axpy
// CHECK-DAG: remark: {{.*}}run
void axpy(int n, double a, const double *x, double *y) {
  for (int i = 0; i < n; ++i)
    y[i] = a * x[i] + y[i];
}

double run(int n, double *x, double *y) {
  axpy(n, 2.0, x, y);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += y[i];
  return s;
}
