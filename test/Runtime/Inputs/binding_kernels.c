// Kernels whose traced copies call the runtime, in the program or in a
// shared library (-DLIBRARY), loaded at start or by dlopen (-DDLOPEN).
#include <stdio.h>
#include <stdlib.h>
#ifdef DLOPEN
#include <dlfcn.h>
#endif

void lib_scale(int n, double *x);

#ifdef LIBRARY
void lib_scale(int n, double *x) {
  for (int i = 0; i < n; ++i)
    x[i] = x[i] * 1.5 + (double)(i % 7);
}
#else
__attribute__((noinline)) static double dot(int n, const double *x,
                                            const double *y) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i] * y[i];
  return s;
}
__attribute__((noinline)) static void stencil(int n, const double *x, double *y) {
  for (int i = 1; i < n - 1; ++i)
    y[i] = 0.25 * x[i - 1] + 0.5 * x[i] + 0.25 * x[i + 1];
}
int main(int argc, char **argv) {
  int n = 20000;
  double *x = malloc(n * sizeof *x), *y = calloc(n, sizeof *y);
  for (int i = 0; i < n; ++i)
    x[i] = (double)(i % 13) / 13;
  void (*scale)(int, double *) = 0;
#ifdef DLOPEN
  void *h = dlopen(argv[1], RTLD_LAZY);
  if (!h || !(scale = (void (*)(int, double *))dlsym(h, "lib_scale"))) {
    fprintf(stderr, "dlopen: %s\n", dlerror());
    return 3;
  }
#elif defined(WITH_LIBRARY)
  scale = lib_scale;
#endif
  double s = 0;
  for (int r = 0; r < 5; ++r) {
    if (scale)
      scale(n, x);
    stencil(n, x, y);
    s += dot(n, x, y);
  }
  printf("%.6e\n", s);
  return 0;
}
#endif
