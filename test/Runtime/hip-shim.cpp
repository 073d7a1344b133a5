// The HIP launch shim, end to end on a fake HIP runtime (no AMD GPU
// needed): the pass redirects hipLaunchKernel to the shim and follows each
// __hipRegisterFunction with the shim's registration, which registers the
// kernel's counter buffer and meta reference as __device__ variables of
// the same code object; at the first launch hipGetSymbolAddress finds
// them; the shim zeroes the buffer before every launch and reads it back
// after; the profile has the kernel as a HIP kernel with per-launch
// records, and the report places it on the MI300X by default. A kernel
// without the variables is launched untouched; a buffer of the wrong size
// is another Roofline's; no device is said once; graph captures pass.
// REQUIRES: hip
// RUN: rm -rf %t && mkdir -p %t
// RUN: clang++ -O1 -D__HIP_PLATFORM_AMD__ -c %S/Inputs/fake_hip.cpp -o %t/fake.o
// RUN: %roofline_clangxx -O2 -D__HIP_PLATFORM_AMD__ -I%S/Inputs -I%src_root/include %s %t/fake.o %roofline_libdir/libroofline_rt_hip.a -o %t/app
// RUN: env ROOFLINE_PROFILE=%t/p.json %t/app 2>%t/err | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s < %t/p.json
// RUN: FileCheck %s --check-prefix=ERR < %t/err
// RUN: %roofline_report %t/p.json | FileCheck %s --check-prefix=REPORT
// RUN: env ROOFLINE_PROFILE=%t/none.json FAKE_HIP_NO_DEVICE=1 %t/app 2>%t/none.err | FileCheck %s --check-prefix=NODEV
// RUN: FileCheck %s --check-prefix=NODEV-ERR < %t/none.err
// RUN: env ROOFLINE_PROFILE=%t/graph.json FAKE_HIP_CAPTURING=1 %t/app 2>%t/graph.err | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=GRAPH < %t/graph.err
// RUN: FileCheck %s --check-prefix=GRAPH-PROFILE < %t/graph.json
// The pass's part, in the module: the launches go to the shim, and each
// registration is followed by the shim's.
// RUN: %roofline_clangxx -O2 -D__HIP_PLATFORM_AMD__ -I%S/Inputs -I%src_root/include %s -S -emit-llvm -o - | FileCheck %s --check-prefix=IR
#include "fake_hip.h"
#include "saxpy_counts.h"
#include "roofline/Runtime/CostKinds.h"
#include "roofline/Runtime/Descriptor.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>

using namespace roofline;

constexpr unsigned Words = ROOFLINE_DEVICE_SLOTS + NumRunSlots;

// saxpy's device variables, as the pass emits them for amdgcn: the buffer,
// the meta string (with "device hip") and the reference to it.
uint64_t SaxpyCounts[Words];
const char SaxpyMeta[] =
    "version\t1\ndevice\thip\nslots\t83\nparams\tn:i32\ta:f32\tx:ptr\ty:ptr\n"
    "file\t/src/saxpy.hip\nline\t3\nflops\t2\nload\t8\nstore\t4\nexact\t1\n"
    "pointer\t2\t4\t0\npointer\t3\t4\t4\nfootprint\t8*n\t4*n\t1\n";
uint64_t SaxpyRef[2] = {uint64_t(reinterpret_cast<uintptr_t>(SaxpyMeta)),
                        sizeof(SaxpyMeta)};
uint64_t OldCounts[7]; // another version's buffer: the wrong size
uint64_t OldRef[2] = {0, 0};
float XBuf[2048], YBuf[2048]; // their addresses stand for device buffers

void saxpyHandle(int, float, const float *, float *) {}
void plainHandle() {}
void oldHandle() {}

void saxpyBody(dim3 G, dim3 B, void **Args) {
  addSaxpyCounts(SaxpyCounts, G, B, Args, 10); // in 10 machine instructions
}
void nothing(dim3, dim3, void **) {}

// IR-LABEL: define {{.*}} @_Z5saxpy4dim3S_iP12ihipStream_t(
// IR-NOT: @hipLaunchKernel(
// IR: call i32 @__roofline_hipLaunchKernel(ptr noundef nonnull @_Z11saxpyHandleifPKfPf,
void saxpy(dim3 G, dim3 B, int N, hipStream_t S) {
  float A = 2.5f;
  float *X = XBuf, *Y = YBuf;
  void *Args[] = {&N, &A, &X, &Y};
  hipError_t E = hipLaunchKernel((const void *)saxpyHandle, G, B, Args, 0, S);
  std::printf("saxpy n=%d: %s\n", N, E ? hipGetErrorString(E) : "ok");
}

/// What clang's __hip_module_ctor does for a code object of three kernels.
void registerCodeObject() {
  void **M = __hipRegisterFatBinary(nullptr);
  const char *Names[] = {"_Z5saxpyifPKfPf", "_Z5plainv", "_Z3oldv"};
  const void *Handles[] = {(const void *)saxpyHandle, (const void *)plainHandle,
                           (const void *)oldHandle};
  for (int I = 0; I < 3; ++I)
    __hipRegisterFunction(M, Handles[I], const_cast<char *>(Names[I]),
                          Names[I], -1, nullptr, nullptr, nullptr, nullptr,
                          nullptr);
}
// IR-LABEL: define {{.*}} @_Z18registerCodeObjectv(
// IR-COUNT-3: call i32 @__hipRegisterFunction(ptr noundef [[M:%[0-9]+]], ptr noundef nonnull [[H:@[A-Za-z0-9_]+]], ptr noundef nonnull [[N:@[.a-z0-9]+]], ptr noundef nonnull [[N]],{{.*}}
// IR-NEXT: call void @__roofline_hip_register_kernel(ptr [[M]], ptr [[H]], ptr [[N]])

