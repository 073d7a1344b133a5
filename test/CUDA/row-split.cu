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
