#!/usr/bin/env bash
# The main job: build Roofline, compile the bundled example with the pass
# plugin (remarks + static summary), run it, and place its kernels on a
# roofline (table, and an HTML chart in out/report.html).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh >/dev/null
mkdir -p out
CLANG=/usr/lib/llvm-22/bin/clang++
N=4194304 G=1024 M=256

echo "== compile with the plugin: static counts as remarks =="
rm -f out/example.roofline.json
"$CLANG" -O2 -g -fpass-plugin=build/lib/RooflinePass.so -Rpass-analysis=roofline \
  -mllvm -roofline-json=out/example.roofline.json -mllvm -roofline-kernels='^(saxpy|stencil5|gemm)\(' \
  examples/cpu/kernels.cpp -o out/example 2>&1 | grep -E "remark: (saxpy|stencil5|gemm)\(" | sed 's/ \[-Rpass-analysis=roofline\]//'

echo
echo "== run =="
./out/example "$N" "$G" "$M"

echo
echo "== placed on the roofline (the sizes the run used) =="
build/bin/roofline-report out/example.roofline.json --assume n=$N,side=$G,M=$M,N=$M,K=$M \
  --format table
build/bin/roofline-report out/example.roofline.json --assume n=$N,side=$G,M=$M,N=$M,K=$M \
  --format html -o out/report.html
echo
echo "chart: out/report.html   summary: out/example.roofline.json"
