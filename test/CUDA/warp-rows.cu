// A warp per row (llm.c's layernorm_forward_kernel3 without cooperative
// groups): row idx = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32,
// lane = threadIdx.x % 32 strides along it (issue 52, item 3). The lane is
// threadIdx.x - 32*floor(threadIdx.x/32), not threadIdx.x; the warp and
// lane are counters of the footprint, and the lane-stride loops cover
// their row.
// REQUIRES: cuda
// RUN: rm -rf %t && mkdir %t
// RUN: %cuda_device -O2 -g -c %s -o %t/w.o -mllvm -roofline-json=%t/
// RUN: %roofline_report %t --platform h100-sxm --assume N=8192,C=768,threads=262144 --format json > %t.r.json
// RUN: python3 -c "import json,sys; k=json.load(open(sys.argv[1]))['kernels'][0]; print(k['limiter'], k['flops'], k['bytes'])" %t.r.json | FileCheck %s
// RUN: python3 -c "import json,glob; k=json.load(open(glob.glob('%t/*.json')[0]))['kernels'][0]; f=k['footprint']; print(f['read'], f['written'], f['exact'], f['assumptions'])" | FileCheck %s --check-prefix=FOOT
//
// FLOPs per thread (C = 768: every lane runs 24 iterations of each loop):
// mean 24 x 1 add, 24 x (sub + FMA) = 72, 24 x (sub, mul, FMA) = 96, two
// 5-step shuffle sums (10 adds), 2 divisions, rsqrtf's add and rsqrt
// (2): 206, x 262,144 threads = 54,001,664. Read as threadIdx.x (lanes
// up to 255) the mean was 38 M.
// CHECK: dram 54001664.0 50337792.0
//
// Bytes: a row is read 3 times but is 768 x 4 B of distinct bytes, weight
// and bias once (2 x 768 x 4 B), the output written once: read 4*N*C +
// 8*C, written 4*N*C; 8192 rows: 25,165,824 + 6,144 read, 25,165,824
// written = 50,337,792 B. Exact for whole warps and a grid that covers
// the rows.
// FOOT: 4*N*C + 8*C 4*N*C True ['32*floor(blockDim.x/32) >= blockDim.x', 'gridDim.x*floor(blockDim.x/32) >= N']

__global__ void layernorm_rows(float *__restrict__ out, const float *__restrict__ inp,
                               const float *__restrict__ weight,
                               const float *__restrict__ bias, int N, int C) {
  int lane = threadIdx.x % 32;
  int idx = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  if (idx >= N)
    return;
  const float *x = inp + idx * C;
  float sum = 0.0f;
  for (int i = lane; i < C; i += 32)
    sum += x[i];
  for (int o = 16; o > 0; o >>= 1)
    sum += __shfl_xor_sync(0xffffffff, sum, o);
  float m = sum / C;
  sum = 0.0f;
  for (int i = lane; i < C; i += 32) {
    float d = x[i] - m;
    sum += d * d;
  }
  for (int o = 16; o > 0; o >>= 1)
    sum += __shfl_xor_sync(0xffffffff, sum, o);
  float s = rsqrtf(sum / C + 1e-5f);
  float *o = out + idx * C;
  for (int c = lane; c < C; c += 32)
    o[c] = s * (x[c] - m) * weight[c] + bias[c];
}
