// The fewest and most iterations of one entry of each loop nest, measured
// where one compiled loop is the whole source loop: on entry where its trip
// count is known there (rows' outer loop), else at its exits from the
// iterations counted (walk's list). Per thread, merged by maximum; across
// runs by `roofline-report merge`.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %roofline_clang -O2 -pthread %s -o %t/o2
// RUN: env ROOFLINE_PROFILE=%t/a.json %t/o2
// RUN: python3 %S/Inputs/profile_rows.py %t/a.json | FileCheck %s
// RUN: %roofline_clang -O2 -fno-inline -pthread %s -o %t/noinline
// RUN: env ROOFLINE_PROFILE=%t/n.json %t/noinline
// RUN: python3 %S/Inputs/profile_rows.py %t/n.json | FileCheck %s
// A second run, with other sizes (`small`): 2, 1 rows and lists of 3, 2
// nodes; merged, the fewest stays 0 and the most 12 and 6.
// RUN: env ROOFLINE_PROFILE=%t/b.json %t/o2 small
// RUN: python3 %S/Inputs/profile_rows.py %t/b.json | FileCheck %s --check-prefix=SMALL
// RUN: %roofline_report merge %t/a.json %t/b.json -o %t/all.json
// RUN: python3 %S/Inputs/profile_rows.py %t/all.json | FileCheck %s --check-prefix=MERGED
// The report says them in its notes. The nests have no measured footprint
// and the platform, test/Inputs/cpu-dram-only.json (the intel-xeon-8480
// datasheet without its cache levels), lists only DRAM: their traffic is
// unknown, not 0 B at an infinite intensity (rows moves 5 * 32 * 8 * 2 =
// 5120 B through its instructions).
// RUN: %roofline_report %t/a.json --by loop --platform %S/../Inputs/cpu-dram-only.json | FileCheck %s --check-prefix=REPORT
// RUN: %roofline_report %t/a.json --by loop --platform %S/../Inputs/cpu-dram-only.json --format json -o %t/report.json
// RUN: python3 -c "import json; [print(k['display_name'], k['bound'], k['intensity']) for k in json.load(open('%t/report.json'))['kernels']]" | FileCheck %s --check-prefix=JSON
// REPORT: [loop in rows at loop-extremes.c:[[#]]]{{ +}}loop-extremes.c:[[#]]{{ +}}320{{ +}}?{{ +}}?{{ +}}{{[0-9.]+}}{{ +}}unknown (traffic){{ +}}{{[0-9.]+ [GT]}}FLOP/s
// JSON: [loop in rows at loop-extremes.c:[[#]]] unknown None
#include <pthread.h>
#include <stdio.h>
#include <string.h>

// Entered with m = 3, 10, 0, 7 on the main thread and 12 on another: five
// entries of the source loop, 32 iterations of the outer loop; m = 0 never
// reaches the compiled loop (its guard), so the fewest is 0, the most 12.
// CHECK: kernel rows
// CHECK-NEXT: loop +1 entries=5 iterations=32 {{.*}} per_entry=0..12
// SMALL: kernel rows
// SMALL-NEXT: loop +1 entries=2 iterations=3 {{.*}} per_entry=1..2
// MERGED: kernel rows
// MERGED-NEXT: loop +1 entries=7 iterations=35 {{.*}} per_entry=0..12
static void rows(double *a, long m, long n) {
  for (long i = 0; i < m; ++i)
    for (long j = 0; j < n; ++j)
      a[i * n + j] += 1.0;
}

// Lists of 4, 1, 6, 0 nodes on the main thread and 1 on the other: 12
// iterations in five entries, 0 to 6 each (no trip count: counted at the
// loop's exit).
// CHECK: kernel walk
// CHECK-NEXT: loop +2 entries=5 iterations=12 {{.*}} per_entry=0..6
// SMALL: kernel walk
// SMALL-NEXT: loop +2 entries=2 iterations=5 {{.*}} per_entry=2..3
// MERGED: kernel walk
// MERGED-NEXT: loop +2 entries=7 iterations=17 {{.*}} per_entry=0..6
struct node {
  double v;
  struct node *next;
};
static double walk(const struct node *p) {
  double s = 0;
  while (p) {
    s += p->v;
    p = p->next;
  }
  return s;
}

// REPORT: [loop in rows at loop-extremes.c:[[#]]] (roof:
// REPORT: traffic unknown: cpu-dram-only has no first level to place the counted bytes (5.12 kB) on
// REPORT: 5 entries, 32 iterations (0 to 12 per entry) of the loop as compiled

static double a[200];
static struct node pool[16];
static struct node *heads[4];

static void *other(void *unused) {
  (void)unused;
  rows(a, 12, 10);
  return (void *)(long)walk(heads[1]);
}

int main(int argc, char **argv) {
  int small = argc > 1 && strcmp(argv[1], "small") == 0;
  volatile long sizes[4] = {3, 10, 0, 7}, lengths[4] = {4, 1, 6, 0};
  if (small)
    sizes[0] = 2, sizes[1] = 1, lengths[0] = 3, lengths[1] = 2;
  int calls = small ? 2 : 4, used = 0;
  for (int k = 0; k < calls; ++k) {
    struct node *h = 0;
    for (long e = 0; e < lengths[k]; ++e) {
      pool[used].v = 1.0;
      pool[used].next = h;
      h = &pool[used++];
    }
    heads[k] = h;
  }
  double s = 0;
  for (int k = 0; k < calls; ++k) {
    rows(a, sizes[k], 10);
    s += walk(heads[k]);
  }
  if (!small) {
    pthread_t t;
    pthread_create(&t, 0, other, 0);
    pthread_join(t, 0);
  }
  printf("%g %g\n", s, a[5]);
  return 0;
}
