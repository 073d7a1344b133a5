// Fusion analysis of a run (ROOFLINE_TRACE=1, roofline-report --fusion):
// the profile records every call with its arguments; the report follows
// each buffer from the kernel that writes it to the kernels that read it.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %roofline_clangxx -O2 %s -o %t/app
// RUN: env ROOFLINE_TRACE=1 ROOFLINE_PROFILE=%t/p.json %t/app
// RUN: %roofline_report --fusion %t/p.json --platform %S/../Inputs/cpu-dram-only.json | FileCheck %s --check-prefix=TABLE
// RUN: %roofline_report --fusion %t/p.json --platform %S/../Inputs/cpu-dram-only.json --format json | FileCheck %s
// Without ROOFLINE_TRACE the profile has no trace, and --fusion says so.
// RUN: env ROOFLINE_PROFILE=%t/untraced.json %t/app
// RUN: not %roofline_report --fusion %t/untraced.json 2>&1 | FileCheck %s --check-prefix=UNTRACED
// A trace longer than ROOFLINE_TRACE_RECORDS keeps the first calls.
// RUN: env ROOFLINE_TRACE=1 ROOFLINE_TRACE_RECORDS=4 ROOFLINE_PROFILE=%t/short.json %t/app
// RUN: FileCheck %s --check-prefix=SHORT < %t/short.json
#include <cstdio>

#define KERNEL __attribute__((noinline))
constexpr int N = 1000, M = 32;

KERNEL void mul(int n, const float *x, const float *y, float *a) {
  for (int i = 0; i < n; ++i)
    a[i] = x[i] * y[i];
}
KERNEL void add(int n, const float *a, const float *z, float *b) {
  for (int i = 0; i < n; ++i)
    b[i] = a[i] + z[i];
}
KERNEL void relu(int n, const float *b, float *c) {
  for (int i = 0; i < n; ++i)
    c[i] = b[i] > 0 ? b[i] : 0;
}
KERNEL void scale(int n, const float *a, float *d) {
  for (int i = 0; i < n; ++i)
    d[i] = 2 * a[i];
}
KERNEL void gemm(int m, const float *A, const float *B, float *C) {
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m; ++j) {
      float s = 0;
      for (int k = 0; k < m; ++k)
        s += A[i * m + k] * B[k * m + j];
      C[i * m + j] = s;
    }
}
KERNEL void biasRelu(int m, const float *C, const float *bias, float *D) {
  for (int i = 0; i < m * m; ++i) {
    float v = C[i] + bias[i % m];
    D[i] = v > 0 ? v : 0;
  }
}

// C accumulated over k (i-k-j order): each element read and written m
// times, so its counted bytes (4m^3 each way) are m times its footprint.
KERNEL void gemmAcc(int m, const float *A, const float *B, float *C) {
  for (int i = 0; i < m; ++i)
    for (int k = 0; k < m; ++k)
      for (int j = 0; j < m; ++j)
        C[i * m + j] += A[i * m + k] * B[k * m + j];
}

float X[N], Y[N], Z[N], A[N], B[N], C[N], D[N];
float GA[M * M], GB[M * M], GC[M * M], Bias[M], GD[M * M];
float HC[M * M], HD[M * M];

int main() {
  for (int i = 0; i < N; ++i)
    X[i] = i, Y[i] = 1, Z[i] = -500;
  // The chain a = x*y; b = a + z; c = relu(b), three times.
  for (int r = 0; r < 3; ++r) {
    mul(N, X, Y, A);
    add(N, A, Z, B);
    relu(N, B, C);
  }
  // GEMM then bias + ReLU: the epilogue reads C once.
  gemm(M, GA, GB, GC);
  biasRelu(M, GC, Bias, GD);
  gemmAcc(M, GA, GB, HC);
  biasRelu(M, HC, Bias, HD);
  // a is read by add and again by scale: not an intermediate.
  mul(N, X, Y, A);
  add(N, A, Z, B);
  scale(N, A, D);
  std::printf("%g %g\n", C[999], D[999]);
  return 0;
}

