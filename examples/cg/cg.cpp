// A miniFE-shaped conjugate-gradient solver: the 7-point Laplacian of an
// nx^3 grid (Dirichlet boundary) assembled in CSR, and unpreconditioned CG
// with miniFE's kernels as separate functions: matvec (CSR), dot and waxpby
// (w = alpha*x + beta*y), OpenMP parallel where -fopenmp is given.
//
// The output is deterministic: dot's partial sums are per fixed block of
// rows, added in block order, whatever the number of threads.
//
// USAGE: cg [nx] [max-iterations]    (defaults 16 and 50)
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#ifdef _OPENMP
#define OMP_FOR _Pragma("omp parallel for")
#else
#define OMP_FOR
#endif

#define KERNEL __attribute__((noinline))

struct CsrMatrix {
  int rows = 0;
  std::vector<int> row_ptr, col;
  std::vector<double> val;
};

// The 7-point Laplacian on an nx^3 grid: 6 on the diagonal, -1 for each
// neighbour inside the grid.
static CsrMatrix BuildLaplacian(int nx) {
  CsrMatrix A;
  A.rows = nx * nx * nx;
  A.row_ptr.reserve(A.rows + 1);
  A.row_ptr.push_back(0);
  const int offsets[7][3] = {{0, 0, -1}, {0, -1, 0}, {-1, 0, 0}, {0, 0, 0},
                             {1, 0, 0},  {0, 1, 0},  {0, 0, 1}};
  for (int k = 0; k < nx; ++k)
    for (int j = 0; j < nx; ++j)
      for (int i = 0; i < nx; ++i) {
        for (const auto &o : offsets) {
          int ii = i + o[0], jj = j + o[1], kk = k + o[2];
          if (ii < 0 || jj < 0 || kk < 0 || ii >= nx || jj >= nx || kk >= nx)
            continue;
          bool diag = o[0] == 0 && o[1] == 0 && o[2] == 0;
          A.col.push_back((kk * nx + jj) * nx + ii);
          A.val.push_back(diag ? 6.0 : -1.0);
        }
        A.row_ptr.push_back(static_cast<int>(A.col.size()));
      }
  return A;
}

// y = A x.
KERNEL void matvec(const CsrMatrix &A, const std::vector<double> &x,
                   std::vector<double> &y) {
  const int *row_ptr = A.row_ptr.data(), *col = A.col.data();
  const double *val = A.val.data(), *xp = x.data();
  double *yp = y.data();
  OMP_FOR
  for (int r = 0; r < A.rows; ++r) {
    double sum = 0;
    for (int j = row_ptr[r]; j < row_ptr[r + 1]; ++j)
      sum += val[j] * xp[col[j]];
    yp[r] = sum;
  }
}

// x . y, in blocks of a fixed size summed in order (reproducible).
KERNEL double dot(int n, const std::vector<double> &x, const std::vector<double> &y) {
  const int block = 1024;
  const int blocks = (n + block - 1) / block;
  std::vector<double> partial(blocks);
  OMP_FOR
  for (int b = 0; b < blocks; ++b) {
    double s = 0;
    int end = b * block + block < n ? b * block + block : n;
    for (int i = b * block; i < end; ++i)
      s += x[i] * y[i];
    partial[b] = s;
  }
  double sum = 0;
  for (double s : partial)
    sum += s;
  return sum;
}

// w = alpha*x + beta*y (w may be x or y).
KERNEL void waxpby(int n, double alpha, const std::vector<double> &x, double beta,
                   const std::vector<double> &y, std::vector<double> &w) {
  const double *xp = x.data(), *yp = y.data();
  double *wp = w.data();
  if (beta == 0.0) {
    OMP_FOR
    for (int i = 0; i < n; ++i)
      wp[i] = alpha * xp[i];
  } else {
    OMP_FOR
    for (int i = 0; i < n; ++i)
      wp[i] = alpha * xp[i] + beta * yp[i];
  }
}

struct CgResult {
  int iterations;
  double residual;
};

// Solves A x = b from x = 0 until |r| / |b| < tol or max_iter iterations.
static CgResult Cg(const CsrMatrix &A, const std::vector<double> &b, std::vector<double> &x,
                   int max_iter, double tol) {
  const int n = A.rows;
  std::vector<double> r(n), p(n), Ap(n);
  matvec(A, x, Ap);
  waxpby(n, 1.0, b, -1.0, Ap, r);
  waxpby(n, 1.0, r, 0.0, r, p);
  double rr = dot(n, r, r);
  const double bnorm = std::sqrt(dot(n, b, b));
  int it = 0;
  while (it < max_iter && std::sqrt(rr) / bnorm >= tol) {
    matvec(A, p, Ap);
    double alpha = rr / dot(n, p, Ap);
    waxpby(n, 1.0, x, alpha, p, x);
    waxpby(n, 1.0, r, -alpha, Ap, r);
    double rr_new = dot(n, r, r);
    waxpby(n, 1.0, r, rr_new / rr, p, p);
    rr = rr_new;
    ++it;
  }
  return {it, std::sqrt(rr)};
}

int main(int argc, char **argv) {
  int nx = argc > 1 ? std::atoi(argv[1]) : 16;
  int max_iter = argc > 2 ? std::atoi(argv[2]) : 50;
  if (nx < 1 || max_iter < 0) {
    std::fprintf(stderr, "usage: cg [nx >= 1] [max-iterations >= 0]\n");
    return 2;
  }
  CsrMatrix A = BuildLaplacian(nx);
  const int n = A.rows;
  // The right-hand side of a known solution x* (a smooth field): b = A x*.
  std::vector<double> exact(n), b(n), x(n, 0.0);
  for (int k = 0, r = 0; k < nx; ++k)
    for (int j = 0; j < nx; ++j)
      for (int i = 0; i < nx; ++i, ++r)
        exact[r] = 1.0 + 0.5 * std::sin(0.3 * i) * std::cos(0.2 * j) + 0.01 * k;
  matvec(A, exact, b);
  CgResult res = Cg(A, b, x, max_iter, 1e-10);
  double checksum = 0, err = 0;
  for (int i = 0; i < n; ++i) {
    checksum += x[i] * (1 + i % 7);
    err = std::fmax(err, std::fabs(x[i] - exact[i]));
  }
  std::printf("cg: %d rows, %zu nonzeros\n", n, A.val.size());
  std::printf("iterations %d\n", res.iterations);
  std::printf("residual   %.10e\n", res.residual);
  std::printf("checksum   %.10e\n", checksum);
  std::printf("max error  %.10e\n", err);
  return 0;
}
