// What static analysis cannot make exact is flagged, with the method and the
// reason: data-dependent branches, data-dependent loops, early exits.
// RUN: %clangxx_roofline -O2 -g -c %s -o /dev/null -Rpass-analysis=roofline 2>&1 | FileCheck %s

// The multiply and store run only for positive elements: estimated with
// static branch probabilities (an fcmp is 50/50), so n/2 multiplies and
// 2n B stored; all n elements are loaded (4n B).
// CHECK: remark: double_positive(int, float const*, float*): n/2 FLOP fp32 (estimate), load 4*n B, store 2*n B, {{.*}}branch at data-dependent.cpp:[[@LINE+3]] depends on data: counts below it are estimates (static branch probabilities)
void double_positive(int n, const float *x, float *y) {
  for (int i = 0; i < n; ++i)
    if (x[i] > 0)
      y[i] = 2 * x[i];
}

// When the optimizer turns the branch into a select, the add runs for every
// element (adding 0.0 or x[i]): n adds, exact, as the optimized code runs.
// CHECK: remark: sum_positive(int, float const*): n FLOP fp32 (exact), load 4*n B, store 0 B
float sum_positive(int n, const float *x) {
  float s = 0;
  for (int i = 0; i < n; ++i)
    if (x[i] > 0)
      s += x[i];
  return s;
}

// A while loop that ends on a value read from memory: the trip count is
// unknown, named after the loop's line, never taken as one iteration.
// CHECK: remark: halve_until_small(float*): trip_L[[@LINE+4]] FLOP fp32 (estimate), load 4*trip_L[[@LINE+4]] + 4 B, store 4*trip_L[[@LINE+4]] B, {{.*}}loop at data-dependent.cpp:[[@LINE+4]]: trip count unknown (ScalarEvolution could not compute it), written trip_L[[@LINE+4]]
// CHECK: remark: loop in halve_until_small(float*): trip trip_L[[@LINE+3]]
void halve_until_small(float *x) {
  int i = 0;
  while (x[i] > 1e-3f) {
    x[i] *= 0.5f;
    ++i;
  }
}

// A search loop that may break early: n is an upper bound on its trips.
// CHECK: remark: first_negative_sum(int, double const*): {{.*}}(estimate){{.*}}loop at data-dependent.cpp:[[@LINE+4]]: trip count is an upper bound
double first_negative_sum(int n, const double *x) {
  double s = 0;
  int i = 0;
  for (; i < n; ++i) {
    if (x[i] < 0)
      break;
    s += x[i];
  }
  return s;
}
