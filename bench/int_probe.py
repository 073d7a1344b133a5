#!/usr/bin/env python3
"""The integer roof roofline-probe measures, against this CPU's theoretical
issue rate.

Runs `roofline-probe --quick` (its int32 vector adds: 16 independent
accumulators in the widest vectors, one thread and all), and compares the
one-thread figure with the rate the core can issue them at: the measured
clock (the probe's dependent-add chains) x int32 lanes x the vector adds the
core issues per cycle: LLVM's scheduling model for this CPU (llvm-mca
-mcpu=<the probe's llvm_cpu> on 15 independent adds), or the core's
documentation where the model is known to be wrong (DOCUMENTED). Prints both and their ratio; exits 1 when
they differ by more than --tolerance (10%).

Usage: bench/int_probe.py [--build build] [--tolerance 0.10] [--probe-json FILE]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
MCA = "/usr/lib/llvm-22/bin/llvm-mca"
WIDTH = {"avx512": ("zmm", 16), "avx2": ("ymm", 8), "sse2": ("xmm", 4),
         "scalar": ("xmm", 4)}


# 512-bit vector integer adds per cycle where a core's documentation says
# otherwise than LLVM's scheduling model: Zen 5 executes 512-bit operations
# natively on four vector ALUs (A. Yee, "Zen5's AVX512 Teardown",
# numberworld.org, 2024; LLVM 22's znver5 model still issues two, as Zen 4's
# four 256-bit pipes do).
DOCUMENTED = {("znver5", "zmm"): (4.0, "four 512-bit vector ALUs (A. Yee, "
                                  "Zen5's AVX512 Teardown, numberworld.org, 2024)")}


def adds_per_cycle(cpu, reg):
    """Independent vpaddd per cycle on `cpu`, and where the figure is from."""
    if (cpu, reg) in DOCUMENTED:
        return DOCUMENTED[(cpu, reg)]
    return model_adds_per_cycle(cpu, reg), "LLVM's %s scheduling model (llvm-mca)" % cpu


def model_adds_per_cycle(cpu, reg):
    """Independent vpaddd the model issues per cycle on `cpu`."""
    asm = "\n".join("vpaddd %%%s31, %%%s%d, %%%s%d" % (reg, reg, i, reg, i)
                    if reg == "zmm" else
                    "vpaddd %%%s15, %%%s%d, %%%s%d" % (reg, reg, i, reg, i)
                    for i in range(15)) + "\n"
    out = subprocess.run([MCA, "-mcpu=" + cpu, "-iterations=1000"], input=asm,
                         capture_output=True, text=True, check=True).stdout
    return float(re.search(r"IPC:\s+([0-9.]+)", out).group(1))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(HERE, "..", "build"))
    ap.add_argument("--tolerance", type=float, default=0.10)
    ap.add_argument("--probe-json", help="a probe's output, instead of running it")
    a = ap.parse_args()
    if a.probe_json:
        probe = json.load(open(a.probe_json))
    else:
        out = os.path.join(tempfile.mkdtemp(prefix="roofline-intprobe-"), "p.json")
        subprocess.run([os.path.join(a.build, "bin", "roofline-probe"), "--quick",
                        "-o", out], check=True, stderr=subprocess.DEVNULL)
        probe = json.load(open(out))
    m = probe["measurement"]
    isa = m["widest_isa"]
    one = [r for r in m["integer"] if r["threads"] == 1][0]["best_ops_per_s"]
    reg, lanes = WIDTH[isa]
    ipc, source = adds_per_cycle(probe["llvm_cpu"], reg)
    model = model_adds_per_cycle(probe["llvm_cpu"], reg)
    theory = probe["clock_hz"] * lanes * ipc
    ratio = one / theory
    print("| CPU (LLVM name) | ISA | clock | adds/cycle | LLVM's model | theoretical | measured, 1 thread | ratio |")
    print("|---|---|--:|--:|--:|--:|--:|--:|")
    print("| %s (%s) | %s | %.3g GHz | %.2f | %.2f | %.3g Gop/s | %.3g Gop/s | %.3f |"
          % (m["cpu"], probe["llvm_cpu"], isa, probe["clock_hz"] / 1e9, ipc, model,
             theory / 1e9, one / 1e9, ratio))
    print("\nadds per cycle: %s" % source)
    if abs(ratio - 1) > a.tolerance:
        print("the integer roof is %.0f%% from the theoretical issue rate "
              "(tolerance %.0f%%)" % (abs(ratio - 1) * 100, a.tolerance * 100))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
