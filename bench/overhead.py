#!/usr/bin/env python3
"""Run-time overhead of Roofline's instrumentation, side by side with clang's
-fprofile-instr-generate and --coverage, at -O2: on bench/kernels.cpp
(noinline kernels), or with --suite polybench on bench/polybench_like.c
(PolyBench-style static kernels, inlined into main: the records of inlined
kernels and their loop nests' timers).

Usage (from the repository root, after scripts/build.sh):
    python3 bench/overhead.py [--repeats 5] [--suite kernels|polybench]
        [--old-build DIR] [--modes short,tiny] [--build DIR]
--old-build DIR adds a column built with DIR's roofline-clang++ (a build or
an installed tree of an earlier commit), side by side in the same run.
Each variant of each kernel runs --repeats times, interleaved; the minimum
wall time is kept (the least disturbed run), and overhead = variant / plain.
The outputs of all variants are checked to be equal."""
import argparse
import math
import os
import subprocess
import tempfile
import time

SUITES = {
    "kernels": ("bench/kernels.cpp", "/usr/lib/llvm-22/bin/clang++",
                "build/bin/roofline-clang++",
                ["gemm", "stencil", "spmv", "reduce", "conv", "branchy", "short",
                 "tiny", "triad"]),
    "polybench": ("bench/polybench_like.c", "/usr/lib/llvm-22/bin/clang",
                  "build/bin/roofline-clang",
                  ["gemm", "atax", "jacobi1d", "jacobi2d", "floyd", "trisolv"]),
}


def build(tmp, suite, build_dir, old_build):
    src, clang, wrapper, _ = SUITES[suite]
    wrapper = os.path.join(build_dir, "bin", os.path.basename(wrapper))
    variants = {
        "plain": [clang, "-O2", src],
        "roofline": [wrapper, "-O2", src],
    }
    if old_build:
        variants["roofline (old build)"] = [
            os.path.join(old_build, "bin", os.path.basename(wrapper)), "-O2", src]
    variants["instr-profile"] = [clang, "-O2", "-fprofile-instr-generate", src]
    variants["coverage"] = [clang, "-O2", "--coverage", src]
    exes = {}
    for name, cmd in variants.items():
        exe = os.path.join(tmp, name.replace(" ", "_").strip("()"))
        subprocess.run(cmd + ["-o", exe], check=True)
        exes[name] = exe
    return exes


def run(exe, mode, tmp):
    env = dict(os.environ, ROOFLINE_PROFILE=os.path.join(tmp, "r.json"),
               LLVM_PROFILE_FILE=os.path.join(tmp, "p.profraw"))
    start = time.perf_counter()
    out = subprocess.run([exe, mode], check=True, capture_output=True, text=True,
                         env=env, cwd=tmp).stdout
    return time.perf_counter() - start, out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--suite", choices=sorted(SUITES), default="kernels")
    ap.add_argument("--build", default="build",
                    help="the build whose roofline-clang++ is measured")
    ap.add_argument("--old-build", help="another build to measure beside it")
    ap.add_argument("--modes", help="comma-separated kernels (default: all)")
    args = ap.parse_args()
    MODES = args.modes.split(",") if args.modes else SUITES[args.suite][3]
    with tempfile.TemporaryDirectory() as tmp:
        exes = build(tmp, args.suite, args.build, args.old_build)
        names = list(exes)
        best = {(m, n): math.inf for m in MODES for n in names}
        outputs = {}
        for _ in range(args.repeats):
            for m in MODES:
                for n in names:
                    t, out = run(exes[n], m, tmp)
                    best[(m, n)] = min(best[(m, n)], t)
                    outputs.setdefault(m, out)
                    if out != outputs[m]:
                        raise SystemExit("%s %s: output differs: %r vs %r" %
                                         (n, m, out, outputs[m]))
        titles = {"plain": "plain -O2", "instr-profile": "-fprofile-instr-generate",
                  "coverage": "--coverage"}
        print("| kernel | %s |" % " | ".join(titles.get(n, n) for n in names))
        print("|---|%s" % ("---|" * len(names)))
        logs = {n: 0.0 for n in names}
        for m in MODES:
            base = best[(m, "plain")]
            cells = ["%.3f s" % base]
            for n in names[1:]:
                r = best[(m, n)] / base
                logs[n] += math.log(r)
                cells.append("%.3f s (%.2fx)" % (best[(m, n)], r))
            print("| %s | %s |" % (m, " | ".join(cells)))
        geo = ["%.3fx" % math.exp(logs[n] / len(MODES)) for n in names[1:]]
        print("| geometric mean | 1 | %s |" % " | ".join(geo))


if __name__ == "__main__":
    main()
