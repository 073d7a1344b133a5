// Matrix cores (MFMA) count as matrix FLOPs of their source precision. A
// wavefront (64 lanes on CDNA) multiplies `blocks` M x K by K x N matrices;
// the blocks are what the lanes' A operands cover, 64 x (A elements a
// lane) / (M*K), and each block is 2*M*N*K FLOPs, shared by the
// wavefront's 64 threads (the per-thread count, as CUDA's MMA is /32).
// Other amdgcn intrinsics (ids, barriers) cost nothing. Instrumented, each
// thread adds its share to the tensor slot of the precision (INST).
// REQUIRES: hip
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hip_device --offload-arch=gfx90a -O2 -g %s -mllvm -roofline-json=%t/
// RUN: %hip_device --offload-arch=gfx90a -O2 %s -emit-llvm -o - | %opt_roofline -passes=roofline-instrument -S -o - 2>&1 | FileCheck %s --check-prefix=INST
// RUN: FileCheck %s --input-file=%t/mfma.hip.amdgcn-amd-amdhsa-gfx90a.roofline.json
#include <hip/hip_runtime.h>

typedef float float4_t __attribute__((ext_vector_type(4)));
typedef float float16_t __attribute__((ext_vector_type(16)));
typedef float float32_t __attribute__((ext_vector_type(32)));
typedef _Float16 half4_t __attribute__((ext_vector_type(4)));

// INST-NOT: remark
// mfma_f32: each iteration's 32 fp32 matrix FLOPs a thread (slot 21).
// INST-LABEL: define {{.*}} @_Z8mfma_f32PKfS0_PDv4_fi(
// INST: [[F32:%.*]] = mul i64 {{%.*}}, 32
// INST: atomicrmw add ptr addrspace(1) getelementptr inbounds ([84 x i64], ptr addrspace(1) @__roofline_counts__Z8mfma_f32PKfS0_PDv4_fi, i64 0, i64 21), i64 [[F32]] syncscope("agent")
// mfma_f16: 256 fp16 matrix FLOPs a thread (slot 7).
// INST-LABEL: define {{.*}} @_Z8mfma_f16PKDv4_DF16_S1_PDv16_f(
// INST: [[F16:%.*]] = mul i64 {{%.*}}, 256
// INST: atomicrmw add ptr addrspace(1) getelementptr inbounds ([84 x i64], ptr addrspace(1) @__roofline_counts__Z8mfma_f16PKDv4_DF16_S1_PDv16_f, i64 0, i64 7), i64 [[F16]] syncscope("agent")

// 16x16x4 f32, one f32 of A a lane: 64 x 1 / (16 x 4) = 1 block,
// 2 x 16 x 16 x 4 = 2048 FLOPs a wavefront, 32 a thread, k times.
// CHECK: "display_name": "mfma_f32(float const*, float const*, float vector[4]*, int)"
// CHECK: "classes": {
// CHECK-NEXT: "fp32": {
// CHECK-NEXT: "tensor": "32*k"
__global__ void mfma_f32(const float *a, const float *b, float4_t *c, int k) {
  float4_t acc = {0, 0, 0, 0};
  for (int i = 0; i < k; ++i)
    acc = __builtin_amdgcn_mfma_f32_16x16x4f32(a[i * 64 + threadIdx.x],
                                               b[i * 64 + threadIdx.x], acc,
                                               0, 0, 0);
  c[threadIdx.x] = acc;
}

// 32x32x8 f16, four halves of A a lane: 64 x 4 / (32 x 8) = 1 block,
// 2 x 32 x 32 x 8 = 16384 FLOPs a wavefront, 256 a thread.
// CHECK: "display_name": "mfma_f16(
// CHECK: "classes": {
// CHECK-NEXT: "fp16": {
// CHECK-NEXT: "tensor": "256"
__global__ void mfma_f16(const half4_t *a, const half4_t *b, float16_t *c) {
  c[threadIdx.x] = __builtin_amdgcn_mfma_f32_32x32x8f16(
      a[threadIdx.x], b[threadIdx.x], c[threadIdx.x], 0, 0, 0);
}

// 32x32x1 f32 is the ISA's 2-block form: 64 x 1 / (32 x 1) = 2 blocks,
// 2 x 32 x 32 x 1 x 2 = 4096 FLOPs a wavefront, 64 a thread.
// CHECK: "display_name": "mfma_2blocks(
// CHECK: "classes": {
// CHECK-NEXT: "fp32": {
// CHECK-NEXT: "tensor": "64"
__global__ void mfma_2blocks(const float *a, const float *b, float32_t *c) {
  c[threadIdx.x] = __builtin_amdgcn_mfma_f32_32x32x1f32(
      a[threadIdx.x], b[threadIdx.x], c[threadIdx.x], 0, 0, 0);
}
// CHECK-NOT: "unknown": [{
