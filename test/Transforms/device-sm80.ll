; Device exit on sm_80 and later: redux.sync adds the active threads'
; counters, whichever they are, in three 27-bit pieces (a 32-bit sum of 32
; threads cannot overflow them); the first active lane adds the active
; threads (ctpop of the mask) and the sums times each cost: FLOPs at slot
; 16 (fp32 mul), 4 B at 40 and 41 (global load, store). No shuffles.
; RUN: %opt_roofline -passes=roofline-instrument -verify-each -S %s | FileCheck %s
; RUN: %opt_roofline -passes=roofline-instrument -S %s | FileCheck %s --check-prefix=LOWERED
; LOWERED-NOT: @roofline.count
target datalayout = "e-p6:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define ptx_kernel void @scale(
; CHECK: [[MASK:%.*]] = call i32 @llvm.nvvm.activemask()
; CHECK: [[LANE:%.*]] = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
; CHECK: and i64 [[C:%roofline.counter.0]], 134217727
; CHECK: call i32 @llvm.nvvm.redux.sync.add(i32 {{%.*}}, i32 [[MASK]])
; CHECK: lshr i64 [[C]], 27
; CHECK: call i32 @llvm.nvvm.redux.sync.add(i32 {{%.*}}, i32 [[MASK]])
; CHECK: lshr i64 [[C]], 54
; CHECK: call i32 @llvm.nvvm.redux.sync.add(i32 {{%.*}}, i32 [[MASK]])
; CHECK: [[POP:%.*]] = call i32 @llvm.ctpop.i32(i32 [[MASK]])
; CHECK: [[FIRST:%.*]] = call i32 @llvm.cttz.i32(i32 [[MASK]], i1 true)
; CHECK: icmp eq i32 [[LANE]], [[FIRST]]
; CHECK: roofline.atomics:
; CHECK: atomicrmw add ptr addrspace(1) @__roofline_counts_scale, i64 {{%.*}} syncscope("device") monotonic
; CHECK: atomicrmw add ptr addrspace(1) getelementptr inbounds ([84 x i64], ptr addrspace(1) @__roofline_counts_scale, i64 0, i64 16)
; CHECK: atomicrmw add ptr addrspace(1) getelementptr inbounds ([84 x i64], ptr addrspace(1) @__roofline_counts_scale, i64 0, i64 40)
; CHECK: atomicrmw add ptr addrspace(1) getelementptr inbounds ([84 x i64], ptr addrspace(1) @__roofline_counts_scale, i64 0, i64 41)
; The body's machine instructions, slot 82 (the buffer's 83): NVPTX folds
; no address, so the zext, the GEP, the load, the fmul and the store count,
; and the branch to the exit falls through: 5 per thread in the body.
; CHECK: atomicrmw add ptr addrspace(1) getelementptr inbounds ([84 x i64], ptr addrspace(1) @__roofline_counts_scale, i64 0, i64 83)
; CHECK-NOT: shfl
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
attributes #0 = { "target-cpu"="sm_80" }
