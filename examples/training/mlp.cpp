// A two-layer MLP (In -> Hd, ReLU, -> Out, softmax cross-entropy) in fp32:
// inference (the forward pass) against a training step (forward, backward
// and an SGD or an Adam update), run with the plugin's instrumentation so
// the counts of each phase are measured.
//
// USAGE: scripts/examples.sh training
//        mlp infer|sgd|adam Bt In Hd Out   one phase on a batch of Bt
//
// As in examples/llm, every kernel moves what a good implementation must:
// the batch's activations are copied on chip (local arrays: stack traffic,
// kept apart from memory by the plugin), each weight, gradient and
// optimizer-state element is read or written once per use.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define KERNEL __attribute__((noinline))

// Y (Bt x Out) = X (Bt x In) W^T + b, W Out x In: Bt*In*Out FMAs and Bt*Out
// adds; X read once (into the local copy), W and b once, Y written once.
KERNEL void linear_fwd(int Bt, int In, int Out, const float *X, const float *W,
                       const float *b, float *Y) {
  float xs[Bt * In], acc[Bt];
  for (int i = 0; i < Bt * In; ++i)
    xs[i] = X[i];
  for (int o = 0; o < Out; ++o) {
    for (int t = 0; t < Bt; ++t)
      acc[t] = 0;
    for (int i = 0; i < In; ++i) {
      float w = W[o * In + i];
      for (int t = 0; t < Bt; ++t)
        acc[t] += w * xs[t * In + i];
    }
    float bo = b[o];
    for (int t = 0; t < Bt; ++t)
      Y[t * Out + o] = acc[t] + bo;
  }
}

// H = max(Z, 0): no FLOPs.
KERNEL void relu(int n, const float *Z, float *H) {
  for (int i = 0; i < n; ++i)
    H[i] = Z[i] > 0 ? Z[i] : 0;
}

// Softmax cross-entropy over Out classes for Bt rows: per row Out
// subtractions of the max, Out exponentials (special), Out adds, one
// division, Out multiplies for the probabilities and one subtraction for the
// label's gradient, all divided by Bt (Out multiplies by 1/Bt); the loss's
// log is special. dZ = (softmax - onehot) / Bt.
KERNEL float softmax_xent(int Bt, int Out, const float *Z, const int *label,
                          float *dZ) {
  float loss = 0, invB = 1.0f / Bt;
  for (int t = 0; t < Bt; ++t) {
    float m = -INFINITY;
    for (int o = 0; o < Out; ++o)
      m = __builtin_fmaxf(m, Z[t * Out + o]);
    float s = 0;
    for (int o = 0; o < Out; ++o) {
      float e = __builtin_expf(Z[t * Out + o] - m);
      dZ[t * Out + o] = e;
      s += e;
    }
    float inv = 1.0f / s;
    for (int o = 0; o < Out; ++o)
      dZ[t * Out + o] *= inv * invB;
    int l = label[t];
    dZ[t * Out + l] -= invB;
    loss -= __builtin_logf(dZ[t * Out + l] * Bt + 1.0f);
  }
  return loss * invB;
}

// dX (Bt x In) = dY (Bt x Out) W: Bt*In*Out FMAs; dY copied on chip, W read
// once, dX accumulated on chip and written once.
KERNEL void linear_bwd_data(int Bt, int In, int Out, const float *dY,
                            const float *W, float *dX) {
  float dys[Bt * Out], acc[Bt * In];
  for (int i = 0; i < Bt * Out; ++i)
    dys[i] = dY[i];
  for (int i = 0; i < Bt * In; ++i)
    acc[i] = 0;
  for (int o = 0; o < Out; ++o)
    for (int i = 0; i < In; ++i) {
      float w = W[o * In + i];
      for (int t = 0; t < Bt; ++t)
        acc[t * In + i] += dys[t * Out + o] * w;
    }
  for (int i = 0; i < Bt * In; ++i)
    dX[i] = acc[i];
}

