#!/usr/bin/env python3
"""Compares what two builds of Roofline say about the same sources.

For a refactoring that must not change behaviour: every example and every
C, C++ and CUDA test input is compiled with each build's plugin at -O0 and
-O2 with -roofline-json (the static summaries), and the host ones are also
built with each build's roofline-clang and run (the profiles). The
summaries must be equal; the profiles equal except for times, pids and
paths.

A change that adds a field names it with --ignore (repeatable): the field
is dropped, at any depth, from both builds' outputs before they are
compared, so everything else must still be equal.

USAGE:
  scripts/compare-builds.py --old /tmp/old-build --new build [--keep DIR]
                            [--ignore FIELD]...
Exit status: 0 when the two builds agree on every source.
"""
import argparse
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

LLVM = "/usr/lib/llvm-22/bin/"
CUDA = os.environ.get("ROOFLINE_CUDA_PATH", "/usr/local/cuda")
# Fields of a profile that differ from run to run.
VOLATILE = {"seconds", "time", "timestamp", "pid", "host", "command", "path",
            "start", "wall_seconds", "overhead", "launches", "min_seconds",
            "max_seconds", "self_seconds", "argv", "cwd", "started", "ended"}


def sources(root):
    found = []
    for pattern in ("examples/*/*.cpp", "examples/*/*.cu", "test/Plugin/*.c*",
                    "test/CUDA/*.cu", "test/Runtime/exact-counts.cpp",
                    "test/Runtime/data-dependent.cpp"):
        found += sorted(glob.glob(os.path.join(root, pattern)))
    return found


def summary(build, src, opt, out):
    plugin = os.path.join(build, "lib", "RooflinePass.so")
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    if src.endswith(".cu"):
        cmd = [LLVM + "clang++", "-x", "cuda", "--cuda-path=" + CUDA,
               "-Wno-unknown-cuda-version", "--cuda-gpu-arch=sm_90"]
    elif src.endswith(".c"):
        cmd = [LLVM + "clang"]
    else:
        cmd = [LLVM + "clang++", "-std=c++17"]
    cmd += ["-" + opt, "-g", "-w", "-c", "-fpass-plugin=" + plugin,
            "-mllvm", "-roofline-json=" + out + "/", src, "-o",
            os.path.join(out, "x.o")]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        return "build failed: " + r.stderr[-300:]
    docs = []
    for f in sorted(glob.glob(os.path.join(out, "*.json"))):
        with open(f) as fh:
            d = json.load(fh)
        d.pop("source", None)
        docs.append(d)
    return docs


def scrub(v, drop=VOLATILE):
    if isinstance(v, dict):
        return {k: scrub(x, drop) for k, x in v.items() if k not in drop}
    if isinstance(v, list):
        return [scrub(x, drop) for x in v]
    return v


def profile(build, src, opt, out):
    if not src.endswith((".c", ".cpp")) or "examples/" not in src and "Runtime" not in src:
        return None
    wrapper = os.path.join(build, "bin", "roofline-clang" + ("++" if src.endswith(".cpp") else ""))
    exe = os.path.join(out, "a.out")
    r = subprocess.run([wrapper, "-" + opt, "-w", src, "-o", exe, "-lm"],
                       capture_output=True, text=True)
    if r.returncode:
        return "build failed"
    prof = os.path.join(out, "profile.json")
    r = subprocess.run(["timeout", "60", exe], capture_output=True, text=True,
                       env=dict(os.environ, ROOFLINE_PROFILE=prof), cwd=out)
    if not os.path.exists(prof):
        return "no profile (rc %d)" % r.returncode
    with open(prof) as fh:
        d = json.load(fh)
    return scrub({"kernels": [k for k in d.get("kernels", [])]})


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--old", required=True)
    ap.add_argument("--new", required=True)
    ap.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    ap.add_argument("--keep")
    ap.add_argument("--ignore", action="append", default=[],
                    help="a field a change added: not compared")
    args = ap.parse_args()
    ignored = set(args.ignore)
    work = args.keep or tempfile.mkdtemp(prefix="roofline-compare-")
    differ = 0
    compared = 0
    kernels = 0
    for src in sources(args.root):
        for opt in ("O0", "O2"):
            a = scrub(summary(args.old, src, opt, os.path.join(work, "old")), ignored)
            b = scrub(summary(args.new, src, opt, os.path.join(work, "new")), ignored)
            compared += 1
            kernels += sum(len(d.get("kernels", [])) for d in a) if isinstance(a, list) else 0
            if a != b:
                differ += 1
                print("DIFFERS: summary of %s at -%s" % (os.path.relpath(src, args.root), opt))
            pa = scrub(profile(args.old, src, opt, os.path.join(work, "old")), ignored)
            pb = scrub(profile(args.new, src, opt, os.path.join(work, "new")), ignored)
            if pa is not None:
                compared += 1
                kernels += len(pa.get("kernels", [])) if isinstance(pa, dict) else 0
                if pa != pb:
                    differ += 1
                    print("DIFFERS: profile of %s at -%s" % (os.path.relpath(src, args.root), opt))
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    print("compare-builds: %d outputs (%d kernel records) compared, %d differ"
          % (compared, kernels, differ))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
