// PolyBench/C-style kernels (static functions called from main, as
// PolyBench has them), built with roofline-clang at -O2 and -O3
// -march=native: each is inlined into main, and each is still its own
// kernel record, with inlined_into ["main"], its own FLOPs and its loop
// nests' entries and iterations. The same program built with -fno-inline
// counts the same FLOPs for every kernel (the bytes may differ: inlined,
// the optimiser knows main's buffers do not alias and keeps more values in
// registers).
//
// FLOPs by hand (an FMA is 2; the compiler contracts a*b + c into one):
// - gemm, ni=20 nj=24 nk=28: C *= beta, ni*nj = 480 muls; then
//   C += alpha*A*B: the product alpha*A[i][k] does not depend on j, and
//   LICM hoists it out of the j loop (ni*nk = 560 muls) leaving one FMA per
//   (i, k, j): 2*ni*nk*nj = 26880. Total 27920 (the source's 3*ni*nj*nk +
//   ni*nj would be 40800: the optimiser removed the difference, which is
//   why the -fno-inline build, hoisted the same way, is the reference).
// - atax, m=26 n=30, called 3 times from a loop: two FMAs per (i, j),
//   4*m*n = 3120 per call, 9360; its i loop: 3 entries, 26 iterations each.
// - jacobi_1d, tsteps=5 n=40: two sweeps of n-2 points, 2 adds and a mul
//   each: 5*2*38*3 = 1140; the t loop: 1 entry, 5 iterations.
// - floyd_warshall, n=12, on int: no FLOPs, still a kernel (it moves
//   memory in loops); the k loop: 1 entry, 12 iterations.
// - trisolv, n=30, called twice: sum over i of i FMAs (2 each), and n
//   divisions: n(n-1) + n = 900 per call, 1800; the i loop: 2 entries, 60
//   iterations.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %roofline_clang -O2 %s -o %t/o2 && env ROOFLINE_PROFILE=%t/o2.json %t/o2
// RUN: %roofline_clang -O3 -march=native %s -o %t/o3 && env ROOFLINE_PROFILE=%t/o3.json %t/o3
// RUN: %roofline_clang -O2 -fno-inline %s -o %t/noinline-o2 && env ROOFLINE_PROFILE=%t/noinline-o2.json %t/noinline-o2
// RUN: %roofline_clang -O3 -march=native -fno-inline %s -o %t/noinline-o3 && env ROOFLINE_PROFILE=%t/noinline-o3.json %t/noinline-o3
// RUN: python3 %S/Inputs/profile_rows.py %t/o2.json --same-flops %t/noinline-o2.json | FileCheck %s --check-prefixes=CHECK,O2
// RUN: python3 %S/Inputs/profile_rows.py %t/o3.json --same-flops %t/noinline-o3.json | FileCheck %s --check-prefixes=CHECK,O3
// The static side: each kernel's own summary, taken after its own
// simplification and before main inlined it, in its own parameters, in
// the summary JSON with inlined_into (a compile without instrumentation,
// line tables only, does the same). gemm's count is the source's: the
// hoist of alpha*A[i][k] comes later, with the vectoriser's alias checks.
// RUN: %roofline_clang -O2 -c %s -o %t/static.o -mllvm -roofline-json=%t/static.json
// RUN: %clang_roofline -O2 -gline-tables-only -c %s -o %t/plain.o -mllvm -roofline-json=%t/plain.json
// RUN: python3 -c "import json; [print(k['name'], k.get('inlined_into'), k['formula']['flops'], k['exact']) for k in json.load(open('%t/static.json'))['kernels']]" | FileCheck %s --check-prefix=STATIC
// RUN: python3 -c "import json; [print(k['name'], k.get('inlined_into'), k['formula']['flops'], k['exact']) for k in json.load(open('%t/plain.json'))['kernels']]" | FileCheck %s --check-prefix=STATIC
// STATIC-DAG: kernel_gemm ['main'] 3*ni*nj*nk + ni*nj True
// STATIC-DAG: kernel_atax ['main'] 4*m*n True
// STATIC-DAG: kernel_jacobi_1d ['main'] 6*tsteps*n - 12*tsteps True
// STATIC-DAG: kernel_floyd_warshall ['main'] 0 True
// STATIC-DAG: kernel_trisolv ['main'] n^2 True
// The profile's records carry them:
// RUN: python3 -c "import json; [print(k['name'], k['static']) for k in json.load(open('%t/o2.json'))['kernels'] if k['name'] == 'kernel_trisolv']" | FileCheck %s --check-prefix=PSTATIC
// PSTATIC: kernel_trisolv {'flops': 'n^2', 'bytes_load': '8*n^2 + 8*n', 'bytes_store': '4*n^2 + 12*n', 'exact': True, 'before_inlining': True}
// Without inlining, the kernels are records of their own, not inlined:
// RUN: python3 %S/Inputs/profile_rows.py %t/noinline-o2.json | FileCheck %s --check-prefix=NOINLINE
//
// CHECK: kernel kernel_atax inlined_into=main calls=3 flops=9360
// CHECK:   loop +3 entries=3 iterations=78 flops=9360 timed=True
// CHECK: kernel kernel_floyd_warshall inlined_into=main calls=1 flops=0
// CHECK:   loop +1 entries=1 iterations=12 flops=0 timed=True
// CHECK: kernel kernel_gemm inlined_into=main calls=1 flops=27920
// CHECK:   loop +2 entries=1 iterations=20 flops=27920 timed=True
// CHECK: kernel kernel_jacobi_1d inlined_into=main calls=1 flops=1140
// CHECK:   loop +1 entries=1 iterations=5 flops=1140 timed=True
// CHECK: kernel kernel_trisolv inlined_into=main calls=2 flops=1800
// CHECK:   loop +1 entries=2 iterations=60 flops=1800 timed=True
// O2: same FLOPs as -fno-inline: 6 of 6
// At -O3 -march=native, out of line, gemm's j loop may be vectorised with a
// scalar remainder (the CPU decides: it was on an Intel Xeon, not on an AMD
// EPYC), and the hoisted product alpha*A[i][k] is then computed for each of
// them: 2*ni*nk = 1120 muls, 560 more than inlined (where the optimiser
// computes it once): the -fno-inline build did more work there, and main,
// which holds the kernels it inlined, differs by the same 560 when the
// vectoriser's choice differs there too (a Zen 3 VM: 4 of 6).
// O3: same FLOPs as -fno-inline: {{[456]}} of 6
// NOINLINE: kernel kernel_atax inlined_into=- calls=3 flops=9360
// NOINLINE: kernel kernel_gemm inlined_into=- calls=1 flops=27920
#include <stdio.h>
#include <stdlib.h>

