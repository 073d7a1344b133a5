/* Greedy decoding with a Llama-2 transformer, written the way llama2.c
 * (Karpathy's run.c) writes it: float weights read from a checkpoint file
 * through mmap, rmsnorm / softmax / matmul as small functions, RoPE,
 * attention over the KV cache and the SwiGLU MLP inline in forward(), one
 * token per forward() call. Built as its users build it: -O3 -march=native,
 * or -Ofast (its Makefile's "runfast"), one thread.
 *
 *   llm_decode MODEL STEPS CHECKPOINT
 *
 * MODEL is one of llama2.c's two small checkpoints' shapes: "15M"
 * (stories15M: dim 288, 6 layers, vocab 32000; a 60 MB file) or "260K"
 * (stories260K: dim 64, 5 layers, vocab 512; a 1 MB file). The checkpoint
 * is written with deterministic weights when CHECKPOINT does not exist,
 * then mapped and read as run.c reads it.
 */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

typedef struct {
  int dim;        // transformer dimension
  int hidden_dim; // for ffn layers
  int n_layers;   // number of layers
  int n_heads;    // number of query heads
  int n_kv_heads; // number of key/value heads
  int vocab_size; // vocabulary size
  int seq_len;    // max sequence length
} Config;

typedef struct {
  float *token_embedding_table; // (vocab_size, dim)
  float *rms_att_weight;        // (layer, dim)
  float *rms_ffn_weight;        // (layer, dim)
  float *wq;                    // (layer, dim, n_heads * head_size)
  float *wk;                    // (layer, dim, n_kv_heads * head_size)
  float *wv;                    // (layer, dim, n_kv_heads * head_size)
  float *wo;                    // (layer, n_heads * head_size, dim)
  float *w1;                    // (layer, hidden_dim, dim)
  float *w2;                    // (layer, dim, hidden_dim)
  float *w3;                    // (layer, hidden_dim, dim)
  float *rms_final_weight;      // (dim,)
  float *wcls;                  // shared with the embedding table
} TransformerWeights;

typedef struct {
  float *x, *xb, *xb2, *hb, *hb2, *q, *k, *v, *att, *logits;
  float *key_cache, *value_cache;
} RunState;

typedef struct {
  Config config;
  TransformerWeights weights;
  RunState state;
  int fd;
  float *data;
  ssize_t file_size;
} Transformer;

static void malloc_run_state(RunState *s, Config *p) {
  int kv_dim = (p->dim * p->n_kv_heads) / p->n_heads;
  s->x = calloc(p->dim, sizeof(float));
  s->xb = calloc(p->dim, sizeof(float));
  s->xb2 = calloc(p->dim, sizeof(float));
  s->hb = calloc(p->hidden_dim, sizeof(float));
  s->hb2 = calloc(p->hidden_dim, sizeof(float));
  s->q = calloc(p->dim, sizeof(float));
  s->key_cache = calloc((size_t)p->n_layers * p->seq_len * kv_dim, sizeof(float));
  s->value_cache = calloc((size_t)p->n_layers * p->seq_len * kv_dim, sizeof(float));
  s->att = calloc((size_t)p->n_heads * p->seq_len, sizeof(float));
  s->logits = calloc(p->vocab_size, sizeof(float));
  if (!s->x || !s->xb || !s->xb2 || !s->hb || !s->hb2 || !s->q ||
      !s->key_cache || !s->value_cache || !s->att || !s->logits) {
    fprintf(stderr, "malloc failed!\n");
    exit(EXIT_FAILURE);
  }
}

