// The footprints of kernels inlined into main, measured at each entry: the
// kernel's footprint formula (from its summary before inlining) evaluated
// with the values its arguments had at that entry (debug records of its
// entry marker carry them through the inliner), 0 for an entry that breaks
// an assumption the formula holds under (the sum is then a lower bound).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %roofline_clang -O2 %s -o %t/o2 && env ROOFLINE_PROFILE=%t/o2.json %t/o2
// RUN: python3 -c "import json; [print(k['name'], k.get('inlined_into'), k['calls'], k.get('footprint')) for k in json.load(open('%t/o2.json'))['kernels']]" | FileCheck %s
// RUN: %roofline_clang -O3 -march=native %s -o %t/o3 && env ROOFLINE_PROFILE=%t/o3.json %t/o3
// RUN: python3 -c "import json; [print(k['name'], k.get('inlined_into'), k['calls'], k.get('footprint')) for k in json.load(open('%t/o3.json'))['kernels']]" | FileCheck %s
// The report places them: a footprint below the counted bytes, on DRAM
// (test/Inputs/cpu-dram-only.json, the intel-xeon-8480 datasheet without
// its cache levels: every footprint byte at DRAM, as on a cold call).
// RUN: %roofline_report %t/o2.json --platform %S/../Inputs/cpu-dram-only.json --format json | FileCheck %s --check-prefix=REPORT
#include <stdio.h>
#include <stdlib.h>

// C[i][j] += A[i][l] * B[l][j]: A n*k, B k*m, C n*m doubles, each once:
// read 8(nk + km + nm), written 8nm. At n, m, k = 10, 12, 14: read
// 8(140 + 168 + 120) = 3424, written 960.
static void gemm(int n, int m, int k, const double *A, const double *B,
                 double *C) {
  for (int i = 0; i < n; i++)
    for (int l = 0; l < k; l++)
      for (int j = 0; j < m; j++)
        C[i * m + j] += A[i * k + l] * B[l * m + j];
}

// x[i] *= 2 for i < n: 8n read and 8n written per entry. Called with
// n = 50, 100, 150: 2400 each way over the three entries.
static void scale(int n, double *x) {
  for (int i = 0; i < n; i++)
    x[i] *= 2.0;
}

// q[-(i0 + i1) - 1], i0 < m + 2, 1 <= i1 < n: i0 + i1 takes the values 1
// to m + n, so the footprint is 4(n + m) each way, under the assumption
// n > 1 (the inner loop runs). band(5, 2): 28 B each way. band(1, 2):
// the loop does not run (0 B), the formula would say 12: that entry breaks
// the assumption and counts 0, so the record's 28 is a lower bound.
static void band(int n, int m, float *q) {
  for (int i0 = 0; i0 < m + 2; ++i0)
    for (int i1 = 1; i1 < n; ++i1)
      q[-i0 - i1 - 1] = 1.0f + q[-i0 - i1 - 1];
}

volatile int S = 1;

int main(void) {
  int s = S;
  double *A = malloc(4096 * 8), *B = malloc(4096 * 8), *C = malloc(4096 * 8);
  float *q = malloc(4096 * 4);
  // Data the optimiser cannot know (calloc's zeros would fold the product).
  for (int i = 0; i < 4096; i++)
    A[i] = i % 7, B[i] = i % 5, C[i] = i % 3, q[i] = i % 4;
  gemm(10 * s, 12 * s, 14 * s, A, B, C);
  for (int r = 1; r <= 3; r++)
    scale(50 * r * s, C);
  band(5 * s, 2 * s, q + 64);
  band(1 * s, 2 * s, q + 64);
  printf("%g %g\n", C[5], q[60]);
  return 0;
}
// CHECK-DAG: gemm ['main'] 1 {'read': 3424, 'written': 960, 'exact': True}
// CHECK-DAG: scale ['main'] 3 {'read': 2400, 'written': 2400, 'exact': True}
// CHECK-DAG: band ['main'] 2 {'read': 28, 'written': 28, 'exact': False}
// gemm's DRAM bytes are its footprint, 4384 B, not its counted 41440:
// per (i, l, j) a load of B and of C and a store of C, per (i, l) a load
// of A (kept in a register across j): 8(2nmk + nk) loaded, 8nmk stored.
// REPORT: "bytes": 4384.0,
// REPORT-NEXT: "bytes_level": "dram",
// REPORT-NEXT: "bytes_load": 28000.0,
// REPORT-NEXT: "bytes_store": 13440.0,
// REPORT-NEXT: "counted_bytes": 41440.0,
// REPORT-NEXT: "display_name": "gemm",
