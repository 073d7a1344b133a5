; What the instrumentation leaves alone, and says so (KernelSelector::
; whyNotInstrumented is the one list): functions that opt out with
; __attribute__((disable_sanitizer_instrumentation)) or
; __attribute__((no_profile_instrument_function)) (IR: noprofile,
; skipprofile), and functions ending in a musttail call. Runtime and
; library names (__roofline*, __nv_*, __cuda*, __clang*) and naked
; functions are never kernels at all. Only @plain is instrumented.
; RUN: %opt_roofline -passes=roofline-instrument -roofline-all-functions -verify-each -S %s -o %t.ll 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark
; RUN: FileCheck %s < %t.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; REMARK-DAG: remark: roofline: sanitizer_off is not instrumented: it opts out (disable_sanitizer_instrumentation)
; REMARK-DAG: remark: roofline: profile_off is not instrumented: it opts out (no_profile_instrument_function)
; REMARK-DAG: remark: roofline: skip_profile is not instrumented: it opts out (no_profile_instrument_function)
; REMARK-DAG: remark: roofline: tail is not instrumented: it ends in a musttail call

; CHECK: @__roofline_desc_plain =
; CHECK-NOT: @__roofline_desc_{{[a-z_]+}} =
; CHECK-LABEL: define void @plain(
; CHECK: @__roofline_tls_plain
; CHECK-LABEL: define void @sanitizer_off(
; CHECK-NOT: __roofline
; CHECK-LABEL: define void @profile_off(
; CHECK-NOT: __roofline
; CHECK-LABEL: define void @skip_profile(
; CHECK-NOT: __roofline
; CHECK-LABEL: define void @tail(
; CHECK-NOT: __roofline
; CHECK: musttail call void @plain
; CHECK-NEXT: ret void
; CHECK-LABEL: define void @__roofline_helper(
; CHECK-NOT: __roofline_tls
; CHECK-LABEL: define void @naked(

define void @plain(ptr %a, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %p = getelementptr float, ptr %a, i64 %i
  %v = load float, ptr %p
  %w = fadd float %v, 1.0
  store float %w, ptr %p
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

define void @sanitizer_off(ptr %a, i64 %n) disable_sanitizer_instrumentation {
  call void @plain(ptr %a, i64 %n)
  ret void
}

define void @profile_off(ptr %a, i64 %n) noprofile {
  call void @plain(ptr %a, i64 %n)
  ret void
}

define void @skip_profile(ptr %a, i64 %n) skipprofile {
  call void @plain(ptr %a, i64 %n)
  ret void
}

define void @tail(ptr %a, i64 %n) {
  musttail call void @plain(ptr %a, i64 %n)
  ret void
}

define void @__roofline_helper(ptr %a, i64 %n) {
  call void @plain(ptr %a, i64 %n)
  ret void
}

define void @naked(ptr %a, i64 %n) naked {
  call void @plain(ptr null, i64 16)
  unreachable
}
