#!/usr/bin/env bash
# The GPU checks of the CUDA instrumentation, as one command for a machine
# with an NVIDIA GPU (and Nsight Compute for the FLOP comparison):
#
#   bash scripts/gpu-check.sh          # build the test programs, run them
#   bash scripts/gpu-check.sh build    # only build (no GPU needed): build/gpu-check/
#   bash scripts/gpu-check.sh run      # only run what was built
#
# It checks that (1) the dynamic counts of test/CUDA/Inputs/launches.cu equal
# the hand-derived exact values, launch by launch; (2) its FP32/FP64/FP16
# FLOPs equal Nsight Compute's SASS counts (fadd + fmul + 2*ffma, ...); and
# (3) measures instrumented / uninstrumented kernel time (target: geometric
# mean at most 1.3x). Everything goes into one file, $OUT/gpu-check.json
# (OUT defaults to build/gpu-check), with the raw outputs beside it.
# The programs link the CUDA runtime statically: the GPU machine needs only
# the driver (and ncu), not clang or LLVM.
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=build/gpu-check
OUT="${OUT:-$DIR}"
ARCHS=(--cuda-gpu-arch=sm_80 --cuda-gpu-arch=sm_90)
SRC=test/CUDA/Inputs/launches.cu

build() {
  [ -x build/bin/roofline-clang++ ] || bash scripts/build.sh
  mkdir -p "$DIR"
  build/bin/roofline-clang++ -O2 "${ARCHS[@]}" "$SRC" -o "$DIR/app" -lcudart_static
  /usr/lib/llvm-22/bin/clang++ -x cuda --cuda-path=/usr/local/cuda \
    -Wno-unknown-cuda-version "${ARCHS[@]}" -O2 "$SRC" -o "$DIR/plain" \
    -L/usr/local/cuda/lib64 -lcudart_static -ldl -lrt -lpthread
  cp build/lib/libroofline_rt.so "$DIR/"
  echo "built $DIR/app (instrumented) and $DIR/plain"
}

find_ncu() {
  command -v ncu && return
  for c in /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu /usr/local/NVIDIA-Nsight-Compute*/ncu; do
    [ -x "$c" ] && { echo "$c"; return; }
  done
  return 1
}

run() {
  mkdir -p "$OUT"
  export LD_LIBRARY_PATH="$DIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  nvidia-smi -L > "$OUT/gpu.txt" 2>&1 || { echo "gpu-check: no NVIDIA GPU (nvidia-smi -L failed)"; exit 1; }
  cat "$OUT/gpu.txt"
  # (1) counts, launch by launch
  ROOFLINE_PROFILE="$OUT/profile.json" "$DIR/app" > "$OUT/app.out" 2> "$OUT/app.err" || true
  # (2) Nsight Compute on the uninstrumented program
  ncu_args=()
  if NCU=$(find_ncu); then
    m=""
    for op in fadd fmul ffma dadd dmul dfma hadd hmul hfma; do
      m+="${m:+,}sm__sass_thread_inst_executed_op_${op}_pred_on.sum"
    done
    "$NCU" --csv --metrics "$m" "$DIR/plain" > "$OUT/ncu.csv" 2> "$OUT/ncu.err" || true
    # ncu prints the program's output first: keep the CSV from its header on.
    sed -n '/^"ID"/,$p' "$OUT/ncu.csv" > "$OUT/ncu-metrics.csv"
    [ -s "$OUT/ncu-metrics.csv" ] && ncu_args=(--ncu "$OUT/ncu-metrics.csv")
  else
    echo "gpu-check: ncu not found: the Nsight Compute comparison is skipped" | tee "$OUT/ncu.err"
  fi
  python3 test/CUDA/Inputs/check_launches.py "$OUT/profile.json" "${ncu_args[@]}" \
    --json "$OUT/counts.json" | tee "$OUT/counts.txt" || true
  # (3) overhead: kernel times, alternating plain and instrumented runs
  : > "$OUT/time-plain.txt"; : > "$OUT/time-instrumented.txt"
  for i in 1 2 3; do
    "$DIR/plain" --time >> "$OUT/time-plain.txt" || true
    ROOFLINE_PROFILE="$OUT/time-profile.json" "$DIR/app" --time >> "$OUT/time-instrumented.txt" || true
  done
  python3 - "$OUT" <<'PY'
import json, math, os, sys
out = sys.argv[1]
def times(name):
    t = {}
    for line in open(os.path.join(out, name)):
        parts = line.split()
        if len(parts) == 4 and parts[0] == "time":
            t.setdefault(parts[1], []).append(float(parts[2]))
    return {k: sorted(v)[len(v) // 2] for k, v in t.items()}
plain, instr = times("time-plain.txt"), times("time-instrumented.txt")
ratios = {k: instr[k] / plain[k] for k in plain if k in instr and plain[k] > 0}
geomean = math.exp(sum(map(math.log, ratios.values())) / len(ratios)) if ratios else None
try:
    counts = json.load(open(os.path.join(out, "counts.json")))
except (OSError, ValueError):
    counts = {"failures": ["no counts: the instrumented run failed (see app.err)"],
              "kernels": {}}
result = {
    "gpu": open(os.path.join(out, "gpu.txt")).read().strip(),
    "counts_exact": not counts["failures"],
    "failures": counts["failures"],
    "ncu_compared": any("ncu" in k for k in counts["kernels"].values()),
    "kernels": counts["kernels"],
    "time_ms": {"plain": plain, "instrumented": instr},
    "overhead": ratios,
    "overhead_geomean": geomean,
    "overhead_target_met": geomean is not None and geomean <= 1.3,
}
json.dump(result, open(os.path.join(out, "gpu-check.json"), "w"), indent=1)
print("overhead (instrumented / plain kernel time):",
      {k: round(v, 3) for k, v in ratios.items()}, "geomean", geomean and round(geomean, 3))
print("counts exact:", result["counts_exact"], "| ncu compared:", result["ncu_compared"])
print("results:", os.path.join(out, "gpu-check.json"))
PY
}

case "${1:-all}" in
  build) build ;;
  run) run ;;
  all) build; run ;;
  *) echo "usage: bash scripts/gpu-check.sh [build|run]" >&2; exit 2 ;;
esac
