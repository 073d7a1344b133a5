// An interpreter loop with computed goto (a static table of label
// addresses), for cache-model.test: it gets no traced copy (the table names
// the original's blocks), so a run with the model must not crash, and its
// record has no traffic rather than a wrong one.
#include <stdio.h>
__attribute__((noinline)) double run(const int *prog, int n, double *acc) {
  static void *labels[] = {&&add, &&mul, &&end};
  int pc = 0;
  double x = 1.0;
  goto *labels[prog[pc]];
add:
  x += acc[pc % 4]; pc++; if (pc >= n) goto end; goto *labels[prog[pc]];
mul:
  x *= 1.0001; pc++; if (pc >= n) goto end; goto *labels[prog[pc]];
end:
  return x;
}
int main(void) {
  int prog[1000]; double acc[4] = {1, 2, 3, 4};
  for (int i = 0; i < 1000; ++i) prog[i] = i % 2;
  double s = 0;
  for (int r = 0; r < 100; ++r) s += run(prog, 1000, acc);
  printf("%g\n", s);
  return 0;
}
