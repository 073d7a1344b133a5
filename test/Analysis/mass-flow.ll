; The mass flow (MassFlow.cpp), one feature a function: how often each
; block runs within one iteration of its loop, and a loop's total summed
; over its trip count. From clang -O1 (header_exit: -O0 with sroa,
; instcombine and simplifycfg, so its loop is not rotated).
;
;   triangle:    for (i = 0; i < n; ++i) for (j = 0; j < i; ++j) x[j] += 1.0
;                the inner total is summed over the outer counter
;                (Faulhaber): sum_{i<n} i = (n^2 - n)/2 adds, 8 bytes each
;                way per add: 4*n^2 - 4*n. Exact.
;   weighted:    for (i < n) if (flag[i] > 0) x[i] *= 2, with
;                __builtin_expect_with_probability(.., 0.75): the branch's
;                weights send 3/4 of the mass to the multiply: 3*n/4 FLOPs
;                (an estimate), loads 4*n of flag + 3*n of x, stores 3*n.
;   two_exits:   for (i < n) if (x[i] < 0) { y[0] += 1; return; } then
;                y[1] *= 2: the loop's two exits get half the mass each, and
;                the blocks after them are estimates: 1/2 + 1/2 = 1 FLOP
;                (one of them runs on every call), loads 4*n + 4 + 4 halves.
;   header_exit: for (i = 0; i < n; ++i) x[i] *= 2 with the test in the
;                header: the header runs n + 1 times, the body n (the last
;                iteration stops at the exit test): n FLOPs, exact.
;
; RUN: %opt_roofline -passes='print<roofline>' -roofline-all-functions -disable-output %s | FileCheck %s
; CHECK-LABEL: kernel triangle [function, per call]
; CHECK-NEXT:  flops: (n^2 - n)/2 (exact)
; CHECK:       bytes: load 4*n^2 - 4*n, store 4*n^2 - 4*n
; CHECK-NOT:   {{^}}  note:
; CHECK:       loop at :0 depth 2: trip n, flops (n^2 - n)/2, load 4*n^2 - 4*n, store 4*n^2 - 4*n,

; CHECK-LABEL: kernel weighted [function, per call]
; CHECK-NEXT:  flops: 3*n/4 (estimate)
; CHECK:       bytes: load 7*n, store 3*n
; CHECK:       note: branch at block 'for.body' depends on data: counts below it are estimates (static branch probabilities)
; CHECK:       loop at :0 depth 1: trip n, flops 3*n/4, load 7*n, store 3*n (estimate)

; CHECK-LABEL: kernel two_exits [function, per call]
; CHECK-NEXT:  flops: 1 (estimate)
; CHECK:       bytes: load 4*n + 4, store 4
; CHECK:       note: loop 'for.body' has 2 exits: the code after it is weighted equally per exit
; CHECK:       loop at :0 depth 1: trip n, flops 0, load 4*n, store 0 (estimate)

; CHECK-LABEL: kernel header_exit [function, per call]
; CHECK-NEXT:  flops: n (exact)
; CHECK:       bytes: load 4*n, store 4*n
; CHECK-NOT:   {{^}}  note:
; CHECK:       loop at :0 depth 1: trip n, flops n, load 4*n, store 4*n,

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @triangle(i32 %n, ptr captures(none) %x) {
entry:
  %cmp14 = icmp sgt i32 %n, 0
  br i1 %cmp14, label %for.cond1.preheader.preheader, label %for.cond.cleanup

for.cond1.preheader.preheader:
  %wide.trip.count20 = zext nneg i32 %n to i64
  br label %for.cond1.preheader

for.cond1.preheader:
  %indvars.iv17 = phi i64 [ 0, %for.cond1.preheader.preheader ], [ %indvars.iv.next18, %for.cond.cleanup3 ]
  %cmp212.not = icmp eq i64 %indvars.iv17, 0
  br i1 %cmp212.not, label %for.cond.cleanup3, label %for.body4

for.cond.cleanup:
  ret void

for.cond.cleanup3:
  %indvars.iv.next18 = add nuw nsw i64 %indvars.iv17, 1
  %exitcond21.not = icmp eq i64 %indvars.iv.next18, %wide.trip.count20
  br i1 %exitcond21.not, label %for.cond.cleanup, label %for.cond1.preheader

for.body4:
  %indvars.iv = phi i64 [ %indvars.iv.next, %for.body4 ], [ 0, %for.cond1.preheader ]
  %arrayidx = getelementptr inbounds nuw double, ptr %x, i64 %indvars.iv
  %0 = load double, ptr %arrayidx, align 8
  %add = fadd double %0, 1.000000e+00
  store double %add, ptr %arrayidx, align 8
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %indvars.iv17
  br i1 %exitcond.not, label %for.cond.cleanup3, label %for.body4
}

