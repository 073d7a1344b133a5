; The count operations as code (roofline-lower-counts, the step of the
; instrumenter that turns them into adds): a stack slot per counter, zeroed
; at entry; `roofline.count(C, S)` adds S to counter C where it stands (in
; the loop, once an iteration; in the preheader, the trip count once), and
; `roofline.count.max(C, V)` raises counter C to V by umax. The operations
; and their declarations are gone after it.
; RUN: %opt_roofline -passes=roofline-lower-counts -verify-each -S %s | FileCheck %s
; Without a constant counter, or past the counters an instrumenter makes,
; an operation is dropped with a remark (the rest are lowered).
; RUN: %opt_roofline -passes=roofline-lower-counts -verify-each -S %s 2>&1 | FileCheck %s --check-prefix=REMARK

; CHECK-LABEL: define void @scale(
; CHECK: %roofline.counter = alloca i64
; CHECK-NEXT: %roofline.counter1 = alloca i64
; CHECK-NEXT: store i64 0, ptr %roofline.counter
; CHECK-NEXT: store i64 0, ptr %roofline.counter1
; CHECK: preheader:
; CHECK-NEXT: [[OLD1:%[0-9]+]] = load i64, ptr %roofline.counter1
; CHECK-NEXT: [[MAX:%[0-9]+]] = call i64 @llvm.umax.i64(i64 [[OLD1]], i64 %n)
; CHECK-NEXT: store i64 [[MAX]], ptr %roofline.counter1
; CHECK-NEXT: br label %loop
; CHECK: loop:
; CHECK: [[OLD0:%[0-9]+]] = load i64, ptr %roofline.counter
; CHECK-NEXT: [[NEW0:%[0-9]+]] = add i64 [[OLD0]], 1
; CHECK-NEXT: store i64 [[NEW0]], ptr %roofline.counter
; CHECK-NOT: call void @roofline.count
; CHECK-NOT: declare void @roofline.count

; REMARK: remark: roofline: bad: a count operation without a constant counter and an i64 step is dropped
; REMARK: remark: roofline: bad: a count operation of counter 100000 (the function has 1) is dropped
; REMARK-LABEL: define void @bad(
; REMARK: %roofline.counter = alloca i64
; REMARK: add i64 {{%[0-9]+}}, 7
; REMARK-NOT: @roofline.count

declare void @roofline.count(i32, i64)
declare void @roofline.count.max(i32, i64)

define void @scale(ptr %a, i64 %n) {
entry:
  %any = icmp sgt i64 %n, 0
  br i1 %any, label %preheader, label %exit

preheader:
  call void @roofline.count.max(i32 1, i64 %n)
  br label %loop

loop:
  %i = phi i64 [ 0, %preheader ], [ %next, %loop ]
  %p = getelementptr double, ptr %a, i64 %i
  %v = load double, ptr %p
  %w = fmul double %v, 2.0
  store double %w, ptr %p
  call void @roofline.count(i32 0, i64 1)
  %next = add i64 %i, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

define void @bad(i32 %c) {
  call void @roofline.count(i32 %c, i64 1)
  call void @roofline.count(i32 100000, i64 1)
  call void @roofline.count(i32 0, i64 7)
  ret void
}
