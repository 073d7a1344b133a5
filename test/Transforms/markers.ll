; The marker passes, one at a time, on scale(n, a, y): y[i] *= a, a static
; function (it may be inlined away, so it is marked), from clang -O1 -g
; with sroa and loop-rotate.
;
; roofline-mark-entries (PipelineStartEP, before the inliner): a pseudo
; probe with index 0x726f6f66 ("roof") at the kernel's entry and one with
; 0x726f6f70 ("roop") in each loop's preheader, each with an
; llvm.sideeffect carrying !roofline.marker that keeps it in place; the
; integer argument n gets a variable of its own at the entry marker (what
; an inlined copy's formulas are evaluated with), and the module lists the
; kernel in !roofline.sources.
; RUN: %opt_roofline -passes=roofline-mark-entries -S %s | FileCheck %s --check-prefix=MARK
; MARK-LABEL: define internal void @scale(
; MARK: call void @llvm.pseudoprobe(i64 0, i64 1919905638, i32 0, i64 -1), !dbg [[ENTRY:![0-9]+]]
; MARK-NEXT: call void @llvm.sideeffect(), !dbg [[ENTRY]], !roofline.marker
; MARK-NEXT: #dbg_value(i32 %0, [[ARG:![0-9]+]], !DIExpression(), [[ENTRY]])
; MARK: .lr.ph:
; MARK-NEXT: call void @llvm.pseudoprobe(i64 0, i64 1919905648, i32 0, i64 -1)
; MARK-NEXT: call void @llvm.sideeffect(), {{.*}}!roofline.marker
; MARK: !roofline.sources = !{[[SP:![0-9]+]]}
; MARK: [[SP]] = !{!{{[0-9]+}}, !"scale"}
; MARK: [[ARG]] = !DILocalVariable(name: "__roofline_arg0"
;
; roofline-source-summary (ScalarOptimizerLateEP, inside the inliner's
; walk): the marked kernel's own summary, on its entry marker, before its
; callers inline it: 1 FLOP, 8 B loaded and 8 B stored per iteration.
; RUN: %opt_roofline -passes='roofline-mark-entries,function(roofline-source-summary)' -S %s | FileCheck %s --check-prefix=SUMMARY
; SUMMARY: call void @llvm.pseudoprobe(i64 0, i64 1919905638, i32 0, i64 -1), !dbg {{![0-9]+}}, !roofline.summary [[S:![0-9]+]]
; SUMMARY: [[S]] = !{!"{{.*}}\22bytes_load\22:\228*n\22,\22bytes_store\22:\228*n\22,{{.*}}\22flops\22:\22n\22,{{.*}}"
;
; roofline-remove-markers (OptimizerEarlyEP, when not instrumenting):
; nothing of the markers is left; the module is the one opt prints.
; RUN: opt -S %s -o %t.plain.ll
; RUN: %opt_roofline -passes=roofline-mark-entries,roofline-remove-markers -S %s -o %t.removed.ll
; RUN: diff %t.plain.ll %t.removed.ll
source_filename = "m.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Function Attrs: nounwind uwtable
define internal void @scale(i32 noundef %0, double noundef %1, ptr noundef %2) #0 !dbg !13 {
    #dbg_value(i32 %0, !20, !DIExpression(), !25)
    #dbg_value(double %1, !21, !DIExpression(), !25)
    #dbg_value(ptr %2, !22, !DIExpression(), !25)
    #dbg_value(i32 0, !23, !DIExpression(), !26)
  %4 = icmp slt i32 0, %0, !dbg !27
  br i1 %4, label %.lr.ph, label %5, !dbg !29

.lr.ph:                                           ; preds = %3
  br label %6, !dbg !29

._crit_edge:                                      ; preds = %13
  br label %5, !dbg !30

5:                                                ; preds = %._crit_edge, %3
  br label %16

6:                                                ; preds = %.lr.ph, %13
  %.07 = phi i32 [ 0, %.lr.ph ], [ %14, %13 ]
    #dbg_value(i32 %.07, !23, !DIExpression(), !26)
  %7 = sext i32 %.07 to i64, !dbg !31
  %8 = getelementptr inbounds double, ptr %2, i64 %7, !dbg !31
  %9 = load double, ptr %8, align 8, !dbg !31, !tbaa !32
  %10 = fmul double %1, %9, !dbg !34
  %11 = sext i32 %.07 to i64, !dbg !35
  %12 = getelementptr inbounds double, ptr %2, i64 %11, !dbg !35
  store double %10, ptr %12, align 8, !dbg !36, !tbaa !32
  br label %13, !dbg !37

13:                                               ; preds = %6
  %14 = add nsw i32 %.07, 1, !dbg !38
    #dbg_value(i32 %14, !23, !DIExpression(), !26)
  %15 = icmp slt i32 %14, %0, !dbg !39
  br i1 %15, label %6, label %._crit_edge, !dbg !30, !llvm.loop !40

16:                                               ; preds = %5
  ret void, !dbg !45
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(ptr captures(none)) #1

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(ptr captures(none)) #1

attributes #0 = { nounwind uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3, !4, !5, !6, !7}
!llvm.ident = !{!8}
!llvm.errno.tbaa = !{!9}

!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "Debian clang version 22.1.8 (1~deb12u1)", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, splitDebugInlining: false, nameTableKind: None)
!1 = !DIFile(filename: "m.c", directory: "/tmp", checksumkind: CSK_MD5, checksum: "d5e3df7ebb4db0df245611b4e030a129")
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
!13 = distinct !DISubprogram(name: "scale", scope: !1, file: !1, line: 1, type: !14, scopeLine: 1, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !19, keyInstructions: true)
!14 = !DISubroutineType(types: !15)
!15 = !{null, !16, !17, !18}
!16 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!17 = !DIBasicType(name: "double", size: 64, encoding: DW_ATE_float)
!18 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !17, size: 64)
!19 = !{!20, !21, !22, !23}
!20 = !DILocalVariable(name: "n", arg: 1, scope: !13, file: !1, line: 1, type: !16)
!21 = !DILocalVariable(name: "a", arg: 2, scope: !13, file: !1, line: 1, type: !17)
!22 = !DILocalVariable(name: "y", arg: 3, scope: !13, file: !1, line: 1, type: !18)
!23 = !DILocalVariable(name: "i", scope: !24, file: !1, line: 2, type: !16)
!24 = distinct !DILexicalBlock(scope: !13, file: !1, line: 2, column: 3)
!25 = !DILocation(line: 0, scope: !13)
!26 = !DILocation(line: 0, scope: !24)
!27 = !DILocation(line: 2, column: 21, scope: !28, atomGroup: 8, atomRank: 1)
!28 = distinct !DILexicalBlock(scope: !24, file: !1, line: 2, column: 3)
!29 = !DILocation(line: 2, column: 3, scope: !24, atomGroup: 9, atomRank: 1)
!30 = !DILocation(line: 2, column: 3, scope: !24, atomGroup: 3, atomRank: 1)
!31 = !DILocation(line: 3, column: 16, scope: !28)
!32 = !{!33, !33, i64 0}
!33 = !{!"double", !11, i64 0}
!34 = !DILocation(line: 3, column: 14, scope: !28, atomGroup: 4, atomRank: 2)
!35 = !DILocation(line: 3, column: 5, scope: !28)
!36 = !DILocation(line: 3, column: 10, scope: !28, atomGroup: 4, atomRank: 1)
!37 = !DILocation(line: 3, column: 5, scope: !28, atomGroup: 6, atomRank: 1)
!38 = !DILocation(line: 2, column: 26, scope: !28, atomGroup: 5, atomRank: 2)
!39 = !DILocation(line: 2, column: 21, scope: !28, atomGroup: 2, atomRank: 1)
!40 = distinct !{!40, !41, !42, !43, !44}
!41 = !DILocation(line: 2, column: 3, scope: !24)
!42 = !DILocation(line: 3, column: 19, scope: !24)
!43 = !{!"llvm.loop.mustprogress"}
!44 = !{!"llvm.loop.unroll.disable"}
!45 = !DILocation(line: 4, column: 1, scope: !13, atomGroup: 7, atomRank: 1)
