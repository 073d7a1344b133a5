// PolyBench/C 4.2.1-style kernels, as static functions (PolyBench's
// kernel_* are), for test/Inlining/polybench-like.c (which derives their
// counts by hand) and bench/polybench_like.c (which times them): the same
// code in both.
#ifndef ROOFLINE_BENCH_POLYBENCH_KERNELS_H
#define ROOFLINE_BENCH_POLYBENCH_KERNELS_H

static void kernel_gemm(int ni, int nj, int nk, double alpha, double beta,
                        double *C, const double *A, const double *B) {
  for (int i = 0; i < ni; i++) {
    for (int j = 0; j < nj; j++) C[i * nj + j] *= beta;
    for (int k = 0; k < nk; k++)
      for (int j = 0; j < nj; j++) C[i * nj + j] += alpha * A[i * nk + k] * B[k * nj + j];
  }
}

static void kernel_atax(int m, int n, const double *A, const double *x,
                        double *y, double *tmp) {
  for (int i = 0; i < n; i++) y[i] = 0;
  for (int i = 0; i < m; i++) {
    tmp[i] = 0.0;
    for (int j = 0; j < n; j++) tmp[i] = tmp[i] + A[i * n + j] * x[j];
    for (int j = 0; j < n; j++) y[j] = y[j] + A[i * n + j] * tmp[i];
  }
}

static void kernel_jacobi_1d(int tsteps, int n, double *A, double *B) {
  for (int t = 0; t < tsteps; t++) {
    for (int i = 1; i < n - 1; i++) B[i] = 0.33333 * (A[i - 1] + A[i] + A[i + 1]);
    for (int i = 1; i < n - 1; i++) A[i] = 0.33333 * (B[i - 1] + B[i] + B[i + 1]);
  }
}

static void kernel_jacobi_2d(int tsteps, int n, double *A, double *B) {
  for (int t = 0; t < tsteps; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        B[i * n + j] = 0.2 * (A[i * n + j] + A[i * n + j - 1] + A[i * n + j + 1] +
                              A[(i + 1) * n + j] + A[(i - 1) * n + j]);
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        A[i * n + j] = 0.2 * (B[i * n + j] + B[i * n + j - 1] + B[i * n + j + 1] +
                              B[(i + 1) * n + j] + B[(i - 1) * n + j]);
  }
}

static void kernel_floyd_warshall(int n, int *path) {
  for (int k = 0; k < n; k++)
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++)
        path[i * n + j] = path[i * n + j] < path[i * n + k] + path[k * n + j]
                              ? path[i * n + j] : path[i * n + k] + path[k * n + j];
}

static void kernel_trisolv(int n, const double *L, double *x, const double *b) {
  for (int i = 0; i < n; i++) {
    x[i] = b[i];
    for (int j = 0; j < i; j++) x[i] -= L[i * n + j] * x[j];
    x[i] = x[i] / L[i * n + i];
  }
}

// The other 24 PolyBench/C 4.2.1 kernels, in the same style (flat arrays,
// row-major; the sizes are parameters). test/Inlining/polybench-all.c
// derives each one's FLOPs by hand.

// datamining
static void kernel_correlation(int m, int n, double float_n, double *data,
                               double *corr, double *mean, double *stddev) {
  double eps = 0.1;
  for (int j = 0; j < m; j++) {
    mean[j] = 0.0;
    for (int i = 0; i < n; i++) mean[j] += data[i * m + j];
    mean[j] /= float_n;
  }
  for (int j = 0; j < m; j++) {
    stddev[j] = 0.0;
    for (int i = 0; i < n; i++)
      stddev[j] += (data[i * m + j] - mean[j]) * (data[i * m + j] - mean[j]);
    stddev[j] /= float_n;
    stddev[j] = __builtin_sqrt(stddev[j]);
    stddev[j] = stddev[j] <= eps ? 1.0 : stddev[j];
  }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      data[i * m + j] -= mean[j];
      data[i * m + j] /= __builtin_sqrt(float_n) * stddev[j];
    }
  for (int i = 0; i < m - 1; i++) {
    corr[i * m + i] = 1.0;
    for (int j = i + 1; j < m; j++) {
      corr[i * m + j] = 0.0;
      for (int k = 0; k < n; k++) corr[i * m + j] += data[k * m + i] * data[k * m + j];
      corr[j * m + i] = corr[i * m + j];
    }
  }
  corr[(m - 1) * m + m - 1] = 1.0;
}

