; Device exit on sm_75 (no redux.sync): a full warp sums each thread's
; 64-bit counter with five butterfly shuffles of its two 32-bit halves
; (offsets 16, 8, 4, 2, 1); the warp's lane 0 adds 32 threads and
; the sum times each cost to the kernel's buffer; a partial warp adds per
; thread. No GPU needed: the nvptx64 IR is checked as text.
; RUN: %opt_roofline -passes=roofline-instrument -verify-each -S %s | FileCheck %s
target datalayout = "e-p6:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; The buffer and the meta string the host reads; the formulas come from the
; analysis, which opt runs on demand: 1 FLOP, 4 B read and written.
; CHECK: @__roofline_counts_scale = addrspace(1) externally_initialized global [84 x i64] zeroinitializer
; CHECK: @__roofline_meta_scale = addrspace(1) constant {{.*}} c"version\091\0Aslots\0983\0Aparams\09x:ptr\09n:i32\0A{{.*}}flops\091\0Aload\094\0Astore\094\0Aexact\091\0A

; CHECK-LABEL: define ptx_kernel void @scale(
; CHECK: roofline.exit:
; CHECK: [[MASK:%.*]] = call i32 @llvm.nvvm.activemask()
; CHECK: [[FULL:%roofline.full_warp]] = icmp eq i32 [[MASK]], -1
; CHECK: roofline.warp_sum:
; CHECK-COUNT-2: call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 {{%.*}}, i32 16, i32 31)
; CHECK-COUNT-2: call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 {{%.*}}, i32 8, i32 31)
; CHECK-COUNT-2: call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 {{%.*}}, i32 4, i32 31)
; CHECK-COUNT-2: call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 {{%.*}}, i32 2, i32 31)
; CHECK-COUNT-2: call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 {{%.*}}, i32 1, i32 31)
; CHECK: roofline.warp_done:
; CHECK: select i1 [[FULL]], i64 32, i64 1
; CHECK: roofline.atomics:
; CHECK: atomicrmw add ptr addrspace(1) @__roofline_counts_scale,
; CHECK-NOT: redux
; CHECK: ret void
define ptx_kernel void @scale(ptr addrspace(1) %x, i32 %n) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = icmp slt i32 %tid, %n
  br i1 %c, label %body, label %exit
body:
  %idx = zext i32 %tid to i64
  %p = getelementptr float, ptr addrspace(1) %x, i64 %idx
  %v = load float, ptr addrspace(1) %p
  %m = fmul float %v, 2.0
  store float %m, ptr addrspace(1) %p
  br label %exit
exit:
  ret void
}
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
attributes #0 = { "target-cpu"="sm_75" }
