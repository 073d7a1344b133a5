// STREAM's four kernels, HPCG's sparse kernels (CSR SpMV, dot product,
// WAXPBY) and a C++ template helper, as small static functions called
// from loops in main: at -O2 all are inlined, and all keep their names,
// counts and loop nests in the profile and the report.
//
// FLOPs by hand, n = 1000, NTIMES = 4 (STREAM) and 3 rounds (the rest):
// - copy: none (it becomes a memcpy: no loop left, its 8n B per call still
//   counted); scale: n muls; add: n adds; triad: n FMAs = 2n. Four calls
//   each: 4000, 4000, 8000.
// - spmv on the 1-D Laplacian (3 entries a row but the first and last
//   rows' 2: nnz = 3n - 2 = 2998): one FMA per entry, 2*nnz = 5996 a call,
//   17988 in 3 calls; its row loop: 3 entries, 3000 iterations.
// - dot: n FMAs, 2000 a call, 6000; waxpby w = a*x + b*y: a mul and an FMA
//   per element, 3000 a call, 9000.
// - axpy<float> and axpy<double>, y += a*x: 2n each a call, 6000 each.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %roofline_clangxx -O2 %s -o %t/app && env ROOFLINE_PROFILE=%t/p.json %t/app
// RUN: python3 %S/Inputs/profile_rows.py %t/p.json | FileCheck %s
// CHECK: kernel add(int, double const*, double const*, double*) inlined_into=main calls=4 flops=4000
// CHECK:   loop +1 entries=4 iterations=1000 flops=4000 timed=True
// CHECK: kernel copy(int, double const*, double*) inlined_into=main calls=4 flops=0 load=32000 store=32000 timing=none
// CHECK: kernel dot(int, double const*, double const*) inlined_into=main calls=3 flops=6000
// CHECK:   loop +2 entries=3
// CHECK: kernel scale(int, double, double const*, double*) inlined_into=main calls=4 flops=4000
// CHECK: kernel spmv(int, int const*, int const*, double const*, double const*, double*) inlined_into=main calls=3 flops=17988
// CHECK:   loop +2 entries=3 iterations=3000 flops=17988 timed=True
// CHECK: kernel triad(int, double, double const*, double const*, double*) inlined_into=main calls=4 flops=8000
// CHECK:   loop +1 entries=4
// CHECK: kernel void axpy<double>(int, double, double const*, double*) inlined_into=main calls=3 flops=6000
// CHECK: kernel void axpy<float>(int, float, float const*, float*) inlined_into=main calls=3 flops=6000
// CHECK: kernel waxpby(int, double, double const*, double, double const*, double*) inlined_into=main calls=3 flops=9000
//
// The report, by loop: each nest of each kernel on the roofline, entries
// as its calls, time from its own timer.
// RUN: %roofline_report %t/p.json --by loop --platform intel-xeon-8480 --format json -o %t/loops.json
// RUN: python3 -c "import json; r = json.load(open('%t/loops.json')); [print(k['display_name'], k['kind'], k['flops'], k['measured_seconds'] > 0) for k in r['kernels']]" | FileCheck %s --check-prefix=LOOPS
// LOOPS-DAG: [loop in spmv at hpc-like.cpp:{{[0-9]+}}] loop 17988.0 True
// LOOPS-DAG: [loop in triad at hpc-like.cpp:{{[0-9]+}}] loop 8000.0 True
// LOOPS-DAG: [loop in axpy<float> at hpc-like.cpp:{{[0-9]+}}] loop 6000.0 True
// And by function (the default), the inlined kernels say how they were
// measured:
// RUN: %roofline_report %t/p.json --platform intel-xeon-8480 | FileCheck %s --check-prefix=TABLE
// TABLE: spmv(int, int const*, int const*, double const*, double const*, double*) (roof:
// TABLE: inlined into main: calls are entries into its inlined bodies; time is its loop nests'
// A static summary alone has no measured loops:
// RUN: %roofline_clangxx -O2 -c %s -o %t/app.o -mllvm -roofline-json=%t/summary.json
// RUN: not %roofline_report %t/summary.json --by loop 2>&1 | FileCheck %s --check-prefix=NOLOOPS
// NOLOOPS: roofline-report: error: --by loop: the inputs have no measured loop nests
#include <cstdio>
#include <vector>

static void copy(int n, const double *a, double *c) {
  for (int i = 0; i < n; ++i) c[i] = a[i];
}
static void scale(int n, double s, const double *c, double *b) {
  for (int i = 0; i < n; ++i) b[i] = s * c[i];
}
static void add(int n, const double *a, const double *b, double *c) {
  for (int i = 0; i < n; ++i) c[i] = a[i] + b[i];
}
static void triad(int n, double s, const double *b, const double *c, double *a) {
  for (int i = 0; i < n; ++i) a[i] = b[i] + s * c[i];
}

static void spmv(int n, const int *rowptr, const int *col, const double *val,
                 const double *x, double *y) {
  for (int i = 0; i < n; ++i) {
    double sum = 0;
    for (int j = rowptr[i]; j < rowptr[i + 1]; ++j) sum += val[j] * x[col[j]];
    y[i] = sum;
  }
}
static double dot(int n, const double *x, const double *y) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += x[i] * y[i];
  return s;
}
static void waxpby(int n, double a, const double *x, double b, const double *y, double *w) {
  for (int i = 0; i < n; ++i) w[i] = a * x[i] + b * y[i];
}

template <class T> static void axpy(int n, T a, const T *x, T *y) {
  for (int i = 0; i < n; ++i) y[i] += a * x[i];
}

volatile int Size = 1000;

int main() {
  int n = Size;
  std::vector<double> a(n, 1.0), b(n, 2.0), c(n, 0.5), x(n, 1.0), y(n), w(n);
  for (int k = 0; k < 4; ++k) {
    copy(n, a.data(), c.data());
    scale(n, 3.0, c.data(), b.data());
    add(n, a.data(), b.data(), c.data());
    triad(n, 3.0, b.data(), c.data(), a.data());
  }
  // The 1-D Laplacian in CSR.
  std::vector<int> rowptr{0}, col;
  std::vector<double> val;
  for (int i = 0; i < n; ++i) {
    for (int j = i - 1; j <= i + 1; ++j)
      if (j >= 0 && j < n) {
        col.push_back(j);
        val.push_back(j == i ? 2.0 : -1.0);
      }
    rowptr.push_back(int(col.size()));
  }
  std::vector<float> xf(n, 1.0f), yf(n, 0.0f);
  double r = 0;
  for (int it = 0; it < 3; ++it) {
    spmv(n, rowptr.data(), col.data(), val.data(), x.data(), y.data());
    r += dot(n, y.data(), x.data());
    waxpby(n, 0.5, x.data(), 0.25, y.data(), w.data());
    axpy<float>(n, 0.5f, xf.data(), yf.data());
    axpy<double>(n, 0.5, x.data(), w.data());
  }
  std::printf("%g %g %g %g\n", a[3], r, w[7], yf[9]);
}
