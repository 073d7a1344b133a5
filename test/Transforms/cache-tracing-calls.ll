; Inclusive traffic in the traced copy: a call whose callee's work counts
; for the caller is bracketed by __roofline_cache_enter (the caller's
; descriptor and the call's site: part 0 << 16 | loop nest 1) and
; __roofline_cache_leave (the depth enter returned), so the callee's
; accesses count for the caller too. A straight-line helper (no loop, its
; fixed cost counted with the call) has no record and no dispatch of its
; own: the traced copy calls its traced form, whose accesses name no record
; (null) and count only for the calls they are inside. The original
; function and the helper itself are untouched by either.
; RUN: %opt_roofline -passes=roofline-instrument -roofline-cache-model -verify-each -S %s | FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; CHECK-LABEL: define double @helper(
; CHECK-NOT: __roofline
; CHECK: ret double
define double @helper(ptr %p) noinline {
  %a = load double, ptr %p
  %q = getelementptr double, ptr %p, i64 1
  %b = load double, ptr %q
  %s = fadd double %a, %b
  ret double %s
}

; CHECK-LABEL: define void @sums(
; CHECK: call double @helper(ptr %xp)
; CHECK-NOT: __roofline_cache_enter
; CHECK-LABEL: define internal void @sums.roofline.traced(
; CHECK: [[D:%[0-9a-z.]+]] = call i32 @__roofline_cache_enter(ptr @__roofline_desc_sums, i32 1)
; CHECK-NEXT: %v = call double @helper.roofline.traced(ptr %xp)
; CHECK-NEXT: call void @__roofline_cache_leave(i32 [[D]])
; The callee's accesses moved the thread's lines: the store after the call
; compares its line with none (-1) and so always calls.
; CHECK: icmp eq i64 -1, %{{[0-9]+}}
; CHECK: call preserve_mostcc i64 @__roofline_cache_access_line(ptr %yp,
define void @sums(ptr %x, ptr %y, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %off = shl i64 %i, 1
  %xp = getelementptr double, ptr %x, i64 %off
  %v = call double @helper(ptr %xp)
  %yp = getelementptr double, ptr %y, i64 %i
  store double %v, ptr %yp
  %i.next = add i64 %i, 1
  %c = icmp slt i64 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

; The helper's traced form: both loads traced, for no record of their own.
; CHECK-LABEL: define internal double @helper.roofline.traced(
; The second load is skipped when it lies in the first's line.
; CHECK: [[FIRST:%[0-9]+]] = call preserve_mostcc i64 @__roofline_cache_access_line(ptr %p, i64 8, ptr null, i32 0)
; CHECK: [[AFTER:%roofline.last_line[0-9.]*]] = phi i64 [ [[FIRST]], %{{[0-9]+}} ], [ -1, %{{[0-9]+}} ]
; CHECK: [[KEPT:%roofline.last_line[0-9.]*]] = phi i64 [ [[AFTER]], %{{[0-9]+}} ], [ -1, %{{[0-9]+}} ]
; CHECK: lshr i64 [[KEPT]], 1
; CHECK: call preserve_mostcc i64 @__roofline_cache_access_line(ptr %q, i64 8, ptr null, i32 0)
