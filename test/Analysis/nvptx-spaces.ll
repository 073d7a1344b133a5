; NVPTX state spaces are kept apart; generic pointers are resolved through
; their underlying object (a __shared__ array, a kernel pointer parameter, a
; local array). Only global + generic count against the DRAM roof.
; RUN: %opt_roofline -passes='print<roofline>' -disable-output %s | FileCheck %s
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [64 x float] undef
@coef = internal addrspace(4) global [4 x float] zeroinitializer

; CHECK-LABEL: kernel spaces(float*, float*) [cuda-kernel, per thread]
; global (kernel parameter %in, through a generic pointer): load 4, store 4
; shared (addrspace 3 directly, and through an addrspacecast): load 4, store 4
; constant: load 4 (a float) + 8 (a pointer); local (alloca): store 4;
; generic (through the pointer loaded from memory, unknown object): load 4
; DRAM-roof bytes: global + generic = load 8, store 4
; CHECK: bytes: load 8, store 4
; CHECK-NEXT: global: load 4, store 4
; CHECK-NEXT: shared: load 4, store 4
; CHECK-NEXT: local: load 0, store 4
; CHECK-NEXT: constant: load 12, store 0
; CHECK-NEXT: generic: load 4, store 0
define ptx_kernel void @_Z6spacesPfS_(ptr %in, ptr %out) {
  %a = alloca float, addrspace(5)
  %v = load float, ptr %in
  store float %v, ptr addrspace(3) @tile
  %g = addrspacecast ptr addrspace(3) @tile to ptr
  %w = load float, ptr %g
  %c = load float, ptr addrspace(4) @coef
  store float %c, ptr addrspace(5) %a
  %pp = load ptr, ptr addrspace(4) @coef
  %x = load float, ptr %pp
  store float %w, ptr %out
  ret void
}

; CHECK-LABEL: kernel intrinsics [
; fma.rn.f = 1 FMA, sqrt.rn.f = 1 sqrt, div.approx.f = 1 div,
; ex2.approx.f32 / sin.approx.f = 2 special, fmax/saturate = 0.
; FLOPs = 2 + 1 + 1 = 4.
; CHECK-NEXT: flops: 4 (exact)
; CHECK: fp32 ops: fma 1; div 1; sqrt 1; special 2;
define ptx_kernel void @intrinsics() {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %f = sitofp i32 %t to float
  %1 = call float @llvm.nvvm.fma.rn.f(float %f, float %f, float %f)
  %2 = call float @llvm.nvvm.sqrt.rn.f(float %1)
  %3 = call float @llvm.nvvm.div.approx.f(float %2, float %f)
  %4 = call float @llvm.nvvm.ex2.approx.f32(float %3)
  %5 = call float @llvm.nvvm.sin.approx.f(float %4)
  %6 = call float @llvm.nvvm.fmax.f(float %5, float %f)
  %7 = call float @llvm.nvvm.saturate.f(float %6)
  ret void
}

; CHECK-LABEL: kernel asm [
; __hfma2 and __hadd2 as cuda_fp16.hpp writes them: 2 + 2 half lanes,
; FMA 2*2 + add 2 = 6 FLOPs. The unrecognised PTX is named, not zero, and
; makes the count an estimate.
; CHECK-NEXT: flops: 6 (estimate)
; CHECK: fp16 ops: add 2; fma 2;
; CHECK: unknown: asm:tex.2d.v4.f32.f32 x 1
define ptx_kernel void @asm() {
  %1 = call i32 asm "{ fma.rn.f16x2 $0,$1,$2,$3;\0A}\0A", "=r,r,r,r"(i32 1, i32 2, i32 3)
  %2 = call i32 asm "{ add.f16x2 $0,$1,$2;\0A}\0A", "=r,r,r"(i32 %1, i32 2)
  %3 = call i32 asm "tex.2d.v4.f32.f32 {$0,$0,$0,$0}, [$1, {$2,$2}];", "=r,l,r"(i64 0, i32 0)
  ret void
}

; CHECK-LABEL: kernel device_function_is_not_a_kernel
; CHECK-NOT: kernel helper
define float @helper(float %x) {
  %r = fmul float %x, %x
  ret float %r
}
define ptx_kernel void @device_function_is_not_a_kernel() {
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare float @llvm.nvvm.fma.rn.f(float, float, float)
declare float @llvm.nvvm.sqrt.rn.f(float)
declare float @llvm.nvvm.div.approx.f(float, float)
declare float @llvm.nvvm.ex2.approx.f32(float)
declare float @llvm.nvvm.sin.approx.f(float)
declare float @llvm.nvvm.fmax.f(float, float)
declare float @llvm.nvvm.saturate.f(float)
