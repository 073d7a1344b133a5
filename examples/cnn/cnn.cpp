// VGG16 and MobileNet-v1 (224x224x3, batch 1, fp32) from five direct C++
// kernels, for the user's note's comparison on a GTX 1080 Ti.
//
// USAGE: scripts/examples.sh cnn        (build with the plugin, run, report)
//        cnn vgg16|mobilenet|tiny       run one network's forward pass
//        cnn layers vgg16|mobilenet|tiny print its layer table for the report
//
// Each layer table below is the single source of the shapes: the forward
// functions expand it into calls with constant shapes (so the plugin's
// static count of vgg16_forward() is the network's total), and `cnn layers`
// prints it as --assume values for the per-layer report.
//
// Loop orders are chosen so that each array's traffic is visible through
// its own pointer parameter (the summary's pointer_params):
//  - convolutions keep one output channel's map in a local (stack)
//    accumulator, load every weight exactly once and store every output
//    exactly once; the input map is re-read once per multiply-accumulate;
//  - inputs are pre-padded (zero borders written once, at allocation), so
//    no kernel has a data-dependent branch and every count is exact.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <type_traits>
#include <vector>

#ifndef CNN_RES
#define CNN_RES 224 // input side; the tests use smaller ones
#endif

#define KERNEL __attribute__((noinline))

// Largest output map a convolution accumulates on the stack (224 x 224).
constexpr int MaxMap = 224 * 224;

// Every kernel is a template over the storage type T of maps and weights:
// float (the note's fp32) or int8_t (as an int8 accelerator stores them;
// the arithmetic stays fp32, so the FLOPs are the same and only the bytes
// change). Storing applies ReLU, and for int8 a clamp: no FLOPs either way.
template <typename T> static inline T store(float V) {
  if constexpr (std::is_same_v<T, float>)
    return V > 0 ? V : 0;
  else
    return T(__builtin_fminf(__builtin_fmaxf(V, 0.0f), 127.0f));
}

// Direct convolution: Cin -> Cout channels, K x K kernel, stride S, input
// P x P (already padded), output M x M written with a zero border of OP.
// M^2*K^2*Cin*Cout multiply-accumulates.
template <typename T>
KERNEL void conv2d(int Cin, int Cout, int M, int K, int S, int P, int OP,
                   const T *in, const T *w, T *out) {
  float acc[MaxMap];
  int OS = M + 2 * OP;
  for (int co = 0; co < Cout; ++co) {
    for (int p = 0; p < M * M; ++p)
      acc[p] = 0;
    for (int ci = 0; ci < Cin; ++ci)
      for (int kh = 0; kh < K; ++kh)
        for (int kw = 0; kw < K; ++kw) {
          float wv = w[((co * Cin + ci) * K + kh) * K + kw];
          const T *src = in + (ci * P + kh) * P + kw;
          for (int oy = 0; oy < M; ++oy)
            for (int ox = 0; ox < M; ++ox)
              acc[oy * M + ox] += wv * float(src[(oy * S) * P + ox * S]);
        }
    T *dst = out + (co * OS + OP) * OS + OP;
    for (int oy = 0; oy < M; ++oy)
      for (int ox = 0; ox < M; ++ox)
        dst[oy * OS + ox] = store<T>(acc[oy * M + ox]);
  }
}

// Depthwise convolution: one K x K filter per channel, C channels.
// M^2*K^2*C multiply-accumulates.
template <typename T>
KERNEL void dwconv2d(int C, int M, int K, int S, int P, int OP, const T *in,
                     const T *w, T *out) {
  float acc[MaxMap];
  int OS = M + 2 * OP;
  for (int c = 0; c < C; ++c) {
    for (int p = 0; p < M * M; ++p)
      acc[p] = 0;
    for (int kh = 0; kh < K; ++kh)
      for (int kw = 0; kw < K; ++kw) {
        float wv = w[(c * K + kh) * K + kw];
        const T *src = in + (c * P + kh) * P + kw;
        for (int oy = 0; oy < M; ++oy)
          for (int ox = 0; ox < M; ++ox)
            acc[oy * M + ox] += wv * float(src[(oy * S) * P + ox * S]);
      }
    T *dst = out + (c * OS + OP) * OS + OP;
    for (int oy = 0; oy < M; ++oy)
      for (int ox = 0; ox < M; ++ox)
        dst[oy * OS + ox] = store<T>(acc[oy * M + ox]);
  }
}

