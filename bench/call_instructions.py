#!/usr/bin/env python3
"""Instructions per call of bench/kernels.cpp's small hot functions (short:
8 floats summed; tiny: 8 floats of y += a*x), built plain, with Roofline,
and with another build's Roofline (--old-build), side by side: valgrind
--tool=callgrind counts every instruction of two runs of N1 and N2 calls,
and (I2 - I1) / (N2 - N1) is the cost of one call, start-up and the
profile's writing cancelled out. Instruction counts do not depend on the
machine's load, unlike wall times (bench/overhead.py).

Usage (from the repository root, after scripts/build.sh):
    python3 bench/call_instructions.py [--old-build DIR] [--modes short,tiny]
        [--calls 100000,300000] [--flags '-mllvm -roofline-kept-calls=false']
"""
import argparse
import os
import re
import subprocess
import tempfile

SRC = "bench/kernels.cpp"
CLANG = "/usr/lib/llvm-22/bin/clang++"


def instructions(exe, mode, calls, tmp):
    env = dict(os.environ, ROOFLINE_PROFILE=os.path.join(tmp, "r.json"))
    r = subprocess.run(["valgrind", "--tool=callgrind",
                        "--callgrind-out-file=" + os.path.join(tmp, "cg.out"),
                        exe, mode, "1", str(calls)],
                       capture_output=True, text=True, env=env, check=True)
    return int(re.search(r"Collected : (\d+)", r.stderr).group(1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--old-build")
    ap.add_argument("--modes", default="short,tiny")
    ap.add_argument("--calls", default="100000,300000")
    ap.add_argument("--flags", default="", help="more flags for the builds' wrapper")
    args = ap.parse_args()
    n1, n2 = (int(n) for n in args.calls.split(","))
    with tempfile.TemporaryDirectory() as tmp:
        variants = {"plain -O2": [CLANG]}
        variants["roofline"] = [os.path.join(args.build, "bin", "roofline-clang++")]
        if args.old_build:
            variants["roofline (old build)"] = [
                os.path.join(args.old_build, "bin", "roofline-clang++")]
        exes = {}
        for i, (name, cmd) in enumerate(variants.items()):
            exe = os.path.join(tmp, "v%d" % i)
            extra = args.flags.split() if name != "plain -O2" else []
            subprocess.run(cmd + ["-O2"] + extra + [SRC, "-o", exe], check=True)
            exes[name] = exe
        print("| function | %s |" % " | ".join(exes))
        print("|---|%s" % ("---|" * len(exes)))
        for mode in args.modes.split(","):
            per_call = {}
            for name, exe in exes.items():
                i1 = instructions(exe, mode, n1, tmp)
                i2 = instructions(exe, mode, n2, tmp)
                per_call[name] = (i2 - i1) / (n2 - n1)
            base = per_call["plain -O2"]
            cells = ["%.1f" % base] + ["%.1f (%.2fx)" % (v, v / base)
                                       for n, v in per_call.items() if n != "plain -O2"]
            print("| %s | %s |" % (mode, " | ".join(cells)))


if __name__ == "__main__":
    main()
