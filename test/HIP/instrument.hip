// HIP device code instrumented as CUDA's is: per-thread counters in
// registers, one exit, the kernel's buffer __roofline_counts_<kernel> and
// meta string __roofline_meta_<kernel> (the same layout as CUDA's, found by
// name by the host). A full wavefront sums its threads' counts with
// ds_bpermute and its first lane adds them with device-scope ("agent")
// atomics; in a partial wavefront each thread adds its own, and the AMDGPU
// back end's atomic optimizer makes those one atomic per wavefront.
// Assembled for gfx90a (MI200) at -O0 to -O3, and for gfx1030 (wave32).
// REQUIRES: hip
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hip_device --offload-arch=gfx90a -O2 -g -mllvm -roofline-instrument -emit-llvm %s -o %t/k.ll
// RUN: FileCheck %s < %t/k.ll
// RUN: opt -passes=verify -disable-output %t/k.ll
// RUN: clang++ %hip_flags --cuda-device-only --offload-arch=gfx90a -fpass-plugin=%roofline_plugin -mllvm -roofline-instrument -O2 -S %s -o %t/k.s
// RUN: FileCheck %s --check-prefix=ISA < %t/k.s
// The host half: launches go to the HIP shim, and the module's constructor
// tells the shim of each kernel it registers (test/Runtime/hip-shim.cpp
// runs the shim).
// RUN: clang++ %hip_flags --cuda-host-only --offload-arch=gfx90a -fpass-plugin=%roofline_plugin -mllvm -roofline-instrument -O2 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=HOST
// RUN: clang++ -x hip --rocm-path=/usr --rocm-device-lib-path=/usr/lib/x86_64-linux-gnu/amdgcn/bitcode -mcode-object-version=4 -D__AMDGCN_WAVEFRONT_SIZE=32 -Wno-unused-value --cuda-device-only --offload-arch=gfx1030 -fpass-plugin=%roofline_plugin -mllvm -roofline-instrument -O2 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=WAVE32
// WAVE32-LABEL: define {{.*}} @_Z5saxpyifPKfPf(
// WAVE32: [[BALLOT:%.*]] = call i32 @llvm.amdgcn.ballot.i32(i1 true)
// WAVE32: [[LANE:%.*]] = call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)
// WAVE32-NOT: mbcnt.hi
// WAVE32: xor i32 [[LANE]], 16
// WAVE32: select i1 {{%.*}}, i64 32, i64 1
// RUN: for o in -O0 -O1 -O3; do clang++ %hip_flags --cuda-device-only --offload-arch=gfx90a -fpass-plugin=%roofline_plugin -mllvm -roofline-instrument $o -g -S %s -o %t/k$o.s || exit 1; done
#include <hip/hip_runtime.h>

