#!/usr/bin/env bash
# The user's note's analyses as runnable examples (docs/examples.md): each
# is compiled with the plugin (static counts) and with roofline-clang++
# (instrumented: exact counts from a run), run, and placed on rooflines by
# roofline-report.
#
# USAGE: scripts/examples.sh cnn|cnn-cuda|llm|llm-cuda|training [--small]
#   --small   the reduced sizes of the tests (test/Examples)
# Environment: ROOFLINE_BUILD (default build/), EXAMPLES_OUT (default
# out/examples/NAME). Uses the binaries in ROOFLINE_BUILD; never builds them.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
NAME="${1:-}"
SMALL=0
[ "${2:-}" = --small ] && SMALL=1
BUILD="${ROOFLINE_BUILD:-$ROOT/build}"
OUT="${EXAMPLES_OUT:-$ROOT/out/examples/$NAME}"
REPORT="$BUILD/bin/roofline-report"
WRAP="$BUILD/bin/roofline-clang++"
PLUGIN="$BUILD/lib/RooflinePass.so"
CLANGXX=/usr/lib/llvm-22/bin/clang++
mkdir -p "$OUT"

# static SRC JSON REGEX FLAGS...: the plugin's summary of the kernels matching
# REGEX (a plain compile, no instrumentation).
static() {
  local src="$1" json="$2" regex="$3"
  shift 3
  rm -f "$json"
  "$CLANGXX" -O2 -g -fpass-plugin="$PLUGIN" -mllvm -roofline-json="$json" \
    -mllvm -roofline-kernels="$regex" "$@" -c "$src" -o /dev/null
}

# Shows a command (paths shortened) and runs it.
show() {
  echo "\$ $(basename "$1") ${*:2}" | sed "s|$OUT/||g; s|$ROOT/||g"
  "$@"
}

cnn() {
  local src="$ROOT/examples/cnn/cnn.cpp" defs=()
  [ "$SMALL" = 1 ] && defs=(-DCNN_RES=32)
  echo "== compile: one summary per layer kernel, one per set of forward functions =="
  for k in conv2d dwconv2d maxpool2 avgpool fc; do
    static "$src" "$OUT/$k.json" "^void $k<float>" "${defs[@]}"
  done
  static "$src" "$OUT/nets.json" '^(vgg16|mobilenet)_forward\(' "${defs[@]}"
  static "$src" "$OUT/nets-int8.json" '^(vgg16|mobilenet)_forward_int8\(' "${defs[@]}"
  "$WRAP" -O2 "${defs[@]}" -mllvm -roofline-kernels='^void [a-z0-9_]+<float>' \
    "$src" -o "$OUT/cnn"
  echo
  echo "== run (instrumented: exact counts of every kernel call) =="
  for net in vgg16 mobilenet; do
    ROOFLINE_PROFILE="$OUT/layers.profile.json" "$OUT/cnn" layers $net > "$OUT/$net.layers"
    ROOFLINE_PROFILE="$OUT/$net.profile.json" "$OUT/cnn" $net
  done
  echo
  python3 "$ROOT/examples/cnn/layers.py" "$REPORT" "$OUT"
  # Charts: the note's traffic (one point per network) in its convention;
  # counted bytes and footprint in the tool's; the edge platforms.
  "$REPORT" "$OUT/nets-weights-output-maps.json" --platform gtx1080ti \
    --convention mac --format svg -o "$OUT/cnn-gtx1080ti-note.svg"
  "$REPORT" "$OUT/nets.json" "$OUT/nets-footprint.json" --platform gtx1080ti \
    --format svg -o "$OUT/cnn-gtx1080ti.svg"
  "$REPORT" "$OUT/nets.json" "$OUT/nets-traffic.json" --platform gtx1080ti \
    --format html -o "$OUT/cnn-gtx1080ti.html"
  "$REPORT" "$OUT/nets-footprint.json" --platform jetson-agx-orin \
    --format svg -o "$OUT/cnn-jetson-agx-orin.svg"
  "$REPORT" "$OUT/nets-int8-traffic.json" --platform edge-tpu --format svg \
    -o "$OUT/cnn-edge-tpu.svg"
  echo "charts: $OUT/cnn-gtx1080ti-note.svg, cnn-gtx1080ti.svg, cnn-jetson-agx-orin.svg," \
    "cnn-edge-tpu.svg, cnn-gtx1080ti.html" | sed "s|$ROOT/||"
}

# The CNN's layer types as CUDA kernels (examples/cnn/cnn.cu, one thread per
# output element), compiled for sm_90 with the plugin (no GPU needed): the
# per-thread formulas times each layer's threads, beside cnn.cpp's counts.
cnn_cuda() {
  local src="$ROOT/examples/cnn/cnn.cpp" cu="$ROOT/examples/cnn/cnn.cu" defs=()
  [ "$SMALL" = 1 ] && defs=(-DCNN_RES=32)
  echo "== compile: cnn.cu for sm_90 (device code, per-thread counts); cnn.cpp's kernels and forward functions =="
  rm -f "$OUT/cuda.json"
  show "$CLANGXX" -x cuda --cuda-path="${CUDA_PATH:-/usr/local/cuda}" -Wno-unknown-cuda-version \
    --cuda-gpu-arch=sm_90 --cuda-device-only -O2 -g -fpass-plugin="$PLUGIN" \
    -mllvm -roofline-json="$OUT/cuda.json" -c "$cu" -o /dev/null
  for k in conv2d dwconv2d maxpool2 avgpool fc load_image; do
    static "$src" "$OUT/$k.json" "^void $k<float>" "${defs[@]}"
  done
  static "$src" "$OUT/nets.json" '^(vgg16|mobilenet)_forward\(' "${defs[@]}"
  # The layer tables, printed by cnn.cpp itself (`cnn layers NET`).
  "$CLANGXX" -O0 "${defs[@]}" "$src" -o "$OUT/cnn"
  for net in vgg16 mobilenet; do
    "$OUT/cnn" layers $net > "$OUT/$net.layers"
  done
  echo
  python3 "$ROOT/examples/cnn/layers.py" "$REPORT" "$OUT" cuda
}

