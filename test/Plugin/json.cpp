// -roofline-json writes the static summary: to a file, or one file per
// compilation in a directory; an unwritable path is one clear warning and
// the object file is still produced.
// RUN: rm -rf %t && mkdir -p %t/dir
// RUN: %clangxx_roofline -O2 -g -c %s -o %t/a.o -mllvm -roofline-json=%t/summary.json
// RUN: FileCheck %s --input-file=%t/summary.json
// RUN: %clangxx_roofline -O2 -g -c %s -o %t/b.o -mllvm -roofline-json=%t/dir/
// RUN: ls %t/dir | FileCheck %s --check-prefix=DIR
// RUN: chmod a-w %t/dir && mkdir -p %t/ro && chmod a-w %t/ro
// RUN: %clangxx_roofline -O2 -g -c %s -o %t/c.o -mllvm -roofline-json=%t/ro/x/summary.json 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: test -s %t/c.o

// CHECK: "kernels": [
// CHECK: "bytes": {
// CHECK-NEXT: "load": null,
// CHECK-NEXT: "memory": {
// CHECK-NEXT: "load": null,
// CHECK-NEXT: "store": null
// CHECK-NEXT: },
// CHECK-NEXT: "store": null
// CHECK: "display_name": "triad(long, double*, double const*, double const*, double)",
// CHECK: "exact": true,
// CHECK: "file": "{{.*}}json.cpp",
// CHECK: "flops": {
// CHECK-NEXT: "bf16": 0,
// CHECK-NEXT: "fp16": 0,
// CHECK-NEXT: "fp32": 0,
// CHECK-NEXT: "fp64": null,
// CHECK-NEXT: "other": 0,
// CHECK-NEXT: "special": 0,
// CHECK-NEXT: "total": null
// CHECK: "formula": {
// CHECK: "bytes_load": "16*n",
// CHECK: "bytes_store": "8*n",
// CHECK: "flops": "2*n",
// CHECK: "params": [
// CHECK-NEXT: "n"
// CHECK-NEXT: ],
// CHECK: "kind": "function",
// CHECK: "line": [[@LINE+9]],
// CHECK: "loops": [
// CHECK: "trip": "n",
// CHECK: "name": "_Z5triadlPdPKdS1_d",
// CHECK: "per": "call",
// CHECK: "source": "{{.*}}json.cpp",
// CHECK: "target": "x86_64-{{.*}}"
// DIR: json.cpp.x86_64-{{.*}}.roofline.json
// BAD: warning: roofline: cannot write static summary '{{.*}}/ro/x/summary.json': {{.*}}
void triad(long n, double *a, const double *b, const double *c, double s) {
  for (long i = 0; i < n; ++i)
    a[i] = b[i] + s * c[i];
}
