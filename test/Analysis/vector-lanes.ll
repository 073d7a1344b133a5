; Vector operations count once per lane; reductions count one operation per
; lane folded in.
; RUN: %opt_roofline -passes='print<roofline>' -roofline-all-functions -disable-output %s | FileCheck %s
target triple = "x86_64-unknown-linux-gnu"

; CHECK-LABEL: kernel lanes
; <4 x float> fadd = 4 add, <2 x double> fmul = 2 mul,
; <8 x float> fmuladd = 8 FMA (16 FLOPs): 4 + 2 + 16 = 22.
; CHECK-NEXT: flops: 22 (exact)
; CHECK-NEXT: by precision: fp32 20, fp64 2
; CHECK-NEXT: fp32 ops: add 4; fma 8;
; CHECK-NEXT: fp64 ops: mul 2;
define void @lanes(<4 x float> %a, <2 x double> %b, <8 x float> %c) {
  %1 = fadd <4 x float> %a, %a
  %2 = fmul <2 x double> %b, %b
  %3 = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %c, <8 x float> %c, <8 x float> %c)
  ret void
}

; CHECK-LABEL: kernel reduce
; reduce.fadd(start, <8 x float>) folds 8 lanes: 8 adds; reduce.fmax: 0;
; the scalar fadd after them: 1. Total 9.
; CHECK-NEXT: flops: 9 (exact)
define float @reduce(<8 x float> %v) {
  %s = call float @llvm.vector.reduce.fadd.v8f32(float 0.0, <8 x float> %v)
  %m = call float @llvm.vector.reduce.fmax.v8f32(<8 x float> %v)
  %r = fadd float %s, %m
  ret float %r
}
