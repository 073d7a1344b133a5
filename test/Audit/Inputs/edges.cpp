// Cases at the edge of roofline-audit's reading of host code
// (test/Audit/edges.test).
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

void gemm(int M, int N, int K, const float *A, const float *B, float *C) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float s = 0.0f;
      for (int k = 0; k < K; ++k)
        s += A[i * K + k] * B[k * N + j];
      C[i * N + j] = s;
    }
}

// Reads and writes C: an in-place epilogue.
void bias_inplace(int M, int N, float *C, const float *bias) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      C[i * N + j] += bias[j];
}

// The host reads a between the launches.
void peeked(int n, const float *x, const float *y, const float *z, float *b,
            float *first) {
  std::vector<float> a(n);
  mul(n, x, y, a.data());
  *first = a[0];
  add(n, a.data(), z, b);
}

// add runs only sometimes.
void branched(int n, bool twice, const float *x, const float *y,
              const float *z, float *b) {
  std::vector<float> a(n);
  mul(n, x, y, a.data());
  if (twice)
    add(n, a.data(), z, b);
}

// The host overwrites a before add: add does not read mul's result.
void refilled(int n, const float *x, const float *y, const float *z,
              float *b) {
  std::vector<float> a(n);
  mul(n, x, y, a.data());
  std::memset(a.data(), 0, n * sizeof(float));
  add(n, a.data(), z, b);
}

// gemm, an in-place bias, then relu over the M*N elements.
void inplace(int M, int N, int K, const float *A, const float *B,
             const float *bias, float *D) {
  std::vector<float> C(M * N);
  gemm(M, N, K, A, B, C.data());
  bias_inplace(M, N, C.data(), bias);
  relu(M * N, C.data(), D);
}

// The intermediate is the caller's: fusible, with a caveat.
void params(int n, const float *x, const float *y, const float *z, float *a,
            float *b) {
  mul(n, x, y, a);
  add(n, a, z, b);
}

// Sizes the source fixes, and a size with no simple name.
void sized(const std::vector<float> &x, const float *y, const float *z,
           float *b) {
  const int n = 4096;
  float a[n];
  mul(n, x.data(), y, a);
  add(n, a, z, b);
  std::vector<float> t(x.size());
  mul((int)x.size(), x.data(), y, t.data());
  add((int)x.size(), t.data(), z, b);
}

// In a loop: the host reads a at the top of the next iteration, after add.
void looped(int n, int steps, const float *x, const float *y, const float *z,
            float *b, float *sum) {
  std::vector<float> a(n);
  for (int s = 0; s < steps; ++s) {
    *sum += a[0];
    mul(n, x, y, a.data());
    add(n, a.data(), z, b);
  }
}

// The same loop without that read: fusible.
void stepped(int n, int steps, const float *x, const float *y, const float *z,
             float *b) {
  std::vector<float> a(n);
  for (int s = 0; s < steps; ++s) {
    mul(n, x, y, a.data());
    add(n, a.data(), z, b);
  }
}

// Locals assigned once stand for their values: len is half of n. count is
// changed after the launches, so it keeps its name.
void locals(int n, const float *x, const float *y, const float *z, float *b) {
  int half = n / 2, len = half;
  std::vector<float> a(n);
  mul(len, x, y, a.data());
  add(len, a.data(), z, b);
  int count = n;
  mul(count, x, y, a.data());
  add(count, a.data(), z, b);
  count = 0;
  b[0] = float(count);
}

// Scattered stores: a's written footprint is not exact (data-dependent
// indices), so the saving counts the loads and stores of a instead.
void scatter(int n, const int *idx, const float *x, float *a) {
  for (int i = 0; i < n; ++i)
    a[idx[i]] = x[i];
}
void scattered(int n, const int *idx, const float *x, const float *z,
               float *b) {
  std::vector<float> a(n);
  scatter(n, idx, x, a.data());
  add(n, a.data(), z, b);
}