static void kernel_covariance(int m, int n, double float_n, double *data,
                              double *cov, double *mean) {
  for (int j = 0; j < m; j++) {
    mean[j] = 0.0;
    for (int i = 0; i < n; i++) mean[j] += data[i * m + j];
    mean[j] /= float_n;
  }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) data[i * m + j] -= mean[j];
  for (int i = 0; i < m; i++)
    for (int j = i; j < m; j++) {
      cov[i * m + j] = 0.0;
      for (int k = 0; k < n; k++) cov[i * m + j] += data[k * m + i] * data[k * m + j];
      cov[i * m + j] /= (float_n - 1.0);
      cov[j * m + i] = cov[i * m + j];
    }
}

// linear-algebra/blas
static void kernel_gemver(int n, double alpha, double beta, double *A,
                          const double *u1, const double *v1, const double *u2,
                          const double *v2, double *w, double *x,
                          const double *y, const double *z) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      A[i * n + j] = A[i * n + j] + u1[i] * v1[j] + u2[i] * v2[j];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) x[i] = x[i] + beta * A[j * n + i] * y[j];
  for (int i = 0; i < n; i++) x[i] = x[i] + z[i];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) w[i] = w[i] + alpha * A[i * n + j] * x[j];
}

static void kernel_gesummv(int n, double alpha, double beta, const double *A,
                           const double *B, double *tmp, const double *x,
                           double *y) {
  for (int i = 0; i < n; i++) {
    tmp[i] = 0.0;
    y[i] = 0.0;
    for (int j = 0; j < n; j++) {
      tmp[i] = A[i * n + j] * x[j] + tmp[i];
      y[i] = B[i * n + j] * x[j] + y[i];
    }
    y[i] = alpha * tmp[i] + beta * y[i];
  }
}

static void kernel_symm(int m, int n, double alpha, double beta, double *C,
                        const double *A, const double *B) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      double temp2 = 0;
      for (int k = 0; k < i; k++) {
        C[k * n + j] += alpha * B[i * n + j] * A[i * m + k];
        temp2 += B[k * n + j] * A[i * m + k];
      }
      C[i * n + j] = beta * C[i * n + j] + alpha * B[i * n + j] * A[i * m + i] +
                     alpha * temp2;
    }
}

static void kernel_syr2k(int n, int m, double alpha, double beta, double *C,
                         const double *A, const double *B) {
  for (int i = 0; i < n; i++) {
    for (int j = 0; j <= i; j++) C[i * n + j] *= beta;
    for (int k = 0; k < m; k++)
      for (int j = 0; j <= i; j++)
        C[i * n + j] += A[j * m + k] * alpha * B[i * m + k] +
                        B[j * m + k] * alpha * A[i * m + k];
  }
}

static void kernel_syrk(int n, int m, double alpha, double beta, double *C,
                        const double *A) {
  for (int i = 0; i < n; i++) {
    for (int j = 0; j <= i; j++) C[i * n + j] *= beta;
    for (int k = 0; k < m; k++)
      for (int j = 0; j <= i; j++)
        C[i * n + j] += alpha * A[i * m + k] * A[j * m + k];
  }
}

static void kernel_trmm(int m, int n, double alpha, const double *A, double *B) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      for (int k = i + 1; k < m; k++) B[i * n + j] += A[k * m + i] * B[k * n + j];
      B[i * n + j] = alpha * B[i * n + j];
    }
}

