; roofline-instrument: per-thread block, counters in registers, trip counts
; hoisted to the preheader, one constructor registering the descriptor, and
; no runtime call on the path of a call except a timed one's (a thread's
; first 1024 calls, then one in 64, and past 65536 one in 1024).
; RUN: %opt_roofline -passes=roofline-instrument -roofline-all-functions -verify-each -S %s | FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; Descriptor: version 11, 3 counters (the loop nest's entries, its
; iterations, which the loop body's costs share, and its timer's ticks:
; axpy's own nest is timed in its timed calls), 4 costs (an FMA; 8 B
; loaded, 4 B stored; 7 machine instructions per iteration), 1 part (axpy itself), 1 loop nest; the
; block is [calls, ticks, timed, counters...]. axpy has no reuse and no
; vector access: its footprint (8n read, 4n written) is its counted bytes,
; so no footprint counters are added; the footprint field, 3, tells the
; runtime to write the counted bytes as the footprint (no counter of
; broken assumptions: -1). The last field, 0: no traced copy (made only
; under -roofline-cache-model).
; CHECK-DAG: @__roofline_tls_axpy = internal thread_local(initialexec) global [6 x i64] zeroinitializer
; The run slots: 82 cost slots and the instructions (83).
; CHECK-DAG: @__roofline_desc_axpy = private global %roofline.kernel { i32 11, i32 3, i32 4, i32 1, {{.*}}, ptr @__roofline_axpy.costs, i32 1, ptr @__roofline_axpy.parts, ptr @__roofline_axpy.loops, {{.*}}, i32 83, ptr @__roofline_axpy.params, ptr @__roofline_axpy.pointers, i32 3, i32 -1, i32 0 }
; Costs: counter 1 (iterations) x {1 FMA, 8 B, 4 B, 7 instructions}, for
; part 0, nest 1. The instructions (slot 82, docs/counting.md): the x
; load, the fmuladd (a multiply and an add on x86-64 without FMA: 2; the
; y load folds into the add), the store, the i++ add, the compare and the
; branch; the GEPs and the phi are free.
; CHECK-DAG: @__roofline_axpy.costs = private constant [4 x %roofline.cost] [%roofline.cost { i32 1, i32 16, i64 1, i32 0, i32 1 }, %roofline.cost { i32 1, i32 35, i64 8, i32 0, i32 1 }, %roofline.cost { i32 1, i32 36, i64 4, i32 0, i32 1 }, %roofline.cost { i32 1, i32 82, i64 7, i32 0, i32 1 }]
; CHECK-DAG: @__roofline_axpy.parts = private constant [1 x %roofline.part] [%roofline.part { ptr @__roofline_axpy.part0.name, ptr @__roofline_axpy.part0.file, i32 0, i32 0, i32 -1, ptr @__roofline_axpy.part0.flops, ptr @__roofline_axpy.part0.load, ptr @__roofline_axpy.part0.store, i32 0, i32 0, i32 -1, ptr @__roofline_axpy.part0.uncounted }]
; The nest: part 0, no file, line 0 (no debug info), entries = entered =
; counter 0 (no loop marker: opt ran no EntryMarkerPass), iterations 1,
; ticks 2, timed entries -1 (the calls' sample).
; CHECK-DAG: @__roofline_axpy.loops = private constant [1 x %roofline.loop] [%roofline.loop { i32 0, ptr @__roofline_axpy.loop0.file, i32 0, i32 0, i32 0, i32 1, i32 2, i32 -1, i32 -1, i32 -1 }]
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

; The entry tests once whether the call may be timed (its calls so far:
; under 1024, or a multiple of 64) or ROOFLINE_TRACE is set; only then, in
; one cold block, it passes the arguments to the runtime (which ignores
; them unless tracing), applies the whole rule (past 65536 calls, a
; multiple of 1024) and, when timed, keeps the call's weight (the calls it
; stands for: 1, 64 or 1024) and reads the clock.
; CHECK-LABEL: define void @axpy(
; CHECK: [[BLOCK:%.*]] = call ptr @llvm.threadlocal.address.p0(ptr @__roofline_tls_axpy)
; CHECK: [[SOFAR:%.*]] = load i64, ptr
; CHECK: icmp ult i64 [[SOFAR]], 1024
; CHECK: and i64 [[SOFAR]], 63
; CHECK: %roofline.timed = or i1
; CHECK: [[ON:%.*]] = load i32, ptr @__roofline_tracing
; CHECK: %roofline.tracing = icmp ne i32 [[ON]], 0
; CHECK: [[COLD:%.*]] = or i1 %roofline.timed, %roofline.tracing
; CHECK: br i1 [[COLD]]
; CHECK: ptrtoint ptr %x to i64
; CHECK: call void @__roofline_trace(ptr @__roofline_desc_axpy, ptr %roofline.args)
; CHECK: [[DENSE:%.*]] = icmp ult i64 [[SOFAR]], 65536
; CHECK: [[MASK:%.*]] = select i1 [[DENSE]], i64 63, i64 1023
; CHECK: and i64 [[SOFAR]], [[MASK]]
; CHECK: br i1 %roofline.timed{{[0-9]+}}
; CHECK: select i1 {{.*}}, i64 64, i64 1024
; CHECK: %roofline.weight = select i1 {{.*}}, i64 1, i64
; CHECK-NEXT: store i64 %roofline.weight, ptr %roofline.call.weight
; CHECK-NEXT: %roofline.clock = call i64 @llvm.readcyclecounter()
; CHECK: %roofline.started = phi i64 [ %roofline.clock, {{.*}} ], [ 0, {{.*}} ]
; CHECK-NOT: mul i64 8, %n
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
; tick in its stack slot), times the call's weight, straight into the
; block's counter 2:
; CHECK: exit.loopexit:
; CHECK-NEXT: icmp ne i64 [[START]], 0
; The stop is rdtscp: it waits for the loop's work to execute (a plain
; rdtsc may run ahead of a dependency chain still draining).
; CHECK: [[NOWPAIR:%.*]] = call { i64, i32 } @llvm.x86.rdtscp()
; CHECK-NEXT: [[NOW:%.*]] = extractvalue { i64, i32 } [[NOWPAIR]], 0
; CHECK: [[BEGAN:%.*]] = load i64, ptr %roofline.loop.start
; CHECK: [[LOOPTICKS:%.*]] = sub i64 [[NOW]], [[BEGAN]]
; CHECK: [[LW:%.*]] = load i64, ptr %roofline.call.weight
; CHECK: [[WEIGHTED:%.*]] = mul i64 [[LOOPTICKS]], [[LW]]
; CHECK: getelementptr [6 x i64], ptr [[BLOCK]], i64 0, i64 5
; CHECK: add i64 {{.*}}, [[WEIGHTED]]
; At the return: the call and the counters added to the block, no test on
; the way; a timed call then hands its ticks and its weight to the
; runtime, which adds them and learns of the block on the thread's first
; call.
; CHECK: exit:
; CHECK: [[CALLS:%.*]] = load i64, ptr
; CHECK-NEXT: add i64 [[CALLS]], 1
; CHECK-NOT: call
; CHECK: icmp ne i64 [[START]], 0
; CHECK: [[ENDPAIR:%.*]] = call { i64, i32 } @llvm.x86.rdtscp()
; CHECK-NEXT: [[END:%.*]] = extractvalue { i64, i32 } [[ENDPAIR]], 0
; CHECK: [[TICKS:%.*]] = sub i64 [[END]], [[START]]
; CHECK: [[W:%.*]] = load i64, ptr %roofline.call.weight
; CHECK: call void @__roofline_timed_return(ptr @__roofline_desc_axpy, ptr [[BLOCK]], i64 [[TICKS]], i64 [[W]])
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
