// CUDA saxpy, device side at -O2: counts are per thread.
// REQUIRES: cuda
// RUN: %cuda_device -O2 -g -c %s -o /dev/null -Rpass-analysis=roofline 2>&1 | FileCheck %s

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
