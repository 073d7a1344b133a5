// The CUDA launch shim, end to end on a fake CUDA runtime (no GPU needed):
// the pass redirects cudaLaunchKernel to the shim; the shim finds the
// kernel's counter buffer by name through the driver, zeroes it before
// every launch, reads it back after, and the profile has per-launch
// records (grid, block, stream, times, counts, scalar arguments) and
// totals. A kernel without a buffer is launched untouched; a buffer of the
// wrong size is another Roofline's; no device is said once.
// REQUIRES: cuda
// RUN: rm -rf %t && mkdir -p %t
// RUN: clang++ -O1 -I/usr/local/cuda/include -c %S/Inputs/fake_cudart.cpp -o %t/fake.o
// RUN: %roofline_clangxx -O2 -I/usr/local/cuda/include -I%S/Inputs -I%src_root/include %s %t/fake.o %roofline_libdir/libroofline_rt_cuda.a -o %t/app
// RUN: env ROOFLINE_PROFILE=%t/p.json %t/app 2>%t/err | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s < %t/p.json
// Its keys are ProfileKeys.inc's (profile-keys.c):
// RUN: python3 %S/Inputs/profile_keys.py %src_root/include/roofline/Runtime/ProfileKeys.inc %t/p.json | FileCheck %s --check-prefix=KEYS
// RUN: FileCheck %s --check-prefix=ERR < %t/err
// RUN: env ROOFLINE_PROFILE=%t/few.json ROOFLINE_LAUNCH_RECORDS=2 %t/app
// RUN: FileCheck %s --check-prefix=FEW < %t/few.json
// RUN: env ROOFLINE_PROFILE=%t/none.json FAKE_CUDA_NO_DEVICE=1 %t/app 2>%t/none.err | FileCheck %s --check-prefix=NODEV
// RUN: FileCheck %s --check-prefix=NODEV-ERR < %t/none.err
// RUN: %roofline_report %t/p.json --platform h100-sxm | FileCheck %s --check-prefix=REPORT
// Launches captured into a CUDA graph are passed on untouched, said once.
// RUN: env ROOFLINE_PROFILE=%t/graph.json FAKE_CUDA_CAPTURING=1 %t/app 2>%t/graph.err | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=GRAPH < %t/graph.err
// RUN: FileCheck %s --check-prefix=GRAPH-PROFILE < %t/graph.json
// 20 launches of one kernel, more than the 8 kept in flight, alternating
// two streams: all recorded, in order (n = 1, 2, ... 20; 1 ms apart).
// RUN: env ROOFLINE_PROFILE=%t/many.json FAKE_MANY=20 %t/app > /dev/null
// RUN: FileCheck %s --check-prefix=MANY < %t/many.json
// With ROOFLINE_TRACE=1 every launch joins the call trace in launch order,
// with its pointer arguments' addresses and its threads, and
// roofline-report --fusion follows y from fill to saxpy.
// RUN: env ROOFLINE_PROFILE=%t/trace.json ROOFLINE_TRACE=1 FAKE_TRACE_CHAIN=1 %t/app
// RUN: FileCheck %s --check-prefix=TRACE < %t/trace.json
// RUN: %roofline_report --fusion %t/trace.json --platform h100-sxm --format json | FileCheck %s --check-prefix=FUSION
// RUN: %roofline_report %t/few.json --platform h100-sxm | FileCheck %s --check-prefix=FEW-REPORT
// Merging two runs' profiles keeps every launch record.
// RUN: %roofline_report merge %t/p.json %t/p.json -o %t/merged.json
// RUN: %roofline_report %t/merged.json --platform h100-sxm | FileCheck %s --check-prefix=MERGED
#include "fake_cudart.h"
#include "saxpy_counts.h"
#include "roofline/Runtime/CostKinds.h"
#include "roofline/Runtime/Descriptor.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

using namespace roofline;

constexpr unsigned Words = ROOFLINE_DEVICE_SLOTS + NumRunSlots;

// saxpy's device buffer and meta string, as the pass would emit them.
uint64_t SaxpyCounts[Words];
const char SaxpyMeta[] =
    "version\t1\nslots\t83\nparams\tn:i32\ta:f32\tx:ptr\ty:ptr\n"
    "file\t/src/saxpy.cu\nline\t3\nflops\t2\nload\t8\nstore\t4\nexact\t1\n"
    "pointer\t2\t4\t0\npointer\t3\t4\t4\nfootprint\t8*n\t4*n\t1\n";
