// Footprints of arrays reached through aggregates: a member of a struct the
// kernel is passed by reference, std::vectors in it (the data pointer loaded
// before the loop), and a struct of raw pointers; each against a count
// derived by hand, the same as through plain pointers. A row pointer loaded
// in the loop is a different array each iteration: no lower bound, so the
// kernel is not placed as if its data were a few bytes.
// RUN: %clangxx_roofline -O2 -g -c %s -o /dev/null -Rpass-analysis=roofline 2>&1 | FileCheck %s
// RUN: %clangxx_roofline -O2 -g -c %s -o /dev/null -mllvm -roofline-json=%t.json
// RUN: FileCheck %s --check-prefix=JSON --input-file=%t.json
// The run: the footprint measured per call equals the formula.
// RUN: %roofline_clangxx -O2 %s -o %t.exe && env ROOFLINE_PROFILE=%t.prof.json %t.exe
// RUN: FileCheck %s --check-prefix=PROFILE --input-file=%t.prof.json
#include <vector>

struct Domain {
  std::vector<double> x, y;
  double a = 2;
};

// y[i] += a * x[i]: x read (8n), y read and written (8n each); a, and the
// two vectors' data pointers, 24 B more read from d itself: 16n + 24 read,
// 8n written, exactly as through two pointer parameters.
// CHECK: remark: axpy(Domain&, int): {{.*}}; footprint per call: read 16*n + 24 B, written 8*n B (exact
__attribute__((noinline)) void axpy(Domain &d, int n) {
  for (int i = 0; i < n; ++i)
    d.y[i] += d.a * d.x[i];
}

struct Fields {
  const float *in;
  float *out;
};

// A 3-point stencil through a struct of pointers: in[0, n) read (4n B),
// out[1, n-1) written (4n - 8 B); the two pointers, 16 B read from f.
// CHECK: remark: smooth(Fields const&, int): {{.*}}; footprint per call: read 4*n + 16 B, written 4*n - 8 B (exact
__attribute__((noinline)) void smooth(const Fields &f, int n) {
  for (int i = 1; i < n - 1; ++i)
    f.out[i] = (f.in[i - 1] + f.in[i] + f.in[i + 1]) / 3;
}

// Rows of a jagged array: rows[i] is loaded in the loop, so what it points
// to differs each iteration. Not exact, and no lower bound.
// CHECK: remark: rowsum(double* const*, int, int, double*): {{.*}}; footprint per call: read {{.*}}
// CHECK-NOT: remark: rowsum{{.*}}(exact
__attribute__((noinline)) void rowsum(double *const *rows, int n, int m, double *out) {
  for (int i = 0; i < n; ++i) {
    double s = 0;
    for (int j = 0; j < m; ++j)
      s += rows[i][j];
    out[i] = s;
  }
}

// JSON: "display_name": "axpy(Domain&, int)"
// JSON: "footprint": {
// JSON-NEXT: "assumptions": [],
// JSON-NEXT: "exact": true,
// JSON: "read": "16*n + 24",
// JSON-NEXT: "written": "8*n"

int main() {
  Domain d;
  int n = 1000;
  d.x.assign(n, 1.0);
  d.y.assign(n, 2.0);
  axpy(d, n);
  axpy(d, n);
  std::vector<float> in(n, 1.0f), out(n, 0.0f);
  smooth(Fields{in.data(), out.data()}, n);
  double r0[4] = {1, 2, 3, 4}, r1[4] = {5, 6, 7, 8}, sums[2];
  double *rows[2] = {r0, r1};
  rowsum(rows, 2, 4, sums);
  return d.y[0] + out[1] + sums[1] > 0 ? 0 : 1;
}
// Two calls of axpy with n = 1000: 2 x (16000 + 24) read, 2 x 8000 written.
// PROFILE: "display_name": "axpy(Domain&, int)"
// PROFILE: "footprint": {"read": 32048, "written": 16000, "exact": true}
