// Guards and loops on the thread index that a per-thread count must not
// assume, and the -O0 early return that is a guard like any other.
// REQUIRES: cuda
// RUN: %cuda_device -O2 -g -S -emit-llvm %s -o - | %opt_roofline -passes='print<roofline>' -disable-output | FileCheck %s
// RUN: %cuda_device -O0 -g -S -emit-llvm %s -o - | %opt_roofline -passes='print<roofline>' -disable-output | FileCheck %s
#include <assert.h>

// assert(blockDim.x == 32): the failing side never returns; the count
// assumes the assertion (not its negation) and never counts __assertfail.
// Per thread: one fadd of a[i] and a load and store of 4 B.
// CHECK-LABEL: kernel checked(float*)
// CHECK-NEXT: flops: 1 (exact)
// CHECK: assumes: blockDim.x == 32 (guard at guards.cu:[[@LINE+3]])
// CHECK-NOT: __assertfail
__global__ void checked(float *a) {
  assert(blockDim.x == 32);
  a[threadIdx.x] += 1.0f;
}

// Lane 0 of each block stores: 1 thread in blockDim.x, not every thread.
// CHECK-LABEL: kernel first_lane(float*, float)
// CHECK-NEXT: flops: {{.*}} (estimate)
// CHECK-NOT: assumes: threadIdx.x == 0
__global__ void first_lane(float *a, float x) {
  if (threadIdx.x == 0)
    a[blockIdx.x] = x * 2.0f;
}

// The start depends on the thread: a 16x16 block's threads run 4 iterations
// each on average, from 1 to 4 (y0 = 2*ty + tx/8 in 0..31, y0 + 32k < 128):
// no per-thread count is exact (it was "1 (exact)" at -O2, 0 at -O0).
// CHECK-LABEL: kernel thread_start(float*)
// CHECK-NEXT: flops: {{.*}} (estimate)
// CHECK: note: loop at guards.cu:[[@LINE+2]]: its trip count varies with the thread index
__global__ void thread_start(float *o) {
  for (int y = 2 * threadIdx.y + threadIdx.x / 8; y < 128; y += 32)
    o[y] += 1.0f;
}

// `if (i >= n) return;`: at -O0 the return goes through an empty block;
// still a guard (it was read as a data-dependent branch, halving counts).
// CHECK-LABEL: kernel early(float*, int)
// CHECK-NEXT: flops: 1 (exact)
// CHECK: assumes: blockDim.x*blockIdx.x + threadIdx.x < n && {{.*}}(guard at guards.cu:[[@LINE+3]])
__global__ void early(float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  o[i] = o[i] * 2.0f;
}
