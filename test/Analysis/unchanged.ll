; In analysis mode the pass never changes the module: the IR printed after
; it equals the IR printed without it.
; RUN: opt -S %s -o %t.plain.ll
; RUN: %opt_roofline -passes=roofline -S %s -o %t.analysed.ll
; RUN: diff %t.plain.ll %t.analysed.ll
; RUN: %opt_roofline -passes='print<roofline>,roofline' -S %s -o %t.printed.ll | FileCheck %s
; RUN: diff %t.plain.ll %t.printed.ll
; CHECK: kernel sum
target triple = "x86_64-unknown-linux-gnu"

define double @sum(ptr %x, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi double [ 0.0, %entry ], [ %acc.next, %loop ]
  %p = getelementptr double, ptr %x, i64 %i
  %v = load double, ptr %p
  %acc.next = fadd double %acc, %v
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret double %acc.next
}
