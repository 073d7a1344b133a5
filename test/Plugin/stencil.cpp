// A 5-point stencil over the interior of an n x n grid, at -O2.
// RUN: %clangxx_roofline -O2 -g -c %s -o /dev/null -Rpass-analysis=roofline 2>&1 | FileCheck %s

// Per interior point: 3 fadds (the four neighbours), c1 * sum, and
// c0 * centre + that: clang emits fmul + fmuladd, so 3 + 1 + 2 = 6 FLOPs;
// 5 loads (20 B) and 1 store (4 B). Interior points: (n-2)^2.
// FLOPs 6(n-2)^2 = 6n^2 - 24n + 24; loads 20(n-2)^2 = 20n^2 - 80n + 80;
// stores 4n^2 - 16n + 16. The guards assume n - 2 > 1 (i.e. n >= 3).
// CHECK: remark: stencil5(int, float, float, float const*, float*): 6*n^2 - 24*n + 24 FLOP fp32 (exact), load 20*n^2 - 80*n + 80 B, store 4*n^2 - 16*n + 16 B, I -> 0.25 FLOP/B for large sizes
void stencil5(int n, float c0, float c1, const float *in, float *out) {
  for (int i = 1; i < n - 1; ++i)
    for (int j = 1; j < n - 1; ++j)
      out[i * n + j] = c0 * in[i * n + j] +
                       c1 * (in[(i - 1) * n + j] + in[(i + 1) * n + j] +
                             in[i * n + j - 1] + in[i * n + j + 1]);
}
