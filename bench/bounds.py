#!/usr/bin/env python3
"""Is the roofline bound a bound? Kernels with reuse (bench/reuse_kernels.c:
register-tiled DGEMM n = 512, naive SGEMM n = 256, a 5-point stencil on
200 x 200 swept 400 times, y = 0.5*y + x on 16 KiB arrays called 20000
times) built with roofline-clang -O3 -march=native, out of line and
inlined into main (-DINLINED), and run; this machine's
roofs measured by roofline-probe right before; per kernel, the measured
FLOP/s as a share of the attainable bound, and each level's bytes and
intensity. No share may exceed 100%.

Usage (from the repository root, after scripts/build.sh):
    python3 bench/bounds.py [--runs 3]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="roofline-bounds.")
    probe = os.path.join(tmp, "probe.json")
    subprocess.run(["build/bin/roofline-probe", "--quick", "-o", probe],
                   check=True, stderr=subprocess.DEVNULL)
    worst = 0.0
    for how, flags in (("out of line", []), ("inlined into main", ["-DINLINED"])):
        exe = os.path.join(tmp, "reuse")
        subprocess.run(["build/bin/roofline-clang", "-O3", "-march=native", "-g"]
                       + flags + ["bench/reuse_kernels.c", "-o", exe], check=True)
        print("== %s ==" % how)
        worst = max(worst, measure(exe, probe, tmp, args.runs))
    print("highest share of the bound over %d runs: %.1f%%" % (args.runs, 100 * worst))
    return 0 if worst <= 1.0 else 1


def measure(exe, probe, tmp, runs):
    worst = 0.0
    rows = {}
    for r in range(runs):
        prof = os.path.join(tmp, "run%d.json" % r)
        subprocess.run([exe], check=True, stdout=subprocess.DEVNULL,
                       env=dict(os.environ, ROOFLINE_PROFILE=prof))
        rep = json.loads(subprocess.run(
            ["build/bin/roofline-report", prof, "--platform", probe,
             "--format", "json"], check=True, capture_output=True,
            text=True).stdout)
        for k in rep["kernels"]:
            if k["display_name"] == "main":
                continue
            e = k.get("efficiency", 0)
            best = rows.get(k["display_name"])
            if best is None or e > best["efficiency"]:
                rows[k["display_name"]] = k
            worst = max(worst, e)
    print("%-12s %10s %9s %-12s %8s  %s" % ("kernel", "achieved", "of bound",
                                           "limiter", "footpr.", "per level: bytes, I"))
    for name, k in rows.items():
        levels = "; ".join("%s %.3g B, I %.3g" % (l["level"], l["bytes"],
                                                  l["intensity"] or float("inf"))
                           for l in k["levels"] if l["bytes"] > 0)
        print("%-12s %7.3g G/s %8.1f%% %-12s %8.3g  %s" % (
            name, k["achieved_flops_per_s"] / 1e9, 100 * k["efficiency"],
            k["limiter"], k.get("footprint_bytes") or 0, levels))
    return worst


if __name__ == "__main__":
    sys.exit(main())
