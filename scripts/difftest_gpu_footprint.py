#!/usr/bin/env python3
"""Differential tester for GPU launch footprints: the distinct bytes the pass
calls exact for a whole launch, against the bytes a fake launch touches.

Generates kernels the way element-wise GPU code indexes its data: a thread
index over the grid (g = blockIdx.x*blockDim.x + threadIdx.x), k elements a
thread (i = k*g), a guard (`if (i >= B*T*C) return;`, or `i < n`, or a
second guard `i > 0`), and the element's row, column and their digits
through division and remainder by parameters (row = i / C, col = i % C,
t = row % T, b = row / T; int or unsigned), lanes (g % 32); accesses such
as a bias `col + j`, a row scale `row`, a position table `t*C + col + j`,
a transpose `col*T + t`, a reversal `C - 1 - col`; reads plain or
through `__ldg(&p[i])` (a global load of the flat address). One source is
built twice:

  * for the device (CUDA sm_90, or HIP gfx90a with --lang hip) through the
    pass with -roofline-json: each pointer parameter's footprint per launch;
  * for the host with -DTRUTH, the thread and block indices globals that a
    loop over the launch sets; every access marks its element in a shadow
    bitmap, and the program prints, per array, the bytes read and written.

For every array whose footprint the summary calls exact, and whose stated
assumptions hold at the launch's values, the formula must equal the run's
bytes; a footprint known between bounds must hold them (lower <= run <=
upper). The launch covers the guard (the footprint's assumption), with a
spare block at times.

USAGE:
  scripts/difftest_gpu_footprint.py --build build --seeds 0:20 [--opt O0,O2,O3-native] [--lang hip]
Exit status: 0 when no wrong exact footprint and no broken bound was found.
"""
import argparse
import os
import random
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import difftest  # noqa: E402
from difftest import FormulaError, assumption_holds, evaluate, run, seeds_of  # noqa: E402
from difftest_cuda import DEVICE_FLAGS, toolchain_missing  # noqa: E402
from difftest_footprint import TRUTH_REPORT, Result, truth_bytes  # noqa: E402

KERNELS_PER_PROGRAM = 8
ARRAYS = ("p", "q", "r")
CELLS = 1 << 15  # elements per array


