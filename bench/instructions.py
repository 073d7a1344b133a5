#!/usr/bin/env python3
"""The instruction estimates against the instructions a run executes.

bench/instruction_kernels.c (six kernels, each noinline) is measured twice
against valgrind's cachegrind (Ir: instructions executed, per function,
exclusive; main is its own code alone):

  * static: the summary's formula (the code before vectorisation, so the
    build here is -O2 without vectorisation or unrolling), evaluated at the
    sizes main passes, against a run of that same build;
  * run: the profile of roofline-clang -O2 (vectorised, unrolled: the
    code as it runs), inclusive records made exclusive for main, against a
    run of plain clang -O2.

Prints both with their ratios (docs/counting.md, "Instructions").

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

SCALAR = ["-O2", "-gdwarf-4", "-fno-vectorize", "-fno-slp-vectorize",
          "-fno-unroll-loops"]
KERNELS = ["saxpy", "dot", "stencil", "floyd", "copy", "matvec"]


def executed(exe, n, tmp):
    """Instructions executed per function (cachegrind's Ir)."""
    out = os.path.join(tmp, "cg.out")
    subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no",
                    "--cachegrind-out-file=" + out, exe, str(n)],
                   capture_output=True)  # its status is a checksum
    ann = subprocess.run(["cg_annotate", "--threshold=0", out], check=True,
                         capture_output=True, text=True).stdout
    return {m.group(2): int(m.group(1).replace(",", ""))
            for m in re.finditer(r"^\s*([\d,]+) .*instruction_kernels\.c:(\w+)$",
                                 ann, re.M)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--n", type=int, default=1000)
    a = ap.parse_args()
    n = a.n
    # What main passes each kernel (instruction_kernels.c).
    sizes = {"saxpy": n, "dot": n, "stencil": n, "floyd": n // 10,
             "copy": n, "matvec": n // 10}
    build = os.path.abspath(a.build)
    src = os.path.join(HERE, "instruction_kernels.c")
    with tempfile.TemporaryDirectory() as tmp:
        exe = os.path.join(tmp, "scalar")
        subprocess.run(["clang-22", *SCALAR,
                        "-fpass-plugin=" + build + "/lib/RooflinePass.so",
                        "-mllvm", "-roofline-json=" + tmp + "/", src, "-o", exe],
                       check=True)
        static = {}
        for f in glob.glob(os.path.join(tmp, "*.json")):
            for k in json.load(open(f))["kernels"]:
                static[k["name"]] = k["formula"]["instructions"]
        ran_scalar = executed(exe, n, tmp)

        plain, inst = os.path.join(tmp, "plain"), os.path.join(tmp, "inst")
        subprocess.run(["clang-22", "-O2", "-gdwarf-4", src, "-o", plain], check=True)
        subprocess.run([build + "/bin/roofline-clang", "-O2", src, "-o", inst],
                       check=True)
        prof = os.path.join(tmp, "profile.json")
        subprocess.run([inst, str(n)], env=dict(os.environ, ROOFLINE_PROFILE=prof),
                       capture_output=True)
        counted = {k["name"]: k["instructions"]
                   for k in json.load(open(prof))["kernels"]}
        counted["main"] -= sum(counted[k] for k in KERNELS)  # inclusive
        ran_plain = executed(plain, n, tmp)
    print(f"{'kernel':8} {'size':>6} | {'summary':>10} {'Ir':>10} {'ratio':>6} |"
          f" {'profile':>10} {'Ir':>10} {'ratio':>6}")
    for name in KERNELS + ["main"]:
        size = sizes.get(name, n)
        est = float(evaluate(static[name], {"n": size})) if name in sizes else None
        s = (f"{est:>10.0f} {ran_scalar[name]:>10} {est / ran_scalar[name]:>6.3f}"
             if est is not None else f"{'-':>10} {'-':>10} {'-':>6}")
        print(f"{name:8} {size:>6} | {s} | {counted[name]:>10} "
              f"{ran_plain[name]:>10} {counted[name] / ran_plain[name]:>6.3f}")


if __name__ == "__main__":
    main()
