#!/usr/bin/env bash
# The GPU checks, as one command for a machine with an NVIDIA GPU (and
# Nsight Compute for the FLOP comparison) or an AMD GPU (ROCm):
#
#   bash scripts/gpu-check.sh          # build the test programs, run them
#   bash scripts/gpu-check.sh build    # only build (no GPU needed): build/gpu-check/
#   bash scripts/gpu-check.sh run      # only run what was built
#
# The path follows the GPU found: NVIDIA where `nvidia-smi -L` works, else
# AMD where rocminfo lists a gfx agent (or /dev/kfd is there with rocm-smi
# or amd-smi); ROOFLINE_GPU=nvidia|amd chooses one (`build` for AMD without
# a GPU: ROOFLINE_GPU=amd ROOFLINE_HIP_ARCH=gfx942). Neither: it says so
# and exits 1. Everything goes into one file, $OUT/gpu-check.json (OUT
# defaults to build/gpu-check), with the raw outputs beside it.
#
# NVIDIA: it checks that (1) the dynamic counts of
# test/CUDA/Inputs/launches.cu equal the hand-derived exact values, launch
# by launch; (2) its FP32/FP64/FP16 FLOPs equal Nsight Compute's SASS
# counts (fadd + fmul + 2*ffma, ...); and (3) measures instrumented /
# uninstrumented kernel time (target: geometric mean at most 1.3x).
# The programs link the CUDA runtime statically: the GPU machine needs only
# the driver (and ncu), not clang or LLVM.
#
# AMD: it records the device (gpu.txt, device.json); builds
# test/HIP/Inputs/launches.hip instrumented (roofline-clang++, the HIP
# shim) and checks each launch's counts against the hand-derived ones
# (check_launches.py --device hip: dynamic.json); compiles test/HIP/*.hip and the examples
# test/HIP/*.test convert, for the GPU's gfx target, into static summaries
# (static/), checks that the kernels the tests call exact are exact, and
# runs the tests' checks of those summaries (FileCheck) for that target
# (checks/); times the kernels of test/HIP/kernels.hip with HIP events
# (hipcc, or clang++-22 and libamdhip64) and checks that no run is faster
# than roofline-report's minimum time for it (report-*.txt). Every step
# that cannot run is recorded as skipped, with why, in summary.txt and
# gpu-check.json; the exit status is 1 when a check that ran failed.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
DIR=build/gpu-check
OUT="${OUT:-$DIR}"
ARCHS=(--cuda-gpu-arch=sm_80 --cuda-gpu-arch=sm_90)
SRC=test/CUDA/Inputs/launches.cu
CUDA=/usr/local/cuda
LLVM=/usr/lib/llvm-22/bin
KFD=/dev/kfd
KFD_NODES=/sys/class/kfd/kfd/topology/nodes

