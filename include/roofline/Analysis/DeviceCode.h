//===- DeviceCode.h - GPU device code: kernels, thread indices --*- C++ -*-===//
//
// Device code of CUDA (nvptx64) and HIP (amdgcn): which functions are
// kernels, and the values a thread reads of its launch, named as CUDA and
// HIP spell them (threadIdx.x, blockDim.x, ...). CUDA reads them from
// special registers; HIP on AMDGPU reads the indices from intrinsics and
// the dimensions from memory (the dispatch packet, or the implicit kernel
// arguments from code object v5 on).
//
// -O0 device code calls its helpers and re-reads the thread's dimensions
// inside loops. Counting needs neither: the helpers' work is the kernel's,
// and blockDim.x is one value for the whole thread.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_ANALYSIS_DEVICECODE_H
#define ROOFLINE_ANALYSIS_DEVICECODE_H

#include "roofline/Analysis/PTXAsm.h"

#include "llvm/ADT/StringRef.h"

#include <utility>
#include <vector>

namespace llvm {
class CallBase;
class Function;
class LoadInst;
class Module;
class Value;
} // namespace llvm

namespace roofline {

/// Device code of a GPU: nvptx64 (CUDA) or amdgcn (HIP).
bool isDeviceModule(const llvm::Module &M);
/// What a summary calls \p M's kernels: "hip-kernel" (amdgcn),
/// "cuda-kernel" (nvptx64) or "function" (host code).
const char *kernelKind(const llvm::Module &M);
/// A kernel of device code (__global__: ptx_kernel or amdgpu_kernel).
bool isDeviceKernel(const llvm::Function &F);
/// A device library's memory fence, a barrier's half and no work: HIP's
/// __syncthreads calls the OpenCL fence the device libraries define
/// (`__atomic_work_item_fence`).
bool isDeviceLibraryFence(const llvm::Function &Callee);
/// The threads of a warp (32) or a wavefront (64 on CDNA, 32 on RDNA;
/// the target's wavefrontsize64 feature) of \p F's target; 0 for CPU code.
unsigned warpSize(const llvm::Function &F);

/// The memory instructions of a PTX inline asm (__ldcs, __stcs, ...), each
/// with the call argument that holds its address: null when the address is
/// a register of the asm's own or the width is not known. Outputs and
/// inputs are numbered in order; the call's arguments are the inputs and
/// the outputs written through memory.
std::vector<std::pair<PTXMemoryAccess, const llvm::Value *>>
asmMemoryOperands(const llvm::CallBase &CB);

/// HIP: the axis ("x", "y", "z") of a load of the grid's size in
/// work-items (the dispatch packet's grid_size_x, which is
/// gridDim.x * blockDim.x), or null.
const char *gridSizeAxis(const llvm::Value *V);
/// HIP: a load of the launch's dimensions (the dispatch packet or the
/// implicit kernel arguments): launch metadata, not the kernel's traffic.
bool readsLaunchDimensions(const llvm::LoadInst &L);

/// "threadIdx.x", "blockDim.y", "laneid", ... for the intrinsic that reads
/// that special register (llvm.nvvm.read.ptx.sreg.*; llvm.amdgcn.workitem.id.*
/// and workgroup.id.*), or null.
const char *sregName(llvm::StringRef Intrinsic);
/// The same for a value that is a call of one, or (HIP) a load of a
/// launch dimension; null for any other.
const char *sregName(const llvm::Value *V);

/// Inlines the device functions \p Kernel calls (repeatedly, to a bounded
/// depth), so that their work is counted as the kernel's and their thread
/// index arithmetic is seen: at -O0 nothing else inlines them. Recursion
/// and indirect calls stay calls (a remark says which).
void inlineDeviceCalls(llvm::Function &Kernel);

/// HIP at -O0: each variable is a scratch slot (addrspace 5) used through
/// a flat pointer (an addrspacecast); loads and stores through that cast
/// use the slot itself, so that SROA can promote it. For the analysis copy
/// only.
void useScratchDirectly(llvm::Function &F);
/// After that promotion: pointers that went through a slot as integers
/// (inttoptr of ptrtoint) are casts again, integer tests of constants are
/// their values, and blockDim (OpenCL's local
/// size, clamped at the grid's edge) is the group size where the kernel's
/// work-groups are uniform, as HIP's are. For the analysis copy only.
void tidyPromotedDeviceCode(llvm::Function &F);

/// Moves the reads of the special registers (threadIdx, blockDim, ...;
/// `llvm.nvvm.read.ptx.sreg.*`, `llvm.amdgcn.workitem.id.*`, the loads of
/// the launch's dimensions: constant for a thread) to the entry block,
/// so that ScalarEvolution sees a loop stepping by blockDim.x as an
/// induction variable. For the analysis copy only.
void hoistThreadIndexReads(llvm::Function &F);

} // namespace roofline

#endif
