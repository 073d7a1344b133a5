// A trip count that is a quotient of two parameters (heads per KV group,
// H / Hkv) is floor(H/Hkv): a term the report evaluates from H and Hkv,
// with the assumptions C's division needs (H >= 0, Hkv > 0).
// RUN: rm -f %t.json
// RUN: %clangxx_roofline -O2 -g -c %s -o /dev/null -Rpass-analysis=roofline -mllvm -roofline-json=%t.json 2>&1 | FileCheck %s
// RUN: %roofline_report %t.json --platform %S/../Inputs/cpu-dram-only.json --assume H=32,Hkv=8,n=1000 --format json | FileCheck %s --check-prefix=EVAL
// Per group, n adds, n loads and n stores of 4 B: n*floor(H/Hkv) FLOPs.
// CHECK: quotient-trip.cpp:[[@LINE+2]]:1: remark: groups(int, int, int, float*): n*floor(H/Hkv) FLOP fp32 (exact), load 4*n*floor(H/Hkv) B, store 4*n*floor(H/Hkv) B
// CHECK-SAME: assumes floor(H/Hkv) > 0 && H >= 0 && Hkv >= 1 (guard at quotient-trip.cpp:[[@LINE+3]]); n > 0 (guard at quotient-trip.cpp:[[@LINE+4]])
void groups(int H, int Hkv, int n, float *x) {
  int G = H / Hkv;
  for (int g = 0; g < G; ++g)
    for (int i = 0; i < n; ++i)
      x[i] += 1.0f;
}
// floor(32/8) = 4 groups of 1000: 4000 FLOPs, 8 B each: 32000 B counted;
// every group reads and writes the same x[0..n): its footprint is 8n =
// 8000 B, the DRAM traffic on test/Inputs/cpu-dram-only.json (the
// intel-xeon-8480 datasheet without its cache levels, which would hold it).
// EVAL: "bytes": 8000.0,
// EVAL: "counted_bytes": 32000.0,
// EVAL: "flops": 4000.0,
