// A parameter is a parameter whatever it is called. Summaries spell the
// built-ins `unknown` (a value no analysis named), `vscale`, `laneid` (a
// GPU lane) and `trip_L<line>` (an unknown trip count); a C parameter may
// have any of those names. Each function below is the same loop, x[i] *= 2
// for i < its parameter: 1 FLOP and 8 bytes (a load and a store of 4)
// an iteration, a footprint of 4 bytes read and 4 written an iteration.
// The five rows are the same, with and without sizes; before, `unknown`
// was "not judged (needs unknown, an unknown trip count)" and `laneid`
// had no footprint ("?") and 32-thread warp instructions.
// RUN: %clang_roofline -O2 -g -c %s -o /dev/null -mllvm -roofline-json=%t.json
// RUN: FileCheck %s --check-prefix=JSON --input-file=%t.json
// JSON-DAG: "written": "4*laneid"
// JSON-DAG: "written": "4*unknown"
// JSON-DAG: "parameters": [{{[[:space:]]*}}"unknown",{{[[:space:]]*}}"x"{{[[:space:]]*}}]
// RUN: %roofline_report %t.json --platform h100-sxm --all-kernels > %t.large.txt
// RUN: FileCheck %s --check-prefix=LARGE --input-file=%t.large.txt
// LARGE-NOT: not judged
// LARGE: scale_vscale   {{.*}}(formula)  (formula)       0.125     20  memory (dram)  419 GFLOP/s
// LARGE: scale_unknown  {{.*}}(formula)  (formula)       0.125     20  memory (dram)  419 GFLOP/s
// LARGE: scale_laneid   {{.*}}(formula)  (formula)       0.125     20  memory (dram)  419 GFLOP/s
// LARGE: scale_trip     {{.*}}(formula)  (formula)       0.125     20  memory (dram)  419 GFLOP/s
// LARGE: scale_n        {{.*}}(formula)  (formula)       0.125     20  memory (dram)  419 GFLOP/s
// LARGE-NOT: warp instructions
// With each parameter at 1000: 1000 FLOPs, 8000 bytes, each the same.
// RUN: %roofline_report %t.json --platform h100-sxm --all-kernels --format csv \
// RUN:   --assume vscale=1000,unknown=1000,laneid=1000,trip_L1=1000,n=1000 \
// RUN:   | cut -d, -f1,5,6,9 | FileCheck %s --check-prefix=SIZED
// SIZED-COUNT-5: scale_{{[a-z]+}},1000,8000,memory

void scale_vscale(int vscale, float *x) { for (int i = 0; i < vscale; ++i) x[i] *= 2.0f; }
void scale_unknown(int unknown, float *x) { for (int i = 0; i < unknown; ++i) x[i] *= 2.0f; }
void scale_laneid(int laneid, float *x) { for (int i = 0; i < laneid; ++i) x[i] *= 2.0f; }
void scale_trip(int trip_L1, float *x) { for (int i = 0; i < trip_L1; ++i) x[i] *= 2.0f; }
void scale_n(int n, float *x) { for (int i = 0; i < n; ++i) x[i] *= 2.0f; }
