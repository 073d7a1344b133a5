// Device-side instrumentation: per-thread counters in registers, one exit,
// a warp-level sum (redux.sync on sm_80+, butterfly shuffles on Turing),
// and one atomic per cost slot per warp (never an atomic in a counted
// block); ptxas assembles it for Turing, Ampere and Hopper (CUDA 13's ptxas
// has no sm_70: sm_75 is the oldest it takes).
// REQUIRES: cuda
// RUN: %cuda_device -O2 -g -mllvm -roofline-instrument -S -emit-llvm %s -o %t.ll
// RUN: FileCheck %s < %t.ll
// RUN: opt -passes=verify -disable-output %t.ll
// RUN: for a in sm_75 sm_80 sm_90; do clang++ %cuda_flags --cuda-device-only --cuda-gpu-arch=$a -fpass-plugin=%roofline_plugin -mllvm -roofline-instrument -O2 -g -c %s -o %t.$a.o || exit 1; done
// RUN: for o in -O0 -O1 -O3; do clang++ %cuda_flags --cuda-device-only --cuda-gpu-arch=sm_80 -fpass-plugin=%roofline_plugin -mllvm -roofline-instrument $o -g -c %s -o %t$o.o || exit 1; done
// RUN: %cuda_device -O2 -g -mllvm -roofline-instrument -S %s -o - | FileCheck %s --check-prefix=PTX
// RUN: clang++ %cuda_flags --cuda-device-only --cuda-gpu-arch=sm_75 -fpass-plugin=%roofline_plugin -mllvm -roofline-instrument -O2 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=SM75

// The buffer the host finds by name: [threads, 51 cost slots], and the
// meta string with the parameters, the static per-thread formulas, and the
// bytes each pointer parameter reads and writes per thread (x: 4 read; y: 4
// read, 4 written), for fusion analysis of traced runs; and the per-launch
// footprint the host evaluates from each launch's arguments (8n read, 4n
// written, exact).
// CHECK: @__roofline_counts__Z5saxpyifPKfPf = addrspace(1) externally_initialized global [84 x i64] zeroinitializer
// CHECK: @__roofline_meta__Z5saxpyifPKfPf = addrspace(1) constant {{.*}} c"version\091\0Aslots\0983\0Aparams\09n:i32\09a:f32\09x:ptr\09y:ptr\0Afile\09{{.*}}instrument-device.cu\0Aline\09[[#SAXPY:]]\0Aflops\092\0Aload\098\0Astore\094\0Aexact\091\0Apointer\092\094\090\0Apointer\093\094\094\0Afootprint\098*n\094*n\091\0A\00"
// CHECK: @__roofline_counts__Z6rowsumiiPKdPd = addrspace(1)
// CHECK: @__roofline_meta__Z6rowsumiiPKdPd = {{.*}}params\09rows:i32\09cols:i32\09a:ptr\09out:ptr{{.*}}flops\09cols\0Aload\098*cols\0Astore\098\0A

__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}
// CHECK-LABEL: define {{.*}}ptx_kernel void @_Z5saxpyifPKfPf(
// The block that passes the guard counts one, in a register (a phi at the
// join), not in memory.
// CHECK-NOT: atomicrmw
// CHECK-NOT: alloca
// CHECK: [[ONE:%.*]] = add i64 0, 1
// CHECK: [[COUNT:%.*]] = phi i64 [ [[ONE]], {{.*}} ], [ 0, {{.*}} ]
// sm_90: the active threads' sums by redux.sync, a 64-bit counter as
// three 27-bit chunks; the threads are the mask's population; the lowest
// active lane adds, 1 FMA (slot 17: fp32 fma), 8 B global load (slot 40),
// 4 B global store (41).
// CHECK: [[MASK:%.*]] = call i32 @llvm.nvvm.activemask()
// CHECK: [[LANE:%.*]] = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
// CHECK: and i64 [[COUNT]], 134217727
// CHECK: call i32 @llvm.nvvm.redux.sync.add(i32 {{.*}}, i32 [[MASK]])
// CHECK: lshr i64 [[COUNT]], 27
// CHECK: call i32 @llvm.nvvm.redux.sync.add(i32 {{.*}}, i32 [[MASK]])
// CHECK: lshr i64 [[COUNT]], 54
// CHECK: call i32 @llvm.nvvm.redux.sync.add(i32 {{.*}}, i32 [[MASK]])
// CHECK: [[WARP:%.*]] = add i64 {{.*}}, {{.*}}
// CHECK: [[POP:%.*]] = call {{.*}}i32 @llvm.ctpop.i32(i32 [[MASK]])
// CHECK: [[THREADS:%.*]] = zext {{.*}}i32 [[POP]] to i64
// CHECK: [[FIRST:%.*]] = call {{.*}}i32 @llvm.cttz.i32(i32 [[MASK]], i1 true)
// CHECK: icmp eq i32 [[LANE]], [[FIRST]]
// CHECK: atomicrmw add ptr addrspace(1) @__roofline_counts__Z5saxpyifPKfPf, i64 [[THREADS]] syncscope("device") monotonic
// CHECK: [[FMA:%.*]] = mul i64 [[WARP]], 1
// CHECK: [[LOAD:%.*]] = mul i64 [[WARP]], 8
// CHECK: [[STORE:%.*]] = mul i64 [[WARP]], 4
// The guarded block's 8 machine instructions (word 83, slot 82): the sext
// of i, two GEPs (NVPTX folds no index), two loads, the fmul, the fadd and
// the store; its branch to the join falls through. The entry's index
// arithmetic and test are outside any loop and do no work: not counted.
// CHECK: [[INST:%.*]] = mul i64 [[WARP]], 8
// CHECK: atomicrmw add {{.*}}i64 0, i64 17), i64 [[FMA]] syncscope("device") monotonic
// CHECK: atomicrmw add {{.*}}i64 0, i64 40), i64 [[LOAD]] syncscope("device") monotonic
// CHECK: atomicrmw add {{.*}}i64 0, i64 41), i64 [[STORE]] syncscope("device") monotonic
// CHECK: atomicrmw add {{.*}}i64 0, i64 83), i64 [[INST]] syncscope("device") monotonic
// CHECK-NOT: atomicrmw
// CHECK: ret void
// CHECK-NEXT: }

