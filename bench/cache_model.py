#!/usr/bin/env python3
"""The run-time cache model (ROOFLINE_CACHE) against cachegrind.

Builds bench/cache_kernels.c twice with the same flags (plain with clang,
instrumented with roofline-clang), runs the plain build under
`valgrind --tool=cachegrind` and the instrumented one with ROOFLINE_CACHE set
to the same two-level geometry, and compares per kernel:

  first-level fill bytes  = (D1mr + D1mw) x line   vs  traffic.levels[0].fill_bytes
  last-level fill bytes   = (DLmr + DLmw) x line   vs  traffic.levels[1].fill_bytes

It also times the plain run, the instrumented run, the run with the model and
the cachegrind run, side by side. Kernels whose fills are below --floor bytes
at a level are not judged there (a few lines of difference are not 10%).

Usage: bench/cache_model.py [--build DIR] [--scale 4] [--sample N]
                            [--geometry 48K:12:64,2M:16:64] [--check 0.10]
Needs valgrind (the README's set-up installs it). Exit 1 when --check is
given and a kernel is off by more than that fraction; 77 without valgrind.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
CLANG = "/usr/lib/llvm-22/bin/clang"
FLAGS = ["-O2", "-gdwarf-4", "-fno-inline"]  # valgrind 3.19 reads DWARF 4


def size_bytes(text):
    m = re.fullmatch(r"(\d+)([KMG]?)", text)
    return int(m.group(1)) * {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}[m.group(2)]


def cachegrind_counts(path):
    """Per function: the summed events of a cachegrind.out file."""
    events, fn, out = [], None, defaultdict(lambda: defaultdict(int))
    with open(path) as f:
        for line in f:
            if line.startswith("events:"):
                events = line.split()[1:]
            elif line.startswith("fn="):
                fn = line[3:].strip()
            elif fn and line[:1].isdigit():
                for e, v in zip(events, line.split()[1:]):
                    out[fn][e] += int(v)
    return out


def timed(cmd, env=None):
    start = time.perf_counter()
    subprocess.run(cmd, check=True, env=env, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(HERE, "..", "build"))
    ap.add_argument("--scale", type=int, default=4)
    ap.add_argument("--sample", default=None, help="ROOFLINE_CACHE_SAMPLE (default: the runtime's)")
    ap.add_argument("--geometry", default="48K:12:64,2M:16:64")
    ap.add_argument("--check", type=float, default=None)
    ap.add_argument("--floor", type=float, default=65536)
    ap.add_argument("--json", help="also write the comparison here")
    args = ap.parse_args()
    if not shutil.which("valgrind"):
        print("cache_model.py: valgrind is not installed", file=sys.stderr)
        return 77
    levels = [tuple(l.split(":")) for l in args.geometry.split(",")]
    if len(levels) != 2:
        print("cache_model.py: cachegrind models two levels: give two", file=sys.stderr)
        return 2
    (s1, w1, l1), (s2, w2, l2) = levels
    line = int(l1)
    wrapper = os.path.join(args.build, "bin", "roofline-clang")
    src = os.path.join(HERE, "cache_kernels.c")
    with tempfile.TemporaryDirectory() as tmp:
        plain, inst = os.path.join(tmp, "plain"), os.path.join(tmp, "inst")
        subprocess.run([CLANG, *FLAGS, src, "-o", plain], check=True)
        subprocess.run([wrapper, *FLAGS, "-mllvm", "-roofline-cache-model", src, "-o", inst], check=True)
        scale = str(args.scale)
        env = dict(os.environ, ROOFLINE_PROFILE=os.path.join(tmp, "off.json"))
        t_plain = min(timed([plain, scale]) for _ in range(3))
        t_inst = min(timed([inst, scale], env) for _ in range(3))
        menv = dict(env, ROOFLINE_PROFILE=os.path.join(tmp, "model.json"),
                    ROOFLINE_CACHE=args.geometry)
        if args.sample:
            menv["ROOFLINE_CACHE_SAMPLE"] = args.sample
        t_model = min(timed([inst, scale], menv) for _ in range(3))
        cg_out = os.path.join(tmp, "cg.out")
        t_cg = timed(["valgrind", "--tool=cachegrind", "--cache-sim=yes",
                      f"--D1={size_bytes(s1)},{w1},{l1}", f"--LL={size_bytes(s2)},{w2},{l2}",
                      f"--cachegrind-out-file={cg_out}", "-q", plain, scale])
        cg = cachegrind_counts(cg_out)
        with open(os.path.join(tmp, "model.json")) as f:
            profile = json.load(f)
    rows, worst = [], 0.0
    for k in profile["kernels"]:
        name = k["name"]
        if name == "main" or "traffic" not in k or name not in cg:
            continue
        c = cg[name]
        ref = [(c["D1mr"] + c["D1mw"]) * line, (c["DLmr"] + c["DLmw"]) * line]
        got = [lv["fill_bytes"] for lv in k["traffic"]["levels"]]
        errs = []
        for r, g in zip(ref, got):
            if max(r, g) < args.floor:
                errs.append(None)
            else:
                errs.append(abs(g - r) / max(r, 1))
        worst = max([worst] + [e for e in errs if e is not None])
        rows.append({"kernel": name, "cachegrind": ref, "model": got, "error": errs})
    print(f"{'kernel':<24}{'L1 fill cg':>14}{'model':>14}{'err':>7}"
          f"{'LL fill cg':>14}{'model':>14}{'err':>7}")
    for r in rows:
        def e(x):
            return "   -  " if x is None else f"{100 * x:5.1f}%"
        print(f"{r['kernel']:<24}{r['cachegrind'][0]:>14.0f}{r['model'][0]:>14.0f}{e(r['error'][0]):>7}"
              f"{r['cachegrind'][1]:>14.0f}{r['model'][1]:>14.0f}{e(r['error'][1]):>7}")
    print(f"\ntime: plain {t_plain:.3f} s, instrumented {t_inst:.3f} s "
          f"({t_inst / t_plain:.2f}x), with the model {t_model:.3f} s ({t_model / t_plain:.2f}x), "
          f"cachegrind {t_cg:.3f} s ({t_cg / t_plain:.1f}x); model/cachegrind {t_model / t_cg:.3f}")
    print(f"worst error {100 * worst:.1f}% (kernels below {args.floor:.0f} bytes at a level not judged there)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"rows": rows, "seconds": {"plain": t_plain, "instrumented": t_inst,
                                                 "model": t_model, "cachegrind": t_cg}}, f, indent=1)
    if args.check is not None and worst > args.check:
        print(f"FAIL: worst error above {100 * args.check:.0f}%")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
