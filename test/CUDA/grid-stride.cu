// Grid- and block-stride loops: the step is blockDim.x * gridDim.x (or
// blockDim.x), loop-invariant and at least 1, so the count is
// ceil((n - first)/step) per thread, a formula in the thread index.
// REQUIRES: cuda
// RUN: %cuda_device -O2 -g -S -emit-llvm %s -o - | %opt_roofline -passes='print<roofline>' -disable-output | FileCheck %s --check-prefixes=CHECK,O2
// RUN: %cuda_device -O0 -g -S -emit-llvm %s -o - | %opt_roofline -passes='print<roofline>' -disable-output | FileCheck %s --check-prefixes=CHECK,O0
// RUN: rm -rf %t && mkdir %t
// RUN: %cuda_device -O2 -g -c %s -o %t/g.o -mllvm -roofline-json=%t/
// RUN: %roofline_report %t --platform h100-sxm --assume n=1000,blockDim.x=128,gridDim.x=2,threads=256 | FileCheck %s --check-prefix=REPORT

// `i += blockDim.x * gridDim.x` adds an unsigned stride to an int: it may
// wrap, so the last step staying below 2^31 is stated. At -O2 the loop is
// guarded by `first < n`, which makes the count's own condition
// (n - first - 1 >= 0) hold for every thread that runs it: exact. -O0's
// loop tests at the top with no guard: threads with first >= n + stride
// would get a negative formula, so the per-thread count is an estimate
// there (its value, floor((n - first + stride - 1)/stride), is right for
// the threads that meet the condition, 0 at the boundary).
// Every element is visited once: over <<<2, 128>>> and n = 1000 the
// iterations sum to 1000, 1000 FLOPs and 8000 bytes (4 B in, 4 B out).
// CHECK-LABEL: kernel grid_stride(float*, int)
// CHECK-NEXT: flops: floor((-blockDim.x*blockIdx.x + {{(blockDim.x\*gridDim.x \+ )?}}n - threadIdx.x - 1)/(blockDim.x*gridDim.x)){{( \+ 1)?}} ([[E:exact|estimate]])
// O2-SAME: {{^}}
// O2: assumes: blockDim.x*gridDim.x + n - 1 <= 2147483647 (loop at grid-stride.cu:[[@LINE+4]])
// O2-NOT: varies with the thread index
// O0: note: loop at grid-stride.cu:[[@LINE+2]]: its trip count varies with the thread index
__global__ void grid_stride(float *a, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    a[i] += 1.0f;
}
// REPORT: grid_stride(float*, int) {{.*}} 1 k 8 kB {{.*}} exact

// A 64-bit counter stepping by blockDim.x: `i += blockDim.x` widens the
// step to long, C's signed rule makes it nsw, nothing to state.
// CHECK-LABEL: kernel block_stride(float*, long)
// O2-NEXT: flops: floor((n - threadIdx.x - 1)/blockDim.x) + 1 (exact)
// O2: assumes: n > threadIdx.x (guard at grid-stride.cu:[[@LINE+3]])
// O0-NEXT: flops: floor((n + blockDim.x - threadIdx.x - 1)/blockDim.x) (estimate)
__global__ void block_stride(float *a, long n) {
  for (long i = threadIdx.x; i < n; i += blockDim.x)
    a[i] *= 2.0f;
}
// Each of the 2 blocks walks the whole array: 2000 FLOPs, 16000 bytes
// counted; the footprint, the array once, is 8000 bytes (read and written
// 4n each): the DRAM traffic.
// REPORT: block_stride(float*, long) {{.*}} 2 k 8 kB {{.*}} exact
// REPORT: counts vary with the thread index: the mean over the launch's threads
