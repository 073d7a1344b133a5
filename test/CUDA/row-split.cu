// An element index over the grid read through division and remainder by
// parameters (issue 52, item 5): i = k*g (g = blockIdx.x*blockDim.x +
// threadIdx.x), its row i / C, its column i % C, the row's digits t =
// row % T and b = row / T. Under the guard i < N*C the launch's elements
// are N rows of C: g splits into the digits of its rows
// (LaunchFootprint.cpp's splitRows) and a bias, a row scale or a
// position table gets an exact footprint. A guard that is not a whole
// number of rows, or one that leaves the first threads out, gives bounds,
// never a wrong exact figure. -O0, -O2 and -O3 agree.
// REQUIRES: cuda
// RUN: %cuda_device -O0 -g -c %s -o /dev/null -Rpass-analysis=roofline 2>&1 | FileCheck %s
// RUN: %cuda_device -O2 -g -c %s -o /dev/null -Rpass-analysis=roofline 2>&1 | FileCheck %s
// RUN: %cuda_device -O3 -g -c %s -o /dev/null -Rpass-analysis=roofline 2>&1 | FileCheck %s

// A bias per column: in and out N*C floats each, bias C floats once.
// CHECK: remark: bias_add(float*, float const*, float const*, int, int): {{.*}}; footprint per launch: read 4*N*C + 4*C B, written 4*N*C B (exact if {{.*}}gridDim.x*blockDim.x >= N*C
__global__ void bias_add(float *out, const float *in, const float *bias, int N, int C) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N * C)
    out[i] = in[i] + bias[i % C];
}

// A scale per row: scale N floats.
// CHECK: remark: row_scale(float*, float const*, float const*, int, int): {{.*}}; footprint per launch: read 4*N*C + 4*N B, written 4*N*C B (exact if
__global__ void row_scale(float *out, const float *in, const float *scale, int N, int C) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N * C)
    out[i] = in[i] * scale[i / C];
}

// The same in unsigned arithmetic (udiv, urem).
// CHECK: remark: bias_add_unsigned(float*, float const*, float const*, unsigned int, unsigned int): {{.*}}; footprint per launch: read 4*N*C + 4*C B, written 4*N*C B (exact if
__global__ void bias_add_unsigned(float *out, const float *in, const float *bias,
                                  unsigned N, unsigned C) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N * C)
    out[i] = in[i] + bias[i % C];
}

// A float4 a thread (i = 4*g): its four columns lie in one row when C is a
// multiple of 4, as the footprint assumes; bias C floats.
// CHECK: remark: bias_add4(float4*, float4 const*, float const*, int, int): {{.*}}; footprint per launch: read 4*C + 16*floor((C*N - 1)/4) + 16 B, written 16*floor((C*N - 1)/4) + 16 B (exact if {{.*}}4*floor(C/4) == C
__global__ void bias_add4(float4 *out, const float4 *in, const float *bias, int N, int C) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  int i = 4 * g;
  if (i < N * C) {
    float4 v = in[g];
    int c = i % C;
    v.x += bias[c];
    v.y += bias[c + 1];
    v.z += bias[c + 2];
    v.w += bias[c + 3];
    out[g] = v;
  }
}

// A constant row length: bias 768 floats, 3072 B.
// CHECK: remark: bias_768(float*, float const*, float const*, int): {{.*}}; footprint per launch: read 3072*N + 3072 B, written 3072*N B (exact if
__global__ void bias_768(float *out, const float *in, const float *bias, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N * 768)
    out[i] = in[i] + bias[i % 768];
}

// Two digits of the row: t = (i / C) % T over B*T rows; pos is T rows of C,
// read once: 4*T*C; out read and written, 4*B*T*C each.
// CHECK: remark: pos_add(float*, float const*, int, int, int): {{.*}}; footprint per launch: read 4*B*T*C + 4*T*C B, written 4*B*T*C B (exact if
__global__ void pos_add(float *out, const float *pos, int B, int T, int C) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < B * T * C) {
    int t = (i / C) % T;
    out[i] += pos[t * C + i % C];
  }
}

// i < n with n not a multiple of C: the last row is partial and the bias
// read is min(n, C) floats, which no polynomial states: between 0 and
// every thread's 4 B (the bias part), never an exact 4*C.
// CHECK: remark: bias_add_n(float*, float const*, float const*, int, int): {{.*}}; footprint per launch: read 4*n to 8*n B, written 4*n B (bounds)
__global__ void bias_add_n(float *out, const float *in, const float *bias, int n, int C) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] + bias[i % C];
}

