; A parallel region forked by __kmpc_fork_call counts for the forking
; function over the whole team: around the fork the caller asks the runtime
; for the outlined body's counters summed over every thread
; (__roofline_region_begin, with the body's descriptor and a buffer of its
; counters) and for their growth at the join (__roofline_region_end). Where
; begin says another region is in flight (0), the region runs on this
; thread only and the body's own block's growth is used instead: a select
; per counter. The body has no loop, but runs once per thread: it is
; instrumented (a descriptor and a block), never a fixed cost. In the traced
; copy the fork is bracketed by __roofline_cache_fork and _join, which lend
; the caller's enclosing calls to the team's other threads.
; RUN: %opt_roofline -passes=roofline-instrument -roofline-cache-model -verify-each -S %s | FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

%struct.ident_t = type { i32, i32, i32, i32, ptr }
@loc = private constant %struct.ident_t { i32 0, i32 2, i32 0, i32 22, ptr null }

; CHECK-DAG: @__roofline_desc_body = private global %roofline.kernel
; CHECK-DAG: @__roofline_tls_body = internal thread_local(initialexec) global

; The body: one multiply per thread, on a value the caller shares.
; CHECK-LABEL: define internal void @body(
; CHECK: @__roofline_tls_body
define internal void @body(ptr noalias %gtid, ptr noalias %btid, ptr %p) {
  %v = load double, ptr %p
  %m = fmul double %v, %v
  store double %m, ptr %p
  ret void
}

; CHECK-LABEL: define void @caller(
; CHECK: [[TOTALS:%roofline.region.totals]] = alloca [1 x i64]
; CHECK: [[WHOLE:%[0-9a-z.]+]] = call i32 @__roofline_region_begin(ptr @__roofline_desc_body, ptr [[TOTALS]])
; CHECK: [[IS:%[0-9a-z.]+]] = icmp ne i32 [[WHOLE]], 0
; CHECK: call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr @loc, i32 1, ptr @body, ptr %p)
; CHECK-NEXT: call void @__roofline_region_end(ptr @__roofline_desc_body, ptr [[TOTALS]], i32 [[WHOLE]])
; CHECK: select i1 [[IS]], i64
; CHECK-LABEL: define internal void @caller.roofline.traced(
; CHECK: [[D:%[0-9a-z.]+]] = call i32 @__roofline_cache_fork(ptr @__roofline_desc_caller, i32 1)
; CHECK-NEXT: call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr @loc, i32 1, ptr @body, ptr %p)
; CHECK-NEXT: call void @__roofline_cache_join(i32 [[D]])
define void @caller(ptr %p, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr @loc, i32 1, ptr @body, ptr %p)
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

declare !callback !0 void @__kmpc_fork_call(ptr, i32, ptr, ...)
!0 = !{!1}
!1 = !{i64 2, i64 -1, i64 -1, i1 true}
