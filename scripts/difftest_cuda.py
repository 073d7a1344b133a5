#!/usr/bin/env python3
"""Differential tester for CUDA and HIP kernels: device counts against a fake launch.

The GPU is not needed. Random kernels in the shapes of difftest.py, plus the
thread index: bounds and starts from threadIdx, blockIdx and blockDim, index
guards (`if (i >= n) return;`), thread-index guards, grid-stride steps. Each
program is written twice from one source:

  * as CUDA, compiled for the device (nvptx64, sm_90) through the pass with
    -roofline-json: the static per-thread summary that this tester checks
    (with --lang hip: as HIP, for amdgcn gfx90a, the same kernels);
  * as C for the host, the indices turned into parameters, built with
    roofline-clang and run once per kernel over the threads of a fake launch
    (a loop over blocks and threads), with ROOFLINE_PROFILE.

The kernels also read and write through inline PTX (__ldcs, __stwt; plain
on the host), split the thread into lanes and warps (TX % 4, TX & 3,
TX / 4) and unpack bf16 pairs from 32-bit words by shifts and masks.
For every kernel the device summary calls exact, the threads whose every
stated assumption holds (the guards in threadIdx, the parameters' ranges)
are run, and the sum of the per-thread formula over them must equal the
run's count (FLOPs, integer operations, bytes loaded and stored); the instrumented host output must equal plain clang's. Kernels
called estimates are not compared (their per-thread formulas vary with the
thread, or their branches depend on data).

USAGE:
  scripts/difftest_cuda.py --build build --seeds 0:20 [--opt O0,O2,O3-native] [--jobs 2] [--lang hip]
  scripts/difftest_cuda.py --build build --seeds 7 --keep /tmp/case
Exit status: 0 when no wrong exact count, failed build or output mismatch.
"""
import argparse
import json
import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import difftest  # noqa: E402
from difftest import FormulaError, Result, assumption_holds, evaluate, run, seeds_of  # noqa: E402

KERNELS_PER_PROGRAM = 8
CUDA_PATH = os.environ.get("ROOFLINE_CUDA_PATH", "/usr/local/cuda")
# HIP device code against Debian's ROCm 5.2 (docs/hip.md says why the flags).
HIP_BITCODE = "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode"
DEVICE_FLAGS = {
    "cuda": ["-x", "cuda", "--cuda-path=" + CUDA_PATH,
             "-Wno-unknown-cuda-version", "--cuda-gpu-arch=sm_90"],
    "hip": ["-x", "hip", "--offload-arch=gfx90a", "--rocm-path=/usr",
            "--rocm-device-lib-path=" + HIP_BITCODE, "-mcode-object-version=4",
            "-D__AMDGCN_WAVEFRONT_SIZE=64", "-include", "hip/hip_runtime.h"],
}
# The assumption every per-thread CUDA count carries: the fake launch runs
# only the threads whose guards hold, so it is met by construction.
PER_THREAD = "counts are per thread that passes the kernel's index guards"


