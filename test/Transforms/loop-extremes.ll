; The fewest and most iterations of one entry of a loop nest (two counters
; per nest, merged by maximum; the fewest as its complement, so that 0 is
; "no entry yet"). walk's list loop has no trip count on entry: at its exit,
; the iteration counter's growth since the preheader. scale's loop has one:
; in the preheader, from the trip count n. At the return both go into the
; thread's block by maximum, not by sum. The loop records name the counters
; (the last two fields); each loop is all its function does, so its time is
; its calls' (ticks -3: no timer of its own). walk chases pointers loaded in
; its loop: no footprint and no footprint counters, so its block is [calls,
; ticks, timed, 4 counters].
; From: clang -O1 -gline-tables-only -fno-unroll-loops -fno-vectorize of
;   double walk(const struct node *p) { double s = 0;
;     while (p) { s += p->v; p = p->next; } return s; }
;   void scale(double *a, long n) { for (long i = 0; i < n; i++) a[i] *= 2.0; }
; RUN: %opt_roofline -passes=roofline-instrument -roofline-all-functions -roofline-cache-model=false -verify-each -S %s | FileCheck %s
; CHECK-DAG: @__roofline_walk.loops = private constant [1 x %roofline.loop] [%roofline.loop { i32 0, ptr @__roofline_walk.loop0.file, i32 4, i32 0, i32 0, i32 1, i32 -3, i32 -1, i32 2, i32 3 }]
; CHECK-DAG: @__roofline_scale.loops = private constant [1 x %roofline.loop] [%roofline.loop { i32 0, ptr @__roofline_scale.loop0.file, i32 11, i32 0, i32 0, i32 1, i32 -3, i32 -1, i32 2, i32 3 }]

; CHECK-LABEL: define dso_local double @walk(
; CHECK: [[ITER:%[0-9]+]] = add i64 %roofline.counter1.1, 1
; CHECK: .loopexit:
; CHECK: [[N:%[0-9]+]] = sub i64 [[ITER]], 0
; CHECK-NEXT: [[MOST:%[0-9]+]] = call i64 @llvm.umax.i64(i64 0, i64 [[N]])
; CHECK-NEXT: [[NOT:%[0-9]+]] = xor i64 [[N]], -1
; CHECK-NEXT: [[FEWEST:%[0-9]+]] = call i64 @llvm.umax.i64(i64 0, i64 [[NOT]])
; CHECK-DAG: %roofline.counter3.0 = phi i64 [ 0, %{{[0-9]+}} ], [ [[MOST]], %{{[.0-9a-z]+}} ]
; CHECK-DAG: %roofline.counter2.0 = phi i64 [ 0, %{{[0-9]+}} ], [ [[FEWEST]], %{{[.0-9a-z]+}} ]
; CHECK: [[SLOT3:%[0-9]+]] = getelementptr [7 x i64], ptr {{%[0-9]+}}, i64 0, i64 5
; CHECK-NEXT: [[OLD3:%[0-9]+]] = load i64, ptr [[SLOT3]]
; CHECK-NEXT: [[NEW3:%[0-9]+]] = call i64 @llvm.umax.i64(i64 [[OLD3]], i64 %roofline.counter2.0)
; CHECK-NEXT: store i64 [[NEW3]], ptr [[SLOT3]]
; CHECK: call i64 @llvm.umax.i64(i64 {{%[0-9]+}}, i64 %roofline.counter3.0)

; CHECK-LABEL: define dso_local void @scale(
; CHECK: .preheader:
; CHECK: call i64 @llvm.umax.i64(i64 0, i64 %1)
; CHECK-NEXT: [[NOTN:%[0-9]+]] = xor i64 %1, -1
; CHECK-NEXT: call i64 @llvm.umax.i64(i64 0, i64 [[NOTN]])
; CHECK: call i64 @llvm.umax.i64(i64 {{%[0-9]+}}, i64 %roofline.counter2.0)
; CHECK: call i64 @llvm.umax.i64(i64 {{%[0-9]+}}, i64 %roofline.counter3.0)
source_filename = "x.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Function Attrs: nofree norecurse nosync nounwind memory(read, inaccessiblemem: none, target_mem0: none, target_mem1: none) uwtable
define dso_local double @walk(ptr noundef readonly captures(address_is_null) %0) local_unnamed_addr #0 !dbg !13 {
  %2 = icmp eq ptr %0, null, !dbg !16
  br i1 %2, label %11, label %3, !dbg !17

3:                                                ; preds = %1, %3
  %4 = phi double [ %7, %3 ], [ 0.000000e+00, %1 ]
  %5 = phi ptr [ %9, %3 ], [ %0, %1 ]
  %6 = load double, ptr %5, align 8, !dbg !18, !tbaa !19
  %7 = fadd double %4, %6, !dbg !24
  %8 = getelementptr inbounds nuw i8, ptr %5, i64 8, !dbg !25
  %9 = load ptr, ptr %8, align 8, !dbg !26, !tbaa !27
  %10 = icmp eq ptr %9, null, !dbg !28
  br i1 %10, label %11, label %3, !dbg !29, !llvm.loop !30

11:                                               ; preds = %3, %1
  %12 = phi double [ 0.000000e+00, %1 ], [ %7, %3 ], !dbg !35
  ret double %12, !dbg !36
}

; Function Attrs: nofree norecurse nosync nounwind memory(argmem: readwrite) uwtable
define dso_local void @scale(ptr noundef captures(none) %0, i64 noundef %1) local_unnamed_addr #1 !dbg !37 {
  %3 = icmp sgt i64 %1, 0, !dbg !38
  br i1 %3, label %5, label %4, !dbg !39

4:                                                ; preds = %5, %2
  ret void, !dbg !40

5:                                                ; preds = %2, %5
  %6 = phi i64 [ %10, %5 ], [ 0, %2 ]
  %7 = getelementptr inbounds nuw double, ptr %0, i64 %6, !dbg !41
  %8 = load double, ptr %7, align 8, !dbg !42, !tbaa !43
  %9 = fmul double %8, 2.000000e+00, !dbg !44
  store double %9, ptr %7, align 8, !dbg !45, !tbaa !43
  %10 = add nuw nsw i64 %6, 1, !dbg !46
  %11 = icmp eq i64 %10, %1, !dbg !47
  br i1 %11, label %4, label %5, !dbg !48, !llvm.loop !49
}

