#!/usr/bin/env python3
"""How tight the bound is on the machine the code runs on.

Builds bench/tight_kernels.c with roofline-clang -O3 -march=native -g and
runs it on one thread at three working sets (l1, l2, past the last level):
once plainly (counts and times) and once with the cache model (per-level
traffic). roofline-report TIME.json --traffic TRAFFIC.json places each
kernel on this machine's probed roofs (no --platform: the cached probe) with
the in-core ceilings of its loops, and this prints one row per kernel and
size: achieved, attainable, efficiency and limiter. A bound is sound when
no efficiency is above 1 (1.05 with timer noise) and tight when they are
near 1.

Usage: bench/tightness.py [--build build] [--platform NAME|FILE]
                          [--geometry 48K:12:64,1M:8:64,32M:16:64]
                          [--sizes l1,l2,dram] [--markdown]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def run(cmd, env=None):
    e = dict(os.environ)
    e.update(env or {})
    subprocess.run(cmd, check=True, env=e, stdout=subprocess.DEVNULL)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(HERE, "..", "build"))
    ap.add_argument("--platform", default="")
    ap.add_argument("--geometry", default="48K:12:64,1M:8:64,32M:16:64")
    ap.add_argument("--sizes", default="l1,l2,dram")
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args()
    bindir = os.path.join(os.path.abspath(a.build), "bin")
    tmp = tempfile.mkdtemp(prefix="roofline-tight-")
    exe = os.path.join(tmp, "tight")
    run([os.path.join(bindir, "roofline-clang"), "-O3", "-march=native", "-g",
         "-mllvm", "-roofline-cache-model", os.path.join(HERE, "tight_kernels.c"),
         "-o", exe])
    rows = []
    for size in a.sizes.split(","):
        time_json = os.path.join(tmp, size + ".time.json")
        traffic_json = os.path.join(tmp, size + ".traffic.json")
        run([exe, size], {"ROOFLINE_PROFILE": time_json})
        run([exe, size], {"ROOFLINE_PROFILE": traffic_json, "ROOFLINE_CACHE": a.geometry})
        cmd = [os.path.join(bindir, "roofline-report"), time_json, "--traffic",
               traffic_json, "--format", "json"]
        if a.platform:
            cmd += ["--platform", a.platform]
        rep = json.loads(subprocess.run(cmd, check=True, capture_output=True,
                                        text=True).stdout)
        for k in rep["kernels"]:
            # main's own loops (setting up the arrays) are not kernels here.
            if "efficiency" not in k or k["display_name"].split("(")[0] in ("main", "array"):
                continue
            rows.append((k["display_name"].split("(")[0], size,
                         k["achieved_flops_per_s"], k["attainable_flops_per_s"],
                         k["efficiency"], k["limiter"], k.get("incore_detail", "")))
    plat = rep["platform"]["name"]
    if a.markdown:
        print("| kernel | size | achieved | attainable | efficiency | limiter |")
        print("|---|---|--:|--:|--:|---|")
        for r in rows:
            print("| %s | %s | %.3g GFLOP/s | %.3g GFLOP/s | %.2f | %s |"
                  % (r[0], r[1], r[2] / 1e9, r[3] / 1e9, r[4], r[5]))
    else:
        print("%-14s %-5s %12s %12s %6s  %s" % ("kernel", "size", "achieved",
                                               "attainable", "eff", "limiter"))
        for r in rows:
            print("%-14s %-5s %9.3g GF %9.3g GF %6.2f  %s  %s"
                  % (r[0], r[1], r[2] / 1e9, r[3] / 1e9, r[4], r[5], r[6]))
    effs = [r[4] for r in rows]
    print("\nplatform %s: %d rows, efficiency median %.2f, max %.2f, min %.2f"
          % (plat, len(effs), statistics.median(effs), max(effs), min(effs)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
