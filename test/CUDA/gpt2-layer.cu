// The non-GEMM kernels of a GPT-2 layer as llm.c's train_gpt2.cu writes them
// (floatX = __nv_bfloat16; 128-bit packed loads through __ldcs, streamed
// stores through __stcs, a warp per row, fp32 optimizer state), at GPT-2
// 124M's sizes: B = 8, T = 1024, C = 768, so N = B*T = 8192 rows and
// BTC = 6,291,456 elements; 124,475,904 parameters. Issue 52's "Done when":
// each is memory-bound on h100-sxm and on mi300x, with its DRAM bytes
// within 10% of the compulsory bytes derived by hand below.
// REQUIRES: cuda
// RUN: rm -rf %t && mkdir %t
// RUN: %cuda_device -O3 -g -c %s -o %t/g.o -mllvm -roofline-json=%t/
// Each kernel is placed at the launch llm.c gives it: a warp per row, 8
// warps a block (threads = 32*N = 262,144); one thread per 8 elements
// (BTC/8 = 786,432); one thread per parameter (P).
// RUN: %roofline_report %t --platform h100-sxm --assume N=8192,C=768,threads=262144 --kernels 'layernorm|fused_residual' --format json > %t.rows.h100.json
// RUN: %roofline_report %t --platform h100-sxm --assume B=8,T=1024,C=768,BTC=6291456,threads=786432 --kernels '^(encoder_forward_kernel3|residual_forward_kernel|gelu_forward_kernel2)\(' --format json > %t.elems.h100.json
// RUN: %roofline_report %t --platform h100-sxm --assume P=124475904,threads=124475904 --kernels adamw --format json > %t.params.h100.json
// RUN: %roofline_report %t --platform mi300x --assume N=8192,C=768,threads=262144 --kernels 'layernorm|fused_residual' --format json > %t.rows.mi300x.json
// RUN: %roofline_report %t --platform mi300x --assume B=8,T=1024,C=768,BTC=6291456,threads=786432 --kernels '^(encoder_forward_kernel3|residual_forward_kernel|gelu_forward_kernel2)\(' --format json > %t.elems.mi300x.json
// RUN: %roofline_report %t --platform mi300x --assume P=124475904,threads=124475904 --kernels adamw --format json > %t.params.mi300x.json
// RUN: python3 %S/Inputs/compulsory.py %s %t.rows.h100.json %t.elems.h100.json %t.params.h100.json | FileCheck %s
// The chart draws the embedding's range as a bar at its point's height.
// RUN: %roofline_report %t --platform h100-sxm --assume B=8,T=1024,C=768,BTC=6291456,threads=786432 --kernels '^encoder_forward_kernel3\(' --format svg | FileCheck %s --check-prefix=SVG
// SVG: <line class="bytes-range" {{.*}}><title>traffic between 14.2 MB and 26.8 MB</title></line>
// RUN: python3 %S/Inputs/compulsory.py %s %t.rows.mi300x.json %t.elems.mi300x.json %t.params.mi300x.json | FileCheck %s
//
// The check prints each kernel's limiter: "dram" on h100-sxm, which lists
// no cache level; on mi300x a footprint that fits the 256 MB Infinity
// Cache is bound by it ("l3"), a memory roof too.

#include "Inputs/x128.cuh"

#define WARP_SIZE 32

__device__ float warpReduceSum(float val) {
  for (int offset = 16; offset > 0; offset /= 2)
    val += __shfl_xor_sync(0xFFFFFFFF, val, offset);
  return val;
}

// HAND layernorm_forward_kernel3: inp read once (2*N*C; its second and
// third reads hit the cache), weight and bias once (2 x 2*C), out written
// (2*N*C), mean and rstd (4*N each): 4*N*C + 4*C + 8*N = 25,234,432 B.
// CHECK: layernorm_forward_kernel3 {{dram|l3}} 25234432 B, hand 25234432 B: within 10%
__global__ void layernorm_forward_kernel3(floatX *__restrict__ out, float *__restrict__ mean,
                                          float *__restrict__ rstd,
                                          const floatX *__restrict__ inp,
                                          const floatX *__restrict__ weight,
                                          const floatX *__restrict__ bias, int N, int C) {
  int lane_id = threadIdx.x % WARP_SIZE;
  int warp_id = threadIdx.x / WARP_SIZE;
  int num_warps = blockDim.x / WARP_SIZE;
  int idx = blockIdx.x * num_warps + warp_id;
  if (idx >= N)
    return;
  const floatX *x = inp + idx * C;
  float sum = 0.0f;
  for (int i = lane_id; i < C; i += WARP_SIZE)
    sum += (float)x[i];
  sum = warpReduceSum(sum);
  float m = sum / C;
  if (lane_id == 0)
    __stwt(mean + idx, m); // llm.c: __stcs; clang's headers have no float __stcs
  sum = 0.0f;
  for (int i = lane_id; i < C; i += WARP_SIZE) {
    float diff = (float)x[i] - m;
    sum += diff * diff;
  }
  sum = warpReduceSum(sum);
  float s = rsqrtf(sum / C + 1e-5f);
  if (lane_id == 0)
    __stwt(rstd + idx, s);
  floatX *o = out + idx * C;
  for (int c = lane_id; c < C; c += WARP_SIZE) {
    float n = s * ((float)__ldcs(x + c) - m);
    __stcs(o + c, (floatX)(n * (float)weight[c] + (float)bias[c]));
  }
}