define void @weighted(i32 %n, ptr captures(none) %x, ptr readonly captures(none) %flag) {
entry:
  %cmp8 = icmp sgt i32 %n, 0
  br i1 %cmp8, label %for.body.preheader, label %for.cond.cleanup

for.body.preheader:
  %wide.trip.count = zext nneg i32 %n to i64
  br label %for.body

for.cond.cleanup:
  ret void

for.body:
  %indvars.iv = phi i64 [ 0, %for.body.preheader ], [ %indvars.iv.next, %for.inc ]
  %arrayidx = getelementptr inbounds nuw i32, ptr %flag, i64 %indvars.iv
  %0 = load i32, ptr %arrayidx, align 4
  %cmp1 = icmp sgt i32 %0, 0
  br i1 %cmp1, label %if.then, label %for.inc, !prof !0

if.then:
  %arrayidx4 = getelementptr inbounds nuw float, ptr %x, i64 %indvars.iv
  %1 = load float, ptr %arrayidx4, align 4
  %mul = fmul float %1, 2.000000e+00
  store float %mul, ptr %arrayidx4, align 4
  br label %for.inc

for.inc:
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.cond.cleanup, label %for.body
}

define void @two_exits(i32 %n, ptr readonly captures(none) %x, ptr captures(none) %y) {
entry:
  %cmp.not8 = icmp sgt i32 %n, 0
  br i1 %cmp.not8, label %for.body.preheader, label %for.end

for.body.preheader:
  %wide.trip.count = zext nneg i32 %n to i64
  br label %for.body

for.cond:
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.end, label %for.body

for.body:
  %indvars.iv = phi i64 [ 0, %for.body.preheader ], [ %indvars.iv.next, %for.cond ]
  %arrayidx = getelementptr inbounds nuw float, ptr %x, i64 %indvars.iv
  %0 = load float, ptr %arrayidx, align 4
  %cmp1 = fcmp olt float %0, 0.000000e+00
  br i1 %cmp1, label %if.then, label %for.cond

if.then:
  %1 = load float, ptr %y, align 4
  %add = fadd float %1, 1.000000e+00
  store float %add, ptr %y, align 4
  br label %return

for.end:
  %arrayidx3 = getelementptr inbounds nuw i8, ptr %y, i64 4
  %2 = load float, ptr %arrayidx3, align 4
  %mul = fmul float %2, 2.000000e+00
  store float %mul, ptr %arrayidx3, align 4
  br label %return

return:
  ret void
}

define void @header_exit(i32 %n, ptr %x) {
entry:
  br label %for.cond

for.cond:
  %i.0 = phi i32 [ 0, %entry ], [ %inc, %for.body ]
  %cmp = icmp slt i32 %i.0, %n
  br i1 %cmp, label %for.body, label %for.end

for.body:
  %idxprom = zext nneg i32 %i.0 to i64
  %arrayidx = getelementptr inbounds nuw float, ptr %x, i64 %idxprom
  %0 = load float, ptr %arrayidx, align 4
  %mul = fmul float %0, 2.000000e+00
  store float %mul, ptr %arrayidx, align 4
  %inc = add nuw nsw i32 %i.0, 1
  br label %for.cond

for.end:
  ret void
}

!0 = !{!"branch_weights", !"expected", i32 1610612736, i32 536870913}
