// A row-major matrix with a leading dimension (BLAS's lda, as C frameworks
// write their GEMMs): A[i*lda + k] over i < M, k < K touches M*K distinct
// floats while lda >= K (rows do not overlap). The footprint is exact
// under "lda - K >= 0", and each call tests it.
//
// gemm_nn is darknet's, as written there: C[M x N] += ALPHA * A[M x K] *
// B[K x N]. Distinct bytes per call: A 4MK, B 4KN, C 4MN read; C 4MN
// written.
// RUN: %clang_roofline -O3 -march=native -g -c %s -o /dev/null -Rpass-analysis=roofline 2>&1 | FileCheck %s --check-prefix=STATIC
// STATIC: remark: gemm_nn: {{.*}}; footprint per call: read 4*M*N + 4*M*K + 4*N*K B, written 4*M*N B (exact if -K + lda >= 0 for A; -N + ldb >= 0 for B; -N + ldc >= 0 for C)
#include <stdlib.h>

__attribute__((noinline)) void gemm_nn(int M, int N, int K, float ALPHA,
                                       float *A, int lda, float *B, int ldb,
                                       float *C, int ldc) {
  int i, j, k;
  for (i = 0; i < M; ++i) {
    for (k = 0; k < K; ++k) {
      register float A_PART = ALPHA * A[i * lda + k];
      for (j = 0; j < N; ++j) {
        C[i * ldc + j] += A_PART * B[k * ldb + j];
      }
    }
  }
}

// Two calls, M = 30, N = 20, K = 10, with packed matrices (lda = K, ldb =
// ldc = N): read 4 x (600 + 300 + 200) = 4400 B a call, 8800 for two;
// written 4 x 600 = 2400, 4800 for two; exact.
// RUN: %roofline_clang -O3 -march=native -g %s -o %t.exe
// RUN: env ROOFLINE_PROFILE=%t.packed.json %t.exe 0 && FileCheck %s --check-prefix=PACKED --input-file=%t.packed.json
// PACKED: "name": "gemm_nn"
// PACKED: "footprint": {"read": 8800, "written": 4800, "exact": true}
//
// With lda = 5 < K the rows of A overlap: the second call breaks the
// assumption and adds 0, so the sum is the first call's, a lower bound.
// RUN: env ROOFLINE_PROFILE=%t.overlap.json %t.exe 1 && FileCheck %s --check-prefix=OVERLAP --input-file=%t.overlap.json
// OVERLAP: "name": "gemm_nn"
// OVERLAP: "footprint": {"read": 4400, "written": 2400, "exact": false}
//
// A kernel with no reuse, whose footprint equals its counted bytes only
// while its rows do not overlap (x[i*ld + j], j < m): a call with ld < m
// breaks that, and must not take its counted bytes for its footprint.
// rows(4, 8, 8, x): 4 x 8 floats, 128 B, exact; rows(4, 2, 8, x): broken.
// RUN: env ROOFLINE_PROFILE=%t.rows.json %t.exe 2 && FileCheck %s --check-prefix=ROWS --input-file=%t.rows.json
// ROWS: "name": "rows"
// ROWS: "footprint": {"read": 128, "written": 0, "exact": true}
// RUN: env ROOFLINE_PROFILE=%t.rows-overlap.json %t.exe 3 && FileCheck %s --check-prefix=ROWS-OVERLAP --input-file=%t.rows-overlap.json
// ROWS-OVERLAP: "name": "rows"
// ROWS-OVERLAP: "footprint": {"read": 0, "written": 0, "exact": false}
__attribute__((noinline)) float rows(int n, int ld, int m, const float *x) {
  float s = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j)
      s += x[i * ld + j];
  return s;
}

int main(int argc, char **argv) {
  int mode = argc > 1 ? atoi(argv[1]) : 0;
  enum { M = 30, N = 20, K = 10 };
  static float A[M * K], B[K * N], C[M * N];
  for (int i = 0; i < M * K; ++i) A[i] = 0.5f;
  for (int i = 0; i < K * N; ++i) B[i] = 0.25f;
  if (mode >= 2)
    return rows(4, mode == 2 ? 8 : 2, 8, A) > 1e30f;
  gemm_nn(M, N, K, 1.0f, A, K, B, N, C, N);
  gemm_nn(mode ? 20 : M, N, K, 1.0f, A, mode ? 5 : K, B, N, C, N);
  return C[7] > 1e30f;
}

// The static report at sizes that break an assumption (lda = 5 < K): the
// footprint is no lower bound there, and the levels below the first get
// none (at lda = K it is 4 x (3000x2000 + 3000x1000 + 1000x2000) read and
// 4 x 3000x2000 written: 64.8 MiB).
// RUN: rm -rf %t.d && %clang_roofline -O3 -march=native -g -c %s -o /dev/null -mllvm -roofline-json=%t.d/
// RUN: %roofline_report %t.d/*.json --platform intel-xeon-8480 --assume M=3000,N=2000,K=1000,lda=1000,ldb=2000,ldc=2000,n=4,ld=8,m=8 | FileCheck %s --check-prefix=HOLDS
// HOLDS: footprint 64.8 MiB fits in l2
// RUN: %roofline_report %t.d/*.json --platform intel-xeon-8480 --assume M=3000,N=2000,K=1000,lda=5,ldb=2000,ldc=2000,n=4,ld=8,m=8 | FileCheck %s --check-prefix=BROKEN
// BROKEN: gemm_nn {{.*}} unknown (traffic)
// BROKEN: footprint: its assumption -K + lda >= 0 for A does not hold at these sizes: no bound below the first level
