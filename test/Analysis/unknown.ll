; What the cost model does not understand is counted by name and makes the
; kernel inexact; it never asserts or stops the compile.
; RUN: %opt_roofline -passes='print<roofline>' -roofline-all-functions -disable-output %s | FileCheck %s
target triple = "x86_64-unknown-linux-gnu"

; CHECK-LABEL: kernel calls
; CHECK-NEXT: flops: 1 (estimate)
; CHECK: unknown: asm:vfmadd231ps x 1
; CHECK-NEXT: unknown: call:<indirect> x 1
; CHECK-NEXT: unknown: call:external_blas x 1
; CHECK-NEXT: unknown: intrinsic:llvm.x86.sse.rcp.ps x 1
; CHECK: note: some operations are not understood by the cost model (see 'unknown')
define float @calls(float %a, ptr %fp, <4 x float> %v) {
  %1 = call float @external_blas(float %a)
  %2 = call float %fp(float %1)
  %3 = call <4 x float> @llvm.x86.sse.rcp.ps(<4 x float> %v)
  call void asm sideeffect "vfmadd231ps %xmm0, %xmm1, %xmm2", ""()
  call void asm sideeffect "", "~{memory}"()
  %4 = fadd float %2, %a
  ret float %4
}

declare float @external_blas(float)
declare <4 x float> @llvm.x86.sse.rcp.ps(<4 x float>)
