#!/usr/bin/env bash
# The main job: build Roofline, compile the bundled example with the driver
# wrapper (static counts as remarks and a summary; instrumentation for exact
# dynamic counts), run it, and place its kernels on a roofline: the static
# bound and the measured performance side by side (table, and an HTML chart
# in out/report.html).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh >/dev/null
mkdir -p out
N=4194304 G=1024 M=256
KERNELS='^(saxpy|stencil5|gemm)\('

echo "== compile with the plugin: static counts as remarks =="
rm -f out/example.roofline.json out/example.profile.json
build/bin/roofline-clang++ -O2 -g -Rpass-analysis=roofline \
  -mllvm -roofline-json=out/example.roofline.json -mllvm -roofline-kernels="$KERNELS" \
  examples/cpu/kernels.cpp -o out/example 2>&1 |
  grep -E "remark: (saxpy|stencil5|gemm)\(" | sed 's/ \[-Rpass-analysis=roofline\]//'

echo
echo "== run (instrumented: exact counts and times go to out/example.profile.json) =="
ROOFLINE_PROFILE=out/example.profile.json ./out/example "$N" "$G" "$M"

echo
echo "== static bound (sizes of the run) =="
build/bin/roofline-report out/example.roofline.json --assume n=$N,side=$G,M=$M,N=$M,K=$M

echo
echo "== measured: achieved FLOP/s and efficiency against the bound =="
build/bin/roofline-report out/example.roofline.json out/example.profile.json
build/bin/roofline-report out/example.roofline.json out/example.profile.json \
  --format html -o out/report.html
echo
echo "chart: out/report.html   summary: out/example.roofline.json   profile: out/example.profile.json"
