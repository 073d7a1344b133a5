// The summary says, for every pointer parameter, whether the kernel reads
// it, writes it or both, and how many bytes (for fusion auditing), also
// through calls.
// RUN: rm -f %t.json
// RUN: %clangxx_roofline -O2 -g -c %s -o /dev/null -mllvm -roofline-json=%t.json
// RUN: FileCheck %s --input-file=%t.json

// GEMM: A and B are read M*N*K times each (4 B), C written M*N times.
// Their footprints are the matrices: A[i*K + k] is injective in (i, k)
// (the stride K of i is the span of k) and does not move with j: M*K
// floats; B[k*N + j] N*K floats; C M*N.
// CHECK-LABEL: "display_name": "gemm(int, int, int, float const*, float const*, float*)"
// CHECK: "footprint": {
// CHECK-NEXT: "assumptions": [],
// CHECK-NEXT: "exact": true,
// CHECK: "read": "4*M*K + 4*N*K",
// CHECK-NEXT: "written": "4*M*N"
// CHECK: "pointer_params": [
// CHECK-NEXT: {
// CHECK-NEXT: "access": "read",
// CHECK-NEXT: "bytes_read": "4*M*N*K",
// CHECK-NEXT: "bytes_written": "0",
// CHECK-NEXT: "footprint": {
// CHECK: "read": "4*M*K",
// CHECK-NEXT: "written": "0"
// CHECK-NEXT: },
// CHECK-NEXT: "index": 3,
// CHECK-NEXT: "name": "A"
// CHECK: "access": "read",
// CHECK-NEXT: "bytes_read": "4*M*N*K",
// CHECK: "name": "B"
// CHECK: "access": "written",
// CHECK-NEXT: "bytes_read": "0",
// CHECK-NEXT: "bytes_written": "4*M*N",
// CHECK: "name": "C"
void gemm(int M, int N, int K, const float *A, const float *B, float *C) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0;
      for (int k = 0; k < K; ++k)
        acc += A[i * K + k] * B[k * N + j];
      C[i * N + j] = acc;
    }
}

// relu in place (a select at -O2: one load and one store per element),
// called twice through a helper: out is read and written, 2 x 4n B each.
// Its footprint is relu's, once: both calls touch the same n floats
// (the same callee footprint, 4n, from the same arguments).
// CHECK-LABEL: "display_name": "relu_twice(int, float*)"
// CHECK: "pointer_params": [
// CHECK-NEXT: {
// CHECK-NEXT: "access": "read-write",
// CHECK-NEXT: "bytes_read": "8*n",
// CHECK-NEXT: "bytes_written": "8*n",
// CHECK-NEXT: "footprint": {
// CHECK: "exact": true,
// CHECK: "read": "4*n",
// CHECK-NEXT: "written": "4*n"
// CHECK-NEXT: },
// CHECK-NEXT: "index": 1,
// CHECK-NEXT: "name": "out"
__attribute__((noinline)) void relu(int n, float *v) {
  for (int i = 0; i < n; ++i)
    v[i] = v[i] > 0 ? v[i] : 0;
}
void relu_twice(int n, float *out) {
  relu(n, out);
  relu(n, out);
}

// The destination is b or c, chosen at run time: its 4n B written are in
// the totals (store 4*n, exact) but in neither parameter's bytes, and the
// summary says so instead of dropping them silently.
// CHECK-LABEL: "display_name": "copy_to_one(int, float const*, float*, float*, int)"
// CHECK: "bytes_store": "4*n",
// CHECK: "exact": true,
// CHECK: "notes": [
// CHECK-NEXT: "an access at pointer-params.cpp:[[@LINE+11]] goes through b or c (chosen at run time): its bytes are in the totals but in no pointer parameter's"
// CHECK: "pointer_params": [
// CHECK-NEXT: {
// CHECK-NEXT: "access": "read",
// CHECK-NEXT: "bytes_read": "4*n",
// CHECK: "name": "a"
// CHECK-NEXT: }
// CHECK-NEXT: ]
void copy_to_one(int n, const float *a, float *b, float *c, int which) {
  float *dst = which ? b : c;
  for (int i = 0; i < n; ++i)
    dst[i] = a[i];
}
