; A trip count wider than 64 bits is not hoisted (the i128 count of an
; `__int128` counter, whose hoisted form once crashed the backend with
; `zext i128 ... to i64`): the loop's block counts per iteration instead.
; A 64-bit count beside it is still hoisted to the preheader.
; RUN: %opt_roofline -passes=roofline-instrument -roofline-all-functions -verify-each -S %s | FileCheck %s
; RUN: %opt_roofline -passes=roofline-instrument -roofline-all-functions -S %s | llc -O2 -o /dev/null
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; The preheader counts the nest's entry (and starts its timer), but adds no
; trip count:
; CHECK-LABEL: define void @wide(
; CHECK-NOT: i128 {{.*}} to i64
; CHECK: preheader:
; CHECK-NEXT: add i64 0, 1
; CHECK-NEXT: icmp ne i64 %roofline.start, 0
; CHECK: loop:
; CHECK: [[C:%roofline.counter[0-9.]+]] = phi i64
; CHECK: add i64 [[C]], 1
; CHECK: ret void
define void @wide(ptr %a, i128 %n) {
entry:
  %empty = icmp sle i128 %n, 0
  br i1 %empty, label %exit, label %preheader
preheader:
  br label %loop
loop:
  %i = phi i128 [ 0, %preheader ], [ %i.next, %loop ]
  %k = trunc i128 %i to i64
  %p = getelementptr float, ptr %a, i64 %k
  %v = load float, ptr %p
  %w = fadd float %v, 1.0
  store float %w, ptr %p
  %i.next = add nsw i128 %i, 1
  %more = icmp slt i128 %i.next, %n
  br i1 %more, label %loop, label %exit
exit:
  ret void
}

; CHECK-LABEL: define void @narrow(
; CHECK: preheader:
; CHECK-NEXT: add i64 0, 1
; CHECK-NEXT: add i64 0, %n
; CHECK: loop:
; CHECK-NOT: add i64 %roofline.counter
; CHECK: ret void
define void @narrow(ptr %a, i64 %n) {
entry:
  %empty = icmp sle i64 %n, 0
  br i1 %empty, label %exit, label %preheader
preheader:
  br label %loop
loop:
  %i = phi i64 [ 0, %preheader ], [ %i.next, %loop ]
  %p = getelementptr float, ptr %a, i64 %i
  %v = load float, ptr %p
  %w = fadd float %v, 1.0
  store float %w, ptr %p
  %i.next = add nsw i64 %i, 1
  %more = icmp slt i64 %i.next, %n
  br i1 %more, label %loop, label %exit
exit:
  ret void
}
