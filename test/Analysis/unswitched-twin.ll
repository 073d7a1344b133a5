; The O3 pipeline's twin of a nest: loop unswitching hoists a mat-vec's
; inner zero-trip test (n > 0) out of the row loop and turns the n <= 0
; copy into a memset of the output (clang-22 -O3 -march=native, IR before
; loop-vectorize, where the analysis runs):
;
;   void matmul(float *xout, const float *x, const float *w, int n, int d) {
;     for (int i = 0; i < d; i++) {
;       float val = 0.0f;
;       for (int j = 0; j < n; j++) val += w[i * n + j] * x[j];
;       xout[i] = val;
;     }
;   }
;
; The test on n has two sides that rejoin, neither through the other: the
; side with the deeper nest is the work (Guards.cpp, deeperSide), assumed
; as -O2's inner guard is: d > 0 and n > 0, 2 FLOPs (one fmuladd) per
; inner iteration, n*d of them: 2*n*d FLOP, exact; loads 4 B of w and 4 B
; of x each, a 4-byte store per row. The same kernel with the twin's sides
; exchanged (the loop on the false side) is counted the same.
;
; A parameter test whose sides are as deep as each other (two loops) stays
; a split: counts below it are estimates.
;
; RUN: %opt_roofline -passes='print<roofline>' -roofline-all-functions -disable-output %s | FileCheck %s
; CHECK-LABEL: kernel matmul [function, per call]
; CHECK-NEXT:  flops: 2*n*d (exact)
; CHECK:       bytes: load 8*n*d, store 4*d
; The memset never runs where n > 0: the footprint is the nest's, exact.
; CHECK:       footprint xout: read 0 B, written 4*d B (exact)
; CHECK-NEXT:  assumes: d > 0 (guard at block 'entry')
; CHECK-NEXT:  assumes: n > 0 (guard at block 'rows.check')
; CHECK-NOT:   note:
; CHECK:       loop at :0 depth 2: trip d, flops 2*n*d, load 8*n*d, store 4*d, footprint read 4*n*d + 4*n B, written 4*d B (exact)
; CHECK-LABEL: kernel matmul_swapped [function, per call]
; CHECK-NEXT:  flops: 2*n*d (exact)
; CHECK:       footprint xout: read 0 B, written 4*d B (exact)
; CHECK-NEXT:  assumes: d > 0 (guard at block 'entry')
; CHECK-NEXT:  assumes: n >= 1 (guard at block 'rows.check')
; CHECK-NOT:   note:
; CHECK-LABEL: kernel two_loops [function, per call]
; CHECK-NEXT:  flops: {{.*}} (estimate)
; CHECK:       note: branch at block 'entry' depends on data

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @matmul(ptr writeonly captures(none) %xout, ptr readonly captures(none) %x, ptr readonly captures(none) %w, i32 %n, i32 %d) {
entry:
  %d.pos = icmp sgt i32 %d, 0
  br i1 %d.pos, label %rows.check, label %exit

rows.check:
  %n.pos = icmp sgt i32 %n, 0
  br i1 %n.pos, label %rows.pre, label %twin

twin:                                             ; the n <= 0 copy
  %d.wide = zext nneg i32 %d to i64
  %bytes = shl nuw nsw i64 %d.wide, 2
  call void @llvm.memset.p0.i64(ptr align 4 %xout, i8 0, i64 %bytes, i1 false)
  br label %exit

rows.pre:
  %n.64 = zext nneg i32 %n to i64
  %d.64 = zext nneg i32 %d to i64
  br label %row

row:
  %i = phi i64 [ 0, %rows.pre ], [ %i.next, %row.end ]
  %row.off = mul nuw nsw i64 %i, %n.64
  %w.row = getelementptr inbounds nuw float, ptr %w, i64 %row.off
  br label %dot

dot:
  %j = phi i64 [ 0, %row ], [ %j.next, %dot ]
  %val = phi float [ 0.000000e+00, %row ], [ %val.next, %dot ]
  %w.at = getelementptr inbounds nuw float, ptr %w.row, i64 %j
  %wj = load float, ptr %w.at, align 4
  %x.at = getelementptr inbounds nuw float, ptr %x, i64 %j
  %xj = load float, ptr %x.at, align 4
  %val.next = tail call float @llvm.fmuladd.f32(float %wj, float %xj, float %val)
  %j.next = add nuw nsw i64 %j, 1
  %dot.done = icmp eq i64 %j.next, %n.64
  br i1 %dot.done, label %row.end, label %dot

row.end:
  %out.at = getelementptr inbounds nuw float, ptr %xout, i64 %i
  store float %val.next, ptr %out.at, align 4
  %i.next = add nuw nsw i64 %i, 1
  %rows.done = icmp eq i64 %i.next, %d.64
  br i1 %rows.done, label %exit, label %row

exit:
  ret void
}