// fill(n, out): every thread writes 4 B of out (FAKE_TRACE_CHAIN runs only).
uint64_t FillCounts[Words];
const char FillMeta[] =
    "version\t1\nslots\t83\nparams\tn:i32\tout:ptr\nfile\t/src/fill.cu\n"
    "line\t9\nflops\t0\nload\t0\nstore\t4\nexact\t1\npointer\t1\t0\t4\n";
float XBuf[2048], YBuf[2048]; // their addresses stand for device buffers
uint64_t OldCounts[7]; // another version's buffer: the wrong size

void saxpyStub(int, float, const float *, float *) {}
void fillStub(int, float *) {}
void plainStub() {}
void oldStub() {}

void saxpyBody(dim3 G, dim3 B, void **Args) {
  addSaxpyCounts(SaxpyCounts, G, B, Args, 10); // in 10 machine instructions
}
void nothing(dim3, dim3, void **) {}
void fillBody(dim3 G, dim3 B, void **Args) {
  uint64_t Threads = uint64_t(G.x) * B.x;
  uint64_t Active = std::min<uint64_t>(Threads, *static_cast<int *>(Args[0]));
  FillCounts[ROOFLINE_DEVICE_THREADS] += Threads;
  FillCounts[ROOFLINE_DEVICE_SLOTS + byteSlot(MemSpace::Global, Access::Store)] += 4 * Active;
}

void saxpy(dim3 G, dim3 B, int N, cudaStream_t S) {
  float A = 2.5f;
  float *X = XBuf, *Y = YBuf;
  void *Args[] = {&N, &A, &X, &Y};
  cudaError_t E = cudaLaunchKernel((const void *)saxpyStub, G, B, Args, 0, S);
  std::printf("saxpy n=%d: %s\n", N, E ? cudaGetErrorString(E) : "ok");
}

int main() {
  fakeKernel((const void *)saxpyStub, "_Z5saxpyifPKfPf", saxpyBody);
  fakeKernel((const void *)plainStub, "_Z5plainv", nothing);
  fakeKernel((const void *)oldStub, "_Z3oldv", nothing);
  fakeGlobal(ROOFLINE_DEVICE_COUNTS_PREFIX "_Z5saxpyifPKfPf", SaxpyCounts,
             sizeof(SaxpyCounts));
  fakeGlobal(ROOFLINE_DEVICE_META_PREFIX "_Z5saxpyifPKfPf",
             const_cast<char *>(SaxpyMeta), sizeof(SaxpyMeta));
  fakeKernel((const void *)fillStub, "_Z4fillPf", fillBody);
  fakeGlobal(ROOFLINE_DEVICE_COUNTS_PREFIX "_Z4fillPf", FillCounts,
             sizeof(FillCounts));
  fakeGlobal(ROOFLINE_DEVICE_META_PREFIX "_Z4fillPf", const_cast<char *>(FillMeta),
             sizeof(FillMeta));
  fakeGlobal(ROOFLINE_DEVICE_COUNTS_PREFIX "_Z3oldv", OldCounts,
             sizeof(OldCounts));
  fakeGlobal(ROOFLINE_DEVICE_META_PREFIX "_Z3oldv", const_cast<char *>(""), 1);

  auto *S1 = reinterpret_cast<cudaStream_t>(0x10);
  auto *S2 = reinterpret_cast<cudaStream_t>(0x20);
  if (const char *Many = std::getenv("FAKE_MANY")) {
    // More launches of one kernel than the shim keeps in flight (8), on
    // two streams: every one recorded, in launch order.
    for (int I = 1; I <= std::atoi(Many); ++I)
      saxpy(dim3(1), dim3(32), I, I % 2 ? S1 : S2);
    return 0;
  }
  if (std::getenv("FAKE_TRACE_CHAIN")) {
    int N = 1000;
    float *Out = YBuf;
    void *Args[] = {&N, &Out};
    cudaLaunchKernel((const void *)fillStub, dim3(4), dim3(256), Args, 0, S1);
  }
  for (int I = 0; I < 3; ++I)
    saxpy(dim3(4), dim3(256), 1000, S1);
  saxpy(dim3(1), dim3(128), 100, S2);
  saxpy(dim3(1, 1, 1), dim3(32), 1, nullptr);
  cudaError_t E = cudaLaunchKernel((const void *)plainStub, dim3(1), dim3(1),
                                   nullptr, 0, nullptr);
  std::printf("plain: %s; last error %d\n", E ? cudaGetErrorString(E) : "ok",
              int(cudaGetLastError()));
  E = cudaLaunchKernel((const void *)oldStub, dim3(1), dim3(1), nullptr, 0,
                       nullptr);
  std::printf("old: %s\n", E ? cudaGetErrorString(E) : "ok");
  return 0;
}

