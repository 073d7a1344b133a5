"""Writes hard cases for the pass into a directory: a huge function, a deep
loop nest, irreducible control flow, x86 vector intrinsics, and a driver
that calls them and prints a checksum."""
import os
import sys

out = sys.argv[1]
os.makedirs(out, exist_ok=True)

huge = ["float huge(float *x, int n) {", "  float s = 0;"]
for i in range(4000):
    huge.append("  s = s * 0.999f + x[(%d * 7) %% n];" % i)
    if i % 50 == 0:
        huge.append("  if (s > 1e6f) s = 0;")
huge += ["  return s;", "}"]

depth = 12
nest = ["double deep(int n, double *a) {", "  double s = 0;"]
for d in range(depth):
    nest.append("  " * (d + 1) + "for (int i%d = 0; i%d < n; ++i%d)" % (d, d, d))
nest.append("  " * (depth + 1) + "s += a[(" + " + ".join("i%d" % d for d in range(depth)) + ") % 64] * 0.5;")
nest += ["  return s;", "}"]

irreducible = """
float irreducible(int n, const float *x) {
  float s = 0;
  int i = 0;
  if (n & 1) goto inside;
top:
  if (i >= n) return s;
  s += x[i];
inside:
  s *= 1.5f;
  ++i;
  if (i < n) goto top;
  return s;
}
"""

vector = """
#include <immintrin.h>
__attribute__((target("avx2,fma"))) float vec(int n, const float *x) {
  __m256 acc = _mm256_setzero_ps();
  for (int i = 0; i + 8 <= n; i += 8)
    acc = _mm256_fmadd_ps(_mm256_loadu_ps(x + i), _mm256_set1_ps(0.5f), acc);
  float t[8];
  _mm256_storeu_ps(t, acc);
  return t[0] + t[7];
}
"""

main = """
#include <cstdio>
#include <vector>
float huge(float *x, int n);
double deep(int n, double *a);
float irreducible(int n, const float *x);
float vec(int n, const float *x);
int main() {
  std::vector<float> x(256, 1.0f);
  std::vector<double> a(64, 1.0);
  __builtin_cpu_init();
  float v = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") ? vec(256, x.data()) : 16.0f;
  std::printf("%g %g %g %g %g\\n", huge(x.data(), 256), deep(2, a.data()),
              irreducible(9, x.data()), irreducible(8, x.data()), v);
}
"""
with open(os.path.join(out, "kernels.cpp"), "w") as f:
    f.write("\n".join(huge) + "\n" + "\n".join(nest) + "\n" + irreducible + vector)
with open(os.path.join(out, "main.cpp"), "w") as f:
    f.write(main)
