// A footprint known only between bounds decides nothing where its two ends
// give different verdicts (docs/report.md): a gather and scatter through
// idx, 50 dependent FMAs an element. idx is read exactly (4n B); x and y
// at data-dependent rows lie between 0 and their counted 4n B each.
// REQUIRES: cuda
// RUN: rm -rf %t && mkdir %t
// RUN: %cuda_device -O2 -g -c %s -o %t/b.o -mllvm -roofline-json=%t/
// RUN: %roofline_report %t --platform h100-sxm --assume n=1048576,threads=1048576 --format json > %t.r.json
// RUN: python3 -c "import json,sys; k=json.load(open(sys.argv[1]))['kernels'][0]; print(k['limiter'], k['flops']); print([n for n in k['notes'] if n.startswith('verdict')][0])" %t.r.json | FileCheck %s
//
// n = 2^20 elements, 100 FLOPs each: 104,857,600 FLOP. At the lower bound
// (4n = 4,194,304 B) the intensity is 25 FLOP/B, past h100-sxm's ridge of
// 20: compute binds; at the upper (12n = 12,582,912 B, every counted
// byte) 8.3 FLOP/B: DRAM binds. The verdict is not known, and says so.
// CHECK: unknown 104857600.0
// CHECK-NEXT: verdict not known: the footprint is a lower bound, so the traffic below the first level is between 4.19 MB (compute binds) and 12.6 MB at dram, its upper bound (dram binds); an exact footprint of the accesses named above decides

__global__ void scatter_poly(float *y, const float *x, const int *idx, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int j = idx[i];
  float v = x[j];
  for (int k = 0; k < 50; ++k)
    v = v * v + 0.5f;
  y[j] = v;
}
