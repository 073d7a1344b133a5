// Guards and loops on the thread index that a per-thread count must not
// assume, and the -O0 early return that is a guard like any other.
// REQUIRES: cuda
// RUN: %cuda_device -O2 -g -S -emit-llvm %s -o - | %opt_roofline -passes='print<roofline>' -disable-output | FileCheck %s
// RUN: %cuda_device -O0 -g -S -emit-llvm %s -o - | %opt_roofline -passes='print<roofline>' -disable-output | FileCheck %s
// RUN: rm -rf %t && mkdir %t
// RUN: %cuda_device -O2 -g -c %s -o %t/g.o -mllvm -roofline-json=%t/
// RUN: %roofline_report %t --platform h100-sxm --assume blockDim.x=16,blockDim.y=16,threads=256 | FileCheck %s --check-prefix=REPORT16
// RUN: %roofline_report %t --platform h100-sxm --assume blockDim.x=32,blockDim.y=32,threads=1024 | FileCheck %s --check-prefix=REPORT32
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

// The start depends on the thread: y0 = 2*ty + tx/8 and the trip is
// ceil((128 - y0)/32), a formula in the thread index, never one exact
// per-thread number (it was "1 (exact)" at -O2, 0 at -O0). -O2's SCEV
// gives floor((127 - y0)/32) + 1, -O0's floor((159 - y0)/32): equal for
// y0 < 128. A 16x16 block has y0 in 0..31, 4 iterations each: 1024 FLOPs
// for its 256 threads. A 32x32 block has y0 = 2ty + q (q = tx/8 in 0..3):
// 3552 iterations over its 1024 threads (FormulaTest derives it).
// CHECK-LABEL: kernel thread_start(float*)
// CHECK-NEXT: flops: floor((-floor(threadIdx.x/8) - 2*threadIdx.y + {{127\)/32\) \+ 1|159\)/32\)}} (estimate)
// CHECK: note: loop at guards.cu:[[@LINE+4]]: its trip count varies with the thread index
// REPORT16: thread_start(float*) {{.*}} 1.02 k {{.*}} estimate
// REPORT32: thread_start(float*) {{.*}} 3.55 k {{.*}} estimate
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

// At -O2 the index guard and the lane test merge into one branch,
// `threadIdx.x == 0 && i < n`: a part of it singles out one thread of the
// block, so it is not assumed (that charged lane 0's add to every thread).
// Found by scripts/difftest_cuda.py (seed 0, k6).
// CHECK-LABEL: kernel merged_guard(float*, int)
// CHECK-NEXT: flops: {{.*}} (estimate)
// CHECK-NOT: assumes: threadIdx.x == 0
// CHECK: note: branch at {{.*}} singles out threads (an equality on the thread index)
__global__ void merged_guard(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (threadIdx.x == 0)
    a[blockIdx.x] += 1.0f;
}
