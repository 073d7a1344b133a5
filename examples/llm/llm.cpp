// LLM decoder layers (Llama-style: RMSNorm, attention with a KV cache,
// SwiGLU MLP) in prefill (a prompt of Nq tokens) and decode (one new token
// per sequence, B sequences, past tokens in the KV cache), fp32 and fp16,
// multi-head or grouped-query attention, an fp16 or int8 KV cache.
//
// USAGE: scripts/examples.sh llm   (static formulas at 7B shapes on
//        h100-sxm / h200, and a reduced-size run checked against them)
//        llm VARIANT L B Nq past d G Hkv dh dff   runs decoder_stack
//        (VARIANT: fp32, fp16, fp16-kv8; G query heads per KV head)
//
// What the kernels move to and from memory is what a good implementation
// must move: every weight once per forward (the activations of all tokens
// held on chip while the weights stream: a local copy, which the plugin
// counts as stack traffic, apart from memory), every K/V row of the cache
// once per KV head (FlashAttention-style: the rows held on chip while all
// queries of the KV group use them), activations once. So the counted
// bytes are the traffic of the roofline, and GQA and an int8 cache shrink
// them. Compiled with -fno-math-errno (else sqrtf keeps an errno branch,
// which the plugin rightly calls data-dependent) and with
// -Xclang -ffloat16-excess-precision=none, so fp16 arithmetic stays fp16
// in the IR (clang otherwise computes _Float16 in float on x86 and the
// FLOPs would be classed fp32).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <vector>

#define KERNEL __attribute__((noinline))

template <typename T> static inline T maxv(T A, T B) {
  if constexpr (std::is_same_v<T, float>)
    return __builtin_fmaxf(A, B);
  else
    return __builtin_fmaxf16(A, B);
}

// RMSNorm of N rows of d: d FMAs for the sum of squares (in fp32, as
// fp16 implementations do), one division, one add, one square root and one
// division per row, two multiplies per element.
template <typename T>
KERNEL void rmsnorm(int N, int d, const T *x, const T *g, T *y) {
  for (int t = 0; t < N; ++t) {
    float ss = 0;
    for (int i = 0; i < d; ++i)
      ss += float(x[t * d + i]) * float(x[t * d + i]);
    T r = T(1.0f / __builtin_sqrtf(ss / float(d) + 1e-5f));
    for (int i = 0; i < d; ++i)
      y[t * d + i] = x[t * d + i] * r * g[i];
  }
}

// y (N x Dout) = x (N x Din) W^T, W Dout x Din: 2*N*Din*Dout FLOPs. The N
// rows of x are copied on chip (a local array: stack traffic) and every
// weight is loaded once, so memory traffic is W + x + y: a GEMM in prefill
// (N = prompt), a GEMV-like pass over the weights in decode (N = batch).
template <typename T>
KERNEL void linear(int N, int Din, int Dout, const T *x, const T *W, T *y) {
  T xs[N * Din];
  T acc[N];
  for (int i = 0; i < N * Din; ++i)
    xs[i] = x[i];
  for (int o = 0; o < Dout; ++o) {
    for (int t = 0; t < N; ++t)
      acc[t] = 0;
    for (int i = 0; i < Din; ++i) {
      T w = W[o * Din + i];
      for (int t = 0; t < N; ++t)
        acc[t] += w * xs[t * Din + i];
    }
    for (int t = 0; t < N; ++t)
      y[t * Dout + o] = acc[t];
  }
}

// Appends the new tokens' K or V rows (B sequences x Nq tokens x Hkv*dh) to
// a cache of B x (past + Nq) rows; an int8 cache quantises (one multiply per
// element, a clamp and a conversion: no FLOPs).
template <typename T, typename KV>
KERNEL void kv_append(int B, int Nq, int past, int W, const T *x, KV *cache,
                      float inv_scale) {
  for (int b = 0; b < B; ++b)
    for (int t = 0; t < Nq; ++t)
      for (int i = 0; i < W; ++i) {
        T v = x[(b * Nq + t) * W + i];
        KV *dst = &cache[(b * (past + Nq) + past + t) * W + i];
        if constexpr (std::is_same_v<KV, T>)
          *dst = v;
        else
          *dst = KV(__builtin_fminf(
              __builtin_fmaxf(float(v) * inv_scale, -127.0f), 127.0f));
      }
}