int main() {
  fakeKernel((const void *)saxpyHandle, saxpyBody);
  fakeKernel((const void *)plainHandle, nothing);
  fakeKernel((const void *)oldHandle, nothing);
  fakeGlobal(ROOFLINE_DEVICE_COUNTS_PREFIX "_Z5saxpyifPKfPf", SaxpyCounts,
             sizeof(SaxpyCounts));
  fakeGlobal(ROOFLINE_DEVICE_METAREF_PREFIX "_Z5saxpyifPKfPf", SaxpyRef,
             sizeof(SaxpyRef));
  fakeGlobal(ROOFLINE_DEVICE_COUNTS_PREFIX "_Z3oldv", OldCounts,
             sizeof(OldCounts));
  fakeGlobal(ROOFLINE_DEVICE_METAREF_PREFIX "_Z3oldv", OldRef, sizeof(OldRef));
  registerCodeObject();

  auto S1 = reinterpret_cast<hipStream_t>(0x10);
  auto S2 = reinterpret_cast<hipStream_t>(0x20);
  for (int I = 0; I < 3; ++I)
    saxpy(dim3(4), dim3(256), 1000, S1);
  saxpy(dim3(1), dim3(128), 100, S2);
  saxpy(dim3(1), dim3(64), 1, nullptr);
  hipError_t E = hipLaunchKernel((const void *)plainHandle, dim3(1), dim3(1),
                                 nullptr, 0, nullptr);
  std::printf("plain: %s; last error %d\n", E ? hipGetErrorString(E) : "ok",
              int(hipGetLastError()));
  E = hipLaunchKernel((const void *)oldHandle, dim3(1), dim3(1), nullptr, 0,
                      nullptr);
  std::printf("old: %s\n", E ? hipGetErrorString(E) : "ok");
  return 0;
}

// OUT: saxpy n=1000: ok
// OUT: saxpy n=1: ok
// OUT: plain: ok; last error 0
// OUT: old: ok

// ERR: roofline: HIP kernel _Z3oldv was instrumented by another version of Roofline; its counts are not recorded
// ERR-NOT: roofline:

// Totals: 5 launches; threads 3*4*256 + 128 + 64 = 3264; the active
// threads 3*1000 + 100 + 1 = 3101 give 2*3101 = 6202 FLOPs, 8*3101 = 24808 B
// loaded, 4*3101 = 12404 B stored and 10*3101 = 31010 instructions. Each
// launch counted from zero (the buffer is zeroed before it), 1 ms apart.
// CHECK: "name": "_Z5saxpyifPKfPf",
// CHECK-NEXT: "display_name": "saxpy(int, float, float const*, float*)",
// CHECK-NEXT: "device": "hip",
// CHECK-NEXT: "file": "/src/saxpy.hip",
// CHECK-NEXT: "line": 3,
// CHECK-NEXT: "calls": 5,
// CHECK-NEXT: "seconds": 0.005,
// CHECK-NEXT: "threads": 3264,
// CHECK-NEXT: "flops": {"fp16": 0, "bf16": 0, "fp32": 6202, "fp64": 0, "other": 0, "total": 6202, "special": 0},
// CHECK-NEXT: "flop_classes": {"fp32": {"fma": 3101}},
// CHECK-NEXT: "bytes": {"load": 24808, "store": 12404, "global": {"load": 24808, "store": 12404}},
// CHECK-NEXT: "intops": {"total": 0,
// CHECK-NEXT: "int_classes": {},
// CHECK-NEXT: "instructions": 31010,
// CHECK: "launches": [
// CHECK-NEXT: [4, 1, 1, 256, 1, 1, 0, 1, 0, 0.001, 1024, 2000, 8000, 4000, 1000, 2.5, null, null],
// CHECK-NEXT: [4, 1, 1, 256, 1, 1, 0, 1, 0.001, 0.001, 1024, 2000, 8000, 4000, 1000, 2.5, null, null],
// CHECK-NEXT: [4, 1, 1, 256, 1, 1, 0, 1, 0.002, 0.001, 1024, 2000, 8000, 4000, 1000, 2.5, null, null],
// CHECK-NEXT: [1, 1, 1, 128, 1, 1, 0, 2, 0.003, 0.001, 128, 200, 800, 400, 100, 2.5, null, null],
// CHECK-NEXT: [1, 1, 1, 64, 1, 1, 0, 0, 0.004, 0.001, 64, 2, 8, 4, 1, 2.5, null, null]
// CHECK-NEXT: {{^ +\]$}}
// CHECK-NOT: _Z5plainv
// CHECK-NOT: _Z3oldv

// A HIP kernel's default platform is the MI300X. The per-launch footprint,
// 12n bytes at n = 1000, is 12 kB a launch: 36 kB for the three <<<4,
// 256>>> launches, 6 k FLOPs, I = 6000 / 36000 = 0.167.
// REPORT: platform: mi300x
// REPORT: saxpy <<<4, 256>>> n=1000 a=2.5  saxpy.hip:3    6 k   36 kB       0.167
// REPORT: saxpy <<<1, 128>>> n=100 a=2.5   saxpy.hip:3    200  1.2 kB       0.167

// NODEV: saxpy n=1000: no ROCm-capable device is detected
// NODEV: plain: no ROCm-capable device is detected; last error 100
// NODEV-ERR: roofline: no HIP device (no ROCm-capable device is detected): kernels are launched as without instrumentation and nothing is measured
// NODEV-ERR-NOT: roofline:

// GRAPH: roofline: launches captured into HIP graphs are not recorded
// GRAPH-NOT: captured
// GRAPH-PROFILE-NOT: _Z5saxpyifPKfPf
