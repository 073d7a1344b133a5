; Trip counts (TripCounts.cpp): ScalarEvolution's backedge-taken count read
; as a formula in the parameters, one loop shape a function. Each count is
; derived by hand from the C source (clang -O1, value names kept):
;
;   step3:  for (i = 0; i < n; i += 3)       i = 0, 3, ..., 3k < n:
;           ceil(n/3) = floor((n - 1)/3) + 1 iterations for n > 0; one
;           fadd and a 4-byte load and store each.
;   down:   for (i = n; i > m; --i)          n - m iterations when n > m.
;   unknown: for (i = 0; !stop[i]; ++i)      no closed form: the trip count
;           is the variable trip_L<header>; stop[] is read once more than
;           the body runs (the exit test), so 4*trip + 4 bytes of it.
;   nested: for i < n, for j < m             n*m, a loop row for the nest.
;   strided: for (unsigned long i = 0; i < n; i += m)  ceil(n/m) =
;           floor((n - 1)/m) + 1 when m >= 1 and n >= 1; the unsigned
;           counter must not wrap past the last value below n: n - 1 + m
;           <= 2^64 - 1, a bound past 64-bit polynomials, stated in full.
;
; RUN: %opt_roofline -passes='print<roofline>' -roofline-all-functions -disable-output %s | FileCheck %s
; CHECK-LABEL: kernel step3 [function, per call]
; CHECK-NEXT:  flops: floor((n - 1)/3) + 1 (exact)
; CHECK:       bytes: load 4*floor((n - 1)/3) + 4, store 4*floor((n - 1)/3) + 4
; CHECK:       assumes: n > 0 (guard at block 'entry')
; CHECK:       loop at :0 depth 1: trip floor((n - 1)/3) + 1,

; CHECK-LABEL: kernel down [function, per call]
; CHECK-NEXT:  flops: n - m (exact)
; CHECK:       bytes: load 4*n - 4*m, store 4*n - 4*m
; CHECK:       assumes: n > m (guard at block 'entry')
; CHECK:       loop at :0 depth 1: trip n - m,

; CHECK-LABEL: kernel unknown [function, per call]
; CHECK-NEXT:  flops: trip_Lfor.body (estimate)
; CHECK:       param stop: read, read 4*trip_Lfor.body + 4 B, written 0 B
; CHECK:       note: loop 'for.body': trip count unknown (ScalarEvolution could not compute it), written trip_Lfor.body
; CHECK:       loop at :0 depth 1: trip trip_Lfor.body,

; CHECK-LABEL: kernel nested [function, per call]
; CHECK-NEXT:  flops: n*m (exact)
; CHECK:       bytes: load 8*n*m, store 8*n*m
; CHECK:       loop at :0 depth 2: trip n, flops n*m,
; CHECK-NOT:   loop at

; CHECK-LABEL: kernel strided [function, per call]
; CHECK-NEXT:  flops: floor((n - 1)/m) + 1 (exact)
; CHECK:       assumes: n != 0 (guard at block 'entry')
; CHECK-NEXT:  assumes: m - 1 >= 0 (loop 'for.body')
; CHECK-NEXT:  assumes: n - 1 >= 0 (loop 'for.body')
; CHECK-NEXT:  assumes: n + m - 1 <= 18446744073709551615 (loop 'for.body')

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @step3(i64 %n, ptr captures(none) %x) {
entry:
  %cmp7 = icmp sgt i64 %n, 0
  br i1 %cmp7, label %for.body, label %for.cond.cleanup

for.cond.cleanup:
  ret void

for.body:
  %i.08 = phi i64 [ %add2, %for.body ], [ 0, %entry ]
  %arrayidx = getelementptr inbounds nuw float, ptr %x, i64 %i.08
  %0 = load float, ptr %arrayidx, align 4
  %add = fadd float %0, 1.000000e+00
  store float %add, ptr %arrayidx, align 4
  %add2 = add nuw nsw i64 %i.08, 3
  %cmp = icmp slt i64 %add2, %n
  br i1 %cmp, label %for.body, label %for.cond.cleanup
}