llm() {
  local src="$ROOT/examples/llm/llm.cpp"
  local flags=(-fno-math-errno -Xclang -ffloat16-excess-precision=none)
  echo "== compile: the scenarios at 7B shapes, and the generic decoder stack =="
  static "$src" "$OUT/llm.json" '^(prefill|decode)_' "${flags[@]}"
  static "$src" "$OUT/stack.json" '^void decoder_stack<' "${flags[@]}"
  "$WRAP" -O2 "${flags[@]}" -mllvm \
    -roofline-kernels='^void (rmsnorm|linear|kv_append|attention|swiglu|residual)<' \
    "$src" -o "$OUT/llm"
  echo
  echo "== reduced-size runs (instrumented) =="
  rm -f "$OUT"/run-*.args "$OUT"/run-*.profile.json
  local i=0
  #              variant  L B Nq past d  G Hkv dh dff
  while read -r args; do
    i=$((i + 1))
    echo "$args" > "$OUT/run-$i.args"
    ROOFLINE_PROFILE="$OUT/run-$i.profile.json" "$OUT/llm" $args
  done <<'RUNS'
fp32     2 1 16 0  64 1 4 16 128
fp16     2 1 16 0  64 2 2 16 128
fp32     2 4 1  16 64 1 4 16 128
fp16     2 4 1  16 64 1 4 16 128
fp16     2 4 1  16 64 2 2 16 128
fp16-kv8 2 4 1  16 64 2 2 16 128
RUNS
  echo
  python3 "$ROOT/examples/llm/analyze.py" "$REPORT" "$OUT" 2048 2048 1 8 64
  for b in 1 64; do
    "$REPORT" "$OUT/llm.json" --platform h100-sxm --compare-platform h200 \
      --assume prompt=2048,ctx=2048,batch=$b --format svg -o "$OUT/llm-batch$b.svg"
  done
  echo "charts: $OUT/llm-batch1.svg, llm-batch64.svg" | sed "s|$ROOT/||"
}

# llm.cpp's decode projections as a CUDA GEMV (examples/llm/gemv.cu, fp16, one
# thread per output row), compiled for sm_90 with the plugin (no GPU needed).
llm_cuda() {
  local src="$ROOT/examples/llm/llm.cpp" cu="$ROOT/examples/llm/gemv.cu"
  echo "== compile: gemv.cu for sm_90 (device code, per-thread counts); llm.cpp's linear<_Float16> =="
  rm -f "$OUT/gemv.json"
  show "$CLANGXX" -x cuda --cuda-path="${CUDA_PATH:-/usr/local/cuda}" -Wno-unknown-cuda-version \
    --cuda-gpu-arch=sm_90 --cuda-device-only -O2 -g -fpass-plugin="$PLUGIN" \
    -mllvm -roofline-json="$OUT/gemv.json" -c "$cu" -o /dev/null
  static "$src" "$OUT/linear.json" '^void linear<_Float16>' -fno-math-errno \
    -Xclang -ffloat16-excess-precision=none
  echo
  python3 "$ROOT/examples/llm/analyze.py" "$REPORT" "$OUT" cuda
}

training() {
  local src="$ROOT/examples/training/mlp.cpp" flags=(-fno-math-errno)
  local Bt=64 In=1024 Hd=4096 Out=1000
  [ "$SMALL" = 1 ] && Bt=8 In=32 Hd=64 Out=10
  echo "== compile: the phases' summary; the instrumented program =="
  static "$src" "$OUT/mlp.json" '^(infer|train_sgd|train_adam)\(' "${flags[@]}"
  "$WRAP" -O2 "${flags[@]}" \
    -mllvm -roofline-kernels='^(linear_|relu|softmax_xent|sgd|adam)' \
    "$src" -o "$OUT/mlp"
  echo
  echo "== run each phase once (instrumented) =="
  for phase in infer sgd adam; do
    ROOFLINE_PROFILE="$OUT/$phase.profile.json" "$OUT/mlp" $phase $Bt $In $Hd $Out
  done
  echo
  python3 "$ROOT/examples/training/analyze.py" "$REPORT" "$OUT" \
    "$Bt,$In,$Hd,$Out" 1 8 64 512
  "$REPORT" "$OUT/mlp.json" --platform h100-sxm \
    --assume Bt=$Bt,In=$In,Hd=$Hd,Out=$Out --format svg -o "$OUT/training.svg"
  echo "chart: $OUT/training.svg" | sed "s|$ROOT/||"
}

case "$NAME" in
  cnn) cnn ;;
  cnn-cuda) cnn_cuda ;;
  llm) llm ;;
  llm-cuda) llm_cuda ;;
  training) training ;;
  *) echo "usage: scripts/examples.sh cnn|cnn-cuda|llm|llm-cuda|training [--small]" >&2; exit 2 ;;
esac