// linear-algebra/kernels
static void kernel_2mm(int ni, int nj, int nk, int nl, double alpha,
                       double beta, double *tmp, const double *A,
                       const double *B, const double *C, double *D) {
  for (int i = 0; i < ni; i++)
    for (int j = 0; j < nj; j++) {
      tmp[i * nj + j] = 0.0;
      for (int k = 0; k < nk; ++k)
        tmp[i * nj + j] += alpha * A[i * nk + k] * B[k * nj + j];
    }
  for (int i = 0; i < ni; i++)
    for (int j = 0; j < nl; j++) {
      D[i * nl + j] *= beta;
      for (int k = 0; k < nj; ++k) D[i * nl + j] += tmp[i * nj + k] * C[k * nl + j];
    }
}

static void kernel_3mm(int ni, int nj, int nk, int nl, int nm, double *E,
                       const double *A, const double *B, double *F,
                       const double *C, const double *D, double *G) {
  for (int i = 0; i < ni; i++)
    for (int j = 0; j < nj; j++) {
      E[i * nj + j] = 0.0;
      for (int k = 0; k < nk; ++k) E[i * nj + j] += A[i * nk + k] * B[k * nj + j];
    }
  for (int i = 0; i < nj; i++)
    for (int j = 0; j < nl; j++) {
      F[i * nl + j] = 0.0;
      for (int k = 0; k < nm; ++k) F[i * nl + j] += C[i * nm + k] * D[k * nl + j];
    }
  for (int i = 0; i < ni; i++)
    for (int j = 0; j < nl; j++) {
      G[i * nl + j] = 0.0;
      for (int k = 0; k < nj; ++k) G[i * nl + j] += E[i * nj + k] * F[k * nl + j];
    }
}

static void kernel_bicg(int m, int n, const double *A, double *s, double *q,
                        const double *p, const double *r) {
  for (int i = 0; i < m; i++) s[i] = 0;
  for (int i = 0; i < n; i++) {
    q[i] = 0.0;
    for (int j = 0; j < m; j++) {
      s[j] = s[j] + r[i] * A[i * m + j];
      q[i] = q[i] + A[i * m + j] * p[j];
    }
  }
}

static void kernel_doitgen(int nr, int nq, int np, double *A, const double *C4,
                           double *sum) {
  for (int r = 0; r < nr; r++)
    for (int q = 0; q < nq; q++) {
      for (int p = 0; p < np; p++) {
        sum[p] = 0.0;
        for (int s = 0; s < np; s++)
          sum[p] += A[(r * nq + q) * np + s] * C4[s * np + p];
      }
      for (int p = 0; p < np; p++) A[(r * nq + q) * np + p] = sum[p];
    }
}

static void kernel_mvt(int n, double *x1, double *x2, const double *y_1,
                       const double *y_2, const double *A) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) x1[i] = x1[i] + A[i * n + j] * y_1[j];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) x2[i] = x2[i] + A[j * n + i] * y_2[j];
}

// linear-algebra/solvers
static void kernel_cholesky(int n, double *A) {
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < i; j++) {
      for (int k = 0; k < j; k++) A[i * n + j] -= A[i * n + k] * A[j * n + k];
      A[i * n + j] /= A[j * n + j];
    }
    for (int k = 0; k < i; k++) A[i * n + i] -= A[i * n + k] * A[i * n + k];
    A[i * n + i] = __builtin_sqrt(A[i * n + i]);
  }
}

static void kernel_durbin(int n, const double *r, double *y, double *z) {
  double alpha, beta, sum;
  y[0] = -r[0];
  beta = 1.0;
  alpha = -r[0];
  for (int k = 1; k < n; k++) {
    beta = (1 - alpha * alpha) * beta;
    sum = 0.0;
    for (int i = 0; i < k; i++) sum += r[k - i - 1] * y[i];
    alpha = -(r[k] + sum) / beta;
    for (int i = 0; i < k; i++) z[i] = y[i] + alpha * y[k - i - 1];
    for (int i = 0; i < k; i++) y[i] = z[i];
    y[k] = alpha;
  }
}