// 2 x 2 max pooling, stride 2: output M x M from input 2M x 2M (no FLOPs:
// a max is a compare).
template <typename T>
KERNEL void maxpool2(int C, int M, int OP, const T *in, T *out) {
  int OS = M + 2 * OP, IS = 2 * M;
  for (int c = 0; c < C; ++c)
    for (int oy = 0; oy < M; ++oy)
      for (int ox = 0; ox < M; ++ox) {
        const T *s = in + (c * IS + 2 * oy) * IS + 2 * ox;
        T a = s[0] > s[1] ? s[0] : s[1];
        T b = s[IS] > s[IS + 1] ? s[IS] : s[IS + 1];
        out[(c * OS + oy + OP) * OS + ox + OP] = a > b ? a : b;
      }
}

// Global average pooling over HW pixels: HW adds and one multiply per
// channel (and one division, 1/HW, per call).
template <typename T>
KERNEL void avgpool(int C, int HW, const T *in, T *out) {
  for (int c = 0; c < C; ++c) {
    float s = 0;
    for (int p = 0; p < HW; ++p)
      s += float(in[c * HW + p]);
    out[c] = store<T>(s * (1.0f / HW));
  }
}

// Fully connected layer at batch 1 (a GEMV): In*Out multiply-accumulates,
// every weight read once.
template <typename T>
KERNEL void fc(int In, int Out, const T *x, const T *w, T *y) {
  for (int o = 0; o < Out; ++o) {
    float s = 0;
    for (int i = 0; i < In; ++i)
      s += float(w[o * In + i]) * float(x[i]);
    y[o] = T(s);
  }
}

// Copies the 3 x R x R image into the first layer's padded input.
template <typename T>
KERNEL void load_image(int R, const T *img, T *out) {
  for (int c = 0; c < 3; ++c)
    for (int y = 0; y < R; ++y)
      for (int x = 0; x < R; ++x)
        out[(c * (R + 2) + y + 1) * (R + 2) + x + 1] = img[(c * R + y) * R + x];
}

// ---- Layer tables ----------------------------------------------------------
// CONV(name, Cin, Cout, H, K, S, OP): input H x H (unpadded), padding (K-1)/2
// DW(name, C, H, S, OP): 3 x 3 depthwise
// PW(name, Cin, Cout, H, OP): 1 x 1 convolution
// MAXPOOL(name, C, H, OP): 2 x 2 stride 2, input H x H
// AVGPOOL(name, C, H): global average
// FC(name, In, Out); LAST(name, In, Out): the final FC, writing the logits
// OP is the zero border the next layer's padding needs.
#define R CNN_RES
#define VGG16_LAYERS(CONV, DW, PW, MAXPOOL, AVGPOOL, FC, LAST)                \
  CONV(conv1_1, 3, 64, R, 3, 1, 1)                                             \
  CONV(conv1_2, 64, 64, R, 3, 1, 0)                                            \
  MAXPOOL(pool1, 64, R, 1)                                                     \
  CONV(conv2_1, 64, 128, R / 2, 3, 1, 1)                                       \
  CONV(conv2_2, 128, 128, R / 2, 3, 1, 0)                                      \
  MAXPOOL(pool2, 128, R / 2, 1)                                                \
  CONV(conv3_1, 128, 256, R / 4, 3, 1, 1)                                      \
  CONV(conv3_2, 256, 256, R / 4, 3, 1, 1)                                      \
  CONV(conv3_3, 256, 256, R / 4, 3, 1, 0)                                      \
  MAXPOOL(pool3, 256, R / 4, 1)                                                \
  CONV(conv4_1, 256, 512, R / 8, 3, 1, 1)                                      \
  CONV(conv4_2, 512, 512, R / 8, 3, 1, 1)                                      \
  CONV(conv4_3, 512, 512, R / 8, 3, 1, 0)                                      \
  MAXPOOL(pool4, 512, R / 8, 1)                                                \
  CONV(conv5_1, 512, 512, R / 16, 3, 1, 1)                                     \
  CONV(conv5_2, 512, 512, R / 16, 3, 1, 1)                                     \
  CONV(conv5_3, 512, 512, R / 16, 3, 1, 0)                                     \
  MAXPOOL(pool5, 512, R / 16, 0)                                               \
  FC(fc6, 512 * (R / 32) * (R / 32), 4096)                                     \
  FC(fc7, 4096, 4096)                                                          \
  LAST(fc8, 4096, 1000)

