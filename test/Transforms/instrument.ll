; roofline-instrument: per-thread block, counters in registers, trip counts
; hoisted to the preheader, one constructor registering the descriptor, and
; no runtime call on the path of a call except a thread's first.
; RUN: %opt_roofline -passes=roofline-instrument -roofline-all-functions -verify-each -S %s | FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; Descriptor: version 7, 6 counters (the loop nest's entries, its
; iterations, which the loop body's costs share, its timer's ticks: axpy's
; own nest is timed in its timed calls; the calls that broke an assumption
; of the footprint formula; the footprint read and written), 5 costs (an
; FMA; 8 B loaded, 4 B stored per iteration; the footprint's two slots, 49
; and 50, once per call), 1 part (axpy itself), 1 loop nest; the block is
; [calls, ticks, timed, counters...]. The footprint is exact (1), counter 3
; counts the calls that broke its assumptions.
; CHECK-DAG: @__roofline_tls_axpy = internal thread_local(initialexec) global [9 x i64] zeroinitializer
; CHECK-DAG: @__roofline_desc_axpy = private global %roofline.kernel { i32 7, i32 6, i32 5, i32 1, {{.*}}, ptr @__roofline_axpy.costs, i32 1, ptr @__roofline_axpy.parts, ptr @__roofline_axpy.loops, {{.*}}, i32 51, ptr @__roofline_axpy.params, ptr @__roofline_axpy.pointers, i32 1, i32 3, i32 1 }
; Costs: counter 1 (iterations) x {1 FMA, 8 B, 4 B}, for part 0, nest 1;
; counters 4 and 5 into the footprint slots, outside the nest.
; CHECK-DAG: @__roofline_axpy.costs = private constant [5 x %roofline.cost] [%roofline.cost { i32 1, i32 16, i64 1, i32 0, i32 1 }, %roofline.cost { i32 1, i32 35, i64 8, i32 0, i32 1 }, %roofline.cost { i32 1, i32 36, i64 4, i32 0, i32 1 }, %roofline.cost { i32 4, i32 49, i64 1, i32 0, i32 0 }, %roofline.cost { i32 5, i32 50, i64 1, i32 0, i32 0 }]
; CHECK-DAG: @__roofline_axpy.parts = private constant [1 x %roofline.part] [%roofline.part { ptr @__roofline_axpy.part0.name, ptr @__roofline_axpy.part0.file, i32 0, i32 0, i32 -1, ptr @__roofline_axpy.part0.flops, ptr @__roofline_axpy.part0.load, ptr @__roofline_axpy.part0.store, i32 0, i32 0, i32 -1 }]
; The nest: part 0, no file, line 0 (no debug info), entries = entered =
; counter 0 (no loop marker: opt ran no EntryMarkerPass), iterations 1,
; ticks 2, timed entries -1 (the calls' sample).
; CHECK-DAG: @__roofline_axpy.loops = private constant [1 x %roofline.loop] [%roofline.loop { i32 0, ptr @__roofline_axpy.loop0.file, i32 0, i32 0, i32 0, i32 1, i32 2, i32 -1 }]
; The parameters' names and types, for ROOFLINE_TRACE, and the formulas of
; the analysis, which opt runs on demand (2 FLOPs an FMA, 8 B read and 4 B
; written per iteration; x read 4*n, y read and written 4*n):
; CHECK-DAG: @__roofline_axpy.params = {{.*}} c"x:ptr\09y:ptr\09n:i64\00"
; CHECK-DAG: @__roofline_axpy.flops = {{.*}} c"2*n\00"
; CHECK-DAG: @__roofline_axpy.load = {{.*}} c"8*n\00"
; Per pointer: index, bytes read, written, its footprint read, written
; (exact: each element once) and the byte ranges it reads and writes, [0,
; 4n) ("-": x is not written):
; CHECK-DAG: @__roofline_axpy.pointers = {{.*}} c"0\094*n\090\094*n\090\090\094*n\09-\09-\0A1\094*n\094*n\094*n\094*n\090\094*n\090\094*n\0A\00"
; CHECK: @llvm.global_ctors = appending global {{.*}} @roofline.module_ctor
; CHECK: @llvm.compiler.used = appending global {{.*}} @__roofline_desc_axpy

; With ROOFLINE_TRACE set, the entry passes the arguments to the runtime.
; CHECK-LABEL: define void @axpy(
; CHECK: [[ON:%.*]] = load i32, ptr @__roofline_tracing
; CHECK: icmp ne i32 [[ON]], 0
; CHECK: ptrtoint ptr %x to i64
; CHECK: call void @__roofline_trace(ptr @__roofline_desc_axpy, ptr %roofline.args)
; CHECK: [[BLOCK:%.*]] = call ptr @llvm.threadlocal.address.p0(ptr @__roofline_tls_axpy)
; The footprint, once per call: 8n read and 4n written (negative: 0), each
; 0 unless the analysis's assumptions (n != 0, n - 1 >= 0: the loop runs)
; hold, tested once in integers for both, and a call that breaks them
; counts 1 into counter 3.
; CHECK: [[NZ:%.*]] = icmp ne i64 %n, 0
; CHECK: [[M1:%.*]] = sub i64 %n, 1
; CHECK-NEXT: [[RUNS:%.*]] = icmp sge i64 [[M1]], 0
; CHECK-NEXT: [[HOLDS:%.*]] = and i1 {{%.*}}, [[RUNS]]
; CHECK: [[READ:%.*]] = mul i64 8, %n
; CHECK: [[POS:%.*]] = select i1 {{%.*}}, i64 [[READ]], i64 0
; CHECK-NEXT: select i1 [[HOLDS]], i64 [[POS]], i64 0
; CHECK: [[BROKE:%.*]] = xor i1 [[HOLDS]], true
; CHECK-NEXT: zext i1 [[BROKE]] to i64
; CHECK: [[W:%.*]] = mul i64 4, %n
; CHECK: [[WPOS:%.*]] = select i1 {{%.*}}, i64 [[W]], i64 0
; CHECK-NEXT: select i1 [[HOLDS]], i64 [[WPOS]], i64 0
; The nest's entry and the loop body's count (n iterations) are added
; once, in the preheader; the nest is timed when the call is (its start
; tick is nonzero):
; CHECK: [[START:%roofline.start]] = phi i64
; CHECK: preheader:
; CHECK-NEXT: [[E:%.*]] = add i64 0, 1
; CHECK-NEXT: [[C:%.*]] = add i64 0, %n
; CHECK-NEXT: [[TIMED:%.*]] = icmp ne i64 [[START]], 0
; CHECK-NEXT: br i1 [[TIMED]]
; CHECK: call i64 @llvm.readcyclecounter()
; CHECK: loop:
; CHECK-NOT: add i64 {{.*}}, 1
; CHECK: br i1 %done
; At the nest's exit, a timed call adds the nest's ticks (from the start
; tick in its stack slot) straight into the block's counter 2:
; CHECK: exit.loopexit:
; CHECK-NEXT: icmp ne i64 [[START]], 0
; CHECK: [[NOW:%.*]] = call i64 @llvm.readcyclecounter()
; CHECK: [[BEGAN:%.*]] = load i64, ptr %roofline.loop.start
; CHECK: sub i64 [[NOW]], [[BEGAN]]
; CHECK: getelementptr [9 x i64], ptr [[BLOCK]], i64 0, i64 5
; CHECK: exit:
; CHECK: [[CALLS:%.*]] = load i64, ptr
; CHECK: icmp eq i64 [[CALLS]], 0
; CHECK: call void @__roofline_register_thread(ptr @__roofline_desc_axpy, ptr [[BLOCK]])
; CHECK: add i64 [[CALLS]], 1
; CHECK: call i64 @llvm.readcyclecounter()
; CHECK: ret void
define void @axpy(ptr %x, ptr %y, i64 %n) {
entry:
  %empty = icmp eq i64 %n, 0
  br i1 %empty, label %exit, label %preheader
preheader:
  br label %loop
loop:
  %i = phi i64 [ 0, %preheader ], [ %i.next, %loop ]
  %px = getelementptr float, ptr %x, i64 %i
  %py = getelementptr float, ptr %y, i64 %i
  %vx = load float, ptr %px
  %vy = load float, ptr %py
  %r = call float @llvm.fmuladd.f32(float 2.0, float %vx, float %vy)
  store float %r, ptr %py
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; CHECK-LABEL: define internal void @roofline.module_ctor()
; CHECK: call void @__roofline_register(ptr @__roofline_desc_axpy)

declare float @llvm.fmuladd.f32(float, float, float)
