; Integer operations: the user's work (operations on data: loaded values,
; calls' results, floating point) counts, by width and kind; address
; arithmetic, induction variables and loop control do not
; (docs/counting.md, "Integer operations").
; RUN: %opt_roofline -passes='print<roofline>' -roofline-all-functions -disable-output %s | FileCheck %s
target triple = "x86_64-unknown-linux-gnu"

; A checksum: per iteration, the loaded byte widened (free), one xor and one
; mul of the running hash (i32): 2n. The i++ (an induction variable) and the
; i < n test (a branch on a counter) do not count, nor the GEP.
; CHECK-LABEL: kernel fnv
; CHECK: intops: 2*n
; CHECK-NEXT: i32 ops: mul n; bitwise n;
define i32 @fnv(i64 %n, ptr %s) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %h = phi i32 [ -2128831035, %entry ], [ %h.next, %loop ]
  %p = getelementptr inbounds i8, ptr %s, i64 %i
  %c = load i8, ptr %p
  %w = zext i8 %c to i32
  %x = xor i32 %h, %w
  %h.next = mul i32 %x, 16777619
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret i32 %h.next
}

; A relaxation (Floyd-Warshall's cell): d = min(d, a + b) on loaded i32s:
; one add and one compare-select per iteration (the icmp that only picks
; between the two values counts with its select, as smin would): 2n. The
; index arithmetic i*4, i+1 that feeds only addresses counts nothing.
; CHECK-LABEL: kernel relax
; CHECK: intops: 2*n
; CHECK-NEXT: i32 ops: add n; compare n;
define void @relax(i64 %n, ptr %d, ptr %a, ptr %b) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %off = shl i64 %i, 2
  %pd = getelementptr inbounds i8, ptr %d, i64 %off
  %pa = getelementptr inbounds i32, ptr %a, i64 %i
  %j = add i64 %i, 1
  %pb = getelementptr inbounds i32, ptr %b, i64 %j
  %vd = load i32, ptr %pd
  %va = load i32, ptr %pa
  %vb = load i32, ptr %pb
  %sum = add nsw i32 %va, %vb
  %lt = icmp slt i32 %vd, %sum
  %m = select i1 %lt, i32 %vd, i32 %sum
  store i32 %m, ptr %pd
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; A branch on data is the user's logic: the compare of a loaded value
; counts (n), and so does the count it guards (at most n, an estimate). A
; counter stepped every iteration by an invariant amount is an induction
; variable even when its value is returned: s += k counts nothing.
; CHECK-LABEL: kernel histogram
; CHECK: i64 ops: add {{.*}}; compare n;
define i64 @histogram(i64 %n, i64 %k, ptr %a) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %latch ]
  %c = phi i64 [ 0, %entry ], [ %c.next, %latch ]
  %p = getelementptr inbounds i64, ptr %a, i64 %i
  %v = load i64, ptr %p
  %big = icmp sgt i64 %v, 100
  br i1 %big, label %then, label %latch
then:
  %c.inc = add i64 %c, 1
  br label %latch
latch:
  %c.next = phi i64 [ %c.inc, %then ], [ %c, %loop ]
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret i64 %c.next
}

; CHECK-LABEL: kernel stepped
; CHECK-NOT: intops
; CHECK: intensity
define i64 @stepped(i64 %n, i64 %k) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi i64 [ 0, %entry ], [ %s.next, %loop ]
  %s.next = add i64 %s, %k
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret i64 %s.next
}

; Vector lanes count, and a dot-product instruction counts two operations
; per byte pair: vpdpbusd on 16 dword lanes of 4 byte pairs is 16*4*2 = 128
; i8 dot operations; the i32 vector add of loaded data, stored, is 16 adds. The
; horizontal combine at the end (the add feeding only the reduction, and
; the reduction) is a vectorised reduction's epilogue: the scalar loop did
; those adds element by element, so they do not count.
; CHECK-LABEL: kernel int8_dot
; CHECK: intops: 144
; CHECK-NEXT: i8 ops: dot 128;
; CHECK-NEXT: i32 ops: add 16;
define i32 @int8_dot(ptr %p) {
  %pa = getelementptr inbounds <16 x i32>, ptr %p, i64 1
  %pb = getelementptr inbounds <16 x i32>, ptr %p, i64 2
  %acc = load <16 x i32>, ptr %p
  %a = load <16 x i32>, ptr %pa
  %b = load <16 x i32>, ptr %pb
  %d = call <16 x i32> @llvm.x86.avx512.vpdpbusd.512(<16 x i32> %acc, <16 x i32> %a, <16 x i32> %b)
  %e = add <16 x i32> %d, %acc
  store <16 x i32> %e, ptr %p
  %f = add <16 x i32> %e, %e
  %r = call i32 @llvm.vector.reduce.add.v16i32(<16 x i32> %f)
  ret i32 %r
}

