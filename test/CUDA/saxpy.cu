// CUDA saxpy, device side at -O2: counts are per thread.
// REQUIRES: cuda
// RUN: %cuda_device -O2 -g -c %s -o /dev/null -Rpass-analysis=roofline 2>&1 | FileCheck %s
//
// The report of its summary: per thread, a launch's DRAM traffic is not
// known (the footprint is per launch), so the kernel is not judged
// compute-bound on 0 DRAM bytes: its intensity and bound are unknown (its
// attainable is that of the counted 12 B a thread at h100-sxm's first
// level, shared, 33.45 TB/s: 2/12 x 33.45 = 5.58 TFLOP/s). With
// --assume threads=N and n = N: 2N FLOPs over the footprint's 12N B,
// I = 0.167 < h100-sxm's ridge, memory-bound at DRAM.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cuda_device -O2 -g -c %s -o /dev/null -mllvm -roofline-json=%t/
// RUN: %roofline_report %t/*.json --platform h100-sxm | FileCheck %s --check-prefix=THREAD
// THREAD: saxpy(int, float, float const*, float*) {{.*}} ? {{.*}} unknown (traffic)
// THREAD: 5.58 TFLOP/s
// THREAD: traffic unknown: no footprint or cache model bounds the traffic below the first level of h100-sxm; the attainable is that of the compute roof and the first level's 12 B, and whether the nest is memory-bound is not known (--assume threads=N places it)
// RUN: %roofline_report %t/*.json --platform h100-sxm --assume threads=1048576,n=1048576 | FileCheck %s --check-prefix=LAUNCH
// LAUNCH: saxpy(int, float, float const*, float*) {{.*}} 2.1 M 12.6 MB {{.*}}0.167 {{.*}} memory (dram)

// The thread that passes `i < n` does one contracted a*x+y (1 FMA =
// 2 FLOPs), loads x[i] and y[i] from global memory (8 B) and stores y[i]
// (4 B). I = 2/12. Over a launch the guard leaves n threads (the grid
// covers n), each with its own x[i] and y[i]: the footprint is 8n read, 4n
// written, whatever the block size.
// CHECK: saxpy.cu:[[@LINE+1]]:1: remark: saxpy(int, float, float const*, float*): 2 FLOP fp32 (exact), load 8 B, store 4 B, I = 0.1667 FLOP/B, per thread; footprint per launch: read 8*n B, written 4*n B (exact if gridDim.x*blockDim.x >= n); assumes counts are per thread that passes the kernel's index guards; blockDim.x*blockIdx.x + threadIdx.x < n && {{.*}} (guard at saxpy.cu:[[@LINE+3]])
__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}