// Causal attention with a KV cache: B sequences, Nq queries each at
// positions past..past+Nq-1, Hkv KV heads each shared by a group of G query
// heads (H = G*Hkv; G = 1 is multi-head attention), head size dh. (The
// group size is a parameter rather than H/Hkv: the plugin names a quotient
// by a constant, floor(K/16), but a quotient of two parameters leaves the
// loop's trip count unknown.) Per KV head the cache rows (past + Nq of them) are
// read once into a local tile; query t of head h then sees n = past + t + 1
// keys: 2*n*dh FLOPs for Q.K, n multiplies by the scale, n subtractions and
// n adds for the softmax (n exponentials, counted apart as special), one
// division, 2*n*dh FLOPs for P.V and dh multiplies by 1/sum. An int8 cache
// keeps its scales folded into those multiplies (no extra FLOPs).
template <typename T, typename KV>
KERNEL void attention(int B, int Nq, int past, int G, int Hkv, int dh,
                      const T *q, const KV *kc, const KV *vc, T *o,
                      float kscale, float vscale) {
  int ctx = past + Nq, H = G * Hkv;
  T scale = T(kscale / __builtin_sqrtf(float(dh))), vs = T(vscale);
  T ks[ctx * dh], vt[ctx * dh], qs[dh], sc[ctx];
  for (int b = 0; b < B; ++b)
    for (int j = 0; j < Hkv; ++j) {
      for (int s = 0; s < ctx; ++s)
        for (int e = 0; e < dh; ++e) {
          ks[s * dh + e] = T(kc[((b * ctx + s) * Hkv + j) * dh + e]);
          vt[s * dh + e] = T(vc[((b * ctx + s) * Hkv + j) * dh + e]);
        }
      for (int hh = 0; hh < G; ++hh)
        for (int t = 0; t < Nq; ++t) {
          int h = j * G + hh, n = past + t + 1;
          for (int e = 0; e < dh; ++e)
            qs[e] = q[((b * Nq + t) * H + h) * dh + e];
          T m = T(-65504.0f);
          for (int s = 0; s < n; ++s) {
            T dot = 0;
            for (int e = 0; e < dh; ++e)
              dot += qs[e] * ks[s * dh + e];
            sc[s] = dot * scale;
            m = maxv(m, sc[s]);
          }
          T sum = 0;
          for (int s = 0; s < n; ++s) {
            sc[s] = T(__builtin_expf(float(sc[s] - m)));
            sum += sc[s];
          }
          T inv = vs / sum;
          for (int e = 0; e < dh; ++e) {
            T acc = 0;
            for (int s = 0; s < n; ++s)
              acc += sc[s] * vt[s * dh + e];
            o[((b * Nq + t) * H + h) * dh + e] = acc * inv;
          }
        }
    }
}

// h = silu(gate) * up = gate / (1 + exp(-gate)) * up: an add, a division and
// a multiply per element (the exponential counted apart).
template <typename T>
KERNEL void swiglu(int n, const T *gate, const T *up, T *h) {
  for (int i = 0; i < n; ++i)
    h[i] = gate[i] / (T(1) + T(__builtin_expf(-float(gate[i])))) * up[i];
}

// x += y (the residual connection): one add per element.
template <typename T> KERNEL void residual(int n, const T *y, T *x) {
  for (int i = 0; i < n; ++i)
    x[i] += y[i];
}

