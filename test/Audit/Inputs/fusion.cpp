// Host functions calling counted C++ kernels, for roofline-audit's tests
// (test/Audit/cpp.test derives every figure by hand).
#include <cstring>
#include <vector>

void mul(int n, const float *x, const float *y, float *a) {
  for (int i = 0; i < n; ++i)
    a[i] = x[i] * y[i];
}

void add(int n, const float *a, const float *z, float *b) {
  for (int i = 0; i < n; ++i)
    b[i] = a[i] + z[i];
}

void relu(int n, const float *b, float *c) {
  for (int i = 0; i < n; ++i)
    c[i] = b[i] > 0.0f ? b[i] : 0.0f;
}

void scale(int n, float s, const float *a, float *d) {
  for (int i = 0; i < n; ++i)
    d[i] = s * a[i];
}

void gemm(int M, int N, int K, const float *A, const float *B, float *C) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float s = 0.0f;
      for (int k = 0; k < K; ++k)
        s += A[i * K + k] * B[k * N + j];
      C[i * N + j] = s;
    }
}

void bias_relu(int M, int N, const float *C, const float *bias, float *D) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float v = C[i * N + j] + bias[j];
      D[i * N + j] = v > 0.0f ? v : 0.0f;
    }
}

// a = x*y; b = a + z; c = relu(b): a and b need not leave the chip.
void chain(int n, const float *x, const float *y, const float *z, float *c) {
  std::vector<float> a(n), b(n);
  mul(n, x, y, a.data());
  add(n, a.data(), z, b.data());
  relu(n, b.data(), c);
}

// GEMM then bias + ReLU on its output: the epilogue can be fused.
void dense(int M, int N, int K, const float *A, const float *B,
           const float *bias, float *D) {
  std::vector<float> C(M * N);
  gemm(M, N, K, A, B, C.data());
  bias_relu(M, N, C.data(), bias, D);
}

// a is read again by scale after add: it must still be written.
void reused(int n, const float *x, const float *y, const float *z, float *b,
            float *d) {
  std::vector<float> a(n);
  mul(n, x, y, a.data());
  add(n, a.data(), z, b);
  scale(n, 2.0f, a.data(), d);
}

// A memcpy between the producer and the consumer.
void copied(int n, const float *x, const float *y, const float *z, float *b,
            float *log) {
  std::vector<float> a(n);
  mul(n, x, y, a.data());
  std::memcpy(log, x, n * sizeof(float));
  add(n, a.data(), z, b);
}
