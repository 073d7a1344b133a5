// VGG16 and MobileNet-v1 layers as CUDA kernels: the same layer types,
// shapes and parameter names as cnn.cpp, one thread per output element (the
// natural CUDA mapping), fp32. Analysed statically (no GPU needed): the
// plugin's counts are per thread; a layer's launch is its output elements'
// threads, so --assume threads=<outputs> gives the layer's totals.
//
// USAGE: scripts/examples.sh cnn-cuda   (compile with the plugin, compare with
//                                        the C++ kernels, place on rooflines)
//   clang++-22 -x cuda --cuda-path=/usr/local/cuda --cuda-gpu-arch=sm_90 \
//     -Wno-unknown-cuda-version --cuda-device-only -O2 -g \
//     -fpass-plugin=build/lib/RooflinePass.so -mllvm -roofline-json=cnn-cuda.json \
//     -c examples/cnn/cnn.cu -o /dev/null
//
// Layouts are cnn.cpp's: channel-major maps, inputs padded in advance (so no
// kernel has a data-dependent branch), each output written with the zero
// border OP the next layer's padding needs. The only branch is the index
// guard `if (i < outputs)`, which the plugin assumes taken (docs/counting.md).
//
// Unlike cnn.cpp's loops (one output channel's map in a local accumulator,
// each weight loaded once), a thread here reads every input and every
// weight it needs from global memory: the FLOPs are the same, the counted
// bytes are not (see docs/examples.md). conv3x3_tiled shows what staging the
// input tile and the weights in shared memory reads instead.

// ReLU as in cnn.cpp's store<float>: a compare and a select, no FLOPs.
// (The thread index is written out in each kernel rather than returned by a
// helper: at -O0 the helper is not inlined and the plugin no longer sees the
// `i < outputs` guard as an index guard; its counts become estimates.)
__device__ inline float relu(float V) { return V > 0 ? V : 0; }

// Direct convolution, Cin -> Cout, K x K, stride S, padded input P x P,
// output M x M (border OP). Thread = output (co, oy, ox): Cin*K^2 FMAs, each
// reading one weight and one input element.
__global__ void conv2d(int Cin, int Cout, int M, int K, int S, int P, int OP,
                       const float *in, const float *w, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < Cout * M * M) {
    int co = i / (M * M), oy = i / M % M, ox = i % M;
    float acc = 0;
    for (int ci = 0; ci < Cin; ++ci)
      for (int kh = 0; kh < K; ++kh)
        for (int kw = 0; kw < K; ++kw)
          acc += w[((co * Cin + ci) * K + kh) * K + kw] *
                 in[(ci * P + oy * S + kh) * P + ox * S + kw];
    int OS = M + 2 * OP;
    out[(co * OS + oy + OP) * OS + ox + OP] = relu(acc);
  }
}

// Pointwise (1 x 1) convolution: cnn.cpp runs these as conv2d with K = 1;
// here a kernel of its own (P = M, no stride). Thread = output: Cin FMAs.
__global__ void pwconv2d(int Cin, int Cout, int M, int OP, const float *in,
                         const float *w, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < Cout * M * M) {
    int co = i / (M * M), p = i % (M * M);
    float acc = 0;
    for (int ci = 0; ci < Cin; ++ci)
      acc += w[co * Cin + ci] * in[ci * M * M + p];
    int OS = M + 2 * OP;
    out[(co * OS + p / M + OP) * OS + p % M + OP] = relu(acc);
  }
}

// Depthwise convolution, one K x K filter per channel. Thread = output
// (c, oy, ox): K^2 FMAs.
__global__ void dwconv2d(int C, int M, int K, int S, int P, int OP,
                         const float *in, const float *w, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < C * M * M) {
    int c = i / (M * M), oy = i / M % M, ox = i % M;
    float acc = 0;
    for (int kh = 0; kh < K; ++kh)
      for (int kw = 0; kw < K; ++kw)
        acc += w[(c * K + kh) * K + kw] *
               in[(c * P + oy * S + kh) * P + ox * S + kw];
    int OS = M + 2 * OP;
    out[(c * OS + oy + OP) * OS + ox + OP] = relu(acc);
  }
}

