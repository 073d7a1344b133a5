// A whole HIP program through roofline-clang++ (host and device in one
// compile, the device code object linked by lld-22), run on the fake HIP
// runtime (no AMD GPU here): clang's module constructor registers the
// kernel, and the pass's call after it registers the kernel's variables;
// <<<...>>> and hipLaunchKernelGGL launch through the stub, which the pass
// sent to the HIP shim. The meta string the shim reads is the one the
// device compile put in the code object (read out of the object by
// Inputs/device_symbol.py); the fake device adds to the counter buffer
// what the instrumented code would (test/HIP/instrument.hip checks that
// code).
// REQUIRES: hip, hip-link
// RUN: rm -rf %t && mkdir -p %t
// RUN: %roofline_clangxx -O2 -g -c %s -o %t/app.o -I%S/../Runtime/Inputs -I%src_root/include
// RUN: python3 %S/Inputs/device_symbol.py %t/app.o __roofline_meta__Z5saxpyifPKfPf --fatbin > %t/saxpy.meta
// RUN: FileCheck %s --check-prefix=META < %t/saxpy.meta
// RUN: python3 %S/Inputs/device_symbol.py %t/app.o __roofline_metaref__Z5saxpyifPKfPf --fatbin > /dev/null
// RUN: clang++ -O1 -D__HIP_PLATFORM_AMD__ -c %S/../Runtime/Inputs/fake_hip.cpp -o %t/fake.o
// RUN: %roofline_clangxx %t/app.o %t/fake.o %roofline_libdir/libroofline_rt_hip.a -o %t/app
// RUN: env ROOFLINE_PROFILE=%t/p.json FAKE_META=%t/saxpy.meta %t/app | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s < %t/p.json
// RUN: %roofline_report %t/p.json --platform mi250x | FileCheck %s --check-prefix=REPORT
#include <hip/hip_runtime.h>

#include "fake_hip.h"
#include "saxpy_counts.h"
#include "roofline/Runtime/CostKinds.h"
#include "roofline/Runtime/Descriptor.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

// META: version	1
// META-NEXT: device	hip
// META-NEXT: slots	83
// META-NEXT: params	n:i32	a:f32	x:ptr	y:ptr
// META-NEXT: file	{{.*}}whole-program.hip
// META-NEXT: line	46
// META-NEXT: flops	2
// META-NEXT: load	8
// META-NEXT: store	4
// META-NEXT: exact	1
// META: footprint	8*n	4*n	1
__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

using namespace roofline;
constexpr unsigned Words = ROOFLINE_DEVICE_SLOTS + NumRunSlots;
uint64_t Counts[Words];
uint64_t Ref[2];
std::string Meta;
float X[2048], Y[2048];

void saxpyBody(dim3 G, dim3 B, void **Args) {
  addSaxpyCounts(Counts, G, B, Args, 0); // (instructions not checked here)
}

int main() {
  std::ifstream In(std::getenv("FAKE_META"));
  std::stringstream Text;
  Text << In.rdbuf();
  Meta = Text.str();
  Ref[0] = uint64_t(reinterpret_cast<uintptr_t>(Meta.c_str()));
  Ref[1] = Meta.size() + 1;
  fakeKernel((const void *)saxpy, saxpyBody);
  fakeGlobal(ROOFLINE_DEVICE_COUNTS_PREFIX "_Z5saxpyifPKfPf", Counts, sizeof(Counts));
  fakeGlobal(ROOFLINE_DEVICE_METAREF_PREFIX "_Z5saxpyifPKfPf", Ref, sizeof(Ref));
  float *x = X, *y = Y;
  saxpy<<<4, 256>>>(1000, 2.5f, x, y);
  hipLaunchKernelGGL(saxpy, dim3(1), dim3(128), 0, 0, 100, 2.5f, x, y);
  std::printf("launched: %d\n", int(hipGetLastError()));
  return 0;
}
// OUT: launched: 0

// Two launches: 1024 + 128 threads, 1000 + 100 pass the guard: 2200
// FLOPs, 8800 B loaded, 4400 B stored; the file and line are the device
// compile's (saxpy is on line 46).
// CHECK: "name": "_Z5saxpyifPKfPf",
// CHECK-NEXT: "display_name": "saxpy(int, float, float const*, float*)",
// CHECK-NEXT: "device": "hip",
// CHECK-NEXT: "file": "{{.*}}whole-program.hip",
// CHECK-NEXT: "line": 46,
// CHECK-NEXT: "calls": 2,
// CHECK: "threads": 1152,
// CHECK-NEXT: "flops": {"fp16": 0, "bf16": 0, "fp32": 2200, "fp64": 0, "other": 0, "total": 2200, "special": 0},
// CHECK: "bytes": {"load": 8800, "store": 4400, "global": {"load": 8800, "store": 4400}},
// CHECK: "launches": [
// CHECK-NEXT: [4, 1, 1, 256, 1, 1, 0, 0, 0, 0.001, 1024, 2000, 8000, 4000, 1000, 2.5, null, null],
// CHECK-NEXT: [1, 1, 1, 128, 1, 1, 0, 0, 0.001, 0.001, 128, 200, 800, 400, 100, 2.5, null, null]

// REPORT: platform: mi250x
// REPORT: saxpy <<<4, 256>>> n=1000 a=2.5 {{.*}}whole-program.hip:46
