// Guards on the thread index that a per-thread count must not assume.
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
