// One -roofline-json file for a .cu: the device and host compilations both
// write it without overwriting each other's kernels.
// REQUIRES: cuda
// RUN: rm -f %t.json
// RUN: clang++ %cuda_flags --cuda-gpu-arch=sm_90 -fpass-plugin=%roofline_plugin -O2 -g -c %s -o %t.o -mllvm -roofline-json=%t.json
// RUN: FileCheck %s --input-file=%t.json
// Both compilations are in the file:
// CHECK-DAG: "target": "nvptx64-nvidia-cuda sm_90"
// CHECK-DAG: "display_name": "scale(int, float*)",
// CHECK-DAG: "kind": "cuda-kernel",
// CHECK-DAG: "display_name": "host_fill(int, float*)",
// CHECK-DAG: "target": "x86_64-{{.*}}"
// Compiling again replaces this file's kernels rather than adding copies:
// RUN: clang++ %cuda_flags --cuda-gpu-arch=sm_90 -fpass-plugin=%roofline_plugin -O2 -g -c %s -o %t.o -mllvm -roofline-json=%t.json
// RUN: grep -c '"display_name": "scale(int, float\*)"' %t.json | FileCheck %s --check-prefix=ONCE
// ONCE: 1
__global__ void scale(int n, float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= 2.0f;
}

void host_fill(int n, float *x) {
  for (int i = 0; i < n; ++i)
    x[i] = 1.0f + i;
}
