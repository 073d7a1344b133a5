// The overhead benchmark's kernels: one per mode, each running ~0.2-0.5 s
// at -O2 on this machine. bench/overhead.py builds this file plain, with
// Roofline's instrumentation, with -fprofile-instr-generate and with
// --coverage, and compares the run times.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define KERNEL __attribute__((noinline))

KERNEL void gemm(int n, const float *A, const float *B, float *C) {
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < n; ++k) {
      float a = A[i * n + k];
      for (int j = 0; j < n; ++j)
        C[i * n + j] += a * B[k * n + j];
    }
}

KERNEL void stencil5(int n, const float *in, float *out) {
  for (int i = 1; i < n - 1; ++i)
    for (int j = 1; j < n - 1; ++j)
      out[i * n + j] = 0.5f * in[i * n + j] +
                       0.125f * (in[(i - 1) * n + j] + in[(i + 1) * n + j] +
                                 in[i * n + j - 1] + in[i * n + j + 1]);
}

KERNEL void spmv(int rows, const int *rowptr, const int *col, const double *val,
                 const double *x, double *y) {
  for (int r = 0; r < rows; ++r) {
    double s = 0;
    for (int k = rowptr[r]; k < rowptr[r + 1]; ++k)
      s += val[k] * x[col[k]];
    y[r] = s;
  }
}

KERNEL double reduce(long n, const double *x) {
  double s = 0;
  for (long i = 0; i < n; ++i)
    s += x[i] * x[i];
  return s;
}

KERNEL void conv2d(int n, int k, const float *in, const float *w, float *out) {
  int m = n - k + 1;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m; ++j) {
      float s = 0;
      for (int a = 0; a < k; ++a)
        for (int b = 0; b < k; ++b)
          s += in[(i + a) * n + j + b] * w[a * k + b];
      out[i * m + j] = s;
    }
}

KERNEL long branchy(long n, const float *x, float *y) {
  long hits = 0;
  for (long i = 0; i < n; ++i) {
    if (x[i] > 0.5f) {
      y[i] = std::sqrt(x[i]);
      ++hits;
    } else if (x[i] > 0.25f) {
      y[i] = x[i] * x[i];
    }
  }
  return hits;
}

KERNEL float short_fn(int n, const float *x) {
  float s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i];
  return s;
}

// Eight floats of work: the loop of a call is shorter than the call.
KERNEL void tiny(int n, float a, const float *x, float *y) {
  for (int i = 0; i < n; ++i)
    y[i] += a * x[i];
}

KERNEL void triad(long n, double *a, const double *b, const double *c) {
  for (long i = 0; i < n; ++i)
    a[i] = b[i] + 3.0 * c[i];
}

int main(int argc, char **argv) {
  const char *Mode = argc > 1 ? argv[1] : "gemm";
  int Reps = argc > 2 ? std::atoi(argv[2]) : 1;
  // short and tiny: the number of calls (for valgrind --tool=callgrind,
  // which counts instructions per call from two runs' difference).
  long Calls = argc > 3 ? std::atol(argv[3]) : 0;
  double Check = 0;
  if (!std::strcmp(Mode, "gemm")) {
    int n = 384;
    std::vector<float> A(n * n, 1.0f), B(n * n, 0.5f), C(n * n, 0.0f);
    for (int r = 0; r < 40 * Reps; ++r)
      gemm(n, A.data(), B.data(), C.data());
    Check = C[7];
  } else if (!std::strcmp(Mode, "stencil")) {
    int n = 2048;
    std::vector<float> in(n * n, 1.0f), out(n * n, 0.0f);
    for (int r = 0; r < 120 * Reps; ++r)
      stencil5(n, in.data(), out.data());
    Check = out[n + 1];
  } else if (!std::strcmp(Mode, "spmv")) {
    int rows = 200000, nnz = 16;
    std::vector<int> rowptr(rows + 1), col(size_t(rows) * nnz);
    std::vector<double> val(size_t(rows) * nnz, 0.5), x(rows, 1.0), y(rows);
    for (int r = 0; r <= rows; ++r)
      rowptr[r] = r * nnz;
    for (size_t k = 0; k < col.size(); ++k)
      col[k] = int((k * 7919) % rows);
    for (int r = 0; r < 90 * Reps; ++r)
      spmv(rows, rowptr.data(), col.data(), val.data(), x.data(), y.data());
    Check = y[5];
  } else if (!std::strcmp(Mode, "reduce")) {
    std::vector<double> x(1 << 22, 0.5);
    for (int r = 0; r < 60 * Reps; ++r) {
      // The kernel is pure: keep the compiler from calling it only once.
      asm volatile("" : : "r"(x.data()) : "memory");
      Check += reduce(long(x.size()), x.data());
    }
  } else if (!std::strcmp(Mode, "conv")) {
    int n = 1024, k = 5;
    std::vector<float> in(n * n, 1.0f), w(k * k, 0.04f), out(n * n);
    for (int r = 0; r < 32 * Reps; ++r)
      conv2d(n, k, in.data(), w.data(), out.data());
    Check = out[3];
  } else if (!std::strcmp(Mode, "branchy")) {
    std::vector<float> x(1 << 22), y(1 << 22);
    unsigned s = 1;
    for (float &v : x) {
      s = s * 1103515245u + 12345u;
      v = float(s >> 8) / float(1 << 24);
    }
    for (int r = 0; r < 12 * Reps; ++r)
      Check += double(branchy(long(x.size()), x.data(), y.data()));
  } else if (!std::strcmp(Mode, "short")) {
    float x[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    volatile int n = 8;
    for (long r = 0, e = Calls ? Calls : 120000000L * Reps; r < e; ++r)
      Check += short_fn(n, x);
  } else if (!std::strcmp(Mode, "tiny")) {
    float x[64], y[64];
    for (int i = 0; i < 64; ++i) {
      x[i] = float(i);
      y[i] = 0;
    }
    volatile int n8 = 8;
    int n = n8;
    for (long r = 0, e = Calls ? Calls : 100000000L * Reps; r < e; ++r)
      tiny(n, 1e-7f, x + (r & 7) * 8, y + (r & 7) * 8);
    Check = y[3] + y[60];
  } else if (!std::strcmp(Mode, "triad")) {
    std::vector<double> a(1 << 22), b(1 << 22, 1.0), c(1 << 22, 2.0);
    for (int r = 0; r < 80 * Reps; ++r)
      triad(long(a.size()), a.data(), b.data(), c.data());
    Check = a[9];
  } else {
    std::fprintf(stderr, "unknown mode %s\n", Mode);
    return 2;
  }
  std::printf("%s %.6g\n", Mode, Check);
  return 0;
}