define void @down(i64 %n, i64 %m, ptr captures(none) %x) {
entry:
  %cmp6 = icmp sgt i64 %n, %m
  br i1 %cmp6, label %for.body, label %for.cond.cleanup

for.cond.cleanup:
  ret void

for.body:
  %i.07 = phi i64 [ %dec, %for.body ], [ %n, %entry ]
  %arrayidx = getelementptr inbounds float, ptr %x, i64 %i.07
  %0 = load float, ptr %arrayidx, align 4
  %mul = fmul float %0, 2.000000e+00
  store float %mul, ptr %arrayidx, align 4
  %dec = add nsw i64 %i.07, -1
  %cmp = icmp sgt i64 %dec, %m
  br i1 %cmp, label %for.body, label %for.cond.cleanup
}

define void @unknown(ptr captures(none) %x, ptr readonly captures(none) %stop) {
entry:
  %0 = load i32, ptr %stop, align 4
  %tobool.not7 = icmp eq i32 %0, 0
  br i1 %tobool.not7, label %for.body, label %for.cond.cleanup

for.cond.cleanup:
  ret void

for.body:
  %i.08 = phi i64 [ %inc, %for.body ], [ 0, %entry ]
  %arrayidx1 = getelementptr inbounds nuw float, ptr %x, i64 %i.08
  %1 = load float, ptr %arrayidx1, align 4
  %add = fadd float %1, 1.000000e+00
  store float %add, ptr %arrayidx1, align 4
  %inc = add nuw nsw i64 %i.08, 1
  %arrayidx = getelementptr inbounds nuw i32, ptr %stop, i64 %inc
  %2 = load i32, ptr %arrayidx, align 4
  %tobool.not = icmp eq i32 %2, 0
  br i1 %tobool.not, label %for.body, label %for.cond.cleanup
}

define void @nested(i64 %n, i64 %m, ptr captures(none) %c) {
entry:
  %cmp23 = icmp sgt i64 %n, 0
  br i1 %cmp23, label %for.cond1.preheader.lr.ph, label %for.cond.cleanup

for.cond1.preheader.lr.ph:
  %cmp221 = icmp sgt i64 %m, 0
  br label %for.cond1.preheader

for.cond1.preheader:
  %i.024 = phi i64 [ 0, %for.cond1.preheader.lr.ph ], [ %inc10, %for.cond.cleanup3 ]
  br i1 %cmp221, label %for.body4.lr.ph, label %for.cond.cleanup3

for.body4.lr.ph:
  %mul = mul nuw nsw i64 %i.024, %m
  %0 = getelementptr double, ptr %c, i64 %mul
  br label %for.body4

for.cond.cleanup:
  ret void

for.cond.cleanup3:
  %inc10 = add nuw nsw i64 %i.024, 1
  %exitcond25.not = icmp eq i64 %inc10, %n
  br i1 %exitcond25.not, label %for.cond.cleanup, label %for.cond1.preheader

for.body4:
  %j.022 = phi i64 [ 0, %for.body4.lr.ph ], [ %inc, %for.body4 ]
  %arrayidx = getelementptr double, ptr %0, i64 %j.022
  %1 = load double, ptr %arrayidx, align 8
  %mul5 = fmul double %1, 5.000000e-01
  store double %mul5, ptr %arrayidx, align 8
  %inc = add nuw nsw i64 %j.022, 1
  %exitcond.not = icmp eq i64 %inc, %m
  br i1 %exitcond.not, label %for.cond.cleanup3, label %for.body4
}

define void @strided(i64 %n, i64 %m, ptr captures(none) %x) {
entry:
  %cmp3.not = icmp eq i64 %n, 0
  br i1 %cmp3.not, label %for.cond.cleanup, label %for.body

for.cond.cleanup:
  ret void

for.body:
  %i.04 = phi i64 [ %add, %for.body ], [ 0, %entry ]
  %arrayidx = getelementptr inbounds nuw float, ptr %x, i64 %i.04
  %0 = load float, ptr %arrayidx, align 4
  %mul = fmul float %0, 2.000000e+00
  store float %mul, ptr %arrayidx, align 4
  %add = add i64 %i.04, %m
  %cmp = icmp ult i64 %add, %n
  br i1 %cmp, label %for.body, label %for.cond.cleanup
}
