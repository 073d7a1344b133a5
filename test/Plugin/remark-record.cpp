// Remarks carry LLVM's structured arguments (named values, as opt-viewer,
// opt-stats.py and opt-diff.py read them from -fsave-optimization-record),
// and print the same text as before.
// RUN: rm -f %t.yaml
// RUN: %clangxx_roofline -O2 -g -c %s -o /dev/null -Rpass-analysis=roofline -fsave-optimization-record -foptimization-record-file=%t.yaml 2>&1 | FileCheck %s --check-prefix=TEXT
// RUN: FileCheck %s --input-file=%t.yaml
// saxpy: 2n FLOPs, 8n B loaded, 4n B stored.
// TEXT: remark: saxpy(int, float, float const*, float*): 2*n FLOP fp32 (exact), load 8*n B, store 4*n B, I -> 0.1667 FLOP/B for large sizes, per call
// CHECK: Pass: roofline
// CHECK-NEXT: Name: KernelSummary
// CHECK: Args:
// CHECK-NEXT: - Kernel: 'saxpy(int, float, float const*, float*)'
// CHECK: - FLOPs: '2*n'
// CHECK: - Precision: fp32
// CHECK: - Exact: exact
// CHECK: - BytesLoad: '8*n'
// CHECK: - BytesStore: '4*n'
// CHECK: - Intensity: 'I -> 0.1667 FLOP/B for large sizes'
// CHECK: - Footprint: 'read 8*n B, written 4*n B (exact)'
// CHECK: Name: LoopSummary
// CHECK: - Trip: n
void saxpy(int n, float a, const float *x, float *y) {
  for (int i = 0; i < n; ++i)
    y[i] = a * x[i] + y[i];
}
