/* A convolutional network's forward pass written the way darknet (a C
 * framework) writes it: a layer struct, im2col_cpu + gemm (gemm_nn for the
 * convolutions, gemm_nt for the connected layer, int indices, an ALPHA
 * factor), add_bias, activate_array calling activate() per element,
 * forward_maxpool_layer with its index bookkeeping, and softmax.
 *
 *   cnn_forward SIDE IMAGES
 *
 * The network is a small VGG-style one on SIDE x SIDE x 3 images:
 * conv3x3(16) leaky, maxpool 2, conv3x3(32) leaky, maxpool 2, conv3x3(64)
 * leaky, maxpool 2, connected(10), softmax. SIDE 32 (CIFAR) keeps every
 * layer within L2; SIDE 448 makes the first layers' im2col buffers and
 * outputs (tens of MB) pass the last-level cache.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { LOGISTIC, RELU, LINEAR, LEAKY } ACTIVATION;
typedef enum { CONVOLUTIONAL, MAXPOOL, CONNECTED, SOFTMAX } LAYER_TYPE;

typedef struct {
  LAYER_TYPE type;
  ACTIVATION activation;
  int batch, h, w, c, out_h, out_w, out_c, n, size, stride, pad;
  int inputs, outputs;
  float *weights, *biases, *output;
  int *indexes;
} layer;

typedef struct {
  int n;
  layer *layers;
  float *input;
  float *workspace;
} network;

static inline float logistic_activate(float x) { return 1. / (1. + exp(-x)); }
static inline float relu_activate(float x) { return x * (x > 0); }
static inline float linear_activate(float x) { return x; }
static inline float leaky_activate(float x) { return (x > 0) ? x : .1 * x; }

float activate(float x, ACTIVATION a) {
  switch (a) {
  case LOGISTIC:
    return logistic_activate(x);
  case RELU:
    return relu_activate(x);
  case LINEAR:
    return linear_activate(x);
  case LEAKY:
    return leaky_activate(x);
  }
  return 0;
}

void activate_array(float *x, const int n, const ACTIVATION a) {
  int i;
  for (i = 0; i < n; ++i) {
    x[i] = activate(x[i], a);
  }
}

float im2col_get_pixel(float *im, int height, int width, int channels, int row,
                       int col, int channel, int pad) {
  row -= pad;
  col -= pad;
  if (row < 0 || col < 0 || row >= height || col >= width)
    return 0;
  return im[col + width * (row + height * channel)];
}

void im2col_cpu(float *data_im, int channels, int height, int width, int ksize,
                int stride, int pad, float *data_col) {
  int c, h, w;
  int height_col = (height + 2 * pad - ksize) / stride + 1;
  int width_col = (width + 2 * pad - ksize) / stride + 1;

  int channels_col = channels * ksize * ksize;
  for (c = 0; c < channels_col; ++c) {
    int w_offset = c % ksize;
    int h_offset = (c / ksize) % ksize;
    int c_im = c / ksize / ksize;
    for (h = 0; h < height_col; ++h) {
      for (w = 0; w < width_col; ++w) {
        int im_row = h_offset + h * stride;
        int im_col = w_offset + w * stride;
        int col_index = (c * height_col + h) * width_col + w;
        data_col[col_index] = im2col_get_pixel(data_im, height, width, channels,
                                               im_row, im_col, c_im, pad);
      }
    }
  }
}

void gemm_nn(int M, int N, int K, float ALPHA, float *A, int lda, float *B,
             int ldb, float *C, int ldc) {
  int i, j, k;
  for (i = 0; i < M; ++i) {
    for (k = 0; k < K; ++k) {
      register float A_PART = ALPHA * A[i * lda + k];
      for (j = 0; j < N; ++j) {
        C[i * ldc + j] += A_PART * B[k * ldb + j];
      }
    }
  }
}

void gemm_nt(int M, int N, int K, float ALPHA, float *A, int lda, float *B,
             int ldb, float *C, int ldc) {
  int i, j, k;
  for (i = 0; i < M; ++i) {
    for (j = 0; j < N; ++j) {
      register float sum = 0;
      for (k = 0; k < K; ++k) {
        sum += ALPHA * A[i * lda + k] * B[j * ldb + k];
      }
      C[i * ldc + j] += sum;
    }
  }
}

void gemm(int TA, int TB, int M, int N, int K, float ALPHA, float *A, int lda,
          float *B, int ldb, float BETA, float *C, int ldc) {
  int i, j;
  for (i = 0; i < M; ++i) {
    for (j = 0; j < N; ++j) {
      C[i * ldc + j] *= BETA;
    }
  }
  if (!TA && !TB)
    gemm_nn(M, N, K, ALPHA, A, lda, B, ldb, C, ldc);
  else
    gemm_nt(M, N, K, ALPHA, A, lda, B, ldb, C, ldc);
}

void add_bias(float *output, float *biases, int batch, int n, int size) {
  int i, j, b;
  for (b = 0; b < batch; ++b) {
    for (i = 0; i < n; ++i) {
      for (j = 0; j < size; ++j) {
        output[(b * n + i) * size + j] += biases[i];
      }
    }
  }
}

void fill_cpu(int N, float ALPHA, float *X, int INCX) {
  int i;
  for (i = 0; i < N; ++i)
    X[i * INCX] = ALPHA;
}

void forward_convolutional_layer(layer l, network net) {
  int i;
  fill_cpu(l.outputs * l.batch, 0, l.output, 1);
  int m = l.n;
  int k = l.size * l.size * l.c;
  int n = l.out_w * l.out_h;
  for (i = 0; i < l.batch; ++i) {
    float *a = l.weights;
    float *b = net.workspace;
    float *c = l.output + i * n * m;
    float *im = net.input + i * l.c * l.h * l.w;
    if (l.size == 1) {
      b = im;
    } else {
      im2col_cpu(im, l.c, l.h, l.w, l.size, l.stride, l.pad, b);
    }
    gemm(0, 0, m, n, k, 1, a, k, b, n, 1, c, n);
  }
  add_bias(l.output, l.biases, l.batch, l.n, l.out_h * l.out_w);
  activate_array(l.output, l.outputs * l.batch, l.activation);
}

void forward_maxpool_layer(const layer l, network net) {
  int b, i, j, k, m, n;
  int w_offset = -l.pad / 2;
  int h_offset = -l.pad / 2;

  int h = l.out_h;
  int w = l.out_w;
  int c = l.c;

  for (b = 0; b < l.batch; ++b) {
    for (k = 0; k < c; ++k) {
      for (i = 0; i < h; ++i) {
        for (j = 0; j < w; ++j) {
          int out_index = j + w * (i + h * (k + c * b));
          float max = -FLT_MAX;
          int max_i = -1;
          for (n = 0; n < l.size; ++n) {
            for (m = 0; m < l.size; ++m) {
              int cur_h = h_offset + i * l.stride + n;
              int cur_w = w_offset + j * l.stride + m;
              int index = cur_w + l.w * (cur_h + l.h * (k + b * l.c));
              int valid = (cur_h >= 0 && cur_h < l.h && cur_w >= 0 && cur_w < l.w);
              float val = (valid != 0) ? net.input[index] : -FLT_MAX;
              max_i = (val > max) ? index : max_i;
              max = (val > max) ? val : max;
            }
          }
          l.output[out_index] = max;
          l.indexes[out_index] = max_i;
        }
      }
    }
  }
}

void forward_connected_layer(layer l, network net) {
  fill_cpu(l.outputs * l.batch, 0, l.output, 1);
  int m = l.batch;
  int k = l.inputs;
  int n = l.outputs;
  float *a = net.input;
  float *b = l.weights;
  float *c = l.output;
  gemm(0, 1, m, n, k, 1, a, k, b, k, 1, c, n);
  add_bias(l.output, l.biases, l.batch, l.outputs, 1);
  activate_array(l.output, l.outputs * l.batch, l.activation);
}

void softmax(float *input, int n, float temp, int stride, float *output) {
  int i;
  float sum = 0;
  float largest = -FLT_MAX;
  for (i = 0; i < n; ++i) {
    if (input[i * stride] > largest)
      largest = input[i * stride];
  }
  for (i = 0; i < n; ++i) {
    float e = exp(input[i * stride] / temp - largest / temp);
    sum += e;
    output[i * stride] = e;
  }
  for (i = 0; i < n; ++i) {
    output[i * stride] /= sum;
  }
}

void forward_softmax_layer(const layer l, network net) {
  int b;
  for (b = 0; b < l.batch; ++b)
    softmax(net.input + b * l.inputs, l.inputs, 1, 1, l.output + b * l.outputs);
}

void forward_network(network *netp) {
  network net = *netp;
  int i;
  for (i = 0; i < net.n; ++i) {
    layer l = net.layers[i];
    if (l.type == CONVOLUTIONAL)
      forward_convolutional_layer(l, net);
    else if (l.type == MAXPOOL)
      forward_maxpool_layer(l, net);
    else if (l.type == CONNECTED)
      forward_connected_layer(l, net);
    else
      forward_softmax_layer(l, net);
    net.input = l.output;
  }
}

static float rand_uniform(unsigned *s) {
  *s ^= *s << 13, *s ^= *s >> 17, *s ^= *s << 5;
  return (*s >> 8) * (1.0f / 16777216.0f) - 0.5f;
}

static float *make_array(size_t n, unsigned *seed, float scale) {
  float *p = calloc(n ? n : 1, sizeof(float));
  if (!p) {
    fprintf(stderr, "cnn_forward: out of memory\n");
    exit(1);
  }
  for (size_t i = 0; seed && i < n; ++i)
    p[i] = scale * rand_uniform(seed);
  return p;
}

int main(int argc, char **argv) {
  if (argc != 3 || atoi(argv[1]) < 8 || atoi(argv[2]) < 1) {
    fprintf(stderr, "usage: cnn_forward SIDE IMAGES\n");
    return 2;
  }
  int side = atoi(argv[1]), images = atoi(argv[2]);
  unsigned seed = 7;
  layer L[8];
  int h = side, w = side, c = 3, nl = 0;
  size_t workspace = 0;
  int filters[] = {16, 32, 64};
  for (int s = 0; s < 3; ++s) {
    layer conv = {CONVOLUTIONAL, LEAKY, 1, h, w, c, h, w, filters[s], filters[s],
                  3, 1, 1};
    conv.inputs = h * w * c;
    conv.outputs = h * w * filters[s];
    conv.weights = make_array((size_t)9 * c * filters[s], &seed, 0.5f);
    conv.biases = make_array(filters[s], &seed, 0.1f);
    conv.output = make_array(conv.outputs, NULL, 0);
    if ((size_t)h * w * 9 * c > workspace)
      workspace = (size_t)h * w * 9 * c;
    L[nl++] = conv;
    c = filters[s];
    layer pool = {MAXPOOL, LINEAR, 1, h, w, c, h / 2, w / 2, c, c, 2, 2, 0};
    pool.inputs = h * w * c;
    h /= 2, w /= 2;
    pool.outputs = h * w * c;
    pool.output = make_array(pool.outputs, NULL, 0);
    pool.indexes = calloc(pool.outputs, sizeof(int));
    L[nl++] = pool;
  }
  layer fc = {CONNECTED, LINEAR, 1, 1, 1, h * w * c, 1, 1, 10, 10};
  fc.inputs = h * w * c;
  fc.outputs = 10;
  fc.weights = make_array((size_t)10 * fc.inputs, &seed, 0.05f);
  fc.biases = make_array(10, &seed, 0.1f);
  fc.output = make_array(10, NULL, 0);
  L[nl++] = fc;
  layer sm = {SOFTMAX, LINEAR, 1, 1, 1, 10, 1, 1, 10};
  sm.inputs = sm.outputs = 10;
  sm.output = make_array(10, NULL, 0);
  L[nl++] = sm;

  network net = {nl, L, NULL, make_array(workspace, NULL, 0)};
  float *image = make_array((size_t)side * side * 3, &seed, 1.0f);
  double checksum = 0;
  for (int i = 0; i < images; ++i) {
    image[i % (side * side * 3)] += 0.01f;
    net.input = image;
    forward_network(&net);
    for (int j = 0; j < 10; ++j)
      checksum += L[nl - 1].output[j] * (j + 1);
  }
  printf("%d images of %dx%d, checksum %.6f\n", images, side, side, checksum);
  return 0;
}