; Arithmetic on counters and parameters alone is not the user's work even
; when its value is stored: a[i] = 7*i + n counts nothing (an unrolled or
; vectorised copy of the loop computes i+1, i+2 and vectors of indices that
; the source never wrote: only operations on data count alike in both).
; CHECK-LABEL: kernel iota
; CHECK-NOT: intops
; CHECK: intensity
define void @iota(i64 %n, ptr %a) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %m = mul i64 %i, 7
  %v = add i64 %m, %n
  %p = getelementptr inbounds i64, ptr %a, i64 %i
  store i64 %v, ptr %p
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; -O0's variables live in stack slots: values pass through them as through
; SSA, so the same loop counts the same work: 2n (i++ through %i.addr is an
; induction variable; the exit test loads only counters).
; CHECK-LABEL: kernel fnv_o0
; CHECK: intops: 2*n
; CHECK-NEXT: i32 ops: mul n; bitwise n;
define i32 @fnv_o0(i64 %n, ptr %s) #0 {
entry:
  %n.addr = alloca i64
  %s.addr = alloca ptr
  %h = alloca i32
  %i = alloca i64
  store i64 %n, ptr %n.addr
  store ptr %s, ptr %s.addr
  store i32 -2128831035, ptr %h
  store i64 0, ptr %i
  br label %cond
cond:
  %0 = load i64, ptr %i
  %1 = load i64, ptr %n.addr
  %cmp = icmp slt i64 %0, %1
  br i1 %cmp, label %body, label %end
body:
  %2 = load ptr, ptr %s.addr
  %3 = load i64, ptr %i
  %p = getelementptr inbounds i8, ptr %2, i64 %3
  %4 = load i8, ptr %p
  %w = zext i8 %4 to i32
  %5 = load i32, ptr %h
  %x = xor i32 %5, %w
  %m = mul i32 %x, 16777619
  store i32 %m, ptr %h
  %6 = load i64, ptr %i
  %inc = add nsw i64 %6, 1
  store i64 %inc, ptr %i
  br label %cond
end:
  %r = load i32, ptr %h
  ret i32 %r
}

declare <16 x i32> @llvm.x86.avx512.vpdpbusd.512(<16 x i32>, <16 x i32>, <16 x i32>)
declare i32 @llvm.vector.reduce.add.v16i32(<16 x i32>)
attributes #0 = { noinline optnone }

; A tail-folded vector loop (-O3 -march=native's shape for a short loop): a
; hash update h[i] = h[i]*31 + c on four lanes a masked load brings in and a
; masked store writes back. The masked load's lanes are data, as a load's
; are: one mul and one add on <4 x i32> per iteration, 4 lanes each, 8n
; (every lane: the run counts the masked-off ones too). The lane index
; compare that builds the mask works on counters, not data.
; CHECK-LABEL: kernel masked_hash
; CHECK: intops: 8*n
; CHECK-NEXT: i32 ops: add 4*n; mul 4*n;
define void @masked_hash(i64 %n, i32 %last, ptr %h) {
entry:
  %lastv.0 = insertelement <4 x i32> poison, i32 %last, i64 0
  %lastv = shufflevector <4 x i32> %lastv.0, <4 x i32> poison, <4 x i32> zeroinitializer
  br label %loop
loop:
  %j = phi i64 [ 0, %entry ], [ %j.next, %loop ]
  %i = shl i64 %j, 2
  %i32 = trunc i64 %i to i32
  %iv.0 = insertelement <4 x i32> poison, i32 %i32, i64 0
  %iv.1 = shufflevector <4 x i32> %iv.0, <4 x i32> poison, <4 x i32> zeroinitializer
  %iv = or disjoint <4 x i32> %iv.1, <i32 0, i32 1, i32 2, i32 3>
  %mask = icmp ule <4 x i32> %iv, %lastv
  %p = getelementptr inbounds i32, ptr %h, i64 %i
  %old = call <4 x i32> @llvm.masked.load.v4i32.p0(ptr %p, i32 4, <4 x i1> %mask, <4 x i32> poison)
  %m = mul <4 x i32> %old, splat (i32 31)
  %new = add <4 x i32> %m, splat (i32 7)
  call void @llvm.masked.store.v4i32.p0(<4 x i32> %new, ptr %p, i32 4, <4 x i1> %mask)
  %j.next = add nuw i64 %j, 1
  %done = icmp eq i64 %j.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}
declare <4 x i32> @llvm.masked.load.v4i32.p0(ptr, i32, <4 x i1>, <4 x i32>)
declare void @llvm.masked.store.v4i32.p0(<4 x i32>, ptr, i32, <4 x i1>)
