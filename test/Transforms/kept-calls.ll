; Kept calls (lib/Transforms/KeptCalls.h): a leaf called in a loop gets a
; kept form that adds its counters to its block but neither counts the
; call nor reads the clock; the loop counts the calls in a register and
; adds them to the leaf's block at its exit, and the calling kernel reads
; the leaf's counter once on entry to the loop and once at its exit
; instead of around each call. A loop with a call that may not return
; keeps the plain call.
; RUN: %opt_roofline -passes=roofline-instrument -roofline-cache-model -roofline-all-functions -verify-each -S %s | FileCheck %s
; RUN: %opt_roofline -passes=roofline-instrument -roofline-cache-model -roofline-all-functions -roofline-kept-calls=false -S %s | FileCheck %s --check-prefix=OFF
; The count operations the placement makes (CountOperations.h) are all
; lowered, those the kept-call rewrite moved too:
; RUN: %opt_roofline -passes=roofline-instrument -roofline-cache-model -roofline-all-functions -S %s | FileCheck %s --check-prefix=LOWERED
; LOWERED-NOT: @roofline.count
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; OFF-NOT: roofline.kept

; leaf's block: [calls, ticks, timed, counters 0-2]: counter 0 the nest's
; entries (the preheader's +1), 1 its iterations (the trip count, added in
; the preheader: the one with costs, 4+4 B loaded, 4 B stored and an fadd
; per iteration), 2 the nest's ticks.
; CHECK: @__roofline_tls_leaf = internal thread_local(initialexec) global [6 x i64]
define dso_local void @leaf(i64 %n, ptr %x, ptr %y) nounwind {
entry:
  %guard = icmp sgt i64 %n, 0
  br i1 %guard, label %loop, label %exit

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %px = getelementptr inbounds float, ptr %x, i64 %i
  %vx = load float, ptr %px
  %py = getelementptr inbounds float, ptr %y, i64 %i
  %vy = load float, ptr %py
  %s = fadd float %vx, %vy
  store float %s, ptr %py
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; The preheader: while tracing or modelling caches (ROOFLINE_TRACE,
; ROOFLINE_CACHE), no call is counted here and every call passes 0 calls
; so far (a timed call: the timed form forwards it to @leaf); else the
; count starts at the block's.
; CHECK-LABEL: define dso_local void @caller(
; CHECK: %roofline.forward = icmp ne i32
; CHECK: %[[BLOCK:.*]] = call ptr @llvm.threadlocal.address.p0(ptr @__roofline_tls_leaf)
; CHECK: %[[CALLS:.*]] = load i64, ptr
; CHECK: %[[BASE:.*]] = select i1 %roofline.forward, i64 0, i64 %[[CALLS]]
; CHECK: %[[STEP:.*]] = select i1 %roofline.forward, i64 0, i64 1
; The calling kernel's read of leaf's counter 1 (its iterations, which
; have the costs), before the loop instead of before each call.
; CHECK: %roofline.kept.entry = load i64, ptr
; Per call: the kept form with the calls so far, and one add for the count
; (no load of leaf's block, no growth of caller's counter in the loop).
; CHECK: loop:
; CHECK-NEXT: %roofline.kept.calls.0 = phi i64 [ %[[BASE]], %{{.*}} ], [ %[[NEXT:.*]], %loop ]
; CHECK-NEXT: %r = phi
; CHECK-NEXT: call void @leaf.roofline.kept(i64 8, ptr %x, ptr %y, i64 %roofline.kept.calls.0)
; CHECK-NEXT: %[[NEXT]] = add i64 %roofline.kept.calls.0, %[[STEP]]
; CHECK-NEXT: %r.next = add
; At the exit: the loop's calls (no counter of leaf runs once on every
; call here), the growth of leaf's counter 1 over the loop into caller's
; counter, the calls into leaf's block, and the thread's first calls
; register it.
; The count is frozen: a value the code generator's strength reduction
; cannot see as the loop's induction variable (it would carry each product
; of it in a register of its own through the loop).
; CHECK: exit.loopexit:
; CHECK-NEXT: %[[SUB:.*]] = sub i64 %[[NEXT]], %[[BASE]]
; CHECK-NEXT: %[[N:.*]] = freeze i64 %[[SUB]]
; CHECK: %[[NOW:.*]] = load i64, ptr
; CHECK-NEXT: %[[GREW:.*]] = sub i64 %[[NOW]], %roofline.kept.entry
; CHECK-NEXT: %[[COUNTER:.*]] = add i64 0, %[[GREW]]
; CHECK: %[[OLD:.*]] = load i64, ptr
; CHECK-NEXT: %[[NEW:.*]] = add i64 %[[OLD]], %[[N]]
; CHECK-NEXT: store i64 %[[NEW]]
; CHECK: call void @__roofline_register_thread(ptr @__roofline_desc_leaf,
; CHECK: exit:
; CHECK-NEXT: %roofline.counter3.0 = phi i64 [ %[[COUNTER]], %{{.*}} ], [ 0, %{{.*}} ]
define dso_local void @caller(i64 %reps, ptr %x, ptr %y) nounwind {
entry:
  %guard = icmp sgt i64 %reps, 0
  br i1 %guard, label %loop, label %exit

loop:
  %r = phi i64 [ 0, %entry ], [ %r.next, %loop ]
  call void @leaf(i64 8, ptr %x, ptr %y)
  %r.next = add nuw nsw i64 %r, 1
  %done = icmp eq i64 %r.next, %reps
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; @may_exit may not return (exit(), say): the loop keeps the plain call,
; which adds to the block itself.
; CHECK-LABEL: define dso_local void @caller_exit(
; CHECK-NOT: @leaf.roofline.kept
; CHECK: call void @leaf(i64 4, ptr %x, ptr %y)
; CHECK-NOT: @leaf.roofline.kept
; CHECK: ret void
declare void @may_exit()
define dso_local void @caller_exit(i64 %reps, ptr %x, ptr %y) nounwind {
entry:
  %guard = icmp sgt i64 %reps, 0
  br i1 %guard, label %loop, label %exit

loop:
  %r = phi i64 [ 0, %entry ], [ %r.next, %loop ]
  call void @leaf(i64 4, ptr %x, ptr %y)
  call void @may_exit()
  %r.next = add nuw nsw i64 %r, 1
  %done = icmp eq i64 %r.next, %reps
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; The timed form: F's clock and timers, and the forward path, which calls
; @leaf itself (it counts the call and adds to its block).
; CHECK-LABEL: define internal void @leaf.roofline.kept.timed(i64 %n, ptr %x, ptr %y, i64 %roofline.calls)
; CHECK: %roofline.timed = or i1
; CHECK: %roofline.forward = icmp ne i32
; CHECK-NEXT: br i1 %roofline.forward
; CHECK: call void @leaf(i64 %n, ptr %x, ptr %y)
; CHECK-NEXT: ret void
; CHECK: call i64 @llvm.readcyclecounter()

; The untimed form: its timed calls (every call of the thread's first
; 1024, then one in 64, by two branches) go to the timed form; then no clock,
; no count of the call, no registration; counters 0 and 1 added to the
; block where they are counted, once a call: in the preheader (1 entry, n
; iterations), not carried in registers to the return.
; CHECK-LABEL: define internal void @leaf.roofline.kept(i64 %n, ptr %x, ptr %y, i64 %roofline.calls)
; CHECK: icmp ult i64 %roofline.calls, 1024
; CHECK: tail call void @leaf.roofline.kept.timed(i64 %n, ptr %x, ptr %y, i64 %roofline.calls)
; CHECK: and i64 %roofline.calls, 63
; CHECK: tail call void @leaf.roofline.kept.timed(i64 %n, ptr %x, ptr %y, i64 %roofline.calls)
; CHECK-NOT: readcyclecounter
; CHECK-NOT: __roofline_register_thread
; CHECK: loop.preheader:
; CHECK: [[E:%.*]] = getelementptr [6 x i64], ptr %{{.*}}, i64 0, i64 3
; CHECK-NEXT: [[EOLD:%.*]] = load i64, ptr [[E]]
; CHECK-NEXT: [[ENEW:%.*]] = add i64 [[EOLD]], 1
; CHECK-NEXT: store i64 [[ENEW]], ptr [[E]]
; CHECK: [[I:%.*]] = getelementptr [6 x i64], ptr %{{.*}}, i64 0, i64 4
; CHECK-NEXT: [[IOLD:%.*]] = load i64, ptr [[I]]
; CHECK-NEXT: [[INEW:%.*]] = add i64 [[IOLD]], %n
; CHECK-NEXT: store i64 [[INEW]], ptr [[I]]
; CHECK-NEXT: br label %loop
; CHECK-NOT: readcyclecounter
; CHECK-NOT: getelementptr [6 x i64]
; CHECK: ret void
; CHECK-NEXT: }