// A loop whose trip count is known on entry: its counter is added once,
// by the trip count, in the preheader; the early return joins the one exit.
__global__ void rowsum(int rows, int cols, const double *a, double *out) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  double s = 0;
  for (int c = 0; c < cols; ++c)
    s += a[size_t(r) * cols + c];
  out[r] = s;
}
// CHECK-LABEL: define {{.*}}ptx_kernel void @_Z6rowsumiiPKdPd(
// CHECK-NOT: atomicrmw
// CHECK: call i32 @llvm.nvvm.activemask()
// Threads, fp64 adds (slot 22), global loads and stores, their bytes a
// warp may share at the first level (8-byte loads and stores: 4 B each
// beyond the cycle's 4 a lane, slot 77), instructions.
// CHECK-COUNT-6: atomicrmw add
// CHECK-NOT: atomicrmw
// CHECK: ret void
// CHECK-NOT: ret void
// CHECK: }

// PTX: .visible .global .align 8 .b8 __roofline_counts__Z5saxpyifPKfPf[672];
// PTX: activemask.b32
// PTX: redux.sync.add
// PTX: atom.global.add.u64

// Turing (no redux.sync): a full warp sums with butterfly shuffles and its
// lane 0 adds 32 threads; a partial warp adds per thread.
// SM75-LABEL: define {{.*}}ptx_kernel void @_Z5saxpyifPKfPf(
// SM75: [[MASK:%.*]] = call i32 @llvm.nvvm.activemask()
// SM75: [[FULL:%.*]] = icmp eq i32 [[MASK]], -1
// SM75: br i1 [[FULL]], label %[[SUM:.*]], label %[[DONE:.*]]
// SM75: [[SUM]]:
// SM75-COUNT-2: call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 {{.*}}, i32 16, i32 31)
// SM75-COUNT-2: call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 {{.*}}, i32 8, i32 31)
// SM75-COUNT-2: call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 {{.*}}, i32 4, i32 31)
// SM75-COUNT-2: call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 {{.*}}, i32 2, i32 31)
// SM75-COUNT-2: call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 {{.*}}, i32 1, i32 31)
// SM75: [[DONE]]:
// SM75: select i1 [[FULL]], i64 32, i64 1
// SM75: atomicrmw add ptr addrspace(1) @__roofline_counts__Z5saxpyifPKfPf
// SM75-NOT: redux

// At -O0 nothing inlines: the device function a kernel calls is inlined
// into it by the instrumentation, so its multiply (fp32 mul: slot 15, word
// 16) is counted in the kernel's registers; the kernel keeps no call.
// RUN: clang++ %cuda_flags --cuda-device-only --cuda-gpu-arch=sm_90 -fpass-plugin=%roofline_plugin -mllvm -roofline-instrument -O0 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=O0
__device__ float scaled(float a, float x) { return a * x; }
__global__ void scale(float a, float *x) { x[threadIdx.x] = scaled(a, x[threadIdx.x]); }
// O0-LABEL: define {{.*}}ptx_kernel void @_Z5scalefPf(
// O0-NOT: call {{.*}}@_Z6scaledff
// O0: atomicrmw add ptr addrspace(1) getelementptr inbounds ([84 x i64], ptr addrspace(1) @__roofline_counts__Z5scalefPf, i64 0, i64 16)
// O0: ret void