class Kernel:
    def __init__(self, seed, index):
        r = self.rng = random.Random(seed * 104729 + index)
        self.name = "k%d" % index
        self.k = r.choice([1, 1, 2, 4])
        self.B, self.T = r.randint(1, 4), r.randint(1, 6)
        # C a multiple of k mostly (the footprint assumes it; else skipped).
        self.C = self.k * r.randint(1, 8) + (r.randint(1, self.k - 1)
                                             if self.k > 1 and r.random() < 0.15 else 0)
        self.n = r.randint(1, self.B * self.T * self.C)
        self.block = r.choice([32, 64, 96])
        self.unsigned = r.random() < 0.3
        self.limit = r.choice(["B * T * C", "B * T * C", "T * C", "n"])
        self.lines = []
        if r.random() < 0.15:
            self.make_stride()
        else:
            self.make()
        # A constant row length at times: C is then a literal in the body.
        if r.random() < 0.15:
            self.lines = [re.sub(r"\bC\b", str(self.C), l) for l in self.lines]

    def limit_value(self):
        return {"B * T * C": self.B * self.T * self.C, "T * C": self.T * self.C,
                "n": self.n}[self.limit]

    def launch(self):
        need = -(-self.limit_value() // self.k)  # threads that pass the guard
        grid = max(1, -(-need // self.block)) + (1 if self.rng.random() < 0.3 else 0)
        return grid, self.block

    def make(self):
        r, k = self.rng, self.k
        it = "unsigned" if self.unsigned else "int"
        self.lines += [
            "  %s g = blockIdx.x * blockDim.x + threadIdx.x;" % it,
            "  %s i = %s;" % (it, "g" if k == 1 else "%d * g" % k)]
        if r.random() < 0.2 and not self.unsigned:
            self.lines.append("  if (i < 1 || i >= %s) return;" % self.limit)
        else:
            self.lines.append("  if (i >= %s) return;" % self.limit)
        self.thread_guard()
        self.lines += [
            "  %s row = i / C, col = i %% C;" % it,
            "  %s t = row %% T, b = row / T;" % it]
        # Offsets per element j of the thread's k; each below B*T*C.
        per_element = ["i + j", "col + j", "t * C + col + j", "row * C + col + j"]
        per_thread = ["row", "b * T + t", "t", "b", "g", "g % 32", "col * T + t",
                      "(i / C) % T"]
        if k == 1:
            per_thread += ["C - 1 - col", "(T - 1 - t) * C + col"]
        written = r.choice(ARRAYS)
        readable = [a for a in ARRAYS if a != written]
        body = []
        for _ in range(r.randint(1, 3)):
            src, idx = r.choice(readable), r.choice(per_element + per_thread)
            body.append((r.choice("RRG"), src, idx))
        dst = r.choice(per_element + per_element + per_thread)
        loop = any("j" in x for _, _, x in body) or "j" in dst
        if loop and "j" not in dst:
            # Each iteration overwrites the last one's store: reads that
            # no store can change (__ldg's) then die with it in the
            # compiled code, which is what is counted.
            body = [("R", a, x) for _, a, x in body]
        ind = "  "
        if loop:
            self.lines.append("  for (%s j = 0; j < %d; ++j) {" % (it, k))
            ind = "    "
        self.lines.append("%sW(%s, %s) = 1.0f%s;" % (
            ind, written, dst, "".join(" + %s(%s, %s)" % (m, a, x) for m, a, x in body)))
        if loop:
            self.lines.append("  }")

    def thread_guard(self):
        """At times a second guard on the thread alone: some lanes, or whole
        warps or wavefronts of each block."""
        r = self.rng
        if r.random() < 0.15:
            self.lines.append(r.choice(["  if (threadIdx.x >= 48) return;",
                                        "  if (threadIdx.x / 64 >= 1) return;",
                                        "  if (threadIdx.x %% 32 >= %d) return;"
                                        % r.choice([8, 16])]))

    def make_stride(self):
        """A block- or grid-stride loop over [0, LIMIT), at times under a
        guard on the thread."""
        r = self.rng
        self.k = 1
        it = "unsigned" if self.unsigned else "int"
        self.thread_guard()
        start, step = r.choice([("threadIdx.x", "blockDim.x"),
                                ("blockIdx.x * blockDim.x + threadIdx.x",
                                 "blockDim.x * gridDim.x")])
        written = r.choice(ARRAYS)
        src = r.choice([a for a in ARRAYS if a != written])
        idx = r.choice(["i", "i % C", "i / C"])
        self.lines += ["  for (%s i = %s; i < %s; i += %s)" % (it, start, self.limit, step),
                       "    W(%s, i) = 1.0f + R(%s, %s);" % (written, src, idx)]

    def source(self):
        it = "unsigned" if self.unsigned else "int"
        return ("__global__ void %s(float *p, float *q, float *r, %s B, %s T, %s C, "
                "%s n) {\n%s\n}\n" % (self.name, it, it, it, it, "\n".join(self.lines)))


PRELUDE = r"""#ifdef TRUTH
#include <stdio.h>
#include <stdlib.h>
#define CELLS %d
#define __global__ static
struct dim { unsigned x, y, z; };
static struct dim threadIdx, blockIdx, blockDim, gridDim;
/* Every access marks its element: [array][read/written]. */
static unsigned char seen[3][2][CELLS];
static float store[3][CELLS];
static float *mark(float *p, long i, int w) {
  for (int a = 0; a < 3; ++a)
    if (p == store[a] && i >= 0 && i < CELLS)
      seen[a][w][i] = 1;
  return p + i;
}
#define R(p, i) (*mark(p, (long)(i), 0))
#define G(p, i) (*mark(p, (long)(i), 0))
#define W(p, i) (*mark(p, (long)(i), 1))
#else
#define R(p, i) (p)[i]
#define G(p, i) __ldg(&(p)[i])
#define W(p, i) (p)[i]
#endif
""" % CELLS


def program(kernels):
    body = "\n".join(k.source() for k in kernels)
    calls = []
    for i, k in enumerate(kernels):
        grid, block = k.launch()
        k.grid = grid
        calls.append(
            "  case %d: gridDim.x = %d; blockDim.x = %d;\n"
            "    for (blockIdx.x = 0; blockIdx.x < gridDim.x; ++blockIdx.x)\n"
            "      for (threadIdx.x = 0; threadIdx.x < blockDim.x; ++threadIdx.x)\n"
            "        %s(store[0], store[1], store[2], %d, %d, %d, %d);\n"
            "    break;" % (i, grid, block, k.name, k.B, k.T, k.C, k.n))
    return (PRELUDE + body + r"""
#ifdef TRUTH
int main(int argc, char **argv) {
  if (argc < 2) return 2;
  gridDim.y = gridDim.z = blockDim.y = blockDim.z = 1;
  switch (atoi(argv[1])) {
""" + "\n".join(calls) + r"""
  }
""" + TRUTH_REPORT + r"""
  return 0;
}
#endif
""")


def check_program(seed, opts, build, keep, lang):
    kernels = [Kernel(seed, i) for i in range(KERNELS_PER_PROGRAM)]
    res = Result()
    work = keep or tempfile.mkdtemp(prefix="roofline-gpufp-")
    os.makedirs(work, exist_ok=True)
    src = os.path.join(work, "g%d.cu" % seed)
    with open(src, "w") as f:
        f.write(program(kernels))
    llvm = "/usr/lib/llvm-22/bin/"
    plugin = os.path.abspath(os.path.join(build, "lib", "RooflinePass.so"))
    try:
        truth = truth_bytes(["-x", "c"], src, kernels, work, seed, res)
        if truth is None:
            return res
        for opt in opts:
            jdir = os.path.join(work, opt + "-json") + "/"
            shutil.rmtree(jdir, ignore_errors=True)
            os.makedirs(jdir)
            r = run([llvm + "clang++"] + DEVICE_FLAGS[lang] + ["--cuda-device-only"] +
                    difftest.level_flags(opt, device=True) +
                    ["-g", "-w", "-S", "-fpass-plugin=" + plugin, "-mllvm",
                     "-roofline-json=" + jdir, src, "-o", os.path.join(work, opt + ".s")])
            if r.returncode:
                res.failures.append((seed, "device -%s build failed: %s"
                                     % (opt, r.stderr[-2000:])))
                continue
            summaries = difftest.read_summaries(jdir)
            for k in kernels:
                s, t = summaries.get(k.name), truth.get(k.name)
                if s is not None and t is not None:
                    compare(res, seed, opt, k, s, t)
    finally:
        if not keep:
            shutil.rmtree(work, ignore_errors=True)
    return res


def compare(res, seed, opt, k, s, t):
    env = {"B": k.B, "T": k.T, "C": k.C, "n": k.n,
           "blockDim.x": k.block, "gridDim.x": k.grid}
    for d in ("y", "z"):
        env["blockDim." + d] = env["gridDim." + d] = 1
    launch = "<<<%d, %d>>> B=%d T=%d C=%d n=%d" % (k.grid, k.block, k.B, k.T, k.C, k.n)
    for p in s["pointer_params"]:
        fp = p.get("footprint")
        if fp is None or p["name"] not in t:
            continue
        if not all(assumption_holds(a, env) is True for a in fp["assumptions"]):
            res.skipped += 1
            continue
        got = t[p["name"]]
        try:
            hi = [max(0, evaluate(fp[x], env)) for x in ("read", "written")]
            lo = [max(0, evaluate(fp.get(x + "_at_least", fp[x]), env))
                  for x in ("read", "written")]
        except (FormulaError, ZeroDivisionError, TypeError, KeyError):
            if fp["exact"]:
                res.failures.append((seed, "-%s %s %s: unreadable %r"
                                     % (opt, k.name, p["name"], fp)))
            continue
        where = "-%s %s array %s, %s" % (opt, k.name, p["name"], launch)
        if fp["exact"]:
            res.checked += 1
            if [int(v) for v in hi] != list(got):
                res.failures.append((seed, "%s: exact footprint %s = %s, the launch "
                                     "touched %s\n%s" % (where, (fp["read"], fp["written"]),
                                                         hi, got, k.source())))
        else:
            res.exact += 1
            for d in range(2):
                if not lo[d] <= got[d] <= hi[d]:
                    res.failures.append((seed, "%s: bounds %s..%s do not hold the "
                                         "launch's %s (%s)\n%s"
                                         % (where, lo[d], hi[d], got[d],
                                            ("read", "written")[d], k.source())))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--seeds", default="0:10", help="N, LO:HI, or daily:N (programs)")
    ap.add_argument("--opt", default=difftest.DEFAULT_LEVELS)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--keep", help="keep the files of one seed here")
    ap.add_argument("--print", action="store_true", help="print the programs and exit")
    ap.add_argument("--lang", choices=("cuda", "hip"), default="cuda")
    a = ap.parse_args()
    seeds = list(seeds_of(a.seeds))
    if a.print:
        print(program([Kernel(seeds[0], i) for i in range(KERNELS_PER_PROGRAM)]))
        return 0
    tag = "difftest-gpu-footprint-" + a.lang
    if toolchain_missing(tag, a.lang):
        return 0
    opts = a.opt.split(",")
    total = difftest.check_seeds(
        lambda s: check_program(s, opts, a.build, a.keep, a.lang), seeds, a.jobs, tag=tag)
    print("%s: seeds %d..%d, %d kernels x %d levels: %d exact footprints compared, "
          "%d bounds checked, %d skipped (assumptions), %d failures"
          % (tag, seeds[0], seeds[-1], len(seeds) * KERNELS_PER_PROGRAM, len(opts),
             total.checked, total.exact, total.skipped, len(total.failures)))
    return 1 if total.failures else 0


if __name__ == "__main__":
    sys.exit(main())