class CudaKernel(difftest.Kernel):
    """A difftest kernel whose bounds, starts and guards use the thread."""

    INTEGER_WORK = False

    def __init__(self, seed, index):
        rng = difftest.random.Random(seed * 7919 + index)
        # The launch: a small grid of small blocks, so every thread runs.
        self.block = (rng.choice([1, 4, 8, 32]), rng.choice([1, 2, 4]))
        self.grid = rng.choice([1, 2, 3])
        super().__init__(seed + 500000, index)

    ALIASING_PAIR = False  # a device loop of one thread over a: no

    def bound(self):
        r = self.rng
        if r.random() < 0.3:
            # Lanes and warps as a warp-per-row kernel splits the thread
            # (TX % W, TX & (W-1), TX / W; W = 4 fits the small blocks).
            return r.choice(["TX", "TY", "BX", "BDX", "BX * BDX + TX",
                             "2 * TY + TX / 8", "%s - TX" % self.param(),
                             "TX % 4", "TX & 3", "TX / 4",
                             "%s - (TX & 3)" % self.param(),
                             "BX * (BDX / 4) + TX / 4"])
        return super().bound()

    def body(self):
        r = self.rng
        idx = " + ".join(self.ivs) if self.ivs else "0"
        what = r.random()
        if what < 0.12 and not getattr(self, "streamed", False):
            # Through inline PTX on the device (__ldcs: ld.global.cs.f32,
            # __stwt: st.global.wt.f32), plain on the host. Once a kernel:
            # clang's __ldcs asm reads no memory as LLVM sees it, so two of
            # one address are merged, which no host load can mimic.
            self.streamed = True
            self.emit("STWT(&a[(unsigned long)(%s) & 1023], LDCS(&a[(unsigned long)(3 * (%s)) & 1023]) + 1.0f);"
                      % (idx, idx))
        elif what < 0.22:
            # A bf16 pair packed in a 32-bit word, unpacked by a shift and a
            # mask and widened through the bits (packing, not integer work).
            self.emit("{ unsigned w_ = AS_UINT(a[(unsigned long)(%s) & 1023]);" % idx)
            self.emit("  a[(unsigned long)(7 * (%s)) & 1023] += AS_FLOAT(w_ << 16) + AS_FLOAT(w_ & 0xffff0000u); }" % idx)
        else:
            super().body()

    def make(self):
        r = self.rng
        if r.random() < 0.3:
            # A warp-per-row kernel's loop: each lane of 4 strides along a
            # row (TX % 4 or TX & 3; the row TX / 4 offsets it).
            lane = r.choice(["TX % 4", "TX & 3"])
            row = r.choice(["0", "(TX / 4) * 64"])
            self.emit("for (long c = %s; c < (long)%s; c += 4) {" % (lane, self.param()))
            self.depth += 1
            self.ivs.append("c + %s" % row)
            for _ in range(r.choice([1, 2])):
                self.body()
            self.ivs.pop()
            self.depth -= 1
            self.emit("}")
            return
        if r.random() < 0.4:
            # The index guard of an elementwise kernel.
            self.emit("{ long gi = (long)(BX * BDX + TX); if (gi >= (long)%s) return; }"
                      % self.param())
        if r.random() < 0.25:
            # A grid-stride loop over a parameter.
            n = self.param()
            self.emit("for (long s = TY; s < (long)%s; s += BDY) {" % n)
            self.depth += 1
            self.ivs.append("s")
            self.inner()
            self.ivs.pop()
            self.depth -= 1
            self.emit("}")
        if r.random() < 0.15:
            self.emit("if (TX == 0) {")
            self.depth += 1
            self.body()
            self.depth -= 1
            self.emit("}")
        super().make()

    def source(self, device):
        params = "".join(", %s %s" % (t, n) for n, t, _ in self.params)
        if device:
            return ('extern "C" __global__ void %s(float *a, double *b%s) {\n%s\n}\n'
                    % (self.name, params, "\n".join(self.lines)))
        return ("__attribute__((noinline)) void %s(float *a, double *b%s, "
                "unsigned tx_, unsigned ty_, unsigned bx_, unsigned bdx_, "
                "unsigned bdy_) {\n%s\n}\n"
                % (self.name, params, "\n".join(self.lines)))

    def threads(self):
        """Every thread of the fake launch: its indices and dimensions."""
        for bx in range(self.grid):
            for ty in range(self.block[1]):
                for tx in range(self.block[0]):
                    yield {"threadIdx.x": tx, "threadIdx.y": ty, "threadIdx.z": 0,
                           "blockIdx.x": bx, "blockIdx.y": 0, "blockIdx.z": 0,
                           "blockDim.x": self.block[0], "blockDim.y": self.block[1],
                           "blockDim.z": 1, "gridDim.x": self.grid, "gridDim.y": 1,
                           "gridDim.z": 1}

    def call(self):
        args = "".join(", (%s)arg(%d)" % (t, v) for n, t, v in self.params)
        return ("  for (int t = 0; t < nthreads; ++t) %s(a, b%s, tx[t], ty[t], "
                "bx[t], (unsigned)arg(%d), (unsigned)arg(%d));"
                % (self.name, args, self.block[0], self.block[1]))