#define MOBILENET_LAYERS(CONV, DW, PW, MAXPOOL, AVGPOOL, FC, LAST)            \
  CONV(conv1, 3, 32, R, 3, 2, 1)                                               \
  DW(conv2_dw, 32, R / 2, 1, 0)                                                \
  PW(conv2_pw, 32, 64, R / 2, 1)                                               \
  DW(conv3_dw, 64, R / 2, 2, 0)                                                \
  PW(conv3_pw, 64, 128, R / 4, 1)                                              \
  DW(conv4_dw, 128, R / 4, 1, 0)                                               \
  PW(conv4_pw, 128, 128, R / 4, 1)                                             \
  DW(conv5_dw, 128, R / 4, 2, 0)                                               \
  PW(conv5_pw, 128, 256, R / 8, 1)                                             \
  DW(conv6_dw, 256, R / 8, 1, 0)                                               \
  PW(conv6_pw, 256, 256, R / 8, 1)                                             \
  DW(conv7_dw, 256, R / 8, 2, 0)                                               \
  PW(conv7_pw, 256, 512, R / 16, 1)                                            \
  DW(conv8_dw, 512, R / 16, 1, 0)                                              \
  PW(conv8_pw, 512, 512, R / 16, 1)                                            \
  DW(conv9_dw, 512, R / 16, 1, 0)                                              \
  PW(conv9_pw, 512, 512, R / 16, 1)                                            \
  DW(conv10_dw, 512, R / 16, 1, 0)                                             \
  PW(conv10_pw, 512, 512, R / 16, 1)                                           \
  DW(conv11_dw, 512, R / 16, 1, 0)                                             \
  PW(conv11_pw, 512, 512, R / 16, 1)                                           \
  DW(conv12_dw, 512, R / 16, 1, 0)                                             \
  PW(conv12_pw, 512, 512, R / 16, 1)                                           \
  DW(conv13_dw, 512, R / 16, 2, 0)                                             \
  PW(conv13_pw, 512, 1024, R / 32, 1)                                          \
  DW(conv14_dw, 1024, R / 32, 1, 0)                                            \
  PW(conv14_pw, 1024, 1024, R / 32, 0)                                         \
  AVGPOOL(pool, 1024, R / 32)                                                  \
  LAST(fc, 1024, 1000)

// A small network for the tests (hand-countable), input 8 x 8 x 3.
#define TINY_LAYERS(CONV, DW, PW, MAXPOOL, AVGPOOL, FC, LAST)                 \
  CONV(conv, 3, 4, 8, 3, 1, 1)                                                 \
  DW(dw, 4, 8, 2, 0)                                                           \
  PW(pw, 4, 8, 4, 0)                                                           \
  MAXPOOL(maxpool, 8, 4, 0)                                                    \
  AVGPOOL(avgpool, 8, 2)                                                       \
  FC(fc1, 8, 6)                                                                \
  LAST(fc2, 6, 10)

#define OUT_SIZE(C, M, OP) (long(C) * ((M) + 2 * (OP)) * ((M) + 2 * (OP)))

