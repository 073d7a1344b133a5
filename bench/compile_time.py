#!/usr/bin/env python3
"""Compile-time cost of the static analysis: clang++-22 -O2 with and without
-fpass-plugin=RooflinePass.so, on a large generated TU of kernels and on a
real LLVM-heavy source of this project. Runs are interleaved (plain, plugin,
plain, ...) and the medians of the compiler's CPU time compared; the pass's
own share of the compilation comes from -ftime-report.

Usage: python3 bench/compile_time.py [--runs 7] [--kernels 250]
       python3 bench/compile_time.py --instructions   (valgrind: steady)
Run from the repository root after scripts/build.sh."""
import argparse
import os
import statistics
import subprocess
import tempfile
import time

CLANG = "/usr/lib/llvm-22/bin/clang++"
PLUGIN = os.path.abspath("build/lib/RooflinePass.so")


def timed(cmd):
    """CPU time (user + system) of the compiler process: steadier than wall
    time on a shared machine."""
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    if status != 0:
        raise SystemExit("failed: " + " ".join(cmd))
    return usage.ru_utime + usage.ru_stime


def pass_share(cmd):
    """The plugin's passes' wall time as a share of the whole compilation,
    from -ftime-report (the largest 'Total Execution Time' is the whole).
    A pass's time includes the analyses it asks for, so SummaryPass holds
    roofline::RooflineAnalysis (listed on its own too, and not added); the
    marker passes that keep inlined kernels are the plugin's cost too."""
    out = subprocess.run(cmd + ["-ftime-report"], capture_output=True, text=True).stderr
    pass_s, total_s = 0.0, 0.0
    for line in out.splitlines():
        if "roofline::" in line and "roofline::RooflineAnalysis" not in line:
            pass_s += float(line.split(")")[2].split("(")[0])  # wall column
        if "Total Execution Time:" in line:
            total_s = max(total_s, float(line.split(":")[1].split()[0]))
    return 100.0 * pass_s / total_s if total_s else float("nan")


def instructions(cmd):
    """Instructions the compiler executes (valgrind, every process the
    driver starts): unlike time on a shared VM, the same in every run."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "cg.%p")
        subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no",
                        "--trace-children=yes", "--cachegrind-out-file=" + out] + cmd,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        total = 0
        for name in os.listdir(tmp):
            for line in open(os.path.join(tmp, name)):
                if line.startswith("summary:"):
                    total += int(line.split()[1])
        return total


def measure_instructions(name, source, extra):
    base = [CLANG, "-O2", "-g", "-c", source, "-o", os.devnull] + extra
    plain = instructions(base)
    plugin = instructions(base + ["-fpass-plugin=" + PLUGIN])
    print("| %s | %.3f G | %.3f G | %+.2f%% |" % (
        name, plain / 1e9, plugin / 1e9, 100.0 * (plugin / plain - 1)))


def measure(name, source, extra, runs):
    base = [CLANG, "-O2", "-g", "-c", source, "-o", os.devnull] + extra
    plain, plugin = [], []
    timed(base)  # warm the file cache
    for _ in range(runs):
        plain.append(timed(base))
        plugin.append(timed(base + ["-fpass-plugin=" + PLUGIN]))
    p, q = statistics.median(plain), statistics.median(plugin)
    share = pass_share(base + ["-fpass-plugin=" + PLUGIN])
    print("| %s | %.3f s | %.3f s | %+.1f%% | %.3f / %.3f s | %.1f%% |" % (
        name, p, q, 100 * (q / p - 1), min(plain), min(plugin), share))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--kernels", type=int, default=120)
    ap.add_argument("--instructions", action="store_true",
                    help="instead of times, count the compiler's instructions "
                    "under valgrind (40 generated kernels; a few minutes)")
    args = ap.parse_args()
    if args.instructions:
        with tempfile.TemporaryDirectory() as tmp:
            gen = os.path.join(tmp, "kernels.cpp")
            with open(gen, "w") as f:
                subprocess.run(["python3", "bench/gen_kernels.py", "40"],
                               stdout=f, check=True)
            print("| translation unit | clang -O2 -g (instructions) | with plugin | overhead |")
            print("|---|---|---|---|")
            measure_instructions("generated kernels (240 functions)", gen, [])
        return
    with tempfile.TemporaryDirectory() as tmp:
        gen = os.path.join(tmp, "kernels.cpp")
        with open(gen, "w") as f:
            subprocess.run(["python3", "bench/gen_kernels.py", str(args.kernels)],
                           stdout=f, check=True)
        lines = sum(1 for _ in open(gen))
        print("| translation unit | clang -O2 (median CPU s) | with plugin (median CPU s) | overhead | min plain / plugin | pass time / compile time (-ftime-report) |")
        print("|---|---|---|---|---|---|")
        measure("generated kernels (%d lines, %d functions)" % (lines, args.kernels * 6),
                gen, [], args.runs)
        llvm_flags = subprocess.run(["/usr/lib/llvm-22/bin/llvm-config", "--cxxflags"],
                                    capture_output=True, text=True, check=True).stdout.split()
        measure("lib/Analysis/KernelAnalysis.cpp (LLVM headers)",
                "lib/Analysis/KernelAnalysis.cpp", llvm_flags + ["-Iinclude"], args.runs)


if __name__ == "__main__":
    main()