// Hand-derived: each chain intermediate is written once (4n B) and read
// once (4n B): 8n = 8000 B saved per pair, 3 pairs = 24000 B. mul and add
// each move 12n B (two reads, one write) and do n FLOPs: before, the pair
// is 2000 FLOP / 24000 B = 0.0833 FLOP/B; fused, 2000 / 16000 = 0.125.
// The epilogue: gemm writes C (4*M*M = 4096 B), biasRelu reads it (4096 B):
// 8*M*M = 8192 B saved. The last mul -> add is not fusible: a is read again
// by scale. (add -> relu's b in the last round has no reader: no pair.)
// gemmAcc -> biasRelu through HC: the saving is HC's footprint written
// (4*M*M) and read (4*M*M), 8192 B, not its counted 4*M^3 B of stores.
// Both calls' measured footprints are the bytes before: gemmAcc reads A, B
// and HC, writes HC, 4 x 4096 = 16384 B; biasRelu reads HC, writes HD,
// 4096 + 4096, and bias[i % m] (not affine: its lower bound, 0): 24576 B
// before, 16384 after. FLOPs 2M^3 + M^2 = 66560: I = 66560/24576 = 2.71 ->
// 66560/16384 = 4.06 at DRAM (the platform: DRAM alone). (bias's unknown extent does not make it
// overlap HD: a read of unknown extent is matched by its address.)
// TABLE: trace: 16 calls
// TABLE: producer -> consumer {{ *}}buffer {{ *}}pairs bytes saved  I before->after
// TABLE: mul -> add {{ *}}a {{ *}}3 {{ *}}24 kB  0.0833 -> 0.125 memory
// TABLE: add -> relu {{ *}}b {{ *}}3 {{ *}}24 kB  0.05 -> 0.0833 memory
// TABLE: gemm -> biasRelu {{ *}}C {{ *}}1 {{ *}}8.19 kB
// TABLE: gemmAcc -> biasRelu {{ *}}C {{ *}}1 {{ *}}8.19 kB  2.71 -> 4.06
// TABLE: mul -> add {{ *}}a {{ *}}1 {{ *}}- {{ *}}0.0833 -> - {{ *}}memory
// TABLE: notes:
// TABLE: mul -> add ({{.*}}fusion-trace.cpp:20): fusible: the intermediate 'a' is read only by add
// TABLE: mul -> add ({{.*}}fusion-trace.cpp:20): not fusible: 'a' is read again later by scale: it must still be written

// CHECK: "candidates": [
// CHECK: "buffer": "a",
// CHECK-NEXT: "bytes_after": 48000.0,
// CHECK-NEXT: "bytes_before": 72000.0,
// CHECK-NEXT: "bytes_saved": 24000.0,
// CHECK-NEXT: "consumer": "add",
// CHECK: "fusible": true,
// CHECK-NEXT: "intensity_after": 0.125,
// CHECK-NEXT: "intensity_before": 0.08333333333333333,
// CHECK: "pairs": 3.0,
// CHECK-NEXT: "producer": "mul",
// CHECK: "buffer": "b",
// CHECK: "bytes_saved": 24000.0,
// CHECK: "buffer": "C",
// CHECK: "bytes_saved": 8192.0,
// CHECK: "consumer": "biasRelu",
// CHECK: "fusible": true,
// CHECK: "buffer": "C",
// CHECK-NEXT: "bytes_after": 16384.0,
// CHECK-NEXT: "bytes_before": 24576.0,
// CHECK-NEXT: "bytes_saved": 8192.0,
// CHECK-NEXT: "consumer": "biasRelu",
// CHECK: "producer": "gemmAcc",
// CHECK: "buffer": "a",
// CHECK: "bytes_saved": 0.0,
// CHECK: "fusible": false,
// CHECK: "reason": "'a' is read again later by scale: it must still be written"

// UNTRACED: roofline-report: error: {{.*}}untraced.json: no trace (run the program with ROOFLINE_TRACE=1)

// SHORT: "trace": {
// SHORT-NEXT: "calls_not_kept": 12,
// SHORT-NEXT: "calls": [
// SHORT-NEXT: ["_Z3muliPKfS0_Pf", 1000,
// SHORT-NEXT: ["_Z3addiPKfS0_Pf", 1000,
// SHORT-NEXT: ["_Z4reluiPKfPf", 1000,
// SHORT-NEXT: ["_Z3muliPKfS0_Pf", 1000,
// SHORT-NEXT: {{^ +\]$}}