// 2 x 2 max pooling, stride 2, input 2M x 2M. Thread = output: 4 loads, no
// FLOPs (a max is a compare).
__global__ void maxpool2(int C, int M, int OP, const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < C * M * M) {
    int c = i / (M * M), oy = i / M % M, ox = i % M, IS = 2 * M;
    const float *s = in + (c * IS + 2 * oy) * IS + 2 * ox;
    float a = s[0] > s[1] ? s[0] : s[1];
    float b = s[IS] > s[IS + 1] ? s[IS] : s[IS + 1];
    int OS = M + 2 * OP;
    out[(c * OS + oy + OP) * OS + ox + OP] = a > b ? a : b;
  }
}

// Global average pooling over HW pixels. Thread = channel: HW adds and one
// multiply by Scale = 1/HW, which the host computes once per launch (cnn.cpp
// divides once per call inside the kernel: one FLOP more per network).
__global__ void avgpool(int C, int HW, float Scale, const float *in,
                        float *out) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c < C) {
    float s = 0;
    for (int p = 0; p < HW; ++p)
      s += in[c * HW + p];
    out[c] = relu(s * Scale);
  }
}

// Fully connected layer at batch 1 (GEMV). Thread = output row: In FMAs,
// reading the row of w and all of x.
__global__ void fc(int In, int Out, const float *x, const float *w,
                   float *y) {
  int o = blockIdx.x * blockDim.x + threadIdx.x;
  if (o < Out) {
    float s = 0;
    for (int i = 0; i < In; ++i)
      s += w[o * In + i] * x[i];
    y[o] = s;
  }
}

// Copies the 3 x R x R image into the first layer's padded input. Thread =
// image element: one load, one store.
__global__ void load_image(int R, const float *img, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < 3 * R * R) {
    int c = i / (R * R), y = i / R % R, x = i % R;
    out[(c * (R + 2) + y + 1) * (R + 2) + x + 1] = img[i];
  }
}

// ---- A shared-memory tiled 3 x 3 convolution (stride 1), for comparison --
// Block = 16 x 16 threads = a 16 x 16 output tile of CO output channels
// (blockIdx.z = group of CO channels); every thread computes CO outputs at
// its pixel. Per input channel the block stages the 18 x 18 input halo and
// the CO x 9 weights in shared memory; each thread loads exactly 2 halo
// elements (indices clamped rather than branched on, so every thread does
// the same work and a few elements are loaded twice) and 1 weight, then
// reads its 3 x 3 window and the CO x 9 weights from shared memory and does
// 9*CO FMAs. (A guard such as `if (t < HALO * HALO)` around the loads would
// be counted as taken by every thread: docs/counting.md.) Threads of edge tiles whose pixel is
// outside the M x M map (M not a multiple of 16) still load their share
// and skip only the store.
#define TILE 16
#define CO 8
#define HALO (TILE + 2)
__global__ void conv3x3_tiled(int Cin, int Cout, int M, int P, int OP,
                              const float *in, const float *w, float *out) {
  __shared__ float Tile[HALO * HALO], Wt[CO * 9];
  int tx = threadIdx.x, ty = threadIdx.y, t = ty * TILE + tx;
  int x0 = blockIdx.x * TILE, y0 = blockIdx.y * TILE, co0 = blockIdx.z * CO;
  float acc[CO];
#pragma unroll
  for (int c = 0; c < CO; ++c)
    acc[c] = 0;
  for (int ci = 0; ci < Cin; ++ci) {
    for (int j = 0; j < 2; ++j) {
      int e = min(t + j * TILE * TILE, HALO * HALO - 1);
      int y = min(y0 + e / HALO, P - 1), x = min(x0 + e % HALO, P - 1);
      Tile[e] = in[(ci * P + y) * P + x];
    }
    int k = min(t, CO * 9 - 1);
    Wt[k] = w[((co0 + k / 9) * Cin + ci) * 9 + k % 9];
    __syncthreads();
    float v[9]; // the thread's 3 x 3 window, reused for the CO channels
#pragma unroll
    for (int k = 0; k < 9; ++k)
      v[k] = Tile[(ty + k / 3) * HALO + tx + k % 3];
#pragma unroll
    for (int c = 0; c < CO; ++c)
#pragma unroll
      for (int k = 0; k < 9; ++k)
        acc[c] += Wt[c * 9 + k] * v[k];
    __syncthreads();
  }
  int oy = y0 + ty, ox = x0 + tx, OS = M + 2 * OP;
  if (oy < M && ox < M)
#pragma unroll
    for (int c = 0; c < CO; ++c)
      out[((co0 + c) * OS + oy + OP) * OS + ox + OP] = relu(acc[c]);
}
