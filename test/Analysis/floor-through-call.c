// A callee's floor term takes the call's arguments: quarter(n) does
// floor(n/4) multiplies (for n >= 0, the loop's i < n/4). Derived by hand:
// - doubled(m) passes 2*m: floor(2*m/4) multiplies, exact;
// - constant() passes 100: 100/4 = 25, exact;
// - loaded(np) passes *np, which no formula can name: the count is
//   floor(unknown/4), not exact, and a note says so. The callee's name n
//   must not appear in the caller's formula.
// RUN: %clang_roofline -O2 -g -c %s -o /dev/null -mllvm -roofline-json=%t.json
// RUN: python3 -c "import json,sys; [print(k['name'], k['formula']['flops'], k['exact']) for k in json.load(open(sys.argv[1]))['kernels']]" %t.json | FileCheck %s
// CHECK-DAG: quarter floor(n/4) True
// CHECK-DAG: doubled floor(2*m/4) True
// CHECK-DAG: constant 25 True
// CHECK-DAG: loaded floor(unknown/4) False
// CHECK-NOT: loaded {{.*}}n/4

__attribute__((noinline)) void quarter(int n, float *x) {
  for (int i = 0; i < n / 4; ++i)
    x[i] *= 2.0f;
}
void loaded(const int *np, float *x) { quarter(*np, x); }
void doubled(int m, float *x) { quarter(2 * m, x); }
void constant(float *x) { quarter(100, x); }
