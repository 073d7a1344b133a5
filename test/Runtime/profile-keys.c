// The profile's keys are one list (include/roofline/Runtime/ProfileKeys.inc),
// which the runtime writes and the report reads: every key of a profile with
// loops, inlined kernels, static formulas, footprints, cache traffic, a call
// trace and a rank, and of two such profiles merged, is in it.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %roofline_clang -O2 -g -mllvm -roofline-cache-model %s -o %t/app
// RUN: env OMPI_COMM_WORLD_RANK=0 ROOFLINE_CACHE=1 ROOFLINE_TRACE=1 ROOFLINE_PROFILE=%t/r0.json %t/app 1000
// RUN: env OMPI_COMM_WORLD_RANK=1 ROOFLINE_CACHE=1 ROOFLINE_TRACE=1 ROOFLINE_PROFILE=%t/r1.json %t/app 3000
// RUN: %roofline_report merge %t/r0.json %t/r1.json -o %t/all.json
// RUN: python3 %S/Inputs/profile_keys.py %src_root/include/roofline/Runtime/ProfileKeys.inc %t/r0.json %t/all.json | FileCheck %s
// The checker fails on a key the list lacks:
// RUN: sed 's/"timing"/"timing_of"/' %t/r0.json > %t/renamed.json
// RUN: not python3 %S/Inputs/profile_keys.py %src_root/include/roofline/Runtime/ProfileKeys.inc %t/renamed.json | FileCheck %s --check-prefix=RENAMED
// CHECK-NOT: not in ProfileKeys.inc
// CHECK: keys checked, 0 missing
// RENAMED: not in ProfileKeys.inc: renamed.json.kernels[].timing_of
#include <stdlib.h>

__attribute__((noinline)) void scale(long n, double a, double *x) {
  for (long i = 0; i < n; i++)
    x[i] *= a;
}

static double norm2(long n, const double *x) {
  double s = 0;
  for (long i = 0; i < n; i++)
    s += x[i] * x[i];
  return s;
}

__attribute__((noinline)) double step(long n, double *x) {
  scale(n, 0.5, x);
  return norm2(n, x); // inlined here: its own record, "inlined_into"
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 1000;
  double *x = malloc(n * sizeof(double));
  for (long i = 0; i < n; i++)
    x[i] = i;
  double s = 0;
  for (int r = 0; r < 3; r++)
    s += step(n, x);
  free(x);
  return s < 0;
}