attributes #0 = { nofree norecurse nosync nounwind memory(read, inaccessiblemem: none, target_mem0: none, target_mem1: none) uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { nofree norecurse nosync nounwind memory(argmem: readwrite) uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3, !4, !5, !6, !7}
!llvm.errno.tbaa = !{!9}

!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "Debian clang version 22.1.8 (1~deb12u1)", isOptimized: true, runtimeVersion: 0, emissionKind: LineTablesOnly, splitDebugInlining: false, nameTableKind: None)
!1 = !DIFile(filename: "x.c", directory: "/src", checksumkind: CSK_MD5, checksum: "efad57b19201f510addd6c84af62a698")
!2 = !{i32 7, !"Dwarf Version", i32 5}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 1, !"wchar_size", i32 4}
!5 = !{i32 8, !"PIC Level", i32 2}
!6 = !{i32 7, !"PIE Level", i32 2}
!7 = !{i32 7, !"uwtable", i32 2}
!8 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!9 = !{!10, !10, i64 0}
!10 = !{!"int", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
!13 = distinct !DISubprogram(name: "walk", scope: !1, file: !1, line: 2, type: !14, scopeLine: 2, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, keyInstructions: true)
!14 = !DISubroutineType(types: !15)
!15 = !{}
!16 = !DILocation(line: 4, column: 3, scope: !13, atomGroup: 8, atomRank: 1)
!17 = !DILocation(line: 4, column: 3, scope: !13, atomGroup: 9, atomRank: 1)
!18 = !DILocation(line: 5, column: 13, scope: !13)
!19 = !{!20, !21, i64 0}
!20 = !{!"node", !21, i64 0, !22, i64 8}
!21 = !{!"double", !11, i64 0}
!22 = !{!"p1 _ZTS4node", !23, i64 0}
!23 = !{!"any pointer", !11, i64 0}
!24 = !DILocation(line: 5, column: 7, scope: !13, atomGroup: 4, atomRank: 2)
!25 = !DILocation(line: 6, column: 12, scope: !13)
!26 = !DILocation(line: 6, column: 12, scope: !13, atomGroup: 5, atomRank: 2)
!27 = !{!20, !22, i64 8}
!28 = !DILocation(line: 4, column: 3, scope: !13, atomGroup: 2, atomRank: 1)
!29 = !DILocation(line: 4, column: 3, scope: !13, atomGroup: 3, atomRank: 1)
!30 = distinct !{!30, !31, !32, !33, !34}
!31 = !DILocation(line: 4, column: 3, scope: !13)
!32 = !DILocation(line: 7, column: 3, scope: !13)
!33 = !{!"llvm.loop.mustprogress"}
!34 = !{!"llvm.loop.unroll.disable"}
!35 = !DILocation(line: 0, scope: !13)
!36 = !DILocation(line: 8, column: 3, scope: !13, atomGroup: 7, atomRank: 1)
!37 = distinct !DISubprogram(name: "scale", scope: !1, file: !1, line: 10, type: !14, scopeLine: 10, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, keyInstructions: true)
!38 = !DILocation(line: 11, column: 22, scope: !37, atomGroup: 10, atomRank: 1)
!39 = !DILocation(line: 11, column: 3, scope: !37, atomGroup: 11, atomRank: 1)
!40 = !DILocation(line: 13, column: 1, scope: !37, atomGroup: 7, atomRank: 1)
!41 = !DILocation(line: 12, column: 5, scope: !37)
!42 = !DILocation(line: 12, column: 10, scope: !37)
!43 = !{!21, !21, i64 0}
!44 = !DILocation(line: 12, column: 10, scope: !37, atomGroup: 4, atomRank: 2)
!45 = !DILocation(line: 12, column: 10, scope: !37, atomGroup: 4, atomRank: 1)
!46 = !DILocation(line: 11, column: 28, scope: !37, atomGroup: 5, atomRank: 2)
!47 = !DILocation(line: 11, column: 22, scope: !37, atomGroup: 2, atomRank: 1)
!48 = !DILocation(line: 11, column: 3, scope: !37, atomGroup: 3, atomRank: 1)
!49 = distinct !{!49, !50, !51, !33, !34}
!50 = !DILocation(line: 11, column: 3, scope: !37)
!51 = !DILocation(line: 12, column: 13, scope: !37)