// KEYS: keys checked, 0 missing
// OUT: saxpy n=1000: ok
// OUT: saxpy n=1: ok
// OUT: plain: ok; last error 0
// OUT: old: ok

// ERR: roofline: CUDA kernel _Z3oldv was instrumented by another version of Roofline; its counts are not recorded
// ERR-NOT: roofline:

// Totals: 5 launches; threads 3*4*256 + 128 + 32 = 3232; the active
// threads 3*1000 + 100 + 1 = 3101 give 2*3101 = 6202 FLOPs, 8*3101 = 24808 B
// loaded and 4*3101 = 12404 B stored. The fake clock makes each launch
// 1 ms, one after the other.
// CHECK: "name": "_Z5saxpyifPKfPf",
// CHECK-NEXT: "display_name": "saxpy(int, float, float const*, float*)",
// CHECK-NEXT: "device": "cuda",
// CHECK-NEXT: "file": "/src/saxpy.cu",
// CHECK-NEXT: "line": 3,
// CHECK-NEXT: "calls": 5,
// CHECK-NEXT: "seconds": 0.005,
// CHECK-NEXT: "threads": 3232,
// CHECK-NEXT: "flops": {"fp16": 0, "bf16": 0, "fp32": 6202, "fp64": 0, "other": 0, "total": 6202, "special": 0},
// CHECK-NEXT: "flop_classes": {"fp32": {"fma": 3101}},
// CHECK-NEXT: "bytes": {"load": 24808, "store": 12404, "global": {"load": 24808, "store": 12404}},
// The thread index and the bounds test are not the user's integer work.
// CHECK-NEXT: "intops": {"total": 0,
// CHECK-NEXT: "int_classes": {},
// The 3101 active threads' 10 instructions each:
// CHECK-NEXT: "instructions": 31010,
// CHECK-NEXT: "static": {"flops": "2", "bytes_load": "8", "bytes_store": "4", "exact": true, "per": "thread", "params": ["n", "a", "x", "y"], "pointer_params": [{"index": 2, "name": "x", "bytes_read": "4", "bytes_written": "0"}, {"index": 3, "name": "y", "bytes_read": "4", "bytes_written": "4"}], "footprint": {"read": "8*n", "written": "4*n", "exact": true}},
// CHECK-NEXT: "launches_not_recorded": 0,
// CHECK-NEXT: "launch_columns": ["grid_x", "grid_y", "grid_z", "block_x", "block_y", "block_z", "shared", "stream", "start", "seconds", "threads", "flops", "bytes_load", "bytes_store", "n", "a", "x", "y"],
// CHECK-NEXT: "launches": [
// Each launch counted from zero (the buffer is zeroed before it): the
// three on stream 1 give 2000 FLOPs each, not 2000, 4000, 6000.
// CHECK-NEXT: [4, 1, 1, 256, 1, 1, 0, 1, 0, 0.001, 1024, 2000, 8000, 4000, 1000, 2.5, null, null],
// CHECK-NEXT: [4, 1, 1, 256, 1, 1, 0, 1, 0.001, 0.001, 1024, 2000, 8000, 4000, 1000, 2.5, null, null],
// CHECK-NEXT: [4, 1, 1, 256, 1, 1, 0, 1, 0.002, 0.001, 1024, 2000, 8000, 4000, 1000, 2.5, null, null],
// CHECK-NEXT: [1, 1, 1, 128, 1, 1, 0, 2, 0.003, 0.001, 128, 200, 800, 400, 100, 2.5, null, null],
// CHECK-NEXT: [1, 1, 1, 32, 1, 1, 0, 0, 0.004, 0.001, 32, 2, 8, 4, 1, 2.5, null, null]
// CHECK-NEXT: {{^ +\]$}}
// The kernel without a buffer and the other version's are not in it.
// CHECK-NOT: _Z5plainv
// CHECK-NOT: _Z3oldv

