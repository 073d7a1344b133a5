; sqrt counts 1 FLOP in its own class; transcendentals (exp, log, pow, sin,
; tanh...) go to "special", outside the FLOP total; libm and libdevice calls
; are recognised by name, as the LLVM intrinsics are.
; RUN: %opt_roofline -passes='print<roofline>' -roofline-all-functions -disable-output %s | FileCheck %s
target triple = "x86_64-unknown-linux-gnu"

; CHECK-LABEL: kernel intrinsics
; sqrt.f32 + sqrt.v4f32 = 5 sqrt (5 FLOPs); exp, log, sin, pow, tanh = 5 special
; CHECK-NEXT: flops: 5 (exact)
; CHECK: fp32 ops: sqrt 5; special 5;
; CHECK-NEXT: special: 5
define float @intrinsics(float %a, <4 x float> %v) {
  %1 = call float @llvm.sqrt.f32(float %a)
  %2 = call <4 x float> @llvm.sqrt.v4f32(<4 x float> %v)
  %3 = call float @llvm.exp.f32(float %1)
  %4 = call float @llvm.log.f32(float %3)
  %5 = call float @llvm.sin.f32(float %4)
  %6 = call float @llvm.pow.f32(float %5, float %a)
  %7 = call float @llvm.tanh.f32(float %6)
  ret float %7
}

; CHECK-LABEL: kernel libcalls
; expf, sin (double), erff = 3 special; sqrtf = 1 sqrt; fmaf = 1 FMA (2);
; fabsf = 0. FLOPs = 1 + 2 = 3.
; CHECK-NEXT: flops: 3 (exact)
; CHECK-NEXT: by precision: fp32 3
; CHECK-NEXT: fp32 ops: fma 1; sqrt 1; special 2;
; CHECK-NEXT: fp64 ops: special 1;
; CHECK-NEXT: special: 3
; CHECK-NOT: unknown
define float @libcalls(float %a, double %d) {
  %1 = call float @expf(float %a)
  %2 = call double @sin(double %d)
  %3 = call float @erff(float %1)
  %4 = call float @sqrtf(float %3)
  %5 = call float @fmaf(float %4, float %4, float %a)
  %6 = call float @fabsf(float %5)
  ret float %6
}

; CHECK-LABEL: kernel libdevice
; CUDA's libdevice spellings: __nv_expf special, __nv_fast_logf special,
; __nv_sqrtf sqrt, __nv_fdividef div.
; CHECK-NEXT: flops: 2 (exact)
; CHECK: fp32 ops: div 1; sqrt 1; special 2;
define float @libdevice(float %a) {
  %1 = call float @__nv_expf(float %a)
  %2 = call float @__nv_fast_logf(float %1)
  %3 = call float @__nv_sqrtf(float %2)
  %4 = call float @__nv_fdividef(float %3, float %a)
  ret float %4
}

declare float @llvm.sqrt.f32(float)
declare <4 x float> @llvm.sqrt.v4f32(<4 x float>)
declare float @llvm.exp.f32(float)
declare float @llvm.log.f32(float)
declare float @llvm.sin.f32(float)
declare float @llvm.pow.f32(float, float)
declare float @llvm.tanh.f32(float)
declare float @expf(float)
declare double @sin(double)
declare float @erff(float)
declare float @sqrtf(float)
declare float @fmaf(float, float, float)
declare float @fabsf(float)
declare float @__nv_expf(float)
declare float @__nv_fast_logf(float)
declare float @__nv_sqrtf(float)
declare float @__nv_fdividef(float, float)