# Python both paths' summaries share; `py ARGS <<'PY'` runs a script after it.
PY_COMMON='
import glob, json, math, os, re, shlex, shutil, subprocess, sys
def times(out, name):
    """The median kernel time (ms) of the lines "time NAME MS ms" of a file."""
    t = {}
    for line in open(os.path.join(out, name)):
        parts = line.split()
        if len(parts) == 4 and parts[0] == "time":
            t.setdefault(parts[1], []).append(float(parts[2]))
    return {k: sorted(v)[len(v) // 2] for k, v in t.items()}
def load(path, default):
    try:
        return json.load(open(path))
    except (OSError, ValueError):
        return default
'
py() { python3 -c "$PY_COMMON$(cat)" "$@"; }

ensure_built() { [ -x build/bin/roofline-clang++ ] || bash scripts/build.sh; }

no_gpu() { echo "gpu-check: $1"; exit 1; }

# -- NVIDIA -------------------------------------------------------------------

nvidia_build() {
  ensure_built
  mkdir -p "$DIR"
  build/bin/roofline-clang++ -O2 "${ARCHS[@]}" "$SRC" -o "$DIR/app" -lcudart_static
  "$LLVM/clang++" -x cuda --cuda-path="$CUDA" \
    -Wno-unknown-cuda-version "${ARCHS[@]}" -O2 "$SRC" -o "$DIR/plain" \
    -L"$CUDA/lib64" -lcudart_static -ldl -lrt -lpthread
  cp build/lib/libroofline_rt.so "$DIR/"
  echo "built $DIR/app (instrumented) and $DIR/plain"
}

find_ncu() {
  command -v ncu && return
  for c in "$CUDA/bin/ncu" /opt/nvidia/nsight-compute/*/ncu /usr/local/NVIDIA-Nsight-Compute*/ncu; do
    [ -x "$c" ] && { echo "$c"; return; }
  done
  return 1
}

nvidia_run() {
  mkdir -p "$OUT"
  export LD_LIBRARY_PATH="$DIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  nvidia-smi -L > "$OUT/gpu.txt" 2>&1 || no_gpu "no NVIDIA GPU (nvidia-smi -L failed)"
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
  py "$OUT" <<'PY'
out = sys.argv[1]
plain, instr = times(out, "time-plain.txt"), times(out, "time-instrumented.txt")
ratios = {k: instr[k] / plain[k] for k in plain if k in instr and plain[k] > 0}
geomean = math.exp(sum(map(math.log, ratios.values())) / len(ratios)) if ratios else None
counts = load(os.path.join(out, "counts.json"),
              {"failures": ["no counts: the instrumented run failed (see app.err)"],
               "kernels": {}})
result = {
    "vendor": "nvidia",
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

# -- AMD ----------------------------------------------------------------------

# The ROCm installation: ROCM_PATH, else /opt/rocm, else Debian's (/usr).
rocm_root() {
  for r in "${ROCM_PATH:-}" /opt/rocm; do
    [ -n "$r" ] && [ -e "$r/include/hip/hip_runtime.h" ] && { echo "$r"; return; }
  done
  echo /usr
}

find_rocm_tool() {
  command -v "$1" && return
  [ -x "$(rocm_root)/bin/$1" ] && echo "$(rocm_root)/bin/$1"
}

find_hip_lib() {
  for d in "$(rocm_root)/lib" /usr/lib/x86_64-linux-gnu; do
    [ -e "$d/libamdhip64.so" ] && { echo "$d"; return; }
  done
  return 1
}

# Records the AMD GPUs into folder $1: rocminfo.txt (and smi.txt), device.json,
# target ("gfx90a 64": the first GPU's gfx name and wavefront size); prints
# a line per GPU (gpu.txt). Fails where there is none: rocminfo lists no gfx
# agent, and /dev/kfd with rocm-smi or amd-smi does not give one either.
amd_probe() {
  local d=$1 tool smi=""
  : > "$d/rocminfo.txt"; : > "$d/smi.txt"
  if tool=$(find_rocm_tool rocminfo); then "$tool" > "$d/rocminfo.txt" 2>&1 || true; fi
  if [ -e "$KFD" ]; then
    if tool=$(find_rocm_tool rocm-smi); then
      smi="rocm-smi"; "$tool" --showproductname >> "$d/smi.txt" 2>&1 || true
    elif tool=$(find_rocm_tool amd-smi); then
      smi="amd-smi"; "$tool" static >> "$d/smi.txt" 2>&1 || true
    fi
  fi
  py "$d" "$smi" "$KFD_NODES" <<'PY'
d, smi, nodes = sys.argv[1:4]
gpus, source = [], "rocminfo"
# rocminfo: "Agent N" blocks; an agent's own fields are indented by two.
for block in re.split(r"^Agent \d+\s*$", open(os.path.join(d, "rocminfo.txt")).read(), flags=re.M)[1:]:
    a = dict(re.findall(r"^  (\S[^:\n]*?):[ \t]*(.*?)\s*$", block, re.M))
    num = lambda key: int(re.match(r"\d*", a.get(key, "")).group() or 0) or None
    if a.get("Device Type") == "GPU" and re.match(r"gfx[0-9a-f]+$", a.get("Name", "")):
        isa = re.search(r"amdgcn-amd-amdhsa--(\S+)", block)
        gpus.append({"gfx": a["Name"], "name": a.get("Marketing Name"),
                     "compute_units": num("Compute Unit"),
                     "max_clock_mhz": num("Max Clock Freq. (MHz)"),
                     "wavefront_size": num("Wavefront Size"),
                     "isa": isa and isa.group(1)})
if not gpus and smi:
    # /dev/kfd and an SMI tool: the KFD topology's GPU nodes (gfx_target_version
    # 90010 is gfx90a: major, minor, stepping in hex), the name from the SMI.
    source = "kfd+" + smi
    text = open(os.path.join(d, "smi.txt")).read()
    names = re.findall(r"(?:Card [Ss]eries|MARKET_NAME)\s*:\s*(.+?)\s*$", text, re.M)
    name = lambda i: names[i] if i < len(names) else None
    for props in sorted(glob.glob(os.path.join(nodes, "*", "properties")),
                        key=lambda p: int(os.path.basename(os.path.dirname(p)))):
        p = dict(line.split(None, 1) for line in open(props) if len(line.split()) == 2)
        v = int(p.get("gfx_target_version", 0))
        if v and int(p.get("simd_count", 0)):
            gpus.append({"gfx": "gfx%d%x%x" % (v // 10000, v // 100 % 100, v % 100),
                         "name": name(len(gpus)),
                         "compute_units": int(p["simd_count"]) // int(p.get("simd_per_cu") or 4),
                         "max_clock_mhz": int(p.get("max_engine_clk_fcompute", 0)) or None,
                         "wavefront_size": int(p.get("wave_front_size", 0)) or None,
                         "isa": None})
    g = re.search(r"\bgfx[0-9a-f]{3,4}\b", text)
    if not gpus and g:
        gpus.append({"gfx": g.group(), "name": name(0), "compute_units": None,
                     "max_clock_mhz": None, "wavefront_size": None, "isa": None})
json.dump({"source": source, "gpus": gpus}, open(os.path.join(d, "device.json"), "w"), indent=1)
for i, g in enumerate(gpus):
    print("GPU %d: %s %s (%s CUs, %s MHz, wavefront %s)" % (
        i, g["gfx"], g["name"] or "", g["compute_units"], g["max_clock_mhz"], g["wavefront_size"]))
if gpus:
    g = gpus[0]
    wave = g["wavefront_size"] or (32 if re.match(r"gfx1\d\d", g["gfx"]) else 64)
    open(os.path.join(d, "target"), "w").write("%s %d\n" % (g["gfx"], wave))
sys.exit(0 if gpus else 1)
PY
}

# nvidia, amd or none: what this machine has (ROOFLINE_GPU overrides).
detect_gpu() {
  if [ -n "${ROOFLINE_GPU:-}" ]; then echo "$ROOFLINE_GPU"; return; fi
  if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
    echo nvidia; return
  fi
  local d rc=0
  d=$(mktemp -d)
  amd_probe "$d" >/dev/null 2>&1 || rc=$?
  rm -rf "$d"
  if [ "$rc" -eq 0 ]; then echo amd; else echo none; fi
}

# ARCH and WAVE: ROOFLINE_HIP_ARCH, else the probed GPU's (folder $1), else
# gfx90a; the wavefront size 32 on RDNA (gfx10, gfx11, gfx12), else 64.
amd_target() {
  ARCH="" WAVE=""
  if [ -s "$1/target" ]; then read -r ARCH WAVE < "$1/target"; fi
  if [ -n "${ROOFLINE_HIP_ARCH:-}" ] && [ "$ROOFLINE_HIP_ARCH" != "$ARCH" ]; then
    ARCH=$ROOFLINE_HIP_ARCH WAVE=""
  fi
  ARCH=${ARCH%%:*} # the processor, without target features (:xnack-)
  ARCH=${ARCH:-gfx90a}
  case "$ARCH" in gfx1[0-9]*) WAVE=${WAVE:-32} ;; *) WAVE=${WAVE:-64} ;; esac
}

# HIP_FLAGS: clang++-22's flags for this ROCm and ARCH (docs/hip.md), or
# HIP_ERR, why HIP device code cannot be compiled here.
hip_setup() {
  local rocm b
  rocm=$(rocm_root) BITCODE="" HIP_ERR="" HIP_FLAGS=()
  for b in "$rocm/amdgcn/bitcode" "$rocm"/lib/llvm/lib/clang/*/lib/amdgcn/bitcode \
           /usr/lib/x86_64-linux-gnu/amdgcn/bitcode; do
    [ -e "$b/ocml.bc" ] && { BITCODE=$b; break; }
  done
  if [ ! -e "$rocm/include/hip/hip_runtime.h" ]; then
    HIP_ERR="no HIP headers ($rocm/include/hip/hip_runtime.h): ROCm, or Debian's libamdhip64-dev"
  elif [ -z "$BITCODE" ]; then
    HIP_ERR="no ROCm device libraries (ocml.bc): ROCm, or Debian's rocm-device-libs"
  elif [ ! -e "$BITCODE/oclc_isa_version_${ARCH#gfx}.bc" ]; then
    HIP_ERR="the device libraries in $BITCODE do not know $ARCH (no oclc_isa_version_${ARCH#gfx}.bc; ROCm 5.2 stops at gfx940)"
  elif [ ! -x "$LLVM/clang++" ]; then
    HIP_ERR="no $LLVM/clang++"
  fi
  [ -z "$HIP_ERR" ] || return 1
  HIP_FLAGS=(-x hip --rocm-path="$rocm" --rocm-device-lib-path="$BITCODE" -Wno-unused-value)
  # Before ROCm 6.3 (no code object v6 ABI library), as for Debian's 5.2:
  [ -e "$BITCODE/oclc_abi_version_600.bc" ] ||
    HIP_FLAGS+=(-mcode-object-version=4 "-D__AMDGCN_WAVEFRONT_SIZE=$WAVE")
}

# One line of a step's outcome (checked, skipped or failed) into file $1.
step() { printf '%s\t%s\t%s\n' "$2" "$3" "$4" >> "$1"; echo "gpu-check: $3: $2: $4"; }

# The timed program: the kernels of test/HIP/kernels.hip, each launched 22
# times (the first a warm-up), the median of HIP events' times; it prints
# the sizes roofline-report needs ("launch NAME n=...") and the times in
# launches.cu's format ("time NAME MS ms").
hip_timer_source() {
  cat <<'HIP'
#include "kernels.hip"
#undef T // kernels.hip's tile size

#include <algorithm>
#include <cstdio>
#include <vector>

constexpr int N = 1 << 24, Block = 256, G = 2048;

static bool ok(hipError_t E, const char *What) {
  if (E != hipSuccess)
    std::printf("%s: %s\n", What, hipGetErrorString(E));
  return E == hipSuccess;
}

// Prints the sizes roofline-report needs for the launch, then its time.
template <class F>
static void timeOne(const char *Name, int Size, int BlockX, int GridX, int Threads, F Launch) {
  hipEvent_t E0, E1;
  (void)hipEventCreate(&E0);
  (void)hipEventCreate(&E1);
  std::vector<float> Ms;
  for (int I = 0; I < 22; ++I) {
    (void)hipEventRecord(E0);
    Launch();
    (void)hipEventRecord(E1);
    (void)hipEventSynchronize(E1);
    float T = 0;
    (void)hipEventElapsedTime(&T, E0, E1);
    if (I)
      Ms.push_back(T);
  }
  if (!ok(hipGetLastError(), Name))
    return;
  std::sort(Ms.begin(), Ms.end());
  std::printf("launch %s n=%d,blockDim.x=%d,gridDim.x=%d,threads=%d\n", Name, Size,
              BlockX, GridX, Threads);
  std::printf("time %s %.6f ms\n", Name, Ms[Ms.size() / 2]);
}

int main() {
  hipDeviceProp_t P;
  if (!ok(hipGetDeviceProperties(&P, 0), "hipGetDeviceProperties"))
    return 1;
  std::printf("device %s %s\n", P.gcnArchName, P.name);
  float *X, *Y, *A, *B, *C;
  size_t Vec = N * sizeof(float), Mat = size_t(G) * G * sizeof(float);
  if (!ok(hipMalloc(&X, Vec), "hipMalloc") || !ok(hipMalloc(&Y, Vec), "hipMalloc") ||
      !ok(hipMalloc(&A, Mat), "hipMalloc") || !ok(hipMalloc(&B, Mat), "hipMalloc") ||
      !ok(hipMalloc(&C, Mat), "hipMalloc") || !ok(hipMemset(X, 0, Vec), "hipMemset") ||
      !ok(hipMemset(Y, 0, Vec), "hipMemset") || !ok(hipMemset(A, 0, Mat), "hipMemset") ||
      !ok(hipMemset(B, 0, Mat), "hipMemset"))
    return 1;
  int Grid = N / Block;
  timeOne("saxpy", N, Block, Grid, N, [&] { saxpy<<<Grid, Block>>>(N, 2.0f, X, Y); });
  timeOne("scale", N, Block, Grid, N, [&] { scale<<<Grid, Block>>>(N, 2.0f, X); });
  // The stencil's counts are those of the n - 2 threads its guard passes.
  timeOne("stencil", N, Block, Grid, N - 2, [&] { stencil<<<Grid, Block>>>(N, X, Y); });
  timeOne("gemm_lds", G, 16, G / 16, G * G, [&] {
    gemm_lds<<<dim3(G / 16, G / 16), dim3(16, 16)>>>(G, A, B, C);
  });
  return hipDeviceSynchronize() == hipSuccess ? 0 : 1;
}
HIP
}

# Builds the timed program for ARCH into $DIR/hip-time, with hipcc, else
# clang++-22 and the HIP runtime library; its outcome in $DIR/hip-time.status.
amd_build_timer() {
  local status="$DIR/hip-time.status" log="$DIR/hip-time.log" hipcc lib how="" old=()
  rm -f "$DIR/hip-time" "$status"; : > "$log"
  hip_timer_source > "$DIR/hip-time.hip"
  echo "$ARCH" > "$DIR/hip-time.arch"
  if hipcc=$(find_rocm_tool hipcc); then
    "$hipcc" --offload-arch="$ARCH" -O2 -I test/HIP "$DIR/hip-time.hip" \
      -o "$DIR/hip-time" >> "$log" 2>&1 && how="hipcc ($hipcc)"
  fi
  if [ -z "$how" ] && lib=$(find_hip_lib) && [ -z "$HIP_ERR" ]; then
    # Old ROCm (Debian's 5.2): its __syncthreads needs hip.bc, which clang-22
    # no longer links (the host side takes nothing from it).
    [ ! -e "$BITCODE/hip.bc" ] ||
      old=(-Xclang -mlink-builtin-bitcode -Xclang "$BITCODE/hip.bc" -Wno-linker-warnings)
    "$LLVM/clang++" "${HIP_FLAGS[@]}" --offload-arch="$ARCH" -O2 -I test/HIP "${old[@]}" \
      "$DIR/hip-time.hip" -o "$DIR/hip-time" -L"$lib" -lamdhip64 \
      -Wl,-rpath,"$lib" >> "$log" 2>&1 && how="clang++-22 and $lib/libamdhip64.so"
    [ -z "$how" ] || [ -z "${hipcc:-}" ] || how+=" (hipcc failed: see $log)"
  fi
  if [ -n "$how" ]; then
    step "$status" checked timer-build "$DIR/hip-time for $ARCH, built with $how"
  elif [ -z "${hipcc:-}" ] && [ -z "${lib:-}" ]; then
    step "$status" skipped timer-build "no hipcc and no HIP runtime library (libamdhip64.so)"
  elif [ -z "${hipcc:-}" ] && [ -n "$HIP_ERR" ]; then
    step "$status" skipped timer-build "no hipcc, and clang++-22 cannot compile HIP here: $HIP_ERR"
  else
    step "$status" failed timer-build "the compile for $ARCH failed (see $log)"
  fi
}

amd_build() {
  local d
  ensure_built || echo "gpu-check: scripts/build.sh failed: the AMD checks will say what is missing"
  mkdir -p "$DIR"
  d=$(mktemp -d)
  amd_probe "$d" > /dev/null 2>&1 || true
  amd_target "$d"
  rm -rf "$d"
  hip_setup || true
  amd_build_timer
  amd_build_counts
}

# The counting program: test/HIP/Inputs/launches.hip through roofline-clang++
# (the HIP shim linked), for ARCH, into $DIR/hip-launches.
amd_build_counts() {
  local status="$DIR/hip-launches.status" rocm
  rm -f "$DIR/hip-launches" "$status"
  echo "$ARCH" > "$DIR/hip-launches.arch"
  rocm=$(rocm_root)
  # Debian's ROCm needs the wrapper's bridging flags; another is named.
  [ "$rocm" = /usr ] && rocm=""
  if [ ! -x build/bin/roofline-clang++ ]; then
    step "$status" skipped counts-build "no build/bin/roofline-clang++ (bash scripts/build.sh)"
  elif ROOFLINE_ROCM_PATH="$rocm" build/bin/roofline-clang++ -O2 --offload-arch="$ARCH" \
      test/HIP/Inputs/launches.hip -o "$DIR/hip-launches" > "$DIR/hip-launches.log" 2>&1; then
    step "$status" checked counts-build "$DIR/hip-launches (instrumented) for $ARCH"
  else
    step "$status" failed counts-build "roofline-clang++ could not build launches.hip for $ARCH (see $DIR/hip-launches.log)"
  fi
}

# The counting run: every launch's counts against the hand-derived ones
# (test/CUDA/Inputs/check_launches.py --device hip), into dynamic.json.
amd_counts() {
  local steps="$OUT/steps.tsv"
  [ ! -s "$DIR/hip-launches.status" ] || cat "$DIR/hip-launches.status" >> "$steps"
  if [ ! -x "$DIR/hip-launches" ]; then
    [ -s "$DIR/hip-launches.status" ] ||
      step "$steps" skipped dynamic-counts "not built (bash scripts/gpu-check.sh build)"
    return
  fi
  if [ "$(cat "$DIR/hip-launches.arch")" != "$ARCH" ]; then
    step "$steps" skipped dynamic-counts "$DIR/hip-launches was built for $(cat "$DIR/hip-launches.arch"), the GPU is $ARCH: build again"
    return
  fi
  ROOFLINE_PROFILE="$OUT/profile.json" "$DIR/hip-launches" > "$OUT/app.out" 2> "$OUT/app.err" || true
  if python3 test/CUDA/Inputs/check_launches.py "$OUT/profile.json" --device hip \
      --json "$OUT/dynamic.json" > "$OUT/counts-dynamic.txt" 2>&1; then
    step "$steps" checked dynamic-counts "$(tail -1 "$OUT/counts-dynamic.txt"), launch by launch (counts-dynamic.txt)"
  else
    step "$steps" failed dynamic-counts "$(tail -1 "$OUT/counts-dynamic.txt") (see counts-dynamic.txt, app.err)"
  fi
}

# Static summaries of test/HIP/*.hip and of the examples test/HIP/*.test
# compile, for ARCH, into $OUT/static/NAME/ (the compile's remarks in
# NAME.log); the kernels the tests' remarks call exact are exact; the
# tests' RUN lines that check summaries (not the instrumentation: IR, ISA)
# run with this ARCH and ROCm, in $OUT/checks/. Into counts.json, counts.txt.
amd_static() {
  GC_HIP_FLAGS="${HIP_FLAGS[*]}" GC_CUDA="$CUDA" GC_LLVM="$LLVM" \
    py "$OUT" "$ARCH" <<'PY'
out, arch = sys.argv[1:3]
llvm, cuda, plugin = os.environ["GC_LLVM"], os.environ["GC_CUDA"], os.path.abspath("build/lib/RooflinePass.so")
env = dict(os.environ, PATH=llvm + os.pathsep + os.environ["PATH"])
hip_device = [llvm + "/clang++"] + shlex.split(os.environ["GC_HIP_FLAGS"]) + [
    "--cuda-device-only", "-S", "-o", "/dev/null", "-fpass-plugin=" + plugin]
have_cuda = os.path.exists(os.path.join(cuda, "bin", "ptxas"))
filecheck = shutil.which("FileCheck", path=env["PATH"])
mfma = re.match(r"gfx(908|90a|94\d|95\d)$", arch)
r = {"arch": arch, "sources": {}, "tests": {}, "exact_claims": {},
     "checked": [], "skipped": {}, "failures": []}
tests = sorted(glob.glob("test/HIP/*.hip") + glob.glob("test/HIP/*.test"))

def run(cmd, log, **kw):
    with open(log, "a") as f:
        f.write("$ %s\n" % (cmd if isinstance(cmd, str) else " ".join(map(shlex.quote, cmd))))
        f.flush()
        return subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, env=env, **kw).returncode

def no_mfma(path):
    return not mfma and "__builtin_amdgcn_mfma" in open(path).read()

def summarize(src, extra):
    """Compiles src for arch at -O2; its kernels by display name, or None."""
    name = os.path.splitext(os.path.basename(src))[0]
    d = os.path.join(out, "static", name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    if no_mfma(src):
        r["skipped"]["static " + src] = "MFMA builtins: %s has no matrix cores" % arch
        return None
    rc = run(hip_device + ["--offload-arch=" + arch, "-O2", "-g", "-Rpass-analysis=roofline"] + extra
             + [src, "-mllvm", "-roofline-json=" + d + "/"], d + ".log")
    files = sorted(glob.glob(os.path.join(d, "*.roofline.json")))
    if rc or not files:
        r["failures"].append("static %s: the compile for %s failed (see %s.log)" % (src, arch, d))
        return None
    kernels = {k["display_name"]: k for f in files for k in load(f, {"kernels": []})["kernels"]}
    r["sources"][src] = {"summary": files, "kernels": len(kernels),
                         "exact": sum(bool(k.get("exact")) for k in kernels.values())}
    r["checked"].append("static %s: %d kernels summarized for %s, %d exact"
                        % (src, len(kernels), arch, r["sources"][src]["exact"]))
    return kernels

def runs_of(text):
    lines, cur = [], ""
    for m in re.finditer(r"^\s*(?://|;|#)\s*RUN:\s?(.*?)\s*$", text, re.M):
        cur += m.group(1)
        if cur.endswith("\\"):
            cur = cur[:-1] + " "
        else:
            lines.append(cur)
            cur = ""
    return lines

def check(test, text):
    """Runs the test's RUN lines that check summaries, for arch."""
    name = os.path.basename(test)
    requires = {f.strip() for line in re.findall(r"REQUIRES:(.*)", text) for f in line.split(",")}
    if "cuda" in requires and not have_cuda:
        r["skipped"]["checks " + test] = "REQUIRES: cuda, and %s/bin/ptxas is missing" % cuda
        return
    if not filecheck:
        r["skipped"]["checks " + test] = "no FileCheck (%s, llvm-22-tools)" % llvm
        return
    if no_mfma(test):
        r["skipped"]["checks " + test] = "MFMA builtins: %s has no matrix cores" % arch
        return
    t = os.path.join(out, "checks", name)
    log, here = t + ".log", os.path.abspath(os.path.dirname(test))
    os.makedirs(os.path.dirname(t), exist_ok=True)
    if os.path.exists(log):
        os.remove(log)
    subs = {"%hip_device": " ".join(map(shlex.quote, hip_device)),
            "%hip_flags": os.environ["GC_HIP_FLAGS"], "%roofline_plugin": plugin,
            "%cuda_device": "clang++ -x cuda --cuda-path=%s -Wno-unknown-cuda-version "
                            "--cuda-device-only --cuda-gpu-arch=sm_90 -fpass-plugin=%s" % (cuda, plugin),
            "%roofline_report": os.path.abspath("build/bin/roofline-report"),
            "%src_root": os.getcwd(), "%t": t, "%s": os.path.abspath(test), "%S": here}
    sub = re.compile("|".join(map(re.escape, sorted(subs, key=len, reverse=True))))
    ran, left, unread = 0, 0, set()
    for line in runs_of(text):
        # Only compiles to summaries, reports and their checks: not the
        # instrumentation (IR, ISA, whole programs), nor what uses its files.
        if (line.split() or [""])[0] not in ("rm", "mkdir", "FileCheck", "python3", "%hip_device",
                                   "%cuda_device", "%roofline_report") or \
                re.search(r"-roofline-instrument|-emit-llvm|-passes=", line) or \
                set(re.findall(r"%\w+", line)) - set(subs) or any(f in line for f in unread):
            unread.update(re.findall(r"%t/[^\s'\"|;&<>]*", line))
            left += 1
            continue
        cmd = sub.sub(lambda m: subs[m.group()], line).replace("gfx90a", arch)
        if run("set -o pipefail; " + cmd, log, shell=True, executable="/bin/bash"):
            r["tests"][test] = {"status": "failed", "log": log}
            r["failures"].append("checks %s: a RUN line failed for %s (see %s)" % (test, arch, log))
            return
        ran += "FileCheck" in line
    if ran:
        r["tests"][test] = {"status": "passed", "filechecks": ran, "not_run": left, "log": log}
        r["checked"].append("checks %s: %d FileCheck runs passed for %s (%d other RUN lines "
                            "not run)" % (test, ran, arch, left))
    else:
        r["skipped"]["checks " + test] = ("its checks are of the instrumentation (IR, ISA, "
                                          "whole programs), not of summaries")

for test in tests:
    text = open(test).read()
    if test.endswith(".hip"):
        here = os.path.dirname(test)
        kernels = summarize(test, [i.replace("%S", here).replace("%src_root", ".") for line in
                                   runs_of(text) for i in re.findall(r"-I\s*\S+", line)])
        claims = set(re.findall(r"^//\s*[A-Z][\w-]*:\s*remark: (.+?\)): [^;]*?\(exact\)", text, re.M))
        if kernels is not None and claims:
            r["exact_claims"][test] = {c: bool(kernels.get(c, {}).get("exact")) for c in sorted(claims)}
            bad = [c for c, ok in r["exact_claims"][test].items() if not ok]
            r["failures"] += ["exact %s: %s is exact in the test, not in the %s summary" % (test, c, arch)
                              for c in bad]
            if not bad:
                r["checked"].append("exact %s: the %d kernels the test calls exact are exact for %s"
                                    % (test, len(claims), arch))
    else:  # the examples a .test compiles as HIP, with its -include
        for line in runs_of(text):
            inc = re.search(r"-include\s+(\S+)", line)
            for src in re.findall(r"%hip_device.*?%src_root/(examples/\S+)", line):
                summarize(src, ["-include", inc.group(1)] if inc else [])
    check(test, text)

# Exact where the tests say exact, and the tests' checks of summaries pass.
r["counts_exact"] = bool(r["exact_claims"]) and not r["failures"]
json.dump(r, open(os.path.join(out, "counts.json"), "w"), indent=1)
with open(os.path.join(out, "counts.txt"), "w") as f:
    for line in r["checked"]:
        print("checked:", line, file=f)
    for k, why in sorted(r["skipped"].items()):
        print("skipped: %s: %s" % (k, why), file=f)
    for line in r["failures"]:
        print("FAILED:", line, file=f)
print(open(os.path.join(out, "counts.txt")).read(), end="")
PY
}

# Runs the timed program three times into time-plain.txt.
amd_time() {
  local steps="$OUT/steps.tsv" i
  : > "$OUT/time-plain.txt"; : > "$OUT/time.err"
  if [ ! -x "$DIR/hip-time" ]; then
    [ -s "$DIR/hip-time.status" ] ||
      step "$steps" skipped timing "not built (bash scripts/gpu-check.sh build)"
    return
  fi
  if [ "$(cat "$DIR/hip-time.arch")" != "$ARCH" ]; then
    step "$steps" skipped timing "$DIR/hip-time was built for $(cat "$DIR/hip-time.arch"), the GPU is $ARCH: build again"
    return
  fi
  for i in 1 2 3; do
    "$DIR/hip-time" >> "$OUT/time-plain.txt" 2>> "$OUT/time.err" ||
      step "$steps" failed timing "run $i exited with status $? (see time-plain.txt, time.err)"
  done
}

amd_run() {
  local steps="$OUT/steps.tsv" platform=""
  mkdir -p "$OUT"
  : > "$steps"
  amd_probe "$OUT" > "$OUT/gpu.txt" ||
    no_gpu "no AMD GPU (rocminfo lists no gfx agent, and no /dev/kfd with rocm-smi or amd-smi)"
  cat "$OUT/gpu.txt"
  amd_target "$OUT"
  case "$ARCH" in gfx942) platform=mi300x ;; gfx90a) platform=mi250x ;; esac
  echo "gpu-check: AMD: --offload-arch=$ARCH, wavefront $WAVE, platform ${platform:-the default of roofline-report}"
  LD_LIBRARY_PATH="$(rocm_root)/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  export LD_LIBRARY_PATH
  [ ! -s "$DIR/hip-time.status" ] || cat "$DIR/hip-time.status" >> "$steps"
  # (1) static summaries for this GPU's target, and the tests' checks of them
  if [ ! -e build/lib/RooflinePass.so ] || [ ! -x build/bin/roofline-report ]; then
    step "$steps" failed static "no build/lib/RooflinePass.so or build/bin/roofline-report (bash scripts/build.sh)"
  elif ! hip_setup; then
    step "$steps" skipped static "$HIP_ERR"
  else
    amd_static 2> "$OUT/static.err" ||
      step "$steps" failed static "the static checker exited with status $? (see static.err)"
  fi
  # (2) kernel times on the GPU, and (3) each against roofline-report's bound
  amd_time
  # (4) the HIP shim's counts, launch by launch
  amd_counts
  py "$OUT" "$ARCH" "$platform" build/bin/roofline-report <<'PY'
out, arch, platform, report = sys.argv[1:5]
r = load(os.path.join(out, "counts.json"), {"checked": [], "skipped": {}, "failures": []})
checked, skipped, failures = r["checked"], r["skipped"], r["failures"]
for line in open(os.path.join(out, "steps.tsv")):
    status, name, detail = line.rstrip("\n").split("\t", 2)
    if status == "checked":
        checked.append("%s: %s" % (name, detail))
    elif status == "skipped":
        skipped[name] = detail
    else:
        failures.append("%s: %s" % (name, detail))
plain = times(out, "time-plain.txt")
sizes = {p[1]: p[2] for p in map(str.split, open(os.path.join(out, "time-plain.txt")))
         if len(p) == 3 and p[0] == "launch"}
summary = sorted(glob.glob(os.path.join(out, "static", "kernels", "*.roofline.json")))
bounds = {}
if not plain:
    skipped.setdefault("bounds", "no kernel times (see timing)")
elif not summary:
    skipped["bounds"] = "no static summary of test/HIP/kernels.hip for %s" % arch
for k, ms in sorted(plain.items()) if summary else []:
    cmd = [report, summary[0], "--kernels", "^%s\\(" % k] + (["--platform", platform] if platform else []) \
        + (["--assume", sizes[k]] if k in sizes else [])
    table = subprocess.run(cmd, capture_output=True, text=True)
    open(os.path.join(out, "report-%s.txt" % k), "w").write("$ %s\n%s%s" % (
        " ".join(map(shlex.quote, cmd)), table.stdout, table.stderr))
    js = subprocess.run(cmd + ["--format", "json"], capture_output=True, text=True)
    open(os.path.join(out, "report-%s.json" % k), "w").write(js.stdout)
    try:
        rep = json.loads(js.stdout)
        row = rep["kernels"][0]
        min_s = float(row["min_seconds"])
    except (ValueError, KeyError, IndexError, TypeError):
        failures.append("bounds %s: roofline-report gave no minimum time (see report-%s.txt)" % (k, k))
        continue
    holds = ms / 1e3 >= min_s
    bounds[k] = {"measured_ms": ms, "min_time_ms": min_s * 1e3, "platform": rep["platform"]["name"],
                 "bound": row.get("bound"), "exact": row.get("exact"), "sizes": sizes.get(k),
                 "holds": holds}
    if not holds:
        failures.append("bounds %s: measured %.6f ms, faster than the minimum time %.6f ms on %s"
                        % (k, ms, min_s * 1e3, bounds[k]["platform"]))
if bounds and all(b["holds"] for b in bounds.values()):
    checked.append("bounds: %d kernels timed on the GPU, none faster than roofline-report's "
                   "minimum time (%s)" % (len(bounds), ", ".join(
                       "%s %.4g >= %.4g ms" % (k, b["measured_ms"], b["min_time_ms"])
                       for k, b in sorted(bounds.items()))))
result = {
    "vendor": "amd",
    "gpu": open(os.path.join(out, "gpu.txt")).read().strip(),
    "device": load(os.path.join(out, "device.json"), {}),
    "offload_arch": arch,
    "platform": platform or None,
    "counts_exact": r.get("counts_exact", False),
    "exact_claims": r.get("exact_claims", {}),
    "tests": r.get("tests", {}),
    "dynamic_counts": load(os.path.join(out, "dynamic.json"), None),
    "time_ms": {"plain": plain},
    "bounds": bounds,
    "bounds_hold": bool(bounds) and all(b["holds"] for b in bounds.values()),
    "checked": checked,
    "skipped": skipped,
    "failures": failures,
}
json.dump(result, open(os.path.join(out, "gpu-check.json"), "w"), indent=1)
with open(os.path.join(out, "summary.txt"), "w") as f:
    print("gpu-check (AMD, %s): %d checked, %d skipped, %d failed"
          % (arch, len(checked), len(skipped), len(failures)), file=f)
    for line in checked:
        print("  checked:", line, file=f)
    for k, why in sorted(skipped.items()):
        print("  skipped: %s: %s" % (k, why), file=f)
    for line in failures:
        print("  FAILED:", line, file=f)
print(open(os.path.join(out, "summary.txt")).read(), end="")
print("results:", os.path.join(out, "gpu-check.json"))
sys.exit(1 if failures else 0)
PY
}

main() {
  local gpu
  gpu=$(detect_gpu)
  case "${1:-all}" in
    build) if [ "$gpu" = amd ]; then amd_build; else nvidia_build; fi ;;
    run|all)
      if [ "${1:-all}" = all ]; then
        if [ "$gpu" = amd ]; then amd_build; else nvidia_build; fi
      fi
      case "$gpu" in
        nvidia) nvidia_run ;;
        amd) amd_run ;;
        *) no_gpu "no GPU (nvidia-smi -L failed; rocminfo lists no gfx agent, and no /dev/kfd with rocm-smi or amd-smi)" ;;
      esac ;;
    *) echo "usage: bash scripts/gpu-check.sh [build|run]" >&2; exit 2 ;;
  esac
}

# Sourced (to test a function): define, do not run.
[ "${BASH_SOURCE[0]}" != "$0" ] || main "$@"