static void memory_map_weights(TransformerWeights *w, Config *p, float *ptr,
                               int shared_weights) {
  int head_size = p->dim / p->n_heads;
  unsigned long long n_layers = p->n_layers;
  w->token_embedding_table = ptr;
  ptr += p->vocab_size * p->dim;
  w->rms_att_weight = ptr;
  ptr += n_layers * p->dim;
  w->wq = ptr;
  ptr += n_layers * p->dim * (p->n_heads * head_size);
  w->wk = ptr;
  ptr += n_layers * p->dim * (p->n_kv_heads * head_size);
  w->wv = ptr;
  ptr += n_layers * p->dim * (p->n_kv_heads * head_size);
  w->wo = ptr;
  ptr += n_layers * (p->n_heads * head_size) * p->dim;
  w->rms_ffn_weight = ptr;
  ptr += n_layers * p->dim;
  w->w1 = ptr;
  ptr += n_layers * p->dim * p->hidden_dim;
  w->w2 = ptr;
  ptr += n_layers * p->hidden_dim * p->dim;
  w->w3 = ptr;
  ptr += n_layers * p->dim * p->hidden_dim;
  w->rms_final_weight = ptr;
  ptr += p->dim;
  ptr += p->seq_len * head_size / 2; // skip what used to be freq_cis_real
  ptr += p->seq_len * head_size / 2; // skip what used to be freq_cis_imag
  w->wcls = shared_weights ? w->token_embedding_table : ptr;
}

static void read_checkpoint(const char *checkpoint, Config *config,
                            TransformerWeights *weights, int *fd, float **data,
                            ssize_t *file_size) {
  FILE *file = fopen(checkpoint, "rb");
  if (!file) {
    fprintf(stderr, "Couldn't open file %s\n", checkpoint);
    exit(EXIT_FAILURE);
  }
  if (fread(config, sizeof(Config), 1, file) != 1)
    exit(EXIT_FAILURE);
  // negative vocab size is hacky way of signaling unshared weights. bit yikes.
  int shared_weights = config->vocab_size > 0 ? 1 : 0;
  config->vocab_size = abs(config->vocab_size);
  fseek(file, 0, SEEK_END);
  *file_size = ftell(file);
  fclose(file);
  *fd = open(checkpoint, O_RDONLY);
  if (*fd == -1) {
    fprintf(stderr, "open failed!\n");
    exit(EXIT_FAILURE);
  }
  *data = mmap(NULL, *file_size, PROT_READ, MAP_PRIVATE, *fd, 0);
  if (*data == MAP_FAILED) {
    fprintf(stderr, "mmap failed!\n");
    exit(EXIT_FAILURE);
  }
  float *weights_ptr = *data + sizeof(Config) / sizeof(float);
  memory_map_weights(weights, config, weights_ptr, shared_weights);
}

// ----------------------------------------------------------------------------
// neural net blocks; the dynamics of the Transformer

void rmsnorm(float *o, float *x, float *weight, int size) {
  // calculate sum of squares
  float ss = 0.0f;
  for (int j = 0; j < size; j++) {
    ss += x[j] * x[j];
  }
  ss /= size;
  ss += 1e-5f;
  ss = 1.0f / sqrtf(ss);
  // normalize and scale
  for (int j = 0; j < size; j++) {
    o[j] = weight[j] * (ss * x[j]);
  }
}

void softmax(float *x, int size) {
  // find max value (for numerical stability)
  float max_val = x[0];
  for (int i = 1; i < size; i++) {
    if (x[i] > max_val) {
      max_val = x[i];
    }
  }
  // exp and sum
  float sum = 0.0f;
  for (int i = 0; i < size; i++) {
    x[i] = expf(x[i] - max_val);
    sum += x[i];
  }
  // normalize
  for (int i = 0; i < size; i++) {
    x[i] /= sum;
  }
}

void matmul(float *xout, float *x, float *w, int n, int d) {
  // W (d,n) @ x (n,) -> xout (d,)
  // by far the most amount of time is spent inside this little function
  int i;
#pragma omp parallel for private(i)
  for (i = 0; i < d; i++) {
    float val = 0.0f;
    for (int j = 0; j < n; j++) {
      val += w[i * n + j] * x[j];
    }
    xout[i] = val;
  }
}

