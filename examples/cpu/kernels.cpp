// The bundled example: three classic kernels with very different
// intensities, run on real data and checked, then placed on a roofline by
// scripts/demo.sh. Sizes come from the command line so the report can be
// given the same ones (--assume n=...,side=...,M=...).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

// Kernels are kept out of main (noinline) so the run measures each one.
#define KERNEL __attribute__((noinline))

// y = a*x + y: 2 FLOPs per 12 bytes, memory-bound everywhere.
KERNEL void saxpy(int n, float a, const float *x, float *y) {
  for (int i = 0; i < n; ++i)
    y[i] = a * x[i] + y[i];
}

// A 5-point stencil: 6 FLOPs per 24 bytes counted (no cache reuse assumed).
KERNEL void stencil5(int side, float c0, float c1, const float *in, float *out) {
  for (int i = 1; i < side - 1; ++i)
    for (int j = 1; j < side - 1; ++j)
      out[i * side + j] =
          c0 * in[i * side + j] +
          c1 * (in[(i - 1) * side + j] + in[(i + 1) * side + j] +
                in[i * side + j - 1] + in[i * side + j + 1]);
}

// Naive GEMM: 2*M*N*K FLOPs; each multiply-add loads two floats.
KERNEL void gemm(int M, int N, int K, const float *A, const float *B, float *C) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0;
      for (int k = 0; k < K; ++k)
        acc += A[i * K + k] * B[k * N + j];
      C[i * N + j] = acc;
    }
}

template <typename F> static double seconds(F &&Run) {
  auto Start = std::chrono::steady_clock::now();
  Run();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
      .count();
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 1 << 22;   // saxpy length
  int g = argc > 2 ? std::atoi(argv[2]) : 1024;      // stencil grid side
  int m = argc > 3 ? std::atoi(argv[3]) : 256;       // GEMM side
  std::vector<float> x(n, 1.0f), y(n, 2.0f);
  std::vector<float> in(size_t(g) * g, 1.0f), out(size_t(g) * g, 0.0f);
  std::vector<float> A(size_t(m) * m, 1.0f), B(size_t(m) * m, 0.5f),
      C(size_t(m) * m);

  double Ts = seconds([&] { saxpy(n, 3.0f, x.data(), y.data()); });
  double Tt = seconds([&] { stencil5(g, 0.5f, 0.125f, in.data(), out.data()); });
  double Tg = seconds([&] { gemm(m, m, m, A.data(), B.data(), C.data()); });

  // Results checked against their closed forms.
  bool OK = y[n - 1] == 5.0f && out[size_t(g) + 1] == 1.0f &&
            std::fabs(C[0] - 0.5f * m) < 1e-3f;
  std::printf("saxpy    n=%d: %.3f ms, %.2f GFLOP/s\n", n, Ts * 1e3,
              2.0 * n / Ts / 1e9);
  std::printf("stencil5 n=%d: %.3f ms, %.2f GFLOP/s\n", g, Tt * 1e3,
              6.0 * (g - 2) * double(g - 2) / Tt / 1e9);
  std::printf("gemm     M=N=K=%d: %.3f ms, %.2f GFLOP/s\n", m, Tg * 1e3,
              2.0 * m * double(m) * m / Tg / 1e9);
  std::printf("results %s\n", OK ? "correct" : "WRONG");
  return OK ? 0 : 1;
}