static void kernel_gramschmidt(int m, int n, double *A, double *R, double *Q) {
  for (int k = 0; k < n; k++) {
    double nrm = 0.0;
    for (int i = 0; i < m; i++) nrm += A[i * n + k] * A[i * n + k];
    R[k * n + k] = __builtin_sqrt(nrm);
    for (int i = 0; i < m; i++) Q[i * n + k] = A[i * n + k] / R[k * n + k];
    for (int j = k + 1; j < n; j++) {
      R[k * n + j] = 0.0;
      for (int i = 0; i < m; i++) R[k * n + j] += Q[i * n + k] * A[i * n + j];
      for (int i = 0; i < m; i++)
        A[i * n + j] = A[i * n + j] - Q[i * n + k] * R[k * n + j];
    }
  }
}

static void kernel_lu(int n, double *A) {
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < i; j++) {
      for (int k = 0; k < j; k++) A[i * n + j] -= A[i * n + k] * A[k * n + j];
      A[i * n + j] /= A[j * n + j];
    }
    for (int j = i; j < n; j++)
      for (int k = 0; k < i; k++) A[i * n + j] -= A[i * n + k] * A[k * n + j];
  }
}

static void kernel_ludcmp(int n, double *A, const double *b, double *x,
                          double *y) {
  double w;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < i; j++) {
      w = A[i * n + j];
      for (int k = 0; k < j; k++) w -= A[i * n + k] * A[k * n + j];
      A[i * n + j] = w / A[j * n + j];
    }
    for (int j = i; j < n; j++) {
      w = A[i * n + j];
      for (int k = 0; k < i; k++) w -= A[i * n + k] * A[k * n + j];
      A[i * n + j] = w;
    }
  }
  for (int i = 0; i < n; i++) {
    w = b[i];
    for (int j = 0; j < i; j++) w -= A[i * n + j] * y[j];
    y[i] = w;
  }
  for (int i = n - 1; i >= 0; i--) {
    w = y[i];
    for (int j = i + 1; j < n; j++) w -= A[i * n + j] * x[j];
    x[i] = w / A[i * n + i];
  }
}

// medley
static void kernel_deriche(int w, int h, float alpha, const float *imgIn,
                           float *imgOut, float *y1, float *y2) {
  float xm1, tm1, ym1, ym2, xp1, xp2, tp1, tp2, yp1, yp2;
  float k, a1, a2, a3, a4, a5, a6, a7, a8, b1, b2, c1, c2;
  k = (1.0f - __builtin_expf(-alpha)) * (1.0f - __builtin_expf(-alpha)) /
      (1.0f + 2.0f * alpha * __builtin_expf(-alpha) - __builtin_expf(2.0f * alpha));
  a1 = a5 = k;
  a2 = a6 = k * __builtin_expf(-alpha) * (alpha - 1.0f);
  a3 = a7 = k * __builtin_expf(-alpha) * (alpha + 1.0f);
  a4 = a8 = -k * __builtin_expf(-2.0f * alpha);
  b1 = __builtin_powf(2.0f, -alpha);
  b2 = -__builtin_expf(-2.0f * alpha);
  c1 = c2 = 1;
  for (int i = 0; i < w; i++) {
    ym1 = 0.0f; ym2 = 0.0f; xm1 = 0.0f;
    for (int j = 0; j < h; j++) {
      y1[i * h + j] = a1 * imgIn[i * h + j] + a2 * xm1 + b1 * ym1 + b2 * ym2;
      xm1 = imgIn[i * h + j]; ym2 = ym1; ym1 = y1[i * h + j];
    }
  }
  for (int i = 0; i < w; i++) {
    yp1 = 0.0f; yp2 = 0.0f; xp1 = 0.0f; xp2 = 0.0f;
    for (int j = h - 1; j >= 0; j--) {
      y2[i * h + j] = a3 * xp1 + a4 * xp2 + b1 * yp1 + b2 * yp2;
      xp2 = xp1; xp1 = imgIn[i * h + j]; yp2 = yp1; yp1 = y2[i * h + j];
    }
  }
  for (int i = 0; i < w; i++)
    for (int j = 0; j < h; j++) imgOut[i * h + j] = c1 * (y1[i * h + j] + y2[i * h + j]);
  for (int j = 0; j < h; j++) {
    tm1 = 0.0f; ym1 = 0.0f; ym2 = 0.0f;
    for (int i = 0; i < w; i++) {
      y1[i * h + j] = a5 * imgOut[i * h + j] + a6 * tm1 + b1 * ym1 + b2 * ym2;
      tm1 = imgOut[i * h + j]; ym2 = ym1; ym1 = y1[i * h + j];
    }
  }
  for (int j = 0; j < h; j++) {
    tp1 = 0.0f; tp2 = 0.0f; yp1 = 0.0f; yp2 = 0.0f;
    for (int i = w - 1; i >= 0; i--) {
      y2[i * h + j] = a7 * tp1 + a8 * tp2 + b1 * yp1 + b2 * yp2;
      tp2 = tp1; tp1 = imgOut[i * h + j]; yp2 = yp1; yp1 = y2[i * h + j];
    }
  }
  for (int i = 0; i < w; i++)
    for (int j = 0; j < h; j++) imgOut[i * h + j] = c2 * (y1[i * h + j] + y2[i * h + j]);
}