// dZ = dH where Z > 0, else 0: no FLOPs. (dH is loaded before the test, so
// the load is not conditional: no data-dependent branch.)
KERNEL void relu_bwd(int n, const float *Z, const float *dH, float *dZ) {
  for (int i = 0; i < n; ++i) {
    float d = dH[i];
    dZ[i] = Z[i] > 0 ? d : 0;
  }
}

// dW (Out x In) = dY^T X, db = column sums of dY: Bt*In*Out FMAs and Bt*Out
// adds; dY and X copied on chip, dW and db written once.
KERNEL void linear_bwd_weight(int Bt, int In, int Out, const float *dY,
                              const float *X, float *dW, float *db) {
  float dys[Bt * Out], xs[Bt * In];
  for (int i = 0; i < Bt * Out; ++i)
    dys[i] = dY[i];
  for (int i = 0; i < Bt * In; ++i)
    xs[i] = X[i];
  for (int o = 0; o < Out; ++o) {
    float s = 0;
    for (int t = 0; t < Bt; ++t)
      s += dys[t * Out + o];
    db[o] = s;
    for (int i = 0; i < In; ++i) {
      float acc = 0;
      for (int t = 0; t < Bt; ++t)
        acc += dys[t * Out + o] * xs[t * In + i];
      dW[o * In + i] = acc;
    }
  }
}

// w -= lr * g: one FMA per parameter; w read and written, g read.
KERNEL void sgd(int n, float lr, float *w, const float *g) {
  for (int i = 0; i < n; ++i)
    w[i] -= lr * g[i];
}

// Adam: m = b1 m + (1-b1) g (a multiply and an FMA), v = b2 v + (1-b2) g^2
// (two multiplies and an FMA), w -= lr (m c1) / (sqrt(v c2) + eps) with the
// bias corrections c1, c2 (three multiplies, a square root, an add, a
// division and a subtraction): 14 FLOPs per parameter; w, m, v read and
// written, g read.
KERNEL void adam(int n, float lr, float b1, float b2, float c1, float c2,
                 float *w, const float *g, float *m, float *v) {
  float ob1 = 1 - b1, ob2 = 1 - b2;
  for (int i = 0; i < n; ++i) {
    float gi = g[i];
    float mi = b1 * m[i] + ob1 * gi;
    float vi = b2 * v[i] + ob2 * gi * gi;
    m[i] = mi;
    v[i] = vi;
    w[i] -= lr * (mi * c1) / (__builtin_sqrtf(vi * c2) + 1e-8f);
  }
}

// The parameters, one after the other in P: W1 (Hd x In), b1 (Hd), W2
// (Out x Hd), b2 (Out); gradients in G and Adam's moments in M, V alike.
// Activations in A: Z1, H1 (Bt x Hd), Z2 (Bt x Out), and the backward's
// dZ2, dH1, dZ1.
struct Net {
  int Bt, In, Hd, Out;
  float *W1, *b1, *W2, *b2;
};
static inline Net net(int Bt, int In, int Hd, int Out, float *P) {
  return {Bt, In, Hd, Out, P, P + long(Hd) * In, P + long(Hd) * In + Hd,
          P + long(Hd) * In + Hd + long(Out) * Hd};
}

// Inference: the forward pass of a batch.
KERNEL void infer(int Bt, int In, int Hd, int Out, const float *X, float *P,
                  float *A) {
  Net N = net(Bt, In, Hd, Out, P);
  float *Z1 = A, *H1 = Z1 + long(Bt) * Hd, *Z2 = H1 + long(Bt) * Hd;
  linear_fwd(Bt, In, Hd, X, N.W1, N.b1, Z1);
  relu(Bt * Hd, Z1, H1);
  linear_fwd(Bt, Hd, Out, H1, N.W2, N.b2, Z2);
}

