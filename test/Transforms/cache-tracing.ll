; The traced copy for the cache model (ROOFLINE_CACHE): the entry picks it
; when __roofline_cache_on is set; each access tests its line's set against
; the sample and calls __roofline_cache_access_line, preserve_most and
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
; (64 B) into one of 64 sets and, when that set is sampled, calls unless
; the line is the one the thread's model touched last and the access would
; leave it as it is. The runtime returns that line << 1 | its dirty bit
; (-1 at entry: none). The site: part 0 << 16 | loop nest 1. The size
; word: 8 bytes, bit 63 set for the store (2^63 + 8 = -9223372036854775800
; as i64).
; CHECK-LABEL: define internal void @scale.roofline.traced(
; CHECK: %roofline.sets = load i64, ptr @__roofline_cache_sets
; CHECK: loop:
; CHECK-NEXT: [[LAST:%roofline.last_line[0-9.]*]] = phi i64 [ -1, %{{[0-9]+}} ], [ [[AFTERSTORE:%roofline.last_line[0-9.]*]], %{{[0-9]+}} ]
; CHECK: [[ADDR:%[0-9]+]] = ptrtoint ptr %p to i64
; CHECK-NEXT: [[LINE:%[0-9]+]] = lshr i64 [[ADDR]], 6
; CHECK-NEXT: [[SET:%[0-9]+]] = and i64 [[LINE]], 63
; CHECK-NEXT: [[BITS:%[0-9]+]] = lshr i64 %roofline.sets, [[SET]]
; CHECK-NEXT: %roofline.sampled = trunc i64 [[BITS]] to i1
; CHECK-NEXT: br i1 %roofline.sampled
; A read: the same line, whatever its dirty bit.
; CHECK: [[LASTLINE:%[0-9]+]] = lshr i64 [[LAST]], 1
; CHECK-NEXT: [[SAME:%[0-9]+]] = icmp eq i64 [[LASTLINE]], [[LINE]]
; CHECK-NEXT: %roofline.new_line = xor i1 [[SAME]], true
; CHECK-NEXT: br i1 %roofline.new_line
; CHECK: [[READ:%[0-9]+]] = call preserve_mostcc i64 @__roofline_cache_access_line(ptr %p, i64 8, ptr @__roofline_desc_scale, i32 1)
; CHECK: [[AFTERREAD:%roofline.last_line[0-9.]*]] = phi i64 [ [[READ]], %{{[0-9]+}} ], [ [[LAST]], %{{[0-9]+}} ]
; CHECK: [[AFTERLOAD:%roofline.last_line[0-9.]*]] = phi i64 [ [[AFTERREAD]], %{{[0-9]+}} ], [ [[LAST]], %loop ]
; CHECK: %v = load double, ptr %p
; A write: the same line, already dirty.
; CHECK: [[LINE2:%[0-9]+]] = lshr i64 %{{[0-9]+}}, 6
; CHECK: [[SHIFTED:%[0-9]+]] = shl i64 [[LINE2]], 1
; CHECK-NEXT: [[DIRTY:%[0-9]+]] = or i64 [[SHIFTED]], 1
; CHECK-NEXT: [[SAME2:%[0-9]+]] = icmp eq i64 [[AFTERLOAD]], [[DIRTY]]
; CHECK: call preserve_mostcc i64 @__roofline_cache_access_line(ptr %p, i64 -9223372036854775800, ptr @__roofline_desc_scale, i32 1)
; CHECK: [[AFTERSTORE]] = phi i64
; CHECK: store double %m, ptr %p

; CHECK: declare preserve_mostcc i64 @__roofline_cache_access_line(ptr, i64, ptr, i32) [[ATTR:#[0-9]+]]
; CHECK: attributes [[ATTR]] = { nonlazybind }

; Through the GOT, in PIC and in static code; never `call __roofline_cache_access_line@PLT`.
; X86-NOT: __roofline_cache_access_line@PLT
; X86: __roofline_cache_access_line@GOTPCREL(%rip)
; X86-NOT: __roofline_cache_access_line@PLT
; A64-NOT: bl __roofline_cache_access_line
; A64: adrp {{x[0-9]+}}, :got:__roofline_cache_access_line
; A64-NOT: bl __roofline_cache_access_line

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