// ---- Forward passes: the tables expanded into calls with constant shapes ---
// The image is copied into `padded` (the first layer's input with its zero
// border); every layer's output goes to the activation arena `act`, right
// after its input, and the last layer's to `logits`; `w` walks the weights.
// So the forward function's pointer parameters separate the traffic: image
// read once, weights read once, maps written once (re-read through `padded`
// and `act` by the next layer), logits written once.
#define F_CONV(n, Cin, Cout, H, K, S, OP)                                      \
  {                                                                            \
    int P = (H) + (K) - 1, M = (P - (K)) / (S) + 1;                            \
    T *out = next;                                                             \
    conv2d<T>(Cin, Cout, M, K, S, P, OP, cur, w, out);                         \
    w += long(K) * (K) * (Cin) * (Cout);                                       \
    cur = out, next += OUT_SIZE(Cout, M, OP);                                  \
  }
#define F_DW(n, C, H, S, OP)                                                   \
  {                                                                            \
    int P = (H) + 2, M = (P - 3) / (S) + 1;                                    \
    T *out = next;                                                             \
    dwconv2d<T>(C, M, 3, S, P, OP, cur, w, out);                               \
    w += 9L * (C);                                                             \
    cur = out, next += OUT_SIZE(C, M, OP);                                     \
  }
#define F_PW(n, Cin, Cout, H, OP) F_CONV(n, Cin, Cout, H, 1, 1, OP)
#define F_MAXPOOL(n, C, H, OP)                                                 \
  {                                                                            \
    T *out = next;                                                             \
    maxpool2<T>(C, (H) / 2, OP, cur, out);                                     \
    cur = out, next += OUT_SIZE(C, (H) / 2, OP);                               \
  }
#define F_AVGPOOL(n, C, H)                                                     \
  {                                                                            \
    T *out = next;                                                             \
    avgpool<T>(C, (H) * (H), cur, out);                                        \
    cur = out, next += (C);                                                    \
  }
#define F_FC(n, In, Out)                                                       \
  {                                                                            \
    T *out = next;                                                             \
    fc<T>(In, Out, cur, w, out);                                               \
    w += long(In) * (Out);                                                     \
    cur = out, next += (Out);                                                  \
  }
#define F_LAST(n, In, Out) fc<T>(In, Out, cur, w, logits);
#define FORWARD(fn, LAYERS, RES, TYPE)                                         \
  KERNEL void fn(const TYPE *image, const TYPE *weights, TYPE *padded,         \
                 TYPE *act, TYPE *logits) {                                    \
    using T = TYPE;                                                            \
    load_image<T>(RES, image, padded);                                         \
    const T *w = weights;                                                      \
    T *cur = padded, *next = act;                                              \
    LAYERS(F_CONV, F_DW, F_PW, F_MAXPOOL, F_AVGPOOL, F_FC, F_LAST)             \
  }
FORWARD(vgg16_forward, VGG16_LAYERS, R, float)
FORWARD(mobilenet_forward, MOBILENET_LAYERS, R, float)
FORWARD(tiny_forward, TINY_LAYERS, 8, float)
FORWARD(vgg16_forward_int8, VGG16_LAYERS, R, int8_t)
FORWARD(mobilenet_forward_int8, MOBILENET_LAYERS, R, int8_t)

// ---- Sizes of the arena and the weight blob --------------------------------
struct Sizes {
  long Act = 0, Weights = 0, Logits = 0;
};
#define S_CONV(n, Cin, Cout, H, K, S, OP)                                      \
  {                                                                            \
    int P = (H) + (K) - 1, M = (P - (K)) / (S) + 1;                            \
    Z.Act += OUT_SIZE(Cout, M, OP), Z.Weights += long(K) * (K) * (Cin) * (Cout); \
  }
#define S_DW(n, C, H, S, OP)                                                   \
  {                                                                            \
    int M = ((H) - 1) / (S) + 1;                                               \
    Z.Act += OUT_SIZE(C, M, OP), Z.Weights += 9L * (C);                        \
  }
