; The traced copy for the cache model (ROOFLINE_CACHE): the entry picks it
; when __roofline_cache_on is set; each access tests its line's set against
; the sample and calls __roofline_cache_access, preserve_most and
; nonlazybind, so that the call goes through the GOT: a lazy PLT slot's
; resolver clobbers registers preserve_most keeps (test/Runtime/lazy-binding.test).
; RUN: %opt_roofline -passes=roofline-instrument -roofline-cache-model -roofline-all-functions -verify-each -S %s | FileCheck %s
; RUN: %opt_roofline -passes=roofline-instrument -roofline-cache-model -roofline-all-functions -S %s | llc -O2 -relocation-model=pic -o - | FileCheck %s --check-prefix=X86
; RUN: %opt_roofline -passes=roofline-instrument -roofline-cache-model -roofline-all-functions -S %s | llc -O2 -relocation-model=static -o - | FileCheck %s --check-prefix=X86
; RUN: sed -e 's/^target datalayout.*$//' -e 's/x86_64-unknown-linux-gnu/aarch64-unknown-linux-gnu/' %s \
; RUN:   | %opt_roofline -passes=roofline-instrument -roofline-cache-model -roofline-all-functions -S | llc -O2 -relocation-model=pic -o - | FileCheck %s --check-prefix=A64
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; CHECK-LABEL: define void @scale(
; CHECK: load i32, ptr @__roofline_cache_on
; CHECK: tail call void @scale.roofline.traced(ptr %x, i64 %n)

; The copy reads the sample once per call; each access shifts its line
; (64 B) into one of 64 sets and calls when that set is sampled. The site:
; part 0 << 16 | loop nest 1. The size word: 8 bytes, bit 63 set for the
; store (2^63 + 8 = -9223372036854775800 as i64).
; CHECK-LABEL: define internal void @scale.roofline.traced(
; CHECK: %roofline.sets = load i64, ptr @__roofline_cache_sets
; CHECK: loop:
; CHECK: lshr i64 %{{.*}}, 6
; CHECK: and i64 %{{.*}}, 63
; CHECK: call preserve_mostcc void @__roofline_cache_access(ptr %p, i64 8, ptr @__roofline_desc_scale, i32 1)
; CHECK: %v = load double, ptr %p
; CHECK: call preserve_mostcc void @__roofline_cache_access(ptr %p, i64 -9223372036854775800, ptr @__roofline_desc_scale, i32 1)
; CHECK: store double %m, ptr %p

; CHECK: declare preserve_mostcc void @__roofline_cache_access(ptr, i64, ptr, i32) [[ATTR:#[0-9]+]]
; CHECK: attributes [[ATTR]] = { nonlazybind }

; Through the GOT, in PIC and in static code; never `call __roofline_cache_access@PLT`.
; X86-NOT: __roofline_cache_access@PLT
; X86: __roofline_cache_access@GOTPCREL(%rip)
; X86-NOT: __roofline_cache_access@PLT
; A64-NOT: bl __roofline_cache_access
; A64: adrp {{x[0-9]+}}, :got:__roofline_cache_access
; A64-NOT: bl __roofline_cache_access

define void @scale(ptr %x, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %p = getelementptr inbounds double, ptr %x, i64 %i
  %v = load double, ptr %p
  %m = fmul double %v, 2.0
  store double %m, ptr %p
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}