// saxpy: the buffer ([threads, 83 slots]) and the meta string with the
// parameters, the static per-thread formulas (2 FLOPs, 8 B loaded, 4 B
// stored), the bytes each pointer parameter moves per thread and the
// per-launch footprint (8n read, 4n written, exact).
// CHECK: @__roofline_counts__Z5saxpyifPKfPf = protected addrspace(1) externally_initialized global [84 x i64] zeroinitializer
// CHECK: @__roofline_meta__Z5saxpyifPKfPf = protected addrspace(1) constant {{.*}} c"version\091\0Adevice\09hip\0Aslots\0983\0Aparams\09n:i32\09a:f32\09x:ptr\09y:ptr\0Afile\09{{.*}}instrument.hip\0Aline\09[[#]]\0Aflops\092\0Aload\098\0Astore\094\0Aexact\091\0Apointer\092\094\090\0Apointer\093\094\094\0Afootprint\098*n\094*n\091\0A\00"
// The meta string's address and bytes, for the host (HipLaunch.cpp); all
// three visible as HIP's __device__ variables are.
// CHECK: @__roofline_metaref__Z5saxpyifPKfPf = protected addrspace(1) constant { ptr addrspace(1), i64 } { ptr addrspace(1) @__roofline_meta__Z5saxpyifPKfPf, i64 [[#]] }
// CHECK: @__roofline_counts__Z5scaleifPf = protected addrspace(1)
// CHECK: @__roofline_meta__Z5scaleifPf = {{.*}}flops\09floor((-blockDim.x*blockIdx.x + n - threadIdx.x - 1)/(blockDim.x*gridDim.x)) + 1\0A
__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}
// CHECK-LABEL: define {{.*}}amdgpu_kernel void @_Z5saxpyifPKfPf(
// The guarded block counts one in a register; no atomic before the exit.
// CHECK-NOT: atomicrmw
// CHECK: [[COUNT:%.*]] = phi i64
// A full wavefront (every lane in the ballot) sums with ds_bpermute, lane
// ^ 32, ^ 16, ..., ^ 1, as two 32-bit halves; its lane 0 adds 64 threads
// and the sums. In a partial one every thread adds 1 and its own count.
// CHECK: [[BALLOT:%.*]] = call i64 @llvm.amdgcn.ballot.i64(i1 true)
// CHECK: [[FULL:%.*]] = icmp eq i64 [[BALLOT]], -1
// CHECK: [[LO:%.*]] = call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)
// CHECK: [[LANE:%.*]] = call i32 @llvm.amdgcn.mbcnt.hi(i32 -1, i32 [[LO]])
// CHECK: br i1 [[FULL]]
// CHECK: xor i32 [[LANE]], 32
// CHECK: call i32 @llvm.amdgcn.ds.bpermute(
// CHECK: xor i32 [[LANE]], 1{{$}}
// CHECK: call i32 @llvm.amdgcn.ds.bpermute(
// CHECK: [[WAVE:%.*]] = add i64
// CHECK: [[SUM:%.*]] = phi i64 [ [[WAVE]], {{.*}} ], [ [[COUNT]], {{.*}} ]
// CHECK: [[THREADS:%.*]] = select i1 [[FULL]], i64 64, i64 1
// CHECK: icmp eq i32 [[LANE]], 0
// One count times each slot's cost: 1 fp32 FMA (slot 17), 8 B global load
// (word 40), 4 B global store (41).
// CHECK: atomicrmw add ptr addrspace(1) @__roofline_counts__Z5saxpyifPKfPf, i64 [[THREADS]] syncscope("agent") monotonic
// CHECK: [[FMA:%.*]] = mul i64 [[SUM]], 1
// CHECK: [[LOAD:%.*]] = mul i64 [[SUM]], 8
// CHECK: [[STORE:%.*]] = mul i64 [[SUM]], 4
// CHECK: atomicrmw add ptr addrspace(1) getelementptr inbounds ([84 x i64], ptr addrspace(1) @__roofline_counts__Z5saxpyifPKfPf, i64 0, i64 17), i64 [[FMA]] syncscope("agent") monotonic
// CHECK: atomicrmw add ptr addrspace(1) getelementptr inbounds ([84 x i64], ptr addrspace(1) @__roofline_counts__Z5saxpyifPKfPf, i64 0, i64 40), i64 [[LOAD]] syncscope("agent") monotonic
// CHECK: atomicrmw add ptr addrspace(1) getelementptr inbounds ([84 x i64], ptr addrspace(1) @__roofline_counts__Z5saxpyifPKfPf, i64 0, i64 41), i64 [[STORE]] syncscope("agent") monotonic
// CHECK: ret void

// A grid-stride loop: its iterations are counted in a register too.
__global__ void scale(int n, float a, float *y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] *= a;
}
// CHECK-LABEL: define {{.*}}amdgpu_kernel void @_Z5scaleifPf(
// CHECK-NOT: atomicrmw
// CHECK: atomicrmw add ptr addrspace(1) @__roofline_counts__Z5scaleifPf, i64 {{%.*}} syncscope("agent") monotonic

// The machine code: the full wavefront's butterfly (ds_bpermute_b32), the
// first lane's atomics; a partial wavefront's atomics, which the back end's
// atomic optimizer makes one per wavefront (the population count of the
// exec mask for the threads, a loop over the active lanes for a slot).
// ISA-LABEL: _Z5saxpyifPKfPf:
// ISA: v_mbcnt_hi_u32_b32
// ISA: ds_bpermute_b32
// ISA: global_atomic_add_x2
// ISA: s_bcnt1_i32_b64
// ISA: s_ff1_i32_b64
// ISA: v_readlane_b32
// ISA: s_endpgm

// HOST-LABEL: define {{.*}} @main(
// HOST: call {{.*}}i32 @__roofline_hipLaunchKernel(ptr {{.*}}@_Z5saxpyifPKfPf,
// HOST-LABEL: define internal void @__hip_module_ctor(
// HOST: call i32 @__hipRegisterFunction(ptr [[M:%[0-9a-z]+]], ptr nonnull @_Z5saxpyifPKfPf, ptr nonnull [[NAME:@[0-9]+]], ptr nonnull [[NAME]],
// HOST-NEXT: call void @__roofline_hip_register_kernel(ptr [[M]], ptr @_Z5saxpyifPKfPf, ptr [[NAME]])
int main() {
  float *x = nullptr, *y = nullptr;
  saxpy<<<16, 256>>>(4096, 2.0f, x, y);
  hipLaunchKernelGGL(scale, dim3(16), dim3(256), 0, 0, 4096, 2.0f, y);
  return int(hipDeviceSynchronize());
}
