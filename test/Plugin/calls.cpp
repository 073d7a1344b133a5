// A call to a function with a body counts the callee's totals with its
// parameters replaced by the arguments; recursion is reported, not followed.
// RUN: %clangxx_roofline -O2 -g -c %s -o /dev/null -Rpass-analysis=roofline 2>&1 | FileCheck %s
// RUN: %clangxx_roofline -O0 -g -c %s -o /dev/null -Rpass-analysis=roofline 2>&1 | FileCheck %s

// row_axpy: 2*len FLOPs, 8*len B loaded, 4*len B stored per call.
__attribute__((noinline)) void row_axpy(int len, float a, const float *x,
                                        float *y) {
  for (int i = 0; i < len; ++i)
    y[i] += a * x[i];
}

// Called rows times with len = cols: 2*rows*cols FLOPs, 8*rows*cols B
// loaded, 4*rows*cols B stored.
// CHECK: remark: all_rows(int, int, float, float const*, float*): 2*rows*cols FLOP fp32 (exact), load 8*rows*cols B, store 4*rows*cols B
void all_rows(int rows, int cols, float a, const float *x, float *y) {
  for (int r = 0; r < rows; ++r)
    row_axpy(cols, a, x + r * cols, y + r * cols);
}

// Called with len = 2*m: the argument's closed form is substituted.
// CHECK: remark: twice(int, float, float const*, float*): 4*m FLOP fp32 (exact), load 16*m B, store 8*m B
void twice(int m, float a, const float *x, float *y) {
  row_axpy(2 * m, a, x, y);
  (void)0;
}

// Recursion is not followed: the call is listed as unknown.
// CHECK: remark: tree_sum(int, int, double const*): {{.*}}(estimate){{.*}}recursive call to tree_sum(int, int, double const*) at calls.cpp:[[@LINE+6]] is not counted
double tree_sum(int fanout, int n, const double *x) {
  if (n <= 1)
    return n == 1 ? x[0] : 0.0;
  double s = 0;
  for (int i = 0; i < fanout; ++i)
    s += tree_sum(fanout, n / fanout, x + i * (n / fanout));
  return s;
}