float *forward(Transformer *transformer, int token, int pos) {
  // a few convenience variables
  Config *p = &transformer->config;
  TransformerWeights *w = &transformer->weights;
  RunState *s = &transformer->state;
  float *x = s->x;
  int dim = p->dim;
  int kv_dim = (p->dim * p->n_kv_heads) / p->n_heads;
  int kv_mul = p->n_heads / p->n_kv_heads; // integer multiplier of the kv sharing in multiquery
  int hidden_dim = p->hidden_dim;
  int head_size = dim / p->n_heads;

  // copy the token embedding into x
  float *content_row = w->token_embedding_table + token * dim;
  memcpy(x, content_row, dim * sizeof(*x));

  // forward all the layers
  for (unsigned long long l = 0; l < p->n_layers; l++) {
    // attention rmsnorm
    rmsnorm(s->xb, x, w->rms_att_weight + l * dim, dim);

    // key and value point to the kv cache
    int loff = l * p->seq_len * kv_dim; // kv cache layer offset for convenience
    s->k = s->key_cache + loff + pos * kv_dim;
    s->v = s->value_cache + loff + pos * kv_dim;

    // qkv matmuls for this position
    matmul(s->q, s->xb, w->wq + l * dim * dim, dim, dim);
    matmul(s->k, s->xb, w->wk + l * dim * kv_dim, dim, kv_dim);
    matmul(s->v, s->xb, w->wv + l * dim * kv_dim, dim, kv_dim);

    // RoPE relative positional encoding: complex-valued rotate q and k in each head
    for (int i = 0; i < dim; i += 2) {
      int head_dim = i % head_size;
      float freq = 1.0f / powf(10000.0f, head_dim / (float)head_size);
      float val = pos * freq;
      float fcr = cosf(val);
      float fci = sinf(val);
      int rotn = i < kv_dim ? 2 : 1; // how many vectors? 2 = q & k, 1 = q only
      for (int v = 0; v < rotn; v++) {
        float *vec = v == 0 ? s->q : s->k; // the vector to rotate (query or key)
        float v0 = vec[i];
        float v1 = vec[i + 1];
        vec[i] = v0 * fcr - v1 * fci;
        vec[i + 1] = v0 * fci + v1 * fcr;
      }
    }

    // multihead attention. iterate over all heads
    int h;
#pragma omp parallel for private(h)
    for (h = 0; h < p->n_heads; h++) {
      // get the query vector for this head
      float *q = s->q + h * head_size;
      // attention scores for this head
      float *att = s->att + h * p->seq_len;
      // iterate over all timesteps, including the current one
      for (int t = 0; t <= pos; t++) {
        // get the key vector for this head and at this timestep
        float *k = s->key_cache + loff + t * kv_dim + (h / kv_mul) * head_size;
        // calculate the attention score as the dot product of q and k
        float score = 0.0f;
        for (int i = 0; i < head_size; i++) {
          score += q[i] * k[i];
        }
        score /= sqrtf(head_size);
        // save the score to the attention buffer
        att[t] = score;
      }

      // softmax the scores to get attention weights, from 0..pos inclusively
      softmax(att, pos + 1);

      // weighted sum of the values, store back into xb
      float *xb = s->xb + h * head_size;
      memset(xb, 0, head_size * sizeof(float));
      for (int t = 0; t <= pos; t++) {
        // get the value vector for this head and at this timestep
        float *v = s->value_cache + loff + t * kv_dim + (h / kv_mul) * head_size;
        // get the attention weight for this timestep
        float a = att[t];
        // accumulate the weighted value into xb
        for (int i = 0; i < head_size; i++) {
          xb[i] += a * v[i];
        }
      }
    }

    // final matmul to get the output of the attention
    matmul(s->xb2, s->xb, w->wo + l * dim * dim, dim, dim);

    // residual connection back into x
    for (int i = 0; i < dim; i++) {
      x[i] += s->xb2[i];
    }

    // ffn rmsnorm
    rmsnorm(s->xb, x, w->rms_ffn_weight + l * dim, dim);

    // Now for FFN in PyTorch we have: self.w2(F.silu(self.w1(x)) * self.w3(x))
    // first calculate self.w1(x) and self.w3(x)
    matmul(s->hb, s->xb, w->w1 + l * dim * hidden_dim, dim, hidden_dim);
    matmul(s->hb2, s->xb, w->w3 + l * dim * hidden_dim, dim, hidden_dim);

    // SwiGLU non-linearity
    for (int i = 0; i < hidden_dim; i++) {
      float val = s->hb[i];
      // silu(x)=x*σ(x), where σ(x) is the logistic sigmoid
      val *= (1.0f / (1.0f + expf(-val)));
      // elementwise multiply with w3(x)
      val *= s->hb2[i];
      s->hb[i] = val;
    }

    // final matmul to get the output of the ffn
    matmul(s->xb, s->hb, w->w2 + l * dim * hidden_dim, hidden_dim, dim);

    // residual connection
    for (int i = 0; i < dim; i++) {
      x[i] += s->xb[i];
    }
  }

  // final rmsnorm
  rmsnorm(x, x, w->rms_final_weight, dim);

  // classifier into logits
  matmul(s->logits, x, w->wcls, p->dim, p->vocab_size);
  return s->logits;
}

