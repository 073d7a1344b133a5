#!/usr/bin/env python3
"""roofline-probe's memory roof against STREAM, run back to back.

USAGE: python3 bench/stream_probe.py [--build build] [--rounds 3] [--quick]
                                     [--tolerance 0.05]

Each round runs bench/stream.c (McCalpin's four kernels, OpenMP on every
CPU) at STREAM's rule size (each array at least 4x the last-level cache) and
at STREAM's default size (10^7 elements), then roofline-probe right after.
A roof that a real code beats is not a roof: the probe's DRAM figure must be
at least the best STREAM rate at the rule size in the same round (within
--tolerance, a fraction). At the default size STREAM's 229 MiB may be held
by a large last-level cache; its rate is shown beside the probe's roof for
the level that can hold it. Exit status 1 when a round fails the check.
Results go in docs/probe.md.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def llc_bytes():
    """The largest data or unified cache /sys reports (0 when none)."""
    best = 0
    base = "/sys/devices/system/cpu/cpu0/cache"
    for d in sorted(os.listdir(base)) if os.path.isdir(base) else []:
        try:
            kind = open(os.path.join(base, d, "type")).read().strip()
            size = open(os.path.join(base, d, "size")).read().strip()
        except OSError:
            continue
        if kind == "Instruction":
            continue
        m = re.fullmatch(r"(\d+)([KMG]?)", size)
        if m:
            best = max(best, int(m.group(1)) *
                       {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}[m.group(2)])
    return best


def stream(exe, elements):
    out = subprocess.run([exe, str(elements)], capture_output=True, text=True,
                         check=True).stdout
    rates = {}
    for line in out.splitlines():
        m = re.match(r"(Copy|Scale|Add|Triad): (\S+)", line)
        if m:
            rates[m.group(1)] = float(m.group(2))
    return rates


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--quick", action="store_true",
                    help="roofline-probe --quick (shorter runs)")
    ap.add_argument("--tolerance", type=float, default=0.05,
                    help="allowed shortfall (run-to-run spread of a shared VM)")
    a = ap.parse_args()
    probe = os.path.join(a.build, "bin", "roofline-probe")
    if not os.access(probe, os.X_OK):
        sys.exit("stream_probe.py: %s: not built (bash scripts/build.sh)" % probe)
    tmp = tempfile.mkdtemp(prefix="stream-probe.")
    exe = os.path.join(tmp, "stream")
    subprocess.run([shutil.which("clang-22") or "/usr/lib/llvm-22/bin/clang",
                    "-O3", "-march=native", "-fopenmp",
                    os.path.join(ROOT, "bench", "stream.c"), "-o", exe, "-lm"],
                   check=True)
    llc = llc_bytes()
    rule = max(10**7, 4 * llc // 8)  # elements per array
    print("STREAM: %d threads; rule size %d elements (%.0f MiB per array, 4x "
          "the %.0f MiB last-level cache), default 10^7 (76 MiB per array)" %
          (os.cpu_count(), rule, rule * 8 / 2**20, llc / 2**20))
    print("%-6s %-34s %-34s %-12s %s" % ("round", "STREAM rule size (GB/s)",
                                         "STREAM default size (GB/s)",
                                         "probe DRAM", "probe / STREAM best"))
    failed = False
    for r in range(a.rounds):
        big = stream(exe, rule)
        small = stream(exe, 10**7)
        out = os.path.join(tmp, "probe.json")
        subprocess.run([probe, "--no-gpu", "-o", out] +
                       (["--quick"] if a.quick else []),
                       capture_output=True, check=True)
        plat = json.load(open(out))
        mem = {m["level"]: m for m in plat["memory"]}
        dram = mem["dram"]["bytes_per_s"]
        best_kernel = max(big, key=big.get)
        ratio = dram / big[best_kernel]
        ok = ratio >= 1 - a.tolerance
        failed |= not ok
        fmt = lambda d: " ".join("%s %.1f" % (k[0], v / 1e9) for k, v in d.items())
        print("%-6d %-34s %-34s %-12s %.3f (best %s)%s" %
              (r + 1, fmt(big), fmt(small), "%.1f GB/s" % (dram / 1e9), ratio,
               best_kernel, "" if ok else "  BELOW STREAM"))
        by_kernel = plat.get("measurement", {}).get("memory_by_kernel", {})
        print("       probe memory by kernel: " +
              ", ".join("%s %.1f" % (k, v / 1e9) for k, v in by_kernel.items()))
        held = [l for l in ("l3", "l2") if l in mem and
                mem[l].get("size_bytes", 0) >= 3 * 8 * 10**7]
        if held and max(small.values()) > dram:
            print("       default size above the DRAM roof: its 229 MiB fit "
                  "in %s (%.0f MiB), roof %.1f GB/s" %
                  (held[0], mem[held[0]]["size_bytes"] / 2**20,
                   mem[held[0]]["bytes_per_s"] / 1e9))
    print("the probe's DRAM roof is %s STREAM's best rate in every round" %
          ("at least" if not failed else "NOT always at least"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