static void kernel_nussinov(int n, const char *seq, int *table) {
#define ROOFLINE_MATCH(b1, b2) (((b1) + (b2)) == 3 ? 1 : 0)
#define ROOFLINE_MAX(a, b) ((a) >= (b) ? (a) : (b))
  for (int i = n - 1; i >= 0; i--)
    for (int j = i + 1; j < n; j++) {
      if (j - 1 >= 0)
        table[i * n + j] = ROOFLINE_MAX(table[i * n + j], table[i * n + j - 1]);
      if (i + 1 < n)
        table[i * n + j] = ROOFLINE_MAX(table[i * n + j], table[(i + 1) * n + j]);
      if (j - 1 >= 0 && i + 1 < n) {
        if (i < j - 1)
          table[i * n + j] = ROOFLINE_MAX(table[i * n + j], table[(i + 1) * n + j - 1] +
                                                                ROOFLINE_MATCH(seq[i], seq[j]));
        else
          table[i * n + j] = ROOFLINE_MAX(table[i * n + j], table[(i + 1) * n + j - 1]);
      }
      for (int k = i + 1; k < j; k++)
        table[i * n + j] = ROOFLINE_MAX(table[i * n + j], table[i * n + k] + table[(k + 1) * n + j]);
    }
#undef ROOFLINE_MATCH
#undef ROOFLINE_MAX
}

// stencils
static void kernel_adi(int tsteps, int n, double *u, double *v, double *p,
                       double *q) {
  double DX = 1.0 / (double)n, DY = 1.0 / (double)n, DT = 1.0 / (double)tsteps;
  double B1 = 2.0, B2 = 1.0;
  double mul1 = B1 * DT / (DX * DX), mul2 = B2 * DT / (DY * DY);
  double a = -mul1 / 2.0, b = 1.0 + mul1, c = a;
  double d = -mul2 / 2.0, e = 1.0 + mul2, f = d;
  for (int t = 1; t <= tsteps; t++) {
    for (int i = 1; i < n - 1; i++) {
      v[0 * n + i] = 1.0;
      p[i * n + 0] = 0.0;
      q[i * n + 0] = v[0 * n + i];
      for (int j = 1; j < n - 1; j++) {
        p[i * n + j] = -c / (a * p[i * n + j - 1] + b);
        q[i * n + j] = (-d * u[j * n + i - 1] + (1.0 + 2.0 * d) * u[j * n + i] -
                        f * u[j * n + i + 1] - a * q[i * n + j - 1]) /
                       (a * p[i * n + j - 1] + b);
      }
      v[(n - 1) * n + i] = 1.0;
      for (int j = n - 2; j >= 1; j--)
        v[j * n + i] = p[i * n + j] * v[(j + 1) * n + i] + q[i * n + j];
    }
    for (int i = 1; i < n - 1; i++) {
      u[i * n + 0] = 1.0;
      p[i * n + 0] = 0.0;
      q[i * n + 0] = u[i * n + 0];
      for (int j = 1; j < n - 1; j++) {
        p[i * n + j] = -f / (d * p[i * n + j - 1] + e);
        q[i * n + j] = (-a * v[(i - 1) * n + j] + (1.0 + 2.0 * a) * v[i * n + j] -
                        c * v[(i + 1) * n + j] - d * q[i * n + j - 1]) /
                       (d * p[i * n + j - 1] + e);
      }
      u[i * n + n - 1] = 1.0;
      for (int j = n - 2; j >= 1; j--)
        u[i * n + j] = p[i * n + j] * u[i * n + j + 1] + q[i * n + j];
    }
  }
}