define void @matmul_swapped(ptr writeonly captures(none) %xout, ptr readonly captures(none) %x, ptr readonly captures(none) %w, i32 %n, i32 %d) {
entry:
  %d.pos = icmp sgt i32 %d, 0
  br i1 %d.pos, label %rows.check, label %exit

rows.check:
  %n.le = icmp slt i32 %n, 1
  br i1 %n.le, label %twin, label %rows.pre

twin:
  %d.wide = zext nneg i32 %d to i64
  %bytes = shl nuw nsw i64 %d.wide, 2
  call void @llvm.memset.p0.i64(ptr align 4 %xout, i8 0, i64 %bytes, i1 false)
  br label %exit

rows.pre:
  %n.64 = zext nneg i32 %n to i64
  %d.64 = zext nneg i32 %d to i64
  br label %row

row:
  %i = phi i64 [ 0, %rows.pre ], [ %i.next, %row.end ]
  %row.off = mul nuw nsw i64 %i, %n.64
  %w.row = getelementptr inbounds nuw float, ptr %w, i64 %row.off
  br label %dot

dot:
  %j = phi i64 [ 0, %row ], [ %j.next, %dot ]
  %val = phi float [ 0.000000e+00, %row ], [ %val.next, %dot ]
  %w.at = getelementptr inbounds nuw float, ptr %w.row, i64 %j
  %wj = load float, ptr %w.at, align 4
  %x.at = getelementptr inbounds nuw float, ptr %x, i64 %j
  %xj = load float, ptr %x.at, align 4
  %val.next = tail call float @llvm.fmuladd.f32(float %wj, float %xj, float %val)
  %j.next = add nuw nsw i64 %j, 1
  %dot.done = icmp eq i64 %j.next, %n.64
  br i1 %dot.done, label %row.end, label %dot

row.end:
  %out.at = getelementptr inbounds nuw float, ptr %xout, i64 %i
  store float %val.next, ptr %out.at, align 4
  %i.next = add nuw nsw i64 %i, 1
  %rows.done = icmp eq i64 %i.next, %d.64
  br i1 %rows.done, label %exit, label %row

exit:
  ret void
}

; if (flag) scale x by 2 else by 3: one loop each side.
define void @two_loops(ptr captures(none) %x, i64 %m, i32 %flag) {
entry:
  %f = icmp ne i32 %flag, 0
  br i1 %f, label %a, label %b

a:
  %i = phi i64 [ 0, %entry ], [ %i.next, %a ]
  %pa = getelementptr inbounds nuw float, ptr %x, i64 %i
  %va = load float, ptr %pa, align 4
  %ma = fmul float %va, 2.000000e+00
  store float %ma, ptr %pa, align 4
  %i.next = add nuw nsw i64 %i, 1
  %a.done = icmp eq i64 %i.next, %m
  br i1 %a.done, label %exit, label %a

b:
  %k = phi i64 [ 0, %entry ], [ %k.next, %b ]
  %pb = getelementptr inbounds nuw float, ptr %x, i64 %k
  %vb = load float, ptr %pb, align 4
  %mb = fmul float %vb, 3.000000e+00
  store float %mb, ptr %pb, align 4
  %k.next = add nuw nsw i64 %k, 1
  %b.done = icmp eq i64 %k.next, %m
  br i1 %b.done, label %exit, label %b

exit:
  ret void
}

declare void @llvm.memset.p0.i64(ptr writeonly captures(none), i8, i64, i1 immarg)
declare float @llvm.fmuladd.f32(float, float, float)
