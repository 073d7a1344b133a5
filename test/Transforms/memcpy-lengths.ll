; A memcpy's length is a run-time value: it gets its own counter, which
; adds the length on every execution (slot 35, memory loads, and 36,
; stores, with weight 1 per byte); a constant memset length is a fixed cost
; of its block (64 B stored, counted by the hoisted trip count n). The
; descriptor's formulas are the analysis's (opt runs it on demand):
; len*n bytes read, len*n + 64*n written.
; The footprint is counted too, once per call at entry (slots 49, read, and
; 50, written): src's len bytes, the same every iteration (exact); dst gets
; len bytes from the memcpy and 64 from the memset at the same address, two
; shapes: between len and len + 64, so its lower bound len is counted and
; the descriptor's footprint field says 2 (a lower bound).
; RUN: %opt_roofline -passes=roofline-instrument -verify-each -S %s | FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; Counters 0-2 measure the loop nest (entries, iterations, ticks); the
; memset's block shares the iteration counter, 1; the memcpy has counter 3;
; counter 4 counts the calls that broke an assumption of the footprint
; formula (descriptor field FootprintBroken), 5 and 6 the footprint
; (outside the nest: nest 0). The loop's block also counts its machine
; instructions (slot 82, per iteration on counter 1): the memcpy call with
; its three argument moves (4, x86-64's size of it), the memset of 64
; bytes (1), the i++ add, the compare and the branch (3): 8.
; CHECK-DAG: @__roofline_desc_copy = private global %roofline.kernel { i32 11, i32 7, i32 6, {{.*}}, i32 83, ptr @__roofline_copy.params, ptr @__roofline_copy.pointers, i32 2, i32 4, i32 0 }
; CHECK-DAG: @__roofline_copy.costs = private constant [6 x %roofline.cost] [%roofline.cost { i32 3, i32 36, i64 1, i32 0, i32 1 }, %roofline.cost { i32 3, i32 35, i64 1, i32 0, i32 1 }, %roofline.cost { i32 1, i32 36, i64 64, i32 0, i32 1 }, %roofline.cost { i32 1, i32 82, i64 8, i32 0, i32 1 }, %roofline.cost { i32 5, i32 49, i64 1, i32 0, i32 0 }, %roofline.cost { i32 6, i32 50, i64 1, i32 0, i32 0 }]
; CHECK-DAG: @__roofline_copy.load = {{.*}} c"len*n\00"
; CHECK-DAG: @__roofline_copy.store = {{.*}} c"len*n + 64*n\00"
; Per pointer (index, read, written, footprint read and written, read and
; written ranges): dst (0) written len*n + 64*n, its footprint not exact
; and its range unknown ("-"); src (1) read len*n, footprint len, range
; [0, len).
; CHECK-DAG: @__roofline_copy.pointers = {{.*}} c"0\090\09len*n + 64*n\09-\09-\09-\09-\09-\09-\0A1\09len*n\090\09len\090\090\09len\09-\09-\0A\00"
; CHECK-LABEL: define void @copy(
; The memset's block runs n times: counted once, before the loop.
; CHECK: add i64 0, %n
; CHECK: [[POS:%.*]] = icmp sgt i64 %len, 0
; CHECK-NEXT: select i1 [[POS]], i64 %len, i64 0
; CHECK: loop:
; CHECK: [[C:%roofline.counter3.0]] = phi i64 [ 0, {{%.*}} ], [ [[NEXT:%.*]], %loop ]
; CHECK: [[NEXT]] = add i64 [[C]], %len
; CHECK: call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr %src, i64 %len, i1 false)
define void @copy(ptr %dst, ptr %src, i64 %len, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr %src, i64 %len, i1 false)
  call void @llvm.memset.p0.i64(ptr %dst, i8 0, i64 64, i1 false)
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
