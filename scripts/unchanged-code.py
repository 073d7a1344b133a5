#!/usr/bin/env python3
"""Checks that the plugin, when it does not instrument, leaves the code alone.

Each source is compiled twice at each optimisation level, with and without
-fpass-plugin (the static summary, its remarks and warnings on, as CI uses
them), and the two objects' machine code is compared instruction by
instruction (llvm-objdump -d). Debug sections may differ (the summary's
markers leave their descriptors); the code may not. A CUDA source (.cu)
is two translation units: its host object is compared as above, its
device code as PTX for sm_90 (the debug sections left out).

USAGE:
  scripts/unchanged-code.py --plugin build/lib/RooflinePass.so [-O2 -O3 ...] SRC...
Prints one line per source and level that differs, with the first
differing lines; exit status 1 if any does.
"""
import argparse
import difflib
import os
import subprocess
import sys
import tempfile

LLVM = "/usr/lib/llvm-22/bin/"


def disassembly(obj):
    out = subprocess.run([LLVM + "llvm-objdump", "-d", "--no-show-raw-insn",
                          "--no-leading-addr", obj],
                         capture_output=True, text=True, check=True).stdout
    # The first lines name the file.
    return [l for l in out.splitlines() if "file format" not in l]


CUDA = ["-x", "cuda", "--cuda-path=" + os.environ.get("CUDA_PATH", "/usr/local/cuda"),
        "--cuda-gpu-arch=sm_90", "-Wno-unknown-cuda-version"]


def ptx(path):
    """The PTX's code: its debug sections (DWARF as data) left out."""
    lines, skipping = [], False
    for l in open(path).read().splitlines():
        if l.startswith("\t.section\t.debug") or l.startswith(".section .debug"):
            skipping = True
        elif skipping and l.strip() == "}":
            skipping = False
            continue
        if not skipping:
            lines.append(l)
    return lines


def compile_to(src, level, plugin, obj, part=None):
    if src.endswith(".c"):
        cmd = [LLVM + "clang"]
    else:
        cmd = [LLVM + "clang++", "-std=c++17"]
    if part:
        cmd += CUDA + (["--cuda-host-only", "-c"] if part == "host"
                       else ["--cuda-device-only", "-S"])
    else:
        cmd += ["-c"]
    cmd += [level, "-g", "-w", src, "-o", obj]
    if plugin:
        cmd += ["-fpass-plugin=" + plugin, "-mllvm", "-roofline-warn=memory-bound",
                "-Rpass-analysis=roofline"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        sys.exit("unchanged-code: %s %s does not compile: %s"
                 % (src, level, r.stderr.strip()[-300:]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--level", action="append", default=[])
    ap.add_argument("sources", nargs="+")
    args = ap.parse_args()
    levels = args.level or ["-O2"]
    differ = 0
    with tempfile.TemporaryDirectory() as tmp:
        plain, plugged = os.path.join(tmp, "a.o"), os.path.join(tmp, "b.o")
        for src in args.sources:
            parts = ["host", "device"] if src.endswith(".cu") else [None]
            for level in levels:
                for part in parts:
                    compile_to(src, level, None, plain, part)
                    compile_to(src, level, args.plugin, plugged, part)
                    read = ptx if part == "device" else disassembly
                    a, b = read(plain), read(plugged)
                    if a != b:
                        differ += 1
                        diff = list(difflib.unified_diff(a, b, lineterm="", n=0))
                        print("differs: %s %s%s (%d lines)"
                              % (src, level, " " + part if part else "", len(diff)))
                        for line in diff[2:8]:
                            print("  " + line)
    print("unchanged-code: %d sources x %d levels, %d differ"
          % (len(args.sources), len(levels), differ))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
