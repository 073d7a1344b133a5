// A warp per row (llm.c's layernorm_forward_kernel3 without cooperative
// groups): row idx = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32,
// lane = threadIdx.x % 32 strides along it. The footprint analysis does
// not follow the warp index (issue 52, item 3): the accesses' addresses
// "depend on data" and the footprint's lower bound is 0 B.
// REQUIRES: cuda
// RUN: rm -rf %t && mkdir %t
// RUN: %cuda_device -O2 -g -c %s -o %t/w.o -mllvm -roofline-json=%t/
// RUN: %roofline_report %t --platform h100-sxm --assume N=8192,C=768,threads=262144 --format json > %t.r.json
// RUN: python3 -c "import json,sys; k=json.load(open(sys.argv[1]))['kernels'][0]; print(k['limiter'], k['bytes']); print([n for n in k['notes'] if n.startswith('verdict')][0])" %t.r.json | FileCheck %s
//
// With 0 B below the first level the kernel would be compute-bound; with
// every counted byte at DRAM memory-bound: a row is read 3 times (3 x 768
// x 4 B), weight and bias once (2 x 768 x 4 B), the output written once
// (768 x 4 B): 18,432 B a row, x 8192 rows = 151 MB. The verdict is not known, and the row says so rather
// than call a kernel that streams 50 MB at least (x read once, out written
// once: 2 x 4 B x 6.3 M) compute-bound on 0 B.
// CHECK: unknown None
// CHECK-NEXT: verdict not known: the footprint is a lower bound, so the traffic below the first level is between 0 B (compute binds) and 151 MB at dram, its upper bound (dram binds); an exact footprint of the accesses named above decides

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