// FEW: "calls": 5,
// FEW: "flops": {"fp16": 0, "bf16": 0, "fp32": 6202,
// FEW: "launches_not_recorded": 3,
// FEW-NEXT: "launch_columns":
// FEW-NEXT: "launches": [
// FEW-NEXT: [4, 1, 1, 256, 1, 1, 0, 1, 0, 0.001,
// FEW-NEXT: [4, 1, 1, 256, 1, 1, 0, 1, 0.001, 0.001,
// FEW-NEXT: {{^ +\]$}}

// NODEV: saxpy n=1000: no CUDA-capable device is detected
// NODEV: plain: no CUDA-capable device is detected; last error 100
// NODEV-ERR: roofline: no CUDA device (no CUDA-capable device is detected): kernels are launched as without instrumentation and nothing is measured
// NODEV-ERR-NOT: roofline:

// One row per launch configuration; per launch, the static per-thread
// formula (2 FLOPs, 12 B) times the configuration's threads against the
// measured counts: 4*256 threads predict 2048 FLOPs, the 1000 that pass
// the guard do 2000.
// REPORT: platform: h100-sxm
// REPORT: saxpy <<<4, 256>>> n=1000 a=2.5  saxpy.cu:3    6 k   36 kB       0.167
// REPORT: saxpy <<<1, 128>>> n=100 a=2.5   saxpy.cu:3    200  1.2 kB       0.167
// REPORT: saxpy <<<1, 32>>> n=1 a=2.5      saxpy.cu:3      2    12 B       0.167
// The per-launch footprint, 12n from the meta's formula with each launch's
// n, is the DRAM traffic: 12 kB a launch at n = 1000 (36 kB for three).
// REPORT: saxpy <<<4, 256>>> n=1000 a=2.5 (roof: fp32 vector
// REPORT-NEXT: traffic per level: dram 36 kB, I 0.167 FLOP/B, limit 558 GFLOP/s
// REPORT-NEXT: per launch, static formula x 1.024 k threads: FLOPs 2.048 k predicted, 2 k measured (97.66%); bytes 12.29 k predicted, 12 k measured (97.66%)
// REPORT: saxpy <<<1, 32>>> n=1 a=2.5 (roof
// REPORT-NEXT: traffic per level: dram 12 B,
// REPORT-NEXT: per launch, static formula x 32 threads: FLOPs 64 predicted, 2 measured (3.125%); bytes 384 predicted, 12 measured (3.125%)

// FEW-REPORT: saxpy <<<4, 256>>> n=1000 a=2.5 saxpy.cu:3    4 k
// FEW-REPORT: saxpy (3 launches not recorded) saxpy.cu:3  2.2 k
// FEW-REPORT: launches beyond the runtime's record limit

// MERGED: saxpy <<<4, 256>>> n=1000 a=2.5  saxpy.cu:3   12 k   72 kB

// A damaged launch table is one error naming the file and the place.
// RUN: sed -e 's/"grid_x", //' %t/p.json > %t/nocol.json
// RUN: not %roofline_report %t/nocol.json 2>&1 | FileCheck %s --check-prefix=BADCOL
// RUN: sed -e 's/^\( *\)\[4, 1, 1, 256, 1, 1, 0, 1, 0, /\1[4, 1, /' %t/p.json > %t/short.json
// RUN: not %roofline_report %t/short.json 2>&1 | FileCheck %s --check-prefix=BADROW
// BADCOL: roofline-report: error: {{.*}}nocol.json: kernels[{{[0-9]+}}].launch_columns: expected "grid_x" as column 1
// BADROW: roofline-report: error: {{.*}}short.json: kernels[{{[0-9]+}}].launches[0]: expected an array of 18 values (launch_columns)

// TRACE: "trace": {
// TRACE-NEXT: "calls_not_kept": 0,
// TRACE-NEXT: "calls": [
// TRACE-NEXT: ["_Z4fillPf", 1000, [[Y:[0-9]+]], 1024],
// TRACE-NEXT: ["_Z5saxpyifPKfPf", 1000, 2.5, [[X:[0-9]+]], [[Y]], 1024],
// TRACE-NEXT: ["_Z5saxpyifPKfPf", 1000, 2.5, [[X]], [[Y]], 1024],
// TRACE-NEXT: ["_Z5saxpyifPKfPf", 1000, 2.5, [[X]], [[Y]], 1024],
// TRACE-NEXT: ["_Z5saxpyifPKfPf", 100, 2.5, [[X]], [[Y]], 128],
// TRACE-NEXT: ["_Z5saxpyifPKfPf", 1, 2.5, [[X]], [[Y]], 32]
// The device formulas are per thread: fill writes 4 B x 1024 threads of
// y, saxpy's first launch reads 4 B x 1024 threads of it: 8192 B saved.
// FUSION: "buffer": "out",
// FUSION: "bytes_saved": 8192.0,
// FUSION: "consumer": "saxpy",
// FUSION-NEXT: "consumer_buffer": "y",
// FUSION: "fusible": true,
// FUSION: "producer": "fill",

