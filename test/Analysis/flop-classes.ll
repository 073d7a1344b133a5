; Each scalar FP arithmetic instruction counts once in its class, by precision;
; fma/fmuladd count as one FMA (two FLOPs); fneg, compares, conversions,
; selects and min/max count nothing.
; RUN: %opt_roofline -passes='print<roofline>' -roofline-all-functions -disable-output %s | FileCheck %s
target triple = "x86_64-unknown-linux-gnu"

; CHECK-LABEL: kernel arith
; fadd + fsub = 2 add, fmul = 1 mul, fdiv + frem = 2 div: 5 FLOPs.
; CHECK-NEXT: flops: 5 (exact)
; CHECK: fp32 ops: add 2; mul 1; div 2;
define float @arith(float %a, float %b) {
  %1 = fadd float %a, %b
  %2 = fsub float %1, %b
  %3 = fmul float %2, %a
  %4 = fdiv float %3, %b
  %5 = frem float %4, %a
  ret float %5
}

; CHECK-LABEL: kernel fused
; fma + fmuladd = 2 FMA = 4 FLOPs, in double.
; CHECK-NEXT: flops: 4 (exact)
; CHECK-NEXT: by precision: fp64 4
; CHECK-NEXT: fp64 ops: fma 2;
define double @fused(double %a, double %b, double %c) {
  %1 = call double @llvm.fma.f64(double %a, double %b, double %c)
  %2 = call double @llvm.fmuladd.f64(double %1, double %b, double %c)
  ret double %2
}

; CHECK-LABEL: kernel free
; CHECK-NEXT: flops: 0 (exact)
define float @free(float %a, float %b, double %d, i32 %i) {
  %n = fneg float %a
  %c = fcmp olt float %n, %b
  %s = select i1 %c, float %n, float %b
  %e = fpext float %s to double
  %t = fptrunc double %d to float
  %f = sitofp i32 %i to float
  %m = call float @llvm.minnum.f32(float %t, float %f)
  %x = call float @llvm.maxnum.f32(float %m, float %s)
  %ab = call float @llvm.fabs.f32(float %x)
  %cs = call float @llvm.copysign.f32(float %ab, float %a)
  %fl = call float @llvm.floor.f32(float %cs)
  ret float %fl
}

; CHECK-LABEL: kernel contracted
; CUDA-style `contract` fmul feeding a `contract` fadd: the back end fuses
; them, so they are one FMA (2 FLOPs), not a mul and an add.
; CHECK-NEXT: flops: 2 (exact)
; CHECK: fp32 ops: fma 1;
define float @contracted(float %a, float %b, float %c) {
  %m = fmul contract float %a, %b
  %s = fadd contract float %m, %c
  ret float %s
}

; CHECK-LABEL: kernel notcontracted
; Without the flag on both, they stay a mul and an add.
; CHECK: fp32 ops: add 1; mul 1;
define float @notcontracted(float %a, float %b, float %c) {
  %m = fmul contract float %a, %b
  %s = fadd float %m, %c
  ret float %s
}

declare float @llvm.minnum.f32(float, float)
declare float @llvm.maxnum.f32(float, float)
declare float @llvm.fabs.f32(float)
declare float @llvm.copysign.f32(float, float)
declare float @llvm.floor.f32(float)
declare double @llvm.fma.f64(double, double, double)
declare double @llvm.fmuladd.f64(double, double, double)