// The kernels (gemm, atax, jacobi_1d, jacobi_2d, floyd_warshall, trisolv):
#include "../../bench/polybench_kernels.h"

// Sizes the optimiser cannot see, as PolyBench's LARGE sizes are too large
// to unroll: the kernels keep their loops.
volatile int Scale = 1;

int main(void) {
  int s = Scale;
  int ni = 20 * s, nj = 24 * s, nk = 28 * s, m = 26 * s, n = 30 * s, jn = 40 * s;
  int fn = 12 * s, ts = 5 * s;
  double *A = malloc(sizeof(double) * 4096), *B = malloc(sizeof(double) * 4096);
  double *C = malloc(sizeof(double) * 4096), *x = malloc(sizeof(double) * 64);
  double *y = malloc(sizeof(double) * 64), *t = malloc(sizeof(double) * 64);
  int *path = malloc(sizeof(int) * 4096);
  for (int i = 0; i < 4096; i++) {
    A[i] = 1.0 + (i % 7); B[i] = 2.0 + (i % 5); C[i] = i % 3;
    path[i] = (i * 7) % 13;
  }
  for (int i = 0; i < 64; i++) x[i] = y[i] = t[i] = 1.0 + i % 4;
  kernel_gemm(ni, nj, nk, 1.5, 1.2, C, A, B);
  for (int r = 0; r < 3; r++)
    kernel_atax(m, n, A, x, y, t);
  kernel_jacobi_1d(ts, jn, A, B);
  kernel_floyd_warshall(fn, path);
  kernel_trisolv(n, A, x, B);
  kernel_trisolv(n, B, y, A);
  printf("%g %g %g %d\n", C[17], y[3], A[5] + x[2], path[11]);
  return 0;
}