// HAND fused_residual_forward_kernel5: inp1 and inp2 read (2 x 2*N*C),
// residual written (2*N*C) and read back from cache, normed written
// (2*N*C), weight and bias (2 x 2*C), mean and rstd (4*N each):
// 8*N*C + 4*C + 8*N = 50,400,256 B.
// The footprint reads residual 3 times (2*N*C distinct bytes), but every
// read repeats the accesses of the first loop's write, done before: its
// "read_own", not traffic below the first level.
// CHECK: fused_residual_forward_kernel5 {{dram|l3}} 50400256 B, hand 50400256 B: within 10%
__global__ void fused_residual_forward_kernel5(floatX *residual, floatX *normed, float *mean,
                                               float *rstd, const floatX *inp1,
                                               const floatX *inp2, const floatX *weight,
                                               const floatX *bias, int N, int C) {
  int lane = threadIdx.x % WARP_SIZE;
  int idx = blockIdx.x * (blockDim.x / WARP_SIZE) + threadIdx.x / WARP_SIZE;
  if (idx >= N)
    return;
  residual += C * idx;
  normed += C * idx;
  inp1 += C * idx;
  inp2 += C * idx;
  float sum = 0.0f;
  for (int c = lane; c < C; c += WARP_SIZE) {
    float out = (float)__ldcs(inp1 + c) + (float)__ldcs(inp2 + c);
    sum += out;
    residual[c] = (floatX)out;
  }
  sum = warpReduceSum(sum);
  float m = sum / C;
  float v = 0.f;
  for (int c = lane; c < C; c += WARP_SIZE) {
    const float xi = (float)residual[c];
    v += (xi - m) * (xi - m);
  }
  v = warpReduceSum(v);
  float s = rsqrtf(v / C + 1e-5f);
  for (int c = lane; c < C; c += WARP_SIZE) {
    float n = s * ((float)residual[c] - m);
    __stcs(normed + c, (floatX)(n * (float)weight[c] + (float)bias[c]));
  }
  if (lane == 0) {
    mean[idx] = m;
    rstd[idx] = s;
  }
}

// HAND encoder_forward_kernel3: out written (2*B*T*C), wpe read once
// (2*T*C), the tokens (4*B*T), and the wte rows of the tokens: a gather
// through data, between one row (2*C, every token the same) and one row a
// position (2*B*T*C, every token distinct). The element index idx = 8*g
// splits into row bt = idx / C (b = bt / T, t = bt % T) and column c =
// idx % C: out's offset b*T*C + t*C + c is idx again, wpe's t*C + c
// covers T rows once (C a multiple of 8, as llm.c asserts), inp's b*T + t
// is bt. So 2*B*T*C + 2*T*C + 4*B*T + 2*C at least and 4*B*T*C + 2*T*C +
// 4*B*T at most = 14,190,080 to 26,771,456 B.
// DRAM binds at both ends: memory-bound, the bound on the lower end.
// CHECK: encoder_forward_kernel3 {{dram|l3}} 14188544 to 26771456 B, hand 14190080 to 26771456 B: within 10%
__global__ void encoder_forward_kernel3(floatX *out, const int *inp, const floatX *wte,
                                        const floatX *wpe, int B, int T, int C) {
  int idx = (blockIdx.x * blockDim.x + threadIdx.x) * x128::size;
  int N = B * T * C;
  if (idx >= N)
    return;
  int bt = idx / C;
  int b = bt / T;
  int t = bt % T;
  int c = idx % C;
  int ix = inp[b * T + t];
  floatX *out_btc = out + b * T * C + t * C + c;
  const floatX *wte_ix = wte + ix * C + c;
  const floatX *wpe_tc = wpe + t * C + c;
  x128 packed_out;
  x128 wte128 = load128cs(wte_ix);
  x128 wpe128 = load128cs(wpe_tc);
  for (int k = 0; k < x128::size; k++)
    packed_out[k] = (floatX)((float)wte128[k] + (float)wpe128[k]);
  store128(out_btc, packed_out);
}

