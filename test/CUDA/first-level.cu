// The first level of a GPU (shared on h100-sxm: the SM's L1/shared data
// path, 128 B a clock) serves a warp's access in 128-byte cycles. A 4-byte
// load costs a cycle whether the lanes share its address or not, so its
// counted bytes hold there; a wider one (the float4 the back end makes of
// four adjacent float loads) may reach the whole warp in one cycle: 4 B a
// lane of it hold, the rest is warp_shareable (docs/counting.md, "The
// first level on a GPU").
// REQUIRES: cuda
// RUN: rm -rf %t && mkdir %t
// RUN: %cuda_device -O2 -g -c %s -o %t/k.o -mllvm -roofline-json=%t/
// RUN: python3 -c "import json,glob; [print(k['name'], json.dumps(k['formula']['bytes_by_space'], sort_keys=True)) for f in glob.glob('%t/*.json') for k in json.load(open(f))['kernels']]" | FileCheck %s --check-prefix=SUMMARY
// RUN: %roofline_report %t --kernels sgemm --platform h100-sxm --assume M=1024,N=1024,K=1024,threads=1048576,blockDim.x=32,blockDim.y=32,blockDim.z=1,gridDim.x=32,gridDim.y=32,gridDim.z=1 --format json > %t.gemm.json
// RUN: %roofline_report %t --kernels horner --platform h100-sxm --assume n=1048576,K=256,threads=1048576,blockDim.x=256,blockDim.y=1,blockDim.z=1,gridDim.x=4096,gridDim.y=1,gridDim.z=1 --format json > %t.horner.json
// RUN: python3 -c "import json,sys; [print(k['name'], k['limiter'], k['bytes_level'], int(k['bytes']), int(k['flops'])) for f in sys.argv[1:] for k in json.load(open(f))['kernels']]" %t.gemm.json %t.horner.json | FileCheck %s --check-prefix=PLACE

// Per thread: 2K FLOPs, 8K B loaded (A's row, broadcast to the warp, and
// B's column, coalesced: 4-byte loads both), 4 B stored; nothing shareable
// (A[row*K + k] and A[row*K + k + 1] are adjacent but only 4-byte aligned,
// so the back end keeps them apart).
// SUMMARY-DAG: _Z11sgemm_naiveiiiPKfS0_Pf {"global": {"load": "8*K", "store": "4"}}
__global__ void sgemm_naive(int M, int N, int K, const float *A, const float *B,
                            float *C) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < M && col < N) {
    float acc = 0.f;
    for (int k = 0; k < K; ++k)
      acc += A[row * K + k] * B[k * N + col];
    C[row * N + col] = acc;
  }
}
// M = N = K = 1024, one thread an output: 2*M*N*K = 2,147,483,648 FLOPs;
// the first level (8K + 4)*M*N = 8196 * 2^20 = 8,594,128,896 B, 257 us at
// 33.45 TB/s, past the compute's 32 us and DRAM's 4 us (12.6 MB): bound
// by the first level at 8.36 TFLOP/s. (siboehm's coalesced naive SGEMM
// reaches 2 TFLOP/s on an A6000, whose first level is 19.4 TB/s.)
// PLACE: _Z11sgemm_naiveiiiPKfS0_Pf shared shared 8594128896 2147483648

// A polynomial in each thread's x[i] with coefficients every lane shares:
// per k, one float4 (16 B: four adjacent float loads, merged into one
// ld.global.v4 by the back end; through __ldg, a global load of the flat
// address), 3 FMAs for p, 1 for acc and 1 for sq: 10 FLOPs. Per thread
// 10K + 2 FLOPs (v*v, acc + sq), 16K + 4 B loaded, 4 stored; 12 B of each
// float4 shareable: 12K.
// SUMMARY-DAG: _Z7horner4PfPKfPK6float4ii {"global": {"load": "16*K + 4", "store": "4", "warp_shareable": "12*K"}}
// SUMMARY-DAG: _Z11horner4_ldgPfPKfPK6float4ii {"global": {"load": "16*K + 4", "store": "4", "warp_shareable": "12*K"}}
__global__ void horner4(float *y, const float *x, const float4 *c, int n, int K) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = x[i], v2 = v * v, acc = 0.f, sq = 0.f;
  for (int k = 0; k < K; ++k) {
    float4 ck = c[k];
    float p = ((ck.x * v + ck.y) * v + ck.z) * v + ck.w;
    acc = acc * v2 + p;
    sq += p * p;
  }
  y[i] = acc + sq;
}
__global__ void horner4_ldg(float *y, const float *x, const float4 *c, int n,
                            int K) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = x[i], v2 = v * v, acc = 0.f, sq = 0.f;
  for (int k = 0; k < K; ++k) {
    float4 ck = __ldg(&c[k]);
    float p = ((ck.x * v + ck.y) * v + ck.z) * v + ck.w;
    acc = acc * v2 + p;
    sq += p * p;
  }
  y[i] = acc + sq;
}
// n = 2^20 threads, K = 256: (10K + 2)*n = 2562 * 2^20 = 2,686,451,712
// FLOPs, 40.1 us at 67 TFLOP/s. The first level: (16K + 8 - 12K)*n =
// 1032 * 2^20 = 1,082,130,432 B, 32.4 us; DRAM the footprint 8n + 16K =
// 8,392,704 B (exact, through __ldg too), 2.5 us: compute-bound. Charged
// every counted byte (4.3 GB, 129 us) the first level would bind instead.
// PLACE: _Z7horner4PfPKfPK6float4ii compute shared 1082130432 2686451712
// PLACE: _Z11horner4_ldgPfPKfPK6float4ii compute shared 1082130432 2686451712