// i > 0 leaves thread 0 out: bias[0] may or may not be read by another
// row; in and out lose element 0. Bounds, never N*C exact.
// CHECK: remark: bias_interior(float*, float const*, float const*, int, int): {{.*}}; footprint per launch: read 4*N*C - 4 to 8*N*C - 8 B, written 4*N*C - 4 B (bounds)
__global__ void bias_interior(float *out, const float *in, const float *bias, int N, int C) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < N * C)
    out[i] = in[i] + bias[i % C];
}

// A lower guard on k*g (k = 4): 4*g >= 1 leaves g = 0 out; the elements
// 4..4*G-1 (G = ceil(n/4) threads pass i < n): written 16*floor((n-1)/4)
// bytes, exact. Before, at -O0, g = 0 was counted (16 B too many).
// CHECK: remark: skip_first4(float*, float const*, int): {{.*}}; footprint per launch: read 16*floor((n - 1)/4) B, written 16*floor((n - 1)/4) B (exact if
__global__ void skip_first4(float *out, const float *in, int n) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  int i = 4 * g;
  if (i < 1 || i >= n)
    return;
  for (int j = 0; j < 4; ++j)
    out[i + j] = 2.0f * in[i + j];
}

// A guard on threadIdx alone: 16 threads of each block pass. The access
// runs for some threads only: at most every block's 16 elements... read as
// at most the lattice of all blockDim.x threads, never blockDim.x exact.
// CHECK: remark: first16(float*): {{.*}}; footprint per launch: read 0 to 4*blockDim.x*gridDim.x B, written 0 to 4*blockDim.x*gridDim.x B (bounds)
__global__ void first16(float *a) {
  if (threadIdx.x >= 16)
    return;
  a[blockIdx.x * blockDim.x + threadIdx.x] *= 2.0f;
}

// Guards and the accesses they enclose (a review's cases). A guard on the
// thread in front of a block-stride loop leaves threads out the loop would
// run (16 of 256 write): at most 4*n, never 4*n exact.
// CHECK: remark: lanes_then_loop(float*, int): {{.*}}; footprint per launch: read 0 B, written 0 to 4*n B (bounds)
__global__ void lanes_then_loop(float *x, int n) {
  if (threadIdx.x < 16)
    for (int i = threadIdx.x; i < n; i += blockDim.x)
      x[i] = 0.f;
}

// A guard on whole wavefronts (threadIdx.x / 64): bounds.
// CHECK: remark: wave_guard(float*, int): {{.*}}; footprint per launch: read 0 B, written 0 to 4*blockDim.x*gridDim.x B (bounds)
__global__ void wave_guard(float *out, int nw) {
  if (threadIdx.x / 64 < nw)
    out[blockIdx.x * blockDim.x + threadIdx.x] = 0.f;
}

// A guard inside the kernel (i > 0 around d's write) says nothing of the
// accesses outside it: out is written 4*n, exact; d 4*(n-1).
// CHECK: remark: inner_guard(float*, float*, float const*, int): {{.*}}; footprint per launch: read 4*n to 8*n{{( - 4)?}} B, written 8*n - 4 B (bounds)
__global__ void inner_guard(float *out, float *d, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = in[i];
    if (i > 0)
      d[i] = in[i] - in[i - 1];
  }
}

// The same guard written twice is one guard: exact.
// CHECK: remark: guard_twice(float*, float*, float const*, int): {{.*}}; footprint per launch: read 8*n B, written 8*n B (exact if gridDim.x*blockDim.x >= n)
__global__ void guard_twice(float *out, float *tmp, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    tmp[i] = in[i];
  __syncthreads();
  if (i < n)
    out[i] = tmp[i] * 2.0f;
}

// -O2 spells threadIdx.x % 32 < 8 as (threadIdx.x & 24) == 0: a test on
// the lanes, which singles out threads: bounds.
// CHECK: remark: first_lanes(float*, float const*, int): {{.*}}; footprint per launch: read 0 to 4*n B, written 0 to 4*n B (bounds)
__global__ void first_lanes(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  if (threadIdx.x % 32 >= 8)
    return;
  out[i] = in[i];
}