static void kernel_fdtd_2d(int tmax, int nx, int ny, double *ex, double *ey,
                           double *hz, const double *fict) {
  for (int t = 0; t < tmax; t++) {
    for (int j = 0; j < ny; j++) ey[0 * ny + j] = fict[t];
    for (int i = 1; i < nx; i++)
      for (int j = 0; j < ny; j++)
        ey[i * ny + j] = ey[i * ny + j] - 0.5 * (hz[i * ny + j] - hz[(i - 1) * ny + j]);
    for (int i = 0; i < nx; i++)
      for (int j = 1; j < ny; j++)
        ex[i * ny + j] = ex[i * ny + j] - 0.5 * (hz[i * ny + j] - hz[i * ny + j - 1]);
    for (int i = 0; i < nx - 1; i++)
      for (int j = 0; j < ny - 1; j++)
        hz[i * ny + j] = hz[i * ny + j] - 0.7 * (ex[i * ny + j + 1] - ex[i * ny + j] +
                                                 ey[(i + 1) * ny + j] - ey[i * ny + j]);
  }
}

static void kernel_heat_3d(int tsteps, int n, double *A, double *B) {
#define ROOFLINE_AT(X, i, j, k) X[((i) * n + (j)) * n + (k)]
  for (int t = 1; t <= tsteps; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        for (int k = 1; k < n - 1; k++)
          ROOFLINE_AT(B, i, j, k) =
              0.125 * (ROOFLINE_AT(A, i + 1, j, k) - 2.0 * ROOFLINE_AT(A, i, j, k) + ROOFLINE_AT(A, i - 1, j, k)) +
              0.125 * (ROOFLINE_AT(A, i, j + 1, k) - 2.0 * ROOFLINE_AT(A, i, j, k) + ROOFLINE_AT(A, i, j - 1, k)) +
              0.125 * (ROOFLINE_AT(A, i, j, k + 1) - 2.0 * ROOFLINE_AT(A, i, j, k) + ROOFLINE_AT(A, i, j, k - 1)) +
              ROOFLINE_AT(A, i, j, k);
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        for (int k = 1; k < n - 1; k++)
          ROOFLINE_AT(A, i, j, k) =
              0.125 * (ROOFLINE_AT(B, i + 1, j, k) - 2.0 * ROOFLINE_AT(B, i, j, k) + ROOFLINE_AT(B, i - 1, j, k)) +
              0.125 * (ROOFLINE_AT(B, i, j + 1, k) - 2.0 * ROOFLINE_AT(B, i, j, k) + ROOFLINE_AT(B, i, j - 1, k)) +
              0.125 * (ROOFLINE_AT(B, i, j, k + 1) - 2.0 * ROOFLINE_AT(B, i, j, k) + ROOFLINE_AT(B, i, j, k - 1)) +
              ROOFLINE_AT(B, i, j, k);
  }
#undef ROOFLINE_AT
}

static void kernel_seidel_2d(int tsteps, int n, double *A) {
  for (int t = 0; t <= tsteps - 1; t++)
    for (int i = 1; i <= n - 2; i++)
      for (int j = 1; j <= n - 2; j++)
        A[i * n + j] = (A[(i - 1) * n + j - 1] + A[(i - 1) * n + j] + A[(i - 1) * n + j + 1] +
                        A[i * n + j - 1] + A[i * n + j] + A[i * n + j + 1] +
                        A[(i + 1) * n + j - 1] + A[(i + 1) * n + j] + A[(i + 1) * n + j + 1]) /
                       9.0;
}

#endif
