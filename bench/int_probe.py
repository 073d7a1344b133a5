#!/usr/bin/env python3
"""The integer and instruction roofs roofline-probe measures, against this
CPU's theoretical issue rates.

Runs `roofline-probe --quick` (its int32 vector adds: 16 independent
accumulators in the widest vectors, one thread and all), and compares the
one-thread figure with the rate the core can issue them at: the measured
clock (the probe's dependent-add chains) x int32 lanes x the vector adds the
core issues per cycle: LLVM's scheduling model for this CPU (llvm-mca
-mcpu=<the probe's llvm_cpu> on 15 independent adds), or the core's
documentation where the model is known to be wrong (DOCUMENTED). Prints both and their ratio; exits 1 when
they differ by more than --tolerance (10%).

The instruction roof (the probe's issue kernels: eight independent
instructions and the loop's subtract and branch, which the core fuses into
one slot) is compared the same way with the clock x the core's dispatch
slots per cycle x 10/9 (ten instructions in nine slots): LLVM's model's
dispatch width, or the core's documentation (DOCUMENTED_DISPATCH).

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


# Dispatch slots per cycle where LLVM's model says otherwise: its znver5 model
# is Zen 4's (6); Linux perf's Zen 5 metrics count 8 slots a cycle.
DOCUMENTED_DISPATCH = {"znver5": (8, "Linux perf, tools/perf/pmu-events/arch/"
                                  "x86/amdzen5/pipeline.json: total_dispatch_slots "
                                  "= 8 * ls_not_halted_cyc ('up to 8 instructions "
                                  "can be dispatched in each cycle')")}


def dispatch_width(cpu):
    """Dispatch slots per cycle on `cpu`, and where the figure is from."""
    if cpu in DOCUMENTED_DISPATCH:
        return DOCUMENTED_DISPATCH[cpu]
    out = subprocess.run([MCA, "-mcpu=" + cpu], input="add $1, %rax\n",
                         capture_output=True, text=True, check=True).stdout
    width = int(re.search(r"Dispatch Width:\s+([0-9]+)", out).group(1))
    return width, "LLVM's %s scheduling model (llvm-mca's dispatch width)" % cpu


def check_instructions(probe, tolerance):
    """The instruction roof against the dispatch width; True when within."""
    rows = [r for r in probe["measurement"].get("instructions", [])
            if r["threads"] == 1]
    if not rows:
        print("\nno instruction roof in the probe's output (not x86-64?)")
        return True
    one = max(r["best_instructions_per_s"] for r in rows)
    width, source = dispatch_width(probe["llvm_cpu"])
    theory = probe["clock_hz"] * width * 10 / 9
    ratio = one / theory
    print("\n| CPU (LLVM name) | clock | dispatch slots/cycle | theoretical (x 10/9) | measured, 1 thread | per cycle | ratio |")
    print("|---|--:|--:|--:|--:|--:|--:|")
    print("| %s (%s) | %.3g GHz | %d | %.3g Ginst/s | %.3g Ginst/s | %.2f | %.3f |"
          % (probe["measurement"]["cpu"], probe["llvm_cpu"], probe["clock_hz"] / 1e9,
             width, theory / 1e9, one / 1e9, one / probe["clock_hz"], ratio))
    print("\ndispatch slots per cycle: %s" % source)
    if abs(ratio - 1) > tolerance:
        print("the instruction roof is %.0f%% from the theoretical issue rate "
              "(tolerance %.0f%%)" % (abs(ratio - 1) * 100, tolerance * 100))
        return False
    return True


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
    ok = True
    if abs(ratio - 1) > a.tolerance:
        print("the integer roof is %.0f%% from the theoretical issue rate "
              "(tolerance %.0f%%)" % (abs(ratio - 1) * 100, a.tolerance * 100))
        ok = False
    ok = check_instructions(probe, a.tolerance) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
