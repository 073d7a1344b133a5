// A loop the vectoriser turns into a vector loop and a remainder (with
// alias checks: a, b, c may overlap) is one source loop: its entries are
// its calls', 3, not one per compiled loop (the remainder's location has
// another column and a discriminator, which the match must not see).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %roofline_clangxx -O2 %s -o %t/a
// RUN: env ROOFLINE_PROFILE=%t/p.json %t/a
// RUN: FileCheck %s --input-file=%t/p.json
// CHECK: "display_name": "stream(long, double*, double const*, double const*)"
// CHECK: "calls": 3,
// CHECK: "loops": [
// CHECK-NEXT: {"line": [[@LINE+3]], {{.*}}"entries": 3, "iterations": {{[0-9]+}}, "iterations_per_entry":
// CHECK-NOT: "line": [[@LINE+2]]
__attribute__((noinline)) void stream(long n, double *a, const double *b, const double *c) {
  for (long i = 0; i < n; ++i)
    a[i] = b[i] + 2.0 * c[i];
}

// Four calls on one line, inlined: four copies of fill's loop, four entries.
// CHECK: "display_name": "fill(long, double*)"
// CHECK: "inlined_into": ["main"],
// CHECK-NEXT: "calls": 4,
// CHECK: "entries": 4,
static void fill(long n, double *p) {
  for (long i = 0; i < n; ++i)
    p[i] = 1.0 + 0.5 * double(i);
}

int main() {
  static double a[1000], b[1000], c[1000], d[1000];
  fill(1000, a), fill(1000, b), fill(1000, c), fill(1000, d);
  for (int r = 0; r < 3; ++r)
    stream(999, a, b, c);
  return a[7] + d[5] > 0 ? 0 : 1; // d is read: its fill is not dead
}