# Streamed loads and stores: CUDA's are inline PTX (__ldcs, __stwt); HIP
# has none, and ports write the nontemporal builtins.
STREAMED = {
    "cuda": "#define LDCS(p) __ldcs(p)\n#define STWT(p, v) __stwt(p, v)\n",
    "hip": "#define LDCS(p) __builtin_nontemporal_load(p)\n"
           "#define STWT(p, v) __builtin_nontemporal_store(v, p)\n",
}
DEVICE_PRELUDE = """#define AS_UINT(x) __float_as_uint(x)
#define AS_FLOAT(x) __uint_as_float(x)
#define TX threadIdx.x
#define TY threadIdx.y
#define BX blockIdx.x
#define BDX blockDim.x
#define BDY blockDim.y
typedef signed char int8_t; typedef unsigned char uint8_t;
typedef short int16_t; typedef unsigned short uint16_t;
"""

# The host's streamed loads and stores behave as the device's: CUDA's
# inline asm is never forwarded, merged or removed (volatile), and the
# store's "memory" clobber makes later loads load again (an empty asm
# barrier, which counts nothing); HIP's nontemporal accesses are loads and
# stores the optimiser may forward.
HOST_STREAMED = {
    "cuda": "#define LDCS(p) (*(volatile float *)(p))\n"
            "#define STWT(p, v) ({ *(volatile float *)(p) = (v); "
            "__asm__ __volatile__(\"\" ::: \"memory\"); })\n",
    "hip": "#define LDCS(p) (*(p))\n#define STWT(p, v) (*(p) = (v))\n",
}
HOST_PRELUDE = difftest.PRELUDE + r"""#define AS_UINT(x) __builtin_bit_cast(unsigned, (float)(x))
#define AS_FLOAT(x) __builtin_bit_cast(float, (unsigned)(x))
#define TX tx_
#define TY ty_
#define BX bx_
#define BDX bdx_
#define BDY bdy_
/* The fake launch: the threads to run, "tx,ty,bx;..." in argv[2]. */
static unsigned tx[4096], ty[4096], bx[4096];
static int nthreads;
static void threads(const char *s) {
  while (s && *s && nthreads < 4096) {
    sscanf(s, "%u,%u,%u", &tx[nthreads], &ty[nthreads], &bx[nthreads]);
    ++nthreads;
    s = strchr(s, ';');
    if (s) ++s;
  }
}
"""


def host_program(kernels, lang="cuda"):
    body = "\n".join(k.source(device=False) for k in kernels)
    cases = "\n".join("  case %d:\n  %s\n    break;" % (i, k.call())
                      for i, k in enumerate(kernels))
    return ("#include <string.h>\n" + HOST_STREAMED[lang] + HOST_PRELUDE + body +
            "\nint main(int argc, char **argv) {\n"
            "  argv_ = argv + 2;\n  if (argc < 3) return 2;\n  threads(argv[2]);\n"
            "  switch (atoi(argv[1])) {\n" + cases + "\n  }\n  double s = 0;\n"
            "  for (int i = 0; i < 1024; ++i) s += a[i];\n"
            "  for (int i = 0; i < 512; ++i) s += b[i];\n"
            "  printf(\"%.17g\\n\", s);\n  return 0;\n}\n")


def device_program(kernels, lang="cuda"):
    return (STREAMED[lang] + DEVICE_PRELUDE +
            "\n".join(k.source(device=True) for k in kernels))


