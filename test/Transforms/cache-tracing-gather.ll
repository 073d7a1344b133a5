; The traced copy of a gather and a scatter: one access per active lane,
; each lane's size 8 (a store: bit 63 set) when its mask bit is set, 0
; otherwise. LLVM 22's operands: gather(ptrs, mask, passthru),
; scatter(value, ptrs, mask); reading the mask from the passthru made the
; size poison (a run that never ended) and the scatter crashed the pass.
; RUN: %opt_roofline -passes=roofline-instrument -roofline-cache-model -roofline-all-functions -verify-each -S %s | FileCheck %s
; CHECK-LABEL: define internal void @g.roofline.traced(
; CHECK: extractelement <4 x i1> %m, i64 0
; CHECK-NOT: i64 poison
; CHECK-LABEL: define internal void @s.roofline.traced(
; CHECK: extractelement <4 x i1> %m, i64 0
; CHECK-NOT: i64 poison
; CHECK-LABEL: declare
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define void @g(<4 x ptr> %ps, <4 x i1> %m, ptr %out) {
  %v = call <4 x double> @llvm.masked.gather.v4f64.v4p0(<4 x ptr> align 8 %ps, <4 x i1> %m, <4 x double> poison)
  store <4 x double> %v, ptr %out, align 8
  ret void
}
define void @s(<4 x ptr> %ps, <4 x i1> %m, <4 x double> %v) {
  call void @llvm.masked.scatter.v4f64.v4p0(<4 x double> %v, <4 x ptr> align 8 %ps, <4 x i1> %m)
  ret void
}
declare <4 x double> @llvm.masked.gather.v4f64.v4p0(<4 x ptr>, <4 x i1>, <4 x double>)
declare void @llvm.masked.scatter.v4f64.v4p0(<4 x double>, <4 x ptr>, <4 x i1>)