// HAND residual_forward_kernel: inp1 and inp2 read, out written, 2 B an
// element each: 3 x 2*BTC = 37,748,736 B.
// CHECK: residual_forward_kernel {{dram|l3}} 37748736 B, hand 37748736 B: within 10%
__global__ void residual_forward_kernel(floatX *out, const floatX *inp1, const floatX *inp2,
                                        int BTC) {
  int idx = (blockIdx.x * blockDim.x + threadIdx.x) * x128::size;
  if (idx < BTC) {
    x128 packed_out;
    x128 packed_inp1 = load128cs(inp1 + idx);
    x128 packed_inp2 = load128cs(inp2 + idx);
    for (int k = 0; k < packed_inp1.size; k++)
      packed_out[k] = (floatX)((float)packed_inp1[k] + (float)packed_inp2[k]);
    store128(out + idx, packed_out);
  }
}

#define GELU_SCALING_FACTOR sqrtf(2.0f / M_PI)
// About 8 FLOPs and a tanh an element, 4 FLOP/B at most: memory-bound
// below both ridges.
// HAND gelu_forward_kernel2: inp read, out written: 2 x 2*BTC =
// 25,165,824 B.
// CHECK: gelu_forward_kernel2 {{dram|l3}} 25165824 B, hand 25165824 B: within 10%
__global__ void gelu_forward_kernel2(floatX *out, const floatX *inp, int BTC) {
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * x128::size;
  if (i < BTC) {
    x128 packed_out;
    x128 packed_inp = load128cs(inp + i);
    for (int k = 0; k < packed_inp.size; ++k) {
      float xi = (float)packed_inp[k];
      float cube = 0.044715f * xi * xi * xi;
      packed_out[k] = (floatX)(0.5f * xi * (1.0f + tanhf(GELU_SCALING_FACTOR * (xi + cube))));
    }
    store128(out + i, packed_out);
  }
}

// llm.c's stochastic rounding to bf16: a hash of the thread's position
// (real integer work) picks the rounding.
__device__ __host__ constexpr unsigned int SquirrelNoise5(int positionX, unsigned int seed) {
  constexpr unsigned int SQ5_BIT_NOISE1 = 0xd2a80a3f, SQ5_BIT_NOISE2 = 0xa884f197,
                         SQ5_BIT_NOISE3 = 0x6C736F4B, SQ5_BIT_NOISE4 = 0xB79F3ABB,
                         SQ5_BIT_NOISE5 = 0x1b56c4f5;
  unsigned int mangledBits = (unsigned int)positionX;
  mangledBits *= SQ5_BIT_NOISE1;
  mangledBits += seed;
  mangledBits ^= (mangledBits >> 9);
  mangledBits += SQ5_BIT_NOISE2;
  mangledBits ^= (mangledBits >> 11);
  mangledBits *= SQ5_BIT_NOISE3;
  mangledBits ^= (mangledBits >> 13);
  mangledBits += SQ5_BIT_NOISE4;
  mangledBits ^= (mangledBits >> 15);
  mangledBits *= SQ5_BIT_NOISE5;
  mangledBits ^= (mangledBits >> 17);
  return mangledBits;
}
__device__ void stochastic_rounding(float in, floatX *out, unsigned int seed) {
  unsigned int random = SquirrelNoise5(threadIdx.x + 198491317 * (blockIdx.x * blockDim.x + blockIdx.y), seed);
  unsigned int threshold = random & 0xFFFF;
  unsigned int float_bits = __float_as_uint(in);
  unsigned int rounded_bits = float_bits & 0x0000FFFF;
  float_bits = (rounded_bits > threshold) ? (float_bits | 0xFFFF) : (float_bits & ~0xFFFF);
  *out = __float2bfloat16_rn(__uint_as_float(float_bits));
}
__device__ float lerp(float start, float end, float weight) {
  return fma(weight, end, fma(-weight, start, start));
}

// HAND adamw_kernel3: bf16 parameters, fp32 master weights, m and v. Per
// parameter, the gradient read (2 B), m, v and the master weight read and
// written (3 x 8 B), the bf16 parameter written (2 B): 28*P =
// 3,485,325,312 B.
// On mi300x the report takes the 256 MiB Infinity Cache's share off a
// footprint past it (repeated calls): 3,485,325,312 - 268,435,456.
// CHECK: adamw_kernel3 dram {{3485325312|3216889856}} B, hand 3485325312 B: within 10%
__global__ void adamw_kernel3(floatX *params_memory, float *master_params_memory,
                              const floatX *grads_memory, float *m_memory, float *v_memory,
                              size_t P, float learning_rate, float beta1, float beta2,
                              float beta1_correction, float beta2_correction, float eps,
                              float weight_decay, float grad_scale, unsigned int seed) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= P)
    return;
  float grad = grad_scale * (float)grads_memory[idx];
  float m = m_memory[idx];
  float v = v_memory[idx];
  m = lerp(grad, m, beta1);
  m_memory[idx] = m;
  v = lerp(grad * grad, v, beta2);
  v_memory[idx] = v;
  m /= beta1_correction;
  v /= beta2_correction;
  float old_param = master_params_memory[idx];
  float param = old_param - (learning_rate * (m / (sqrtf(v) + eps) + weight_decay * old_param));
  stochastic_rounding(param, &params_memory[idx], seed);
  master_params_memory[idx] = param;
}