int sample_argmax(float *probabilities, int n) {
  // return the index that has the highest probability
  int max_i = 0;
  float max_p = probabilities[0];
  for (int i = 1; i < n; i++) {
    if (probabilities[i] > max_p) {
      max_i = i;
      max_p = probabilities[i];
    }
  }
  return max_i;
}

// Writes a checkpoint of CONFIG's shape in llama2.c's format (a Config
// header, then the weights; shared classifier), weights from a fixed
// xorshift sequence, norms 1.
static void write_checkpoint(const char *path, Config c) {
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(&c, sizeof c, 1, f) != 1) {
    fprintf(stderr, "cannot write %s\n", path);
    exit(EXIT_FAILURE);
  }
  int head_size = c.dim / c.n_heads;
  long kv_dim = (long)c.n_kv_heads * head_size;
  long L = c.n_layers;
  long counts[] = {(long)c.vocab_size * c.dim, L * c.dim, L * c.dim * c.dim,
                   L * c.dim * kv_dim, L * c.dim * kv_dim, L * c.dim * c.dim,
                   L * c.dim, L * c.dim * c.hidden_dim, L * c.hidden_dim * c.dim,
                   L * c.dim * c.hidden_dim, c.dim, (long)c.seq_len * head_size};
  int is_norm[] = {0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0};
  unsigned state = 42;
  float buf[4096];
  for (int t = 0; t < 12; ++t)
    for (long done = 0; done < counts[t];) {
      long m = counts[t] - done < 4096 ? counts[t] - done : 4096;
      for (long i = 0; i < m; ++i) {
        state ^= state << 13, state ^= state >> 17, state ^= state << 5;
        buf[i] = is_norm[t] ? 1.0f : ((state >> 8) * (1.0f / 16777216.0f) - 0.5f) * 0.1f;
      }
      fwrite(buf, sizeof(float), m, f);
      done += m;
    }
  fclose(f);
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: llm_decode 15M|260K STEPS CHECKPOINT\n");
    return 2;
  }
  Config shape;
  if (!strcmp(argv[1], "15M"))
    shape = (Config){288, 768, 6, 6, 6, 32000, 256};
  else if (!strcmp(argv[1], "260K"))
    shape = (Config){64, 172, 5, 8, 4, 512, 512};
  else {
    fprintf(stderr, "llm_decode: unknown model '%s' (15M or 260K)\n", argv[1]);
    return 2;
  }
  int steps = atoi(argv[2]);
  if (access(argv[3], R_OK) != 0)
    write_checkpoint(argv[3], shape);

  Transformer t;
  read_checkpoint(argv[3], &t.config, &t.weights, &t.fd, &t.data, &t.file_size);
  malloc_run_state(&t.state, &t.config);
  if (steps > t.config.seq_len)
    steps = t.config.seq_len;
  int token = 1; // BOS
  unsigned long checksum = 0;
  for (int pos = 0; pos < steps; pos++) {
    float *logits = forward(&t, token, pos);
    token = sample_argmax(logits, t.config.vocab_size);
    checksum = checksum * 31 + token;
  }
  printf("%d tokens, checksum %lu\n", steps, checksum);
  munmap(t.data, t.file_size);
  close(t.fd);
  return 0;
}
