; Precision comes from the element type: half, bfloat, float, double, and
; everything else (x86_fp80, fp128) as "other".
; RUN: %opt_roofline -passes='print<roofline>' -roofline-all-functions -disable-output %s | FileCheck %s
target triple = "x86_64-unknown-linux-gnu"

; CHECK-LABEL: kernel mixed
; one add in each of five precisions
; CHECK-NEXT: flops: 5 (exact)
; CHECK-NEXT: by precision: fp16 1, bf16 1, fp32 1, fp64 1, other 1
define void @mixed(half %h, bfloat %b, float %f, double %d, x86_fp80 %x) {
  %1 = fadd half %h, %h
  %2 = fadd bfloat %b, %b
  %3 = fadd float %f, %f
  %4 = fadd double %d, %d
  %5 = fadd x86_fp80 %x, %x
  ret void
}