// Weights of one layer, in the blob: Wq, Wk, Wv, Wo, Wgate, Wup, Wdown, and
// the two RMSNorm gains.
static inline long layer_weights(long d, long G, long Hkv, long dh, long dff) {
  long H = G * Hkv;
  return d * H * dh + 2 * d * Hkv * dh + H * dh * d + 3 * d * dff + 2 * d;
}

// One decoder layer on the N = B*Nq tokens in x (N x d, updated in place),
// H = G*Hkv query heads. scratch holds N*(d + 2*H*dh + 2*Hkv*dh + 3*dff)
// elements.
template <typename T, typename KV>
KERNEL void decoder_layer(int B, int Nq, int past, int d, int G, int Hkv,
                          int dh, int dff, T *x, const T *w, KV *kcache,
                          KV *vcache, T *scratch) {
  int N = B * Nq, H = G * Hkv;
  const T *Wq = w, *Wk = Wq + long(d) * H * dh, *Wv = Wk + long(d) * Hkv * dh,
          *Wo = Wv + long(d) * Hkv * dh, *Wg = Wo + long(H) * dh * d,
          *Wu = Wg + long(d) * dff, *Wd = Wu + long(d) * dff,
          *g1 = Wd + long(dff) * d, *g2 = g1 + d;
  T *xn = scratch, *q = xn + long(N) * d, *k = q + long(N) * H * dh,
    *v = k + long(N) * Hkv * dh, *att = v + long(N) * Hkv * dh,
    *gate = att + long(N) * H * dh, *up = gate + long(N) * dff,
    *hid = up + long(N) * dff;
  float kq = std::is_same_v<KV, T> ? 1.0f : 1.0f / 16, vq = kq;
  rmsnorm<T>(N, d, x, g1, xn);
  linear<T>(N, d, H * dh, xn, Wq, q);
  linear<T>(N, d, Hkv * dh, xn, Wk, k);
  linear<T>(N, d, Hkv * dh, xn, Wv, v);
  kv_append<T, KV>(B, Nq, past, Hkv * dh, k, kcache, 1 / kq);
  kv_append<T, KV>(B, Nq, past, Hkv * dh, v, vcache, 1 / vq);
  attention<T, KV>(B, Nq, past, G, Hkv, dh, q, kcache, vcache, att, kq, vq);
  linear<T>(N, H * dh, d, att, Wo, xn);
  residual<T>(N * d, xn, x);
  rmsnorm<T>(N, d, x, g2, xn);
  linear<T>(N, d, dff, xn, Wg, gate);
  linear<T>(N, d, dff, xn, Wu, up);
  swiglu<T>(N * dff, gate, up, hid);
  linear<T>(N, dff, d, hid, Wd, xn);
  residual<T>(N * d, xn, x);
}

// L layers, each with its weights and its KV cache (B x (past + Nq) rows of
// Hkv*dh per K and per V).
template <typename T, typename KV>
KERNEL void decoder_stack(int L, int B, int Nq, int past, int d, int G,
                          int Hkv, int dh, int dff, T *x, const T *w,
                          KV *kcache, KV *vcache, T *scratch) {
  long lw = layer_weights(d, G, Hkv, dh, dff);
  long lc = long(B) * (past + Nq) * Hkv * dh;
  for (int l = 0; l < L; ++l)
    decoder_layer<T, KV>(B, Nq, past, d, G, Hkv, dh, dff, x, w + l * lw,
                         kcache + l * lc, vcache + l * lc, scratch);
}

// ---- The scenarios at a 7B-class shape (Llama-2-7B: d = 4096, 32 heads of
// 128, FFN 11008; GQA: 8 KV heads of 4 query heads each, as in
// Llama-3-8B), 4 layers. Only
// compiled for their static counts (roofline-report --assume prompt=...,
// batch=..., ctx=...): at these sizes a run on a CPU would take hours.
constexpr int Layers = 4, D = 4096, HeadDim = 128, FFN = 11008;
#define MHA 1, 32 // G, Hkv
#define GQA 4, 8
#define SCENARIO(name, T, KV, heads, B, Nq, past, ...)                         \
  KERNEL void name(__VA_ARGS__, T *x, const T *w, KV *kc, KV *vc, T *s) {     \
    decoder_stack<T, KV>(Layers, B, Nq, past, D, heads, HeadDim, FFN, x, w,    \
                         kc, vc, s);                                           \
  }
