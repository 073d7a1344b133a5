; Silent under-reporting, fixed: a function whose only cycle is irreducible
; (entered at two places, so LoopInfo has no loop) is reported, as an
; estimate that says why; scalable vectors are counted at vscale = 1 and
; say so instead of being called exact.
; RUN: opt -load-pass-plugin=%roofline_plugin -passes='print<roofline>' -disable-output %s 2>&1 | FileCheck %s
;
; irr: `if (k) goto inside; for (;;) { a[i] *= 2; inside: a[i] += 1; if (++i >= n) break; }`
; CHECK-LABEL: kernel irr [function, per call]
; CHECK: flops: {{.*}} (estimate)
; CHECK: note: irreducible control flow in the function body
;
; sv: n iterations of one <vscale x 4 x float> fadd: 4*n at vscale = 1.
; CHECK-LABEL: kernel sv [function, per call]
; CHECK-NEXT: flops: 4*n (estimate)
; CHECK: note: scalable vectors at block 'loop': counted at vscale = 1 (their minimum length); the run does vscale times more work
target triple = "x86_64-pc-linux-gnu"

define dso_local void @irr(ptr noundef captures(none) %0, i32 noundef %1, i32 noundef %2) local_unnamed_addr {
  %4 = icmp eq i32 %2, 0
  br i1 %4, label %7, label %5

5:                                                ; preds = %3
  %6 = load float, ptr %0, align 4
  br label %13

7:                                                ; preds = %13, %3
  %8 = phi i32 [ %19, %13 ], [ 0, %3 ]
  %9 = sext i32 %8 to i64
  %10 = getelementptr inbounds float, ptr %0, i64 %9
  %11 = load float, ptr %10, align 4
  %12 = fmul float %11, 2.000000e+00
  store float %12, ptr %10, align 4
  br label %13

13:                                               ; preds = %5, %7
  %14 = phi float [ %6, %5 ], [ %12, %7 ]
  %15 = phi i32 [ 0, %5 ], [ %8, %7 ]
  %16 = sext i32 %15 to i64
  %17 = getelementptr inbounds float, ptr %0, i64 %16
  %18 = fadd float %14, 1.000000e+00
  store float %18, ptr %17, align 4
  %19 = add nsw i32 %15, 1
  %20 = icmp slt i32 %19, %1
  br i1 %20, label %7, label %21

21:                                               ; preds = %13
  ret void
}

define void @sv(ptr %a, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %p = getelementptr float, ptr %a, i64 %i
  %v = load <vscale x 4 x float>, ptr %p
  %w = fadd <vscale x 4 x float> %v, %v
  store <vscale x 4 x float> %w, ptr %p
  %i.next = add nuw nsw i64 %i, 1
  %c = icmp ult i64 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}
