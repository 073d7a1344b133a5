#!/usr/bin/env python3
"""The summary's instruction estimate against the instructions a run executes.

Builds bench/instruction_kernels.c (six kernels, each noinline) with the
plugin at -O2 without vectorisation or unrolling (the summary counts the
code before them: docs/counting.md, "Instructions"), runs it once under
valgrind's cachegrind (Ir: instructions executed, per function), and prints
each kernel's static formula evaluated at the sizes main passes beside the
measured count and their ratio.

Usage: bench/instructions.py [--build build] [--n 1000]
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "scripts"))
from difftest import evaluate  # noqa: E402

FLAGS = ["-O2", "-gdwarf-4", "-fno-vectorize", "-fno-slp-vectorize",
         "-fno-unroll-loops"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--n", type=int, default=1000)
    a = ap.parse_args()
    n = a.n
    # What main passes each kernel (instruction_kernels.c).
    sizes = {"saxpy": n, "dot": n, "stencil": n, "floyd": n // 10,
             "copy": n, "matvec": n // 10}
    plugin = os.path.abspath(os.path.join(a.build, "lib", "RooflinePass.so"))
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(HERE, "instruction_kernels.c")
        obj, exe = os.path.join(tmp, "k.o"), os.path.join(tmp, "k")
        subprocess.run(["clang-22", *FLAGS, "-fpass-plugin=" + plugin, "-mllvm",
                        "-roofline-json=" + tmp + "/", "-c", src, "-o", obj],
                       check=True)
        subprocess.run(["clang-22", obj, "-o", exe], check=True)
        out = os.path.join(tmp, "cg.out")
        subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no",
                        "--cachegrind-out-file=" + out, exe, str(n)],
                       capture_output=True)  # its status is a checksum
        ann = subprocess.run(["cg_annotate", "--threshold=0", out],
                             check=True, capture_output=True, text=True).stdout
        measured = {}
        for m in re.finditer(r"^\s*([\d,]+) .*:(\w+)$", ann, re.M):
            measured[m.group(2)] = int(m.group(1).replace(",", ""))
        static = {}
        for f in glob.glob(os.path.join(tmp, "*.json")):
            for k in json.load(open(f))["kernels"]:
                static[k["name"]] = k["formula"]["instructions"]
    print(f"{'kernel':8} {'size':>6} {'summary':>12} {'run (Ir)':>12} {'ratio':>6}")
    for name, size in sizes.items():
        est = float(evaluate(static[name], {"n": size}))
        got = measured.get(name, 0)
        print(f"{name:8} {size:>6} {est:>12.0f} {got:>12} {est / got:>6.3f}")


if __name__ == "__main__":
    main()
