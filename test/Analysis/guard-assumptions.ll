; A guard on parameters only becomes an assumption of the counts, stated
; with where it is (Guards.cpp); a guard on data makes the counts below it
; estimates from static branch probabilities (MassFlow.cpp).
;
;   guarded:    if (n > 4) for (i = 0; i < m; ++i) x[i] *= 2
;               clang folds the loop's zero-trip test into the guard: the
;               counts are m multiplies and 4*m bytes each way, assuming
;               n > 4 && m > 0 (else none run); the footprint is exact.
;   data_guard: if (flag[0] > 0) the same loop
;               the branch has probability 1/2: m/2 multiplies, 2*m bytes
;               each way of x, plus flag's 4 bytes (an estimate); x's
;               footprint is 0 to 4*m bytes (the loop may not run).
;
; RUN: %opt_roofline -passes='print<roofline>' -roofline-all-functions -disable-output %s | FileCheck %s
; CHECK-LABEL: kernel guarded [function, per call]
; CHECK-NEXT:  flops: m (exact)
; CHECK:       bytes: load 4*m, store 4*m
; CHECK:       footprint x: read 4*m B, written 4*m B (exact)
; CHECK-NEXT:  assumes: n > 4 && m > 0 (guard at block 'entry')
; CHECK-NOT:   note:
; CHECK:       loop at :0 depth 1: trip m,

; CHECK-LABEL: kernel data_guard [function, per call]
; CHECK-NEXT:  flops: m/2 (estimate)
; CHECK:       bytes: load 2*m + 4, store 2*m
; CHECK:       footprint x: read 0 to 4*m B, written 0 to 4*m B (bounds)
; CHECK-NOT:   assumes: {{.*}}flag
; CHECK:       note: branch at block 'entry' depends on data: counts below it are estimates (static branch probabilities)

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @guarded(i64 %n, i64 %m, ptr captures(none) %x) {
entry:
  %cmp = icmp sgt i64 %n, 4
  %cmp17 = icmp sgt i64 %m, 0
  %or.cond = and i1 %cmp, %cmp17
  br i1 %or.cond, label %for.body, label %if.end

for.body:
  %i.08 = phi i64 [ %inc, %for.body ], [ 0, %entry ]
  %arrayidx = getelementptr inbounds nuw float, ptr %x, i64 %i.08
  %0 = load float, ptr %arrayidx, align 4
  %mul = fmul float %0, 2.000000e+00
  store float %mul, ptr %arrayidx, align 4
  %inc = add nuw nsw i64 %i.08, 1
  %exitcond.not = icmp eq i64 %inc, %m
  br i1 %exitcond.not, label %if.end, label %for.body

if.end:
  ret void
}

define void @data_guard(i64 %m, ptr captures(none) %x, ptr readonly captures(none) %flag) {
entry:
  %0 = load float, ptr %flag, align 4
  %cmp = fcmp ogt float %0, 0.000000e+00
  %cmp18 = icmp sgt i64 %m, 0
  %or.cond = and i1 %cmp, %cmp18
  br i1 %or.cond, label %for.body, label %if.end

for.body:
  %i.09 = phi i64 [ %inc, %for.body ], [ 0, %entry ]
  %arrayidx2 = getelementptr inbounds nuw float, ptr %x, i64 %i.09
  %1 = load float, ptr %arrayidx2, align 4
  %mul = fmul float %1, 2.000000e+00
  store float %mul, ptr %arrayidx2, align 4
  %inc = add nuw nsw i64 %i.09, 1
  %exitcond.not = icmp eq i64 %inc, %m
  br i1 %exitcond.not, label %if.end, label %for.body

if.end:
  ret void
}

