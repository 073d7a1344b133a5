; Loads and stores count the store size of their type; accesses provably to
; the function's own stack (allocas) are kept apart from memory traffic.
; RUN: %opt_roofline -passes='print<roofline>' -roofline-all-functions -disable-output %s | FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; CHECK-LABEL: kernel sizes
; loads: float 4 + <8 x float> 32 + i64 8 + i24 3 = 47; stores: double 8 + <2 x i16> 4 = 12
; CHECK: bytes: load 47, store 12
; CHECK-NEXT: memory: load 47, store 12
define void @sizes(ptr %p) {
  %1 = load float, ptr %p
  %2 = load <8 x float>, ptr %p
  %3 = load i64, ptr %p
  %4 = load i24, ptr %p
  store double 1.0, ptr %p
  store <2 x i16> zeroinitializer, ptr %p
  ret void
}

; CHECK-LABEL: kernel stack
; 4 + 4 bytes to an alloca (through a GEP) are stack, not memory traffic.
; CHECK: bytes: load 4, store 0
; CHECK-NEXT: memory: load 4, store 0
; CHECK-NEXT: stack: load 4, store 4
define float @stack(ptr %p) {
  %a = alloca [4 x float]
  %g = getelementptr [4 x float], ptr %a, i64 0, i64 2
  %v = load float, ptr %p
  store float %v, ptr %g
  %w = load float, ptr %g
  ret float %w
}

; CHECK-LABEL: kernel atomics
; atomicrmw add i32: load 4 + store 4; atomicrmw fadd float: 4 + 4 and one
; add; cmpxchg i64: 8 + 8. Loads 16, stores 16, 1 FLOP.
; CHECK-NEXT: flops: 1 (exact)
; CHECK: bytes: load 16, store 16
define void @atomics(ptr %p, ptr %q) {
  %1 = atomicrmw add ptr %p, i32 1 seq_cst
  %2 = atomicrmw fadd ptr %q, float 1.0 seq_cst
  %3 = cmpxchg ptr %p, i64 0, i64 1 seq_cst seq_cst
  ret void
}

; CHECK-LABEL: kernel transfers
; memcpy 64: load 64 + store 64; memmove 16: 16 + 16; memset 100: store 100.
; CHECK: bytes: load 80, store 180
define void @transfers(ptr %d, ptr %s) {
  call void @llvm.memcpy.p0.p0.i64(ptr %d, ptr %s, i64 64, i1 false)
  call void @llvm.memmove.p0.p0.i64(ptr %d, ptr %s, i64 16, i1 false)
  call void @llvm.memset.p0.i64(ptr %d, i8 0, i64 100, i1 false)
  ret void
}

; CHECK-LABEL: kernel variable_transfer
; A run-time length becomes a formula in the parameter: 4*n each way.
; CHECK: bytes: load 4*n, store 4*n
; CHECK-NEXT: memory: load 4*n, store 4*n
define void @variable_transfer(ptr %d, ptr %s, i64 %n) {
  %len = shl i64 %n, 2
  call void @llvm.memcpy.p0.p0.i64(ptr %d, ptr %s, i64 %len, i1 false)
  ret void
}

; CHECK-LABEL: kernel masked
; Masked and gather/scatter accesses count every lane: an upper bound.
; masked load <8 x float> 32, gather <4 x double> 32, masked store <8 x float> 32
; CHECK: bytes: load 64, store 32
; CHECK: note: masked, gather or scatter accesses count every lane (an upper bound)
define void @masked(ptr %p, <4 x ptr> %ps, <8 x i1> %m8, <4 x i1> %m4) {
  %1 = call <8 x float> @llvm.masked.load.v8f32.p0(ptr %p, i32 4, <8 x i1> %m8, <8 x float> poison)
  %2 = call <4 x double> @llvm.masked.gather.v4f64.v4p0(<4 x ptr> %ps, i32 8, <4 x i1> %m4, <4 x double> poison)
  call void @llvm.masked.store.v8f32.p0(<8 x float> %1, ptr %p, i32 4, <8 x i1> %m8)
  ret void
}

declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memmove.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
declare <8 x float> @llvm.masked.load.v8f32.p0(ptr, i32, <8 x i1>, <8 x float>)
declare <4 x double> @llvm.masked.gather.v4f64.v4p0(<4 x ptr>, i32, <4 x i1>, <4 x double>)
declare void @llvm.masked.store.v8f32.p0(<8 x float>, ptr, i32, <8 x i1>)

; The SLP vectoriser's interleaved group for a[3*i] += 1 (seen at -O3
; -march=native): a <24 x float> load of which one shuffle keeps lanes 0, 3,
; ..., 21. The program asked for those 8 floats: 32 bytes, not 96, as
; before vectorisation. A load some other user reads whole counts whole: the
; second load's lanes reach an fadd directly, so 32 bytes.
; CHECK-LABEL: kernel interleaved_gaps
; CHECK: bytes: load 64, store 32
define void @interleaved_gaps(ptr %a, ptr %b) {
  %w = load <24 x float>, ptr %a
  %s = shufflevector <24 x float> %w, <24 x float> poison, <8 x i32> <i32 0, i32 3, i32 6, i32 9, i32 12, i32 15, i32 18, i32 21>
  %v = load <8 x float>, ptr %b
  %t = shufflevector <8 x float> %v, <8 x float> poison, <8 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %u = fadd <8 x float> %v, %t
  %r = fadd <8 x float> %s, %u
  store <8 x float> %r, ptr %a
  ret void
}
