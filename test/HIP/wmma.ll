; RDNA's matrix instructions (WMMA) and wave32: a wavefront of 32 lanes on
; gfx1100 multiplies one 16x16x16 block, 2 x 16 x 16 x 16 = 8192 FLOPs,
; 256 a thread, whatever the A operand a lane holds (16 halves: the 16x16
; A twice over the wave's halves). The same shape as an MFMA on CDNA
; (gfx90a, wave64) is 8192/64 = 128 a thread (one block: 64 lanes x 4
; halves = the 16x16 A once).
; RUN: %opt_roofline -passes='print<roofline>' -disable-output %s | FileCheck %s
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

; CHECK-LABEL: kernel wmma_f16 [hip-kernel, per thread]
; CHECK-NEXT: flops: 256 (exact)
define amdgpu_kernel void @wmma_f16(ptr addrspace(1) %a, ptr addrspace(1) %c) #0 {
  %A = load <16 x half>, ptr addrspace(1) %a
  %C = load <8 x float>, ptr addrspace(1) %c
  %D = call <8 x float> @llvm.amdgcn.wmma.f32.16x16x16.f16.v8f32.v16f16(<16 x half> %A, <16 x half> %A, <8 x float> %C)
  store <8 x float> %D, ptr addrspace(1) %c
  ret void
}

; CHECK-LABEL: kernel mfma_wave64 [hip-kernel, per thread]
; CHECK-NEXT: flops: 128 (exact)
define amdgpu_kernel void @mfma_wave64(ptr addrspace(1) %a, ptr addrspace(1) %c) #1 {
  %A = load <4 x half>, ptr addrspace(1) %a
  %C = load <4 x float>, ptr addrspace(1) %c
  %D = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x16f16(<4 x half> %A, <4 x half> %A, <4 x float> %C, i32 0, i32 0, i32 0)
  store <4 x float> %D, ptr addrspace(1) %c
  ret void
}

declare <8 x float> @llvm.amdgcn.wmma.f32.16x16x16.f16.v8f32.v16f16(<16 x half>, <16 x half>, <8 x float>)
declare <4 x float> @llvm.amdgcn.mfma.f32.16x16x16f16(<4 x half>, <4 x half>, <4 x float>, i32, i32, i32)

attributes #0 = { "target-cpu"="gfx1100" }
attributes #1 = { "target-cpu"="gfx90a" }
