; Machine instructions, estimated from IR (docs/counting.md, "Instructions"):
; none for what the target's cost model calls free (a phi, a GEP the
; addressing mode folds, a no-op cast), an unconditional branch (laid out
; as a fall-through) or a hint (assume); a load or store one per register,
; and on x86 none for a load folded into the arithmetic that uses it; the
; rest as the target sizes it.
; RUN: %opt_roofline -passes='print<roofline>' -roofline-all-functions -disable-output %s | FileCheck %s
target triple = "x86_64-unknown-linux-gnu"

; saxpy: entry: icmp, br (2); the preheader's branch falls through (0);
; the body per iteration: phi (0), 2 GEPs (0, folded), the x load (0,
; folded into the fmul as its second operand), the y load (0, into the
; fadd), fmul, fadd, store, the iv add, icmp, br (6): 6n; exit: ret (1).
; 6n + 3. x86-64 without AVX runs 7 an iteration (movss, mulss, addss with
; y from memory, movss, inc, cmp, jne): its two-operand mulss keeps a in a
; register and loads x into another, which the rule does not know.
; CHECK-LABEL: kernel saxpy
; CHECK: instructions: 6*n + 3
define void @saxpy(i64 %n, float %a, ptr %x, ptr %y) {
entry:
  %any = icmp sgt i64 %n, 0
  br i1 %any, label %pre, label %exit
pre:
  br label %loop
loop:
  %i = phi i64 [ 0, %pre ], [ %i.next, %loop ]
  %px = getelementptr inbounds float, ptr %x, i64 %i
  %py = getelementptr inbounds float, ptr %y, i64 %i
  %vx = load float, ptr %px
  %vy = load float, ptr %py
  %m = fmul float %a, %vx
  %s = fadd float %m, %vy
  store float %s, ptr %py
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; Sixteen floats on x86-64 without AVX are four SSE registers: the fadd and
; the store count four each (8); the load, used once by the fadd beside
; it, folds into its four addps (0); the GEP is free, the assume emits
; nothing, ret 1: 9.
; CHECK-LABEL: kernel wide
; CHECK: instructions: 9
declare void @llvm.assume(i1)
define void @wide(ptr %p, <16 x float> %b, i1 %c) {
entry:
  call void @llvm.assume(i1 %c)
  %q = getelementptr inbounds <16 x float>, ptr %p, i64 1
  %v = load <16 x float>, ptr %q
  %s = fadd <16 x float> %v, %b
  store <16 x float> %s, ptr %q
  ret void
}

; A branch on data: the two arms are estimates, but instructions follow
; the same mass flow as the other counts. entry: load (used twice: not
; folded), fcmp, br (3); then: fmul, store (2) and its unconditional
; branch to the join (0); join: ret (1). With the static branch
; probability of 1/2 per arm: 4 + 2/2 = 5.
; CHECK-LABEL: kernel branchy
; CHECK: instructions: 5
define void @branchy(ptr %p) {
entry:
  %v = load double, ptr %p
  %pos = fcmp ogt double %v, 0.0
  br i1 %pos, label %then, label %join
then:
  %w = fmul double %v, 2.0
  store double %w, ptr %p
  br label %join
join:
  ret void
}