def selected_threads(kernel, summary, fail, opt):
    """The threads every assumption holds for, or None (one fails for a
    parameter: the kernel is not compared)."""
    env0 = {n: v for n, _, v in kernel.params}
    chosen = []
    for t in kernel.threads():
        env = dict(env0, **t)
        ok = True
        for a in summary.get("assumptions", []):
            if a == PER_THREAD:
                continue
            held = assumption_holds(a, env)
            if held is None:
                fail("-%s %s: unreadable assumption %r" % (opt, kernel.name, a))
                return None
            ok = ok and held
        if ok:
            chosen.append(t)
    return chosen


def check_program(seed, opts, build, keep, lang="cuda"):
    kernels = [CudaKernel(seed, i) for i in range(KERNELS_PER_PROGRAM)]
    res = Result()
    work = keep or tempfile.mkdtemp(prefix="roofline-cudadiff-")
    os.makedirs(work, exist_ok=True)
    cu = os.path.join(work, "p%d.cu" % seed)
    c = os.path.join(work, "p%d.c" % seed)
    with open(cu, "w") as f:
        f.write(device_program(kernels, lang))
    with open(c, "w") as f:
        f.write(host_program(kernels, lang))
    llvm = "/usr/lib/llvm-22/bin/"
    wrapper = os.path.join(build, "bin", "roofline-clang")
    plugin = os.path.join(build, "lib", "RooflinePass.so")

    def fail(text, kernel=None):
        where = "\n" + kernel.source(device=True) if kernel else ""
        res.failures.append((seed, text + where))

    try:
        for opt in opts:
            jdir = os.path.join(work, opt + "-json") + "/"
            shutil.rmtree(jdir, ignore_errors=True)
            os.makedirs(jdir)
            # -S: HIP's device-only -c would link a code object (lld).
            r = run([llvm + "clang++"] + DEVICE_FLAGS[lang] +
                    ["--cuda-device-only"] + difftest.level_flags(opt, device=True) + ["-g", "-w", "-S",
                     "-fpass-plugin=" + plugin, "-mllvm", "-roofline-json=" + jdir,
                     cu, "-o", os.path.join(work, opt + ".s")])
            if r.returncode:
                fail("device -%s build failed (rc %d):\n%s"
                     % (opt, r.returncode, r.stderr[-3000:]))
                continue
            summaries = difftest.read_summaries(jdir)
            plain = os.path.join(work, "plain-" + opt)
            out = os.path.join(work, "host-" + opt)
            for cmd in ([llvm + "clang"] + difftest.level_flags(opt) + ["-w", c, "-o", plain],
                        [wrapper] + difftest.level_flags(opt) + ["-w", "-mllvm", "-roofline-all-functions", c, "-o", out]):
                r = run(cmd)
                if r.returncode:
                    fail("host -%s build failed: %s" % (opt, r.stderr[-2000:]))
                    return res
            # Host code whose loops the vectoriser folded into masks: the
            # run counts the masked-off lanes too (may count more).
            masked = difftest.masked_kernels(llvm + "clang", opt, c, work)
            for i, kernel in enumerate(kernels):
                s = summaries.get(kernel.name)
                if s is None or not s["exact"]:
                    continue
                res.exact += 1
                chosen = selected_threads(kernel, s, fail, opt)
                if chosen is None:
                    continue
                spec = ";".join("%d,%d,%d" % (t["threadIdx.x"], t["threadIdx.y"],
                                              t["blockIdx.x"]) for t in chosen)
                ref = run(["timeout", "2", plain, str(i), spec])
                if ref.returncode:
                    res.skipped += 1  # does not end, or overflows: left out
                    continue
                prof = os.path.join(work, "%s-%d.profile.json" % (opt, i))
                got = run(["timeout", "20", out, str(i), spec],
                          env=dict(os.environ, ROOFLINE_PROFILE=prof))
                if got.returncode or got.stdout != ref.stdout:
                    fail("host -%s: instrumented output %r (rc %d), plain %r"
                         % (opt, got.stdout, got.returncode, ref.stdout), kernel)
                    continue
                with open(prof) as f:
                    m = {k["display_name"]: k for k in json.load(f)["kernels"]}.get(kernel.name)
                compare(res, opt, kernel, s, m, chosen, fail, kernel.name in masked)
    finally:
        if not keep:
            shutil.rmtree(work, ignore_errors=True)
    return res