// Forward, loss and backward: the gradients of every parameter in G.
static inline float backprop(int Bt, int In, int Hd, int Out, const float *X,
                             const int *label, float *P, float *G, float *A) {
  Net N = net(Bt, In, Hd, Out, P), D = net(Bt, In, Hd, Out, G);
  float *Z1 = A, *H1 = Z1 + long(Bt) * Hd, *Z2 = H1 + long(Bt) * Hd,
        *dZ2 = Z2 + long(Bt) * Out, *dH1 = dZ2 + long(Bt) * Out,
        *dZ1 = dH1 + long(Bt) * Hd;
  linear_fwd(Bt, In, Hd, X, N.W1, N.b1, Z1);
  relu(Bt * Hd, Z1, H1);
  linear_fwd(Bt, Hd, Out, H1, N.W2, N.b2, Z2);
  float loss = softmax_xent(Bt, Out, Z2, label, dZ2);
  linear_bwd_weight(Bt, Hd, Out, dZ2, H1, D.W2, D.b2);
  linear_bwd_data(Bt, Hd, Out, dZ2, N.W2, dH1);
  relu_bwd(Bt * Hd, Z1, dH1, dZ1);
  linear_bwd_weight(Bt, In, Hd, dZ1, X, D.W1, D.b1);
  return loss;
}

static inline long params(long In, long Hd, long Out) {
  return Hd * In + Hd + Out * Hd + Out;
}

// A training step with SGD.
KERNEL float train_sgd(int Bt, int In, int Hd, int Out, const float *X,
                       const int *label, float *P, float *G, float *A) {
  float loss = backprop(Bt, In, Hd, Out, X, label, P, G, A);
  sgd(params(In, Hd, Out), 0.01f, P, G);
  return loss;
}

// A training step with Adam (step 1's bias corrections).
KERNEL float train_adam(int Bt, int In, int Hd, int Out, const float *X,
                        const int *label, float *P, float *G, float *M,
                        float *V, float *A) {
  float loss = backprop(Bt, In, Hd, Out, X, label, P, G, A);
  adam(params(In, Hd, Out), 0.001f, 0.9f, 0.999f, 10.0f, 1000.0f, P, G, M, V);
  return loss;
}

int main(int argc, char **argv) {
  if (argc != 6) {
    std::fprintf(stderr, "usage: mlp infer|sgd|adam Bt In Hd Out\n");
    return 2;
  }
  int Bt = std::atoi(argv[2]), In = std::atoi(argv[3]),
      Hd = std::atoi(argv[4]), Out = std::atoi(argv[5]);
  long NP = params(In, Hd, Out);
  std::vector<float> X(long(Bt) * In), P(NP), G(NP), M(NP), V(NP),
      A(long(Bt) * (4 * Hd + 2 * Out));
  std::vector<int> Label(Bt);
  unsigned Seed = 3;
  auto Rand = [&] { return (Seed = Seed * 1103515245u + 12345u) >> 9; };
  for (float &x : X)
    x = (Rand() % 2001) / 1000.0f - 1.0f;
  for (float &p : P)
    p = ((Rand() % 2001) / 1000.0f - 1.0f) * 0.05f;
  for (int &l : Label)
    l = Rand() % Out;
  float Loss = 0;
  if (!std::strcmp(argv[1], "infer"))
    infer(Bt, In, Hd, Out, X.data(), P.data(), A.data());
  else if (!std::strcmp(argv[1], "sgd"))
    Loss = train_sgd(Bt, In, Hd, Out, X.data(), Label.data(), P.data(),
                     G.data(), A.data());
  else
    Loss = train_adam(Bt, In, Hd, Out, X.data(), Label.data(), P.data(),
                      G.data(), M.data(), V.data(), A.data());
  std::printf("%s Bt=%d In=%d Hd=%d Out=%d: %ld parameters, loss %.4f\n",
              argv[1], Bt, In, Hd, Out, NP, Loss);
  return std::isfinite(Loss) ? 0 : 1;
}
