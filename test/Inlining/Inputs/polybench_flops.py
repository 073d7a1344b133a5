"""The source-level FLOP count of each PolyBench-style kernel call in
test/Inlining/polybench-all.c, derived by hand from the source (every +,
-, *, / and sqrt is one FLOP, as an FMA is two: the tool's convention;
negations, compares and exp/pow, a special function, are not FLOPs), at the
sizes that test's main passes (Scale = 1). Summed over the calls."""

# kernel: (FLOPs, derivation)
SOURCE = {
    # C *= beta: ni*nj; C += alpha*A*B: 3 per (i, k, j).
    "kernel_gemm": (3 * 20 * 24 * 28 + 20 * 24, "3*ni*nj*nk + ni*nj"),
    # two updates of 2 FLOPs per (i, j); 3 calls.
    "kernel_atax": (3 * 4 * 26 * 30, "3 calls x 4*m*n"),
    # two sweeps of n-2 points, 2 adds and a mul each.
    "kernel_jacobi_1d": (6 * 5 * (40 - 2), "6*tsteps*(n-2)"),
    # two sweeps of (n-2)^2 points, 4 adds and a mul each.
    "kernel_jacobi_2d": (4 * 2 * 18 * 18 * 5, "10*tsteps*(n-2)^2"),
    "kernel_floyd_warshall": (0, "int"),
    # sum_i i FMAs (2 each) and n divisions: n^2; 2 calls.
    "kernel_trisolv": (2 * 30 * 30, "2 calls x n^2"),
    # means m(n+1); stddev: 4 per (i, j) (two subs, a mul, an add) and a
    # division and a sqrt per j; normalising 4 per (i, j) (sub, sqrt, mul,
    # div); corr 2n per pair, m(m-1)/2 pairs.
    "kernel_correlation": (14 * 19 + 14 * (4 * 18 + 2) + 4 * 18 * 14 +
                           18 * 14 * 13, "m(n+1) + m(4n+2) + 4nm + nm(m-1)"),
    # means m(n+1); centring nm; cov 2n + 2 (the division and its
    # float_n - 1) per pair, m(m+1)/2 pairs.
    "kernel_covariance": (16 * 21 + 20 * 16 + 16 * 17 // 2 * (2 * 20 + 2),
                          "m(n+1) + nm + m(m+1)/2 (2n+2)"),
    # A += u1 v1 + u2 v2: 4; x += beta A y: 3; x += z: 1 per i; w += alpha A
    # x: 3.
    "kernel_gemver": (10 * 22 * 22 + 22, "10n^2 + n"),
    # 2 FMAs per (i, j), 3 per i.
    "kernel_gesummv": (4 * 24 * 24 + 3 * 24, "4n^2 + 3n"),
    # k < i: 3 + 2 per k; 6 per (i, j): sum_i i = m(m-1)/2.
    "kernel_symm": (14 * (5 * 12 * 11 // 2 + 6 * 12), "n(5m(m-1)/2 + 6m)"),
    # j <= i: n(n+1)/2 pairs, beta once and 6 per k.
    "kernel_syr2k": (15 * 16 // 2 * (1 + 6 * 11), "n(n+1)/2 (1 + 6m)"),
    "kernel_syrk": (17 * 18 // 2 * (1 + 3 * 13), "n(n+1)/2 (1 + 3m)"),
    # per (i, j): 2(m-1-i) + 1: sum over i, n columns: n*m^2.
    "kernel_trmm": (15 * 13 * 13, "n*m^2"),
    "kernel_2mm": (3 * 10 * 12 * 14 + 10 * 16 + 2 * 10 * 16 * 12,
                   "3 ni nj nk + ni nl + 2 ni nl nj"),
    "kernel_3mm": (2 * (9 * 10 * 11 + 10 * 12 * 13 + 9 * 12 * 10),
                   "2(ni nj nk + nj nl nm + ni nl nj)"),
    "kernel_bicg": (4 * 21 * 18, "4nm"),
    "kernel_doitgen": (2 * 5 * 6 * 7 * 7, "2 nr nq np^2"),
    "kernel_mvt": (4 * 25 * 25, "4n^2"),
    # row i: sum_{j<i} (2j + 1) + 2i + 1 (the sqrt) = (i+1)^2.
    "kernel_cholesky": (16 * 17 * 33 // 6, "n(n+1)(2n+1)/6"),
    # per k: 3 (beta) + 2k + 2 (the add and the division) + 2k.
    "kernel_durbin": (19 * (2 * 20 + 5), "(n-1)(2n+5)"),
    # per k: 2m + 1 + m, and 4m per j > k.
    "kernel_gramschmidt": (12 * (3 * 14 + 1) + 2 * 14 * 12 * 11,
                           "n(3m+1) + 2mn(n-1)"),
    # row i: sum_{j<i}(2j + 1) + 2i(n - i) = 2in - i^2.
    "kernel_lu": (15 * 14 * 61 // 6, "n(n-1)(4n+1)/6"),
    # the lu part, then 2i per row forward, 2(n-1-i) + 1 backward.
    "kernel_ludcmp": (14 * 13 * 57 // 6 + 2 * 14 * 13 + 14,
                      "n(n-1)(4n+1)/6 + 2n(n-1) + n"),
    # setup 18 (k 9, a2 3, a3 3, a4 2, b2 1); 7 + 7 + 2 per point twice.
    "kernel_deriche": (18 + 32 * 16 * 12, "18 + 32wh"),
    "kernel_nussinov": (0, "int"),
    # setup 13; per sweep point: p 3, q 12, the back substitution 2.
    "kernel_adi": (13 + 34 * 3 * 10 * 10, "13 + 34 tsteps (n-2)^2"),
    "kernel_fdtd_2d": (4 * (3 * 9 * 12 + 3 * 10 * 11 + 5 * 9 * 11),
                       "tmax(3(nx-1)ny + 3nx(ny-1) + 5(nx-1)(ny-1))"),
    # 3 terms of 4 and 3 adds per point, two sweeps.
    "kernel_heat_3d": (3 * 2 * 15 * 6 * 6 * 6, "30 tsteps (n-2)^3"),
    "kernel_seidel_2d": (4 * 12 * 12 * 9, "9 tsteps (n-2)^2"),
}

# Where inlining lets the optimiser do what it cannot out of line (main's
# buffers are known not to alias, so a product is hoisted out of a loop
# that stores to memory), the -fno-inline build is no reference: the count
# of the code as optimised, derived by hand from its IR.
OPTIMISED = {
    # -O2: the j loop is vectorised (2 lanes, unrolled twice: 4 per
    # iteration) behind a runtime alias check; the vector loop has
    # alpha*A[i][k] hoisted (1 per (i, k)) and 2 per element, the scalar
    # loop (trips under 4, and the remainder) the source's 3. Per (i, k)
    # with t = i + 1 trips: 3t for t < 4, else 1 + 8 floor(t/4) + 3 (t mod
    # 4): summed over t = 1..17 that is 345, times m = 13, plus beta's
    # n(n+1)/2 = 153.
    ("kernel_syrk", "O2"): (13 * 345 + 153, "vector loop with the product hoisted"),
    # -O3 -march=native: alpha*A[i][k] hoisted for every (i, k):
    # n(n+1)/2 (1 + 2m) + nm.
    ("kernel_syrk", "O3"): (17 * 18 // 2 * (1 + 2 * 13) + 17 * 13,
                            "n(n+1)/2 (1 + 2m) + nm"),
    # alpha*A[i][k] hoisted out of the j loop: ni nk + 2 ni nk nj + ni nj.
    ("kernel_gemm", "O3"): (20 * 28 + 2 * 20 * 28 * 24 + 20 * 24,
                            "ni nk + 2 ni nk nj + ni nj"),
    # alpha*B[i][j] hoisted out of the k loop and shared with the final
    # statement's (4 per k, 6 per (i, j)); the i = 0 iteration is peeled,
    # where temp2 = 0 and alpha = 1.5 fold alpha*temp2 to 0 (5):
    # n (4 m(m-1)/2 + 6 (m-1) + 5).
    ("kernel_symm", "O3"): (14 * (4 * 12 * 11 // 2 + 6 * 11 + 5),
                            "n(2m(m-1) + 6(m-1) + 5)"),
}