// GRAPH: roofline: launches captured into CUDA graphs are not recorded
// GRAPH-NOT: captured
// GRAPH-PROFILE-NOT: _Z5saxpyifPKfPf

// MANY: "calls": 20,
// MANY: "launches": [
// MANY-NEXT: [1, 1, 1, 32, 1, 1, 0, 1, 0, 0.001, 32, 2, 8, 4, 1, 2.5, null, null],
// MANY-NEXT: [1, 1, 1, 32, 1, 1, 0, 2, 0.001, 0.001, 32, 4, 16, 8, 2, 2.5, null, null],
// MANY-NEXT: [1, 1, 1, 32, 1, 1, 0, 1, 0.002, 0.001, 32, 6, 24, 12, 3, 2.5, null, null],
// MANY-NEXT: [1, 1, 1, 32, 1, 1, 0, 2, 0.003, 0.001, 32, 8, 32, 16, 4, 2.5, null, null],
// MANY-NEXT: [1, 1, 1, 32, 1, 1, 0, 1, 0.004, 0.001, 32, 10, 40, 20, 5, 2.5, null, null],
// MANY-NEXT: [1, 1, 1, 32, 1, 1, 0, 2, 0.005, 0.001, 32, 12, 48, 24, 6, 2.5, null, null],
// MANY-NEXT: [1, 1, 1, 32, 1, 1, 0, 1, 0.006, 0.001, 32, 14, 56, 28, 7, 2.5, null, null],
// MANY-NEXT: [1, 1, 1, 32, 1, 1, 0, 2, 0.007, 0.001, 32, 16, 64, 32, 8, 2.5, null, null],
// MANY-NEXT: [1, 1, 1, 32, 1, 1, 0, 1, 0.008, 0.001, 32, 18, 72, 36, 9, 2.5, null, null],
// MANY-NEXT: [1, 1, 1, 32, 1, 1, 0, 2, 0.009, 0.001, 32, 20, 80, 40, 10, 2.5, null, null],
// MANY-NEXT: [1, 1, 1, 32, 1, 1, 0, 1, 0.01, 0.001, 32, 22, 88, 44, 11, 2.5, null, null],
// MANY-NEXT: [1, 1, 1, 32, 1, 1, 0, 2, 0.011, 0.001, 32, 24, 96, 48, 12, 2.5, null, null],
// MANY-NEXT: [1, 1, 1, 32, 1, 1, 0, 1, 0.012, 0.001, 32, 26, 104, 52, 13, 2.5, null, null],
// MANY-NEXT: [1, 1, 1, 32, 1, 1, 0, 2, 0.013, 0.001, 32, 28, 112, 56, 14, 2.5, null, null],
// MANY-NEXT: [1, 1, 1, 32, 1, 1, 0, 1, 0.014, 0.001, 32, 30, 120, 60, 15, 2.5, null, null],
// MANY-NEXT: [1, 1, 1, 32, 1, 1, 0, 2, 0.015, 0.001, 32, 32, 128, 64, 16, 2.5, null, null],
// MANY-NEXT: [1, 1, 1, 32, 1, 1, 0, 1, 0.016, 0.001, 32, 34, 136, 68, 17, 2.5, null, null],
// MANY-NEXT: [1, 1, 1, 32, 1, 1, 0, 2, 0.017, 0.001, 32, 36, 144, 72, 18, 2.5, null, null],
// MANY-NEXT: [1, 1, 1, 32, 1, 1, 0, 1, 0.018, 0.001, 32, 38, 152, 76, 19, 2.5, null, null],
// MANY-NEXT: [1, 1, 1, 32, 1, 1, 0, 2, 0.019, 0.001, 32, 40, 160, 80, 20, 2.5, null, null]
