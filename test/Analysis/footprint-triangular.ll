; The footprint of a triangular nest (Footprint.cpp, AccessLattice.cpp):
; distinct bytes, not accesses.
;
;   for (i = 0; i < n; ++i) for (j = 0; j <= i; ++j) a[i*n + j] += 1.0
;
; Row i touches a[i*n .. i*n + i]: i + 1 doubles, disjoint from other rows
; (i < n). Accesses and distinct elements are both sum(i + 1) = n(n + 1)/2,
; so counted bytes and footprint are 8*n(n + 1)/2 = 4*n^2 + 4*n each way,
; exact; the FLOPs are (n^2 + n)/2 adds.
;
; RUN: %opt_roofline -passes='print<roofline>' -roofline-all-functions -disable-output %s | FileCheck %s
; CHECK-LABEL: kernel tri [function, per call]
; CHECK-NEXT:  flops: (n^2 + n)/2 (exact)
; CHECK:       bytes: load 4*n^2 + 4*n, store 4*n^2 + 4*n
; CHECK:       footprint per call: read 4*n^2 + 4*n B, written 4*n^2 + 4*n B (exact)
; CHECK-NEXT:  footprint a: read 4*n^2 + 4*n B, written 4*n^2 + 4*n B (exact)
; CHECK-NEXT:  assumes: n > 0 (guard at block 'entry')
; CHECK-NEXT:  loop at :0 depth 2: trip n, flops (n^2 + n)/2, load 4*n^2 + 4*n, store 4*n^2 + 4*n, footprint read 4*n^2 + 4*n B, written 4*n^2 + 4*n B (exact)

; The same rows with a gap (j < i): row 0 is empty and the nest's inner
; loop is guarded. Its accesses are n(n - 1)/2, and the footprint is their
; bytes at most (a bound: the guarded block runs on some iterations only).
; CHECK-LABEL: kernel strict [function, per call]
; CHECK-NEXT:  flops: (n^2 - n)/2 (exact)
; CHECK:       footprint a: read 0 to 4*n^2 - 4*n B, written 0 to 4*n^2 - 4*n B (bounds)
; A value read in the inner loop that does not move with it, at -O0's loop
; shape (the inner loop's test in its header, no guard):
;
;   for (i = 0; i < n; ++i) for (j = 0; j < i; ++j) x[j] += y[i]
;
; y[i] is read for i = 1 .. n-1 only (at i = 0 the inner loop does not run):
; 8*(n - 1) bytes. Its range y[0 .. n-1] holds them but is not filled, so
; 8*n is an upper bound, not the footprint; the lower bound is 0. x[j] for
; j < i, i < n: the largest row, x[0 .. n-2], 8*(n - 1) bytes exact.
; CHECK-LABEL: kernel bcast [function, per call]
; CHECK:       footprint x: read 8*n - 8 B, written 8*n - 8 B (exact if n - 1 >= 0 for x
; CHECK-NEXT:  footprint y: read 0 to 8*n B, written 0 B (bounds)
; CHECK:       footprint note: the access at block 'for.body3' runs at some points of its range only (a loop around it may not run): its footprint is at most its range
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @tri(i64 %n, ptr captures(none) %a) {
entry:
  %cmp16 = icmp sgt i64 %n, 0
  br i1 %cmp16, label %for.cond1.preheader, label %for.cond.cleanup

for.cond1.preheader:
  %indvars.iv = phi i64 [ %indvars.iv.next, %for.cond.cleanup3 ], [ 1, %entry ]
  %i.017 = phi i64 [ %inc7, %for.cond.cleanup3 ], [ 0, %entry ]
  %mul = mul nuw nsw i64 %i.017, %n
  %0 = getelementptr double, ptr %a, i64 %mul
  br label %for.body4

for.cond.cleanup:
  ret void

for.cond.cleanup3:
  %inc7 = add nuw nsw i64 %i.017, 1
  %indvars.iv.next = add nuw i64 %indvars.iv, 1
  %exitcond18.not = icmp eq i64 %inc7, %n
  br i1 %exitcond18.not, label %for.cond.cleanup, label %for.cond1.preheader

for.body4:
  %j.015 = phi i64 [ 0, %for.cond1.preheader ], [ %inc, %for.body4 ]
  %arrayidx = getelementptr double, ptr %0, i64 %j.015
  %1 = load double, ptr %arrayidx, align 8
  %add5 = fadd double %1, 1.000000e+00
  store double %add5, ptr %arrayidx, align 8
  %inc = add nuw nsw i64 %j.015, 1
  %exitcond.not = icmp eq i64 %inc, %indvars.iv
  br i1 %exitcond.not, label %for.cond.cleanup3, label %for.body4
}

define void @strict(i64 %n, ptr captures(none) %a) {
entry:
  %cmp17 = icmp sgt i64 %n, 0
  br i1 %cmp17, label %for.cond1.preheader, label %for.cond.cleanup

for.cond1.preheader:
  %i.018 = phi i64 [ %inc7, %for.cond.cleanup3 ], [ 0, %entry ]
  %cmp215.not = icmp eq i64 %i.018, 0
  br i1 %cmp215.not, label %for.cond.cleanup3, label %for.body4.lr.ph

for.body4.lr.ph:
  %mul = mul nuw nsw i64 %i.018, %n
  %0 = getelementptr double, ptr %a, i64 %mul
  br label %for.body4

for.cond.cleanup:
  ret void

for.cond.cleanup3:
  %inc7 = add nuw nsw i64 %i.018, 1
  %exitcond19.not = icmp eq i64 %inc7, %n
  br i1 %exitcond19.not, label %for.cond.cleanup, label %for.cond1.preheader

for.body4:
  %j.016 = phi i64 [ 0, %for.body4.lr.ph ], [ %inc, %for.body4 ]
  %arrayidx = getelementptr double, ptr %0, i64 %j.016
  %1 = load double, ptr %arrayidx, align 8
  %add5 = fadd double %1, 1.000000e+00
  store double %add5, ptr %arrayidx, align 8
  %inc = add nuw nsw i64 %j.016, 1
  %exitcond.not = icmp eq i64 %inc, %i.018
  br i1 %exitcond.not, label %for.cond.cleanup3, label %for.body4
}


define void @bcast(i64 %n, ptr %x, ptr %y) {
entry:
  br label %for.cond

for.cond:
  %i.0 = phi i64 [ 0, %entry ], [ %inc6, %for.inc5 ]
  %cmp = icmp slt i64 %i.0, %n
  br i1 %cmp, label %for.cond1, label %for.end7

for.cond1:
  %j.0 = phi i64 [ 0, %for.cond ], [ %inc, %for.body3 ]
  %cmp2 = icmp slt i64 %j.0, %i.0
  br i1 %cmp2, label %for.body3, label %for.inc5

for.body3:
  %arrayidx = getelementptr inbounds double, ptr %y, i64 %i.0
  %0 = load double, ptr %arrayidx, align 8
  %arrayidx4 = getelementptr inbounds double, ptr %x, i64 %j.0
  %1 = load double, ptr %arrayidx4, align 8
  %add = fadd double %1, %0
  store double %add, ptr %arrayidx4, align 8
  %inc = add nsw i64 %j.0, 1
  br label %for.cond1

for.inc5:
  %inc6 = add nsw i64 %i.0, 1
  br label %for.cond

for.end7:
  ret void
}