def compare(res, opt, kernel, s, m, chosen, fail, masked=False):
    """The fake launch's counts against the sum of the exact per-thread
    formula over \p chosen; where the host code has masked lanes (\p
    masked) the run may count more, never less."""
    f = s["formula"]
    # Integer work too: the host and the device must agree that unpacking
    # a bf16 pair is packing and the index arithmetic is not work.
    got = {"flops": m["flops"]["total"] if m else 0,
           "intops": m.get("intops", {}).get("total", 0) if m else 0,
           "bytes_load": m["bytes"]["load"] if m else 0,
           "bytes_store": m["bytes"]["store"] if m else 0}
    env0 = {n: v for n, _, v in kernel.params}
    res.checked += 1
    res.masked = getattr(res, "masked", 0) + masked
    for what in ("flops", "intops", "bytes_load", "bytes_store"):
        text = f.get(what, "0")
        try:
            want = sum(evaluate(text, dict(env0, **t)) for t in chosen)
        except (FormulaError, ZeroDivisionError) as e:
            fail("-%s %s: %s formula %r: %s" % (opt, kernel.name, what, text, e), kernel)
            return
        if want != got[what] and not (masked and want < got[what]):
            fail("-%s %s: %s is %s over %d threads (exact: %r under %s, launch "
                 "<<<%d, %s>>>, %s), the fake launch counted %s"
                 % (opt, kernel.name, what, want, len(chosen), text,
                    s.get("assumptions"), kernel.grid, kernel.block, env0,
                    got[what]), kernel)
            return


def toolchain_missing(tag, lang):
    """Says so (the run is skipped) when \p lang's device toolchain is not here."""
    if lang == "cuda" and not os.path.isdir(CUDA_PATH):
        print("%s: skipped: no CUDA at %s" % (tag, CUDA_PATH))
        return True
    if lang == "hip" and not os.path.isdir(HIP_BITCODE):
        print("%s: skipped: no ROCm device libraries at %s" % (tag, HIP_BITCODE))
        return True
    return False


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--seeds", default="0:10", help="N, LO:HI, or daily:N (programs)")
    ap.add_argument("--opt", default=difftest.DEFAULT_LEVELS)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--keep", help="keep the files of one seed here")
    ap.add_argument("--print", action="store_true", help="print the programs and exit")
    ap.add_argument("--lang", choices=("cuda", "hip"), default="cuda",
                    help="the device language the kernels are compiled as")
    args = ap.parse_args()
    seeds = list(seeds_of(args.seeds))
    if args.print:
        ks = [CudaKernel(seeds[0], i) for i in range(KERNELS_PER_PROGRAM)]
        print(device_program(ks, args.lang))
        print(host_program(ks, args.lang))
        return 0
    tag = "difftest-" + args.lang
    if toolchain_missing(tag, args.lang):
        return 0
    opts = args.opt.split(",")
    total = difftest.check_seeds(
        lambda s: check_program(s, opts, args.build, args.keep, args.lang),
        seeds, args.jobs, tag=tag)
    print("%s: seeds %d..%d" % (tag, seeds[0], seeds[-1]))
    print(tag + ": %d programs, %d kernels x %d levels; %d called exact, "
          "%d compared, %d of them with masked lanes on the host (the run may "
          "count more), %d not run (the plain build did not end); %d failures"
          % (len(seeds), len(seeds) * KERNELS_PER_PROGRAM, len(opts), total.exact,
             total.checked, getattr(total, "masked", 0), total.skipped,
             len(total.failures)))
    return 1 if total.failures else 0


if __name__ == "__main__":
    sys.exit(main())
