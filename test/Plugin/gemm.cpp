// Dense GEMM at -O2: the closed form in M, N, K, and the same at -O0.
// RUN: %clangxx_roofline -O2 -g -c %s -o /dev/null -Rpass-analysis=roofline 2>&1 | FileCheck %s
// RUN: %clangxx_roofline -O0 -g -c %s -o /dev/null -Rpass-analysis=roofline 2>&1 | FileCheck %s --check-prefix=O0

// C[i][j] = sum_k A[i][k] * B[k][j]: M*N*K fmuladds (2 FLOPs each), two
// 4-byte loads each; one 4-byte store per (i, j). FLOPs 2MNK, loads 8MNK,
// stores 4MN; I -> 2MNK / 8MNK = 0.25 as the sizes grow. The footprint is
// the three matrices, each byte once: 4MK + 4KN read, 4MN written.
// CHECK: gemm.cpp:[[@LINE+3]]:{{[0-9]+}}: remark: gemm(int, int, int, float const*, float const*, float*): 2*M*N*K FLOP fp32 (exact), load 8*M*N*K B, store 4*M*N B, I -> 0.25 FLOP/B for large sizes, per call; footprint per call: read 4*M*K + 4*N*K B, written 4*M*N B (exact); assumes M > 0 (guard at gemm.cpp:{{[0-9]+}}); N > 0 (guard at gemm.cpp:{{[0-9]+}}); K > 0
// CHECK: gemm.cpp:[[@LINE+3]]:3: remark: loop in gemm{{.*}}: trip M, 2*M*N*K FLOP, load 8*M*N*K B, store 4*M*N B
// O0: remark: gemm(int, int, int, float const*, float const*, float*): 2*M*N*K FLOP fp32 (exact), load 8*M*N*K B, store 4*M*N B
void gemm(int M, int N, int K, const float *A, const float *B, float *C) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0;
      for (int k = 0; k < K; ++k)
        acc += A[i * K + k] * B[k * N + j];
      C[i * N + j] = acc;
    }
}
