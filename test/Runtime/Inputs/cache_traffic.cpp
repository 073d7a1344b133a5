// Kernels with hand-derived cache traffic, for cache-model.test. Arrays are
// 64-byte aligned, so an array of B bytes is B/64 lines exactly.
//
// stream: a[i] = b[i] + 2*c[i] over n = 131072 doubles (1 MiB each): every
//   line of a, b and c is missed once at each level (write-allocate for a),
//   so 3 MiB = 3145728 B filled into l1 and into l2, cold. a's lines are
//   dirty: all of them are written back from a level except those still in
//   it at the end (at most its size).
// small: x[i] *= 0.5 over m = 1024 doubles (8 KiB), called 10 times after
//   stream: the first call fills its 128 lines (8192 B) into l1 and l2, the
//   other nine hit l1 (8 KiB fits a 32 KiB l1).
// With "threads": the same stream on 2 threads, each its own arrays: each
//   thread's l1 is its own, the l2 is shared: 2 x 3 MiB at each level.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

#define KERNEL __attribute__((noinline))

KERNEL void stream(long n, double *a, const double *b, const double *c) {
  for (long i = 0; i < n; ++i)
    a[i] = b[i] + 2.0 * c[i];
}

KERNEL void small(long m, double *x) {
  for (long i = 0; i < m; ++i)
    x[i] *= 0.5;
}

static double *array(long n) {
  double *p = static_cast<double *>(std::aligned_alloc(64, n * sizeof(double)));
  for (long i = 0; i < n; ++i)
    p[i] = 1.0;
  return p;
}

int main(int argc, char **argv) {
  const long n = 131072, m = 1024;
  double *a = array(n), *b = array(n), *c = array(n), *x = array(m);
  if (argc > 1 && !std::strcmp(argv[1], "threads")) {
    double *a2 = array(n), *b2 = array(n), *c2 = array(n);
    std::thread T1([&] { stream(n, a, b, c); });
    std::thread T2([&] { stream(n, a2, b2, c2); });
    T1.join();
    T2.join();
    std::printf("%g\n", a[5] + a2[7]);
    return 0;
  }
  stream(n, a, b, c);
  for (int r = 0; r < 10; ++r)
    small(m, x);
  std::printf("%g\n", a[5] + x[3]);
  return 0;
}
