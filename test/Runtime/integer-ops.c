// Integer work measured by a run equals the hand count, at -O0, -O2 and
// -O3 -march=native, and the static formulas agree where they are exact.
// Kernels shaped like PolyBench's floyd-warshall and nussinov, and an FNV
// hash; n = 60. Only the user's operations count: indices, induction
// variables and loop tests do not (docs/counting.md, "Integer operations").
// RUN: rm -rf %t && mkdir -p %t
// RUN: %roofline_clang -O2 %s -o %t/o2 -mllvm -roofline-json=%t/o2.summary.json
// RUN: env ROOFLINE_PROFILE=%t/o2.json %t/o2 > %t/o2.out
// RUN: FileCheck %s --check-prefixes=CHECK,OPT --input-file=%t/o2.json
// RUN: FileCheck %s --check-prefix=STATIC --input-file=%t/o2.summary.json
// RUN: %roofline_clang -O3 -march=native %s -o %t/o3
// RUN: env ROOFLINE_PROFILE=%t/o3.json %t/o3 > %t/o3.out
// RUN: FileCheck %s --check-prefixes=CHECK,OPT --input-file=%t/o3.json
// RUN: %roofline_clang -O0 %s -o %t/o0
// RUN: env ROOFLINE_PROFILE=%t/o0.json %t/o0 > %t/o0.out
// RUN: FileCheck %s --check-prefixes=CHECK,O0 --input-file=%t/o0.json
// RUN: clang -O2 %s -o %t/plain && %t/plain > %t/plain.out
// RUN: diff %t/plain.out %t/o2.out
// RUN: diff %t/plain.out %t/o3.out
// RUN: diff %t/plain.out %t/o0.out
#include <stdio.h>
#include <stdlib.h>

#define N 60
#define KERNEL __attribute__((noinline))

// Per (k, i, j): one add (path[i][k] + path[k][j]) and one compare-select
// (the min): 2*n^3 = 432000, exact. At -O0 the ternary recomputes the sum on
// its false arm, a data-dependent number of extra adds: only the compares
// are checked there.
// CHECK-LABEL: "display_name": "floyd"
// OPT: "intops": {"total": 432000, "by_width": {"i8": 0, "i16": 0, "i32": 432000, "i64": 0}, "by_kind": {"add": 216000, "mul": 0, "div": 0, "bitwise": 0, "compare": 216000, "dot": 0}},
// O0: "int_classes": {"i32": {"add": {{[0-9]+}}, "compare": 216000}}
// STATIC: "display_name": "floyd"
// STATIC: "exact": true
// STATIC: "int_classes": {
// STATIC-NEXT: "i32": {
// STATIC-NEXT: "add": "n^3",
// STATIC-NEXT: "compare": "n^3"
// STATIC: "intops": "2*n^3"
KERNEL void floyd(int n, int *path) {
  for (int k = 0; k < n; k++)
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++)
        path[i * n + j] = path[i * n + j] < path[i * n + k] + path[k * n + j]
                              ? path[i * n + j]
                              : path[i * n + k] + path[k * n + j];
}

#define match(b1, b2) (((b1) + (b2)) == 3 ? 1 : 0)
#define max_score(s1, s2) ((s1 >= s2) ? s1 : s2)

// Over the n(n-1)/2 = 1770 pairs i < j: two maxes (2 compares). For the
// (n-1)(n-2)/2 = 1711 pairs with j >= i+2: match (an add and a compare),
// the + (an add) and a max (a compare); for the n-1 = 59 pairs with
// j = i+1: one max. Over the sum of (j-i-1), n(n-1)(n-2)/6 = 34220 inner
// steps: an add and a max each.
//   compares: 2*1770 + 2*1711 + 59 + 34220 = 41241
//   adds:     2*1711 + 34220 = 37642
// The tests i < j-1, j-1 >= 0, i+1 < n are on indices: not counted.
// CHECK-LABEL: "display_name": "nussinov"
// OPT: "intops": {"total": 78883, "by_width": {"i8": 0, "i16": 0, "i32": 78883, "i64": 0}, "by_kind": {"add": 37642, "mul": 0, "div": 0, "bitwise": 0, "compare": 41241, "dot": 0}},
KERNEL void nussinov(int n, const char *seq, int *table) {
  for (int i = n - 1; i >= 0; i--) {
    for (int j = i + 1; j < n; j++) {
      if (j - 1 >= 0)
        table[i * n + j] = max_score(table[i * n + j], table[i * n + j - 1]);
      if (i + 1 < n)
        table[i * n + j] = max_score(table[i * n + j], table[(i + 1) * n + j]);
      if (j - 1 >= 0 && i + 1 < n) {
        if (i < j - 1)
          table[i * n + j] = max_score(table[i * n + j],
                                       table[(i + 1) * n + j - 1] + match(seq[i], seq[j]));
        else
          table[i * n + j] = max_score(table[i * n + j], table[(i + 1) * n + j - 1]);
      }
      for (int k = i + 1; k < j; k++)
        table[i * n + j] = max_score(table[i * n + j], table[i * n + k] + table[(k + 1) * n + j]);
    }
  }
}

// FNV-1a: an xor and a mul per byte, 2n = 120 at every level (-O0 too:
// values pass through its stack variables as through SSA).
// CHECK-LABEL: "display_name": "hash"
// CHECK: "intops": {"total": 120, "by_width": {"i8": 0, "i16": 0, "i32": 120, "i64": 0}, "by_kind": {"add": 0, "mul": 60, "div": 0, "bitwise": 60, "compare": 0, "dot": 0}},
// STATIC: "display_name": "hash"
// STATIC: "intops": "2*n"
KERNEL unsigned hash(int n, const unsigned char *s) {
  unsigned h = 2166136261u;
  for (int i = 0; i < n; i++)
    h = (h ^ s[i]) * 16777619u;
  return h;
}

int main(void) {
  int *p = malloc(N * N * sizeof(int)), *t = calloc(N * N, sizeof(int));
  char *seq = malloc(N);
  for (int i = 0; i < N * N; i++)
    p[i] = (i * 7) % 13 + 1;
  for (int i = 0; i < N; i++)
    seq[i] = i % 4;
  floyd(N, p);
  nussinov(N, seq, t);
  printf("%d %d %u\n", p[5], t[N - 1], hash(N, (unsigned char *)seq));
  return 0;
}