SCENARIO(prefill_mha_fp32, float, float, MHA, 1, prompt, 0, int prompt)
SCENARIO(prefill_mha_fp16, _Float16, _Float16, MHA, 1, prompt, 0, int prompt)
SCENARIO(prefill_gqa_fp16, _Float16, _Float16, GQA, 1, prompt, 0, int prompt)
SCENARIO(decode_mha_fp32, float, float, MHA, batch, 1, ctx, int batch, int ctx)
SCENARIO(decode_mha_fp16, _Float16, _Float16, MHA, batch, 1, ctx, int batch, int ctx)
SCENARIO(decode_gqa_fp16, _Float16, _Float16, GQA, batch, 1, ctx, int batch, int ctx)
SCENARIO(decode_mha_fp16_kv8, _Float16, int8_t, MHA, batch, 1, ctx, int batch, int ctx)
SCENARIO(decode_gqa_fp16_kv8, _Float16, int8_t, GQA, batch, 1, ctx, int batch, int ctx)

// ---- A run at a reduced size ------------------------------------------------
template <typename T, typename KV> static int runStack(int *A) {
  int L = A[0], B = A[1], Nq = A[2], past = A[3], d = A[4], G = A[5],
      Hkv = A[6], dh = A[7], dff = A[8], N = B * Nq, H = G * Hkv;
  std::vector<T> x(long(N) * d), w(L * layer_weights(d, G, Hkv, dh, dff)),
      s(long(N) * (d + 2L * H * dh + 2L * Hkv * dh + 3L * dff));
  std::vector<KV> kc(long(L) * B * (past + Nq) * Hkv * dh),
      vc(long(L) * B * (past + Nq) * Hkv * dh);
  unsigned Seed = 7;
  auto Rand = [&] { return ((Seed = Seed * 1103515245u + 12345u) >> 9) % 2001; };
  for (T &V : x)
    V = T((Rand() / 1000.0f - 1.0f));
  for (T &V : w)
    V = T((Rand() / 1000.0f - 1.0f) * 0.02f);
  for (KV &V : kc)
    V = KV(std::is_same_v<KV, T> ? (Rand() / 1000.0f - 1.0f) : Rand() % 64);
  for (KV &V : vc)
    V = KV(std::is_same_v<KV, T> ? (Rand() / 1000.0f - 1.0f) : Rand() % 64);
  decoder_stack<T, KV>(L, B, Nq, past, d, G, Hkv, dh, dff, x.data(), w.data(),
                       kc.data(), vc.data(), s.data());
  double Sum = 0;
  for (T V : x)
    Sum += double(V);
  std::printf("decoder_stack L=%d B=%d Nq=%d past=%d d=%d G=%d Hkv=%d dh=%d "
              "dff=%d: checksum %.4g\n",
              L, B, Nq, past, d, G, Hkv, dh, dff, Sum);
  return std::isfinite(Sum) ? 0 : 1;
}

int main(int argc, char **argv) {
  if (argc != 11) {
    std::fprintf(stderr, "usage: llm fp32|fp16|fp16-kv8 L B Nq past d G Hkv "
                         "dh dff\n");
    return 2;
  }
  int A[9];
  for (int i = 0; i < 9; ++i)
    A[i] = std::atoi(argv[i + 2]);
  if (!std::strcmp(argv[1], "fp32"))
    return runStack<float, float>(A);
  if (!std::strcmp(argv[1], "fp16"))
    return runStack<_Float16, _Float16>(A);
  return runStack<_Float16, int8_t>(A);
}