#define S_PW(n, Cin, Cout, H, OP) S_CONV(n, Cin, Cout, H, 1, 1, OP)
#define S_MAXPOOL(n, C, H, OP) Z.Act += OUT_SIZE(C, (H) / 2, OP);
#define S_AVGPOOL(n, C, H) Z.Act += (C);
#define S_FC(n, In, Out) Z.Act += (Out), Z.Weights += long(In) * (Out);
#define S_LAST(n, In, Out) Z.Logits = (Out), Z.Weights += long(In) * (Out);

// ---- The layer table as --assume values (for roofline-report) -------------
#define L_CONV(n, Cin, Cout, H, K, S, OP)                                      \
  {                                                                            \
    int P = (H) + (K) - 1, M = (P - (K)) / (S) + 1;                            \
    std::printf("%s conv2d Cin=%d,Cout=%d,M=%d,K=%d,S=%d,P=%d,OP=%d\n", #n,   \
                Cin, Cout, M, K, S, P, OP);                                    \
  }
#define L_DW(n, C, H, S, OP)                                                   \
  {                                                                            \
    int P = (H) + 2, M = (P - 3) / (S) + 1;                                    \
    std::printf("%s dwconv2d C=%d,M=%d,K=3,S=%d,P=%d,OP=%d\n", #n, C, M, S, P, \
                OP);                                                           \
  }
#define L_PW(n, Cin, Cout, H, OP) L_CONV(n, Cin, Cout, H, 1, 1, OP)
#define L_MAXPOOL(n, C, H, OP)                                                 \
  std::printf("%s maxpool2 C=%d,M=%d,OP=%d\n", #n, C, (H) / 2, OP);
#define L_AVGPOOL(n, C, H)                                                     \
  std::printf("%s avgpool C=%d,HW=%d\n", #n, C, (H) * (H));
#define L_FC(n, In, Out) std::printf("%s fc In=%d,Out=%d\n", #n, In, Out);

#define NETWORK(LAYERS, FN, RES)                                               \
  {                                                                            \
    if (List) {                                                                \
      LAYERS(L_CONV, L_DW, L_PW, L_MAXPOOL, L_AVGPOOL, L_FC, L_FC)             \
      return 0;                                                                \
    }                                                                          \
    LAYERS(S_CONV, S_DW, S_PW, S_MAXPOOL, S_AVGPOOL, S_FC, S_LAST)             \
    Res = RES, Forward = FN;                                                   \
  }

int main(int argc, char **argv) {
  bool List = argc > 2 && !std::strcmp(argv[1], "layers");
  const char *Net = argc > 1 ? argv[List ? 2 : 1] : "mobilenet";
  Sizes Z;
  int Res;
  void (*Forward)(const float *, const float *, float *, float *, float *);
  if (!std::strcmp(Net, "vgg16"))
    NETWORK(VGG16_LAYERS, vgg16_forward, R)
  else if (!std::strcmp(Net, "mobilenet"))
    NETWORK(MOBILENET_LAYERS, mobilenet_forward, R)
  else if (!std::strcmp(Net, "tiny"))
    NETWORK(TINY_LAYERS, tiny_forward, 8)
  else {
    std::fprintf(stderr, "usage: cnn [layers] vgg16|mobilenet|tiny\n");
    return 2;
  }
  // Zero-initialised once: the padding borders stay zero.
  std::vector<float> Image(3L * Res * Res), Weights(Z.Weights),
      Padded(3L * (Res + 2) * (Res + 2)), Act(Z.Act), Logits(Z.Logits);
  unsigned Seed = 12345;
  auto Rand = [&] { return (Seed = Seed * 1103515245u + 12345u) >> 9; };
  for (float &V : Image)
    V = (Rand() % 256) / 255.0f;
  for (float &V : Weights)
    V = ((Rand() % 2001) / 1000.0f - 1.0f) * 0.05f;
  Forward(Image.data(), Weights.data(), Padded.data(), Act.data(),
          Logits.data());
  int Best = 0;
  for (int i = 1; i < Z.Logits; ++i)
    if (Logits[i] > Logits[Best])
      Best = i;
  std::printf("%s (%dx%dx3): %ld weights, %ld activations, top class %d\n",
              Net, Res, Res, Z.Weights, Z.Act, Best);
  return 0;
}
