// A thread index computed in a __device__ helper: at -O0 nothing inlines
// the helper, so the analysis inlines it into its copy of the kernel (as
// -O2 would have); the guard is then the thread-index guard, and the counts
// are exact and the same at -O0 and -O2. (Before, -O0 saw a call, took the
// guard for a data-dependent branch, and halved the guarded work.)
// REQUIRES: cuda
// RUN: %cuda_device -O0 -g -c %s -o /dev/null -Rpass-analysis=roofline 2>&1 | FileCheck %s --check-prefixes=CHECK,O0
// RUN: %cuda_device -O2 -g -c %s -o /dev/null -Rpass-analysis=roofline 2>&1 | FileCheck %s --check-prefixes=CHECK,O2
// The user's module is not changed by the analysis: the -O0 device code
// still calls the helper.
// RUN: %cuda_device -O0 -g -S -emit-llvm %s -o - | FileCheck %s --check-prefix=UNCHANGED

__device__ int globalIndex() { return blockIdx.x * blockDim.x + threadIdx.x; }

// One multiply per thread that passes i < n; x[i] loaded and stored (4 B
// each).
// CHECK: device-helper.cu:[[@LINE+1]]:1: remark: scale(int, float, float*): 1 FLOP fp32 (exact), load 4 B, store 4 B, I = 0.125 FLOP/B, per thread; footprint per launch: read 4*n B, written 4*n B (exact if gridDim.x*blockDim.x >= n); assumes counts are per thread that passes the kernel's index guards; blockDim.x*blockIdx.x + threadIdx.x < n && {{.*}} (guard at device-helper.cu:[[@LINE+3]])
__global__ void scale(int n, float a, float *x) {
  int i = globalIndex();
  if (i < n)
    x[i] = a * x[i];
}
// A compound guard is stated as one: at -O2 the two comparisons are one
// branch on their conjunction (at -O0, two branches, two guards).
// O2: device-helper.cu:[[@LINE+2]]:1: remark: tile(int, float*): 0 FLOP (exact), load 0 B, store 4 B, {{.*}}; blockDim.y*blockIdx.y + threadIdx.y < M && blockDim.x*blockIdx.x + threadIdx.x < M && {{.*}} (guard at device-helper.cu:[[@LINE+5]])
// O0: device-helper.cu:[[@LINE+1]]:1: remark: tile(int, float*): 0 FLOP (exact), load 0 B, store 4 B, {{.*}}; blockDim.y*blockIdx.y + threadIdx.y < M (guard at device-helper.cu:[[@LINE+4]]); blockDim.x*blockIdx.x + threadIdx.x < M && {{.*}} (guard at device-helper.cu:[[@LINE+4]])
__global__ void tile(int M, float *out) {
  int ox = blockIdx.x * blockDim.x + threadIdx.x;
  int oy = blockIdx.y * blockDim.y + threadIdx.y;
  if (oy < M && ox < M)
    out[oy * M + ox] = 1.0f;
}
// UNCHANGED: define {{.*}}ptx_kernel void @_Z5scaleifPf(
// UNCHANGED: call {{.*}}@_Z11globalIndexv()
