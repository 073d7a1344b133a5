; A kept leaf's footprint (KeptCalls.h): vleaf reads and writes a
; <4 x float> per iteration, so its footprint is not its counted bytes but
; a formula of its argument n: 16n bytes read and 16n written, under the
; assumption n > 0 (a call that breaks it adds 0, and 1 to the counter of
; broken assumptions). Its kept form has no code for it: the calling loop
; works it out from the call's arguments, once in the preheader when n is
; the same every call (same_n; the sums added times the loop's calls at its
; exit), else at each call, summed in registers (growing_n).
;
; vleaf's block, [9 x i64]: calls, ticks, timed, then counters 0 (the
; nest's entries), 1 (iterations), 2 (the nest's ticks), 3 (broken
; assumptions, field 6), 4 (footprint read, field 7), 5 (written, field 8).
; RUN: %opt_roofline -passes=roofline-instrument -roofline-all-functions -verify-each -S %s | FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; vleaf's own entry still evaluates its footprint (calls from elsewhere).
; CHECK-LABEL: define dso_local void @vleaf(
; CHECK: mul i64 16, %n
; CHECK-LABEL: define dso_local void @same_n(
; The preheader: the formulas with the loop's n, once.
; CHECK: %[[STEP:.*]] = select i1 %roofline.forward, i64 0, i64 1
; CHECK: %[[POSITIVE:.*]] = icmp sgt i64 %n, 0
; CHECK-NEXT: %[[HOLDS:.*]] = and i1 true, %[[POSITIVE]]
; CHECK-NEXT: %[[BYTES:.*]] = mul i64 16, %n
; CHECK: %[[READ:.*]] = select i1 %[[HOLDS]], i64 %{{.*}}, i64 0
; CHECK-NEXT: %[[NOTHOLDS:.*]] = xor i1 %[[HOLDS]], true
; CHECK-NEXT: %[[BROKEN:.*]] = zext i1 %[[NOTHOLDS]] to i64
; CHECK: %[[WRITTEN:.*]] = select i1 %[[HOLDS]], i64 %{{.*}}, i64 0
; The loop: the kept call and the count of calls, nothing else.
; CHECK: loop:
; CHECK-NEXT: %roofline.kept.calls.0 = phi
; CHECK-NEXT: %r = phi
; CHECK-NEXT: call void @vleaf.roofline.kept(i64 %n, ptr %x, i64 %roofline.kept.calls.0)
; CHECK-NEXT: %[[NEXT:.*]] = add i64 %roofline.kept.calls.0, %[[STEP]]
; CHECK-NEXT: %r.next = add
; The exit: each times the calls (frozen, so that the code generator's
; strength reduction does not turn each product into a register the loop
; adds to on every call).
; CHECK: exit.loopexit:
; CHECK-NEXT: %[[SUB:.*]] = sub i64 %[[NEXT]],
; CHECK-NEXT: %[[CALLS:.*]] = freeze i64 %[[SUB]]
; CHECK-NEXT: %[[R:.*]] = mul i64 %[[READ]], %[[CALLS]]
; CHECK: getelementptr [9 x i64], ptr %{{.*}}, i64 0, i64 7
; CHECK: add i64 %{{.*}}, %[[R]]
; CHECK: %[[B:.*]] = mul i64 %[[BROKEN]], %[[CALLS]]
; CHECK: getelementptr [9 x i64], ptr %{{.*}}, i64 0, i64 6
; CHECK: add i64 %{{.*}}, %[[B]]
; CHECK: %[[W:.*]] = mul i64 %[[WRITTEN]], %[[CALLS]]
; CHECK: getelementptr [9 x i64], ptr %{{.*}}, i64 0, i64 8
; CHECK: add i64 %{{.*}}, %[[W]]

; n is the loop's counter: the formulas at each call, times the step (0
; while tracing: the forwarded call counts itself), summed.
; CHECK-LABEL: define dso_local void @growing_n(
; CHECK: %[[STEP2:.*]] = select i1 %roofline.forward, i64 0, i64 1
; CHECK: loop:
; CHECK-DAG: %[[WSUM:roofline.kept.formula[0-9]*.0]] = phi i64 [ 0, %{{.*}} ], [ %[[WNEXT:.*]], %loop ]
; CHECK-DAG: %[[BSUM:roofline.kept.formula[0-9]*.0]] = phi i64 [ 0, %{{.*}} ], [ %[[BNEXT:.*]], %loop ]
; CHECK-DAG: %[[RSUM:roofline.kept.formula[0-9]*.0]] = phi i64 [ 0, %{{.*}} ], [ %[[RNEXT:.*]], %loop ]
; CHECK: mul i64 16, %r
; CHECK: %[[RSTEP:.*]] = mul i64 %{{.*}}, %[[STEP2]]
; CHECK: %[[RNEXT]] = add i64 %[[RSUM]], %[[RSTEP]]
; CHECK: call void @vleaf.roofline.kept(i64 %r, ptr %x,
; CHECK: exit.loopexit:
; CHECK: getelementptr [9 x i64], ptr %{{.*}}, i64 0, i64 7
; CHECK: add i64 %{{.*}}, %[[RNEXT]]

; The kept forms, timed and untimed: no footprint code at all.
; CHECK-LABEL: define internal void @vleaf.roofline.kept.timed(
; CHECK-NOT: mul i64 16
; CHECK-LABEL: define internal void @vleaf.roofline.kept(
; CHECK-NOT: mul i64 16
; CHECK-LABEL: define internal void @roofline.module_ctor(
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define dso_local void @vleaf(i64 %n, ptr %x) nounwind {
entry:
  %guard = icmp sgt i64 %n, 0
  br i1 %guard, label %loop, label %exit

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %p = getelementptr inbounds <4 x float>, ptr %x, i64 %i
  %v = load <4 x float>, ptr %p
  %s = fadd <4 x float> %v, %v
  store <4 x float> %s, ptr %p
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

define dso_local void @same_n(i64 %reps, i64 %n, ptr %x) nounwind {
entry:
  %guard = icmp sgt i64 %reps, 0
  br i1 %guard, label %loop, label %exit

loop:
  %r = phi i64 [ 0, %entry ], [ %r.next, %loop ]
  call void @vleaf(i64 %n, ptr %x)
  %r.next = add nuw nsw i64 %r, 1
  %done = icmp eq i64 %r.next, %reps
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

define dso_local void @growing_n(i64 %reps, ptr %x) nounwind {
entry:
  %guard = icmp sgt i64 %reps, 0
  br i1 %guard, label %loop, label %exit

loop:
  %r = phi i64 [ 0, %entry ], [ %r.next, %loop ]
  call void @vleaf(i64 %r, ptr %x)
  %r.next = add nuw nsw i64 %r, 1
  %done = icmp eq i64 %r.next, %reps
  br i1 %done, label %exit, label %loop

exit:
  ret void
}
