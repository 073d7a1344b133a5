#!/usr/bin/env python3
"""What an instrumented build costs: `clang++-22 -O2 -g -c` against
`roofline-clang++ -O2 -g -c` as users build (the default: counts, no traced
copies), with `-mllvm -roofline-cache-model` (traced copies for
ROOFLINE_CACHE), and, for comparison, `-fprofile-instr-generate` (clang's
own instrumented build). Runs are interleaved; the medians of the
compiler's CPU time (user + system) and the objects' text sizes are printed
side by side, each as a ratio to the plain build.

Usage: python3 bench/build_time.py [--runs 5] [--kernels 60]
Run from the repository root after scripts/build.sh."""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CLANG = "/usr/lib/llvm-22/bin/clang++"
SIZE = "/usr/lib/llvm-22/bin/llvm-size"


def timed(cmd):
    """CPU time of the compiler (user + system): steadier than wall time on
    a shared machine."""
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    if status != 0:
        sys.exit("failed: " + " ".join(cmd) + "\n" + proc.stderr.read().decode()[-2000:])
    return usage.ru_utime + usage.ru_stime


def text_bytes(obj):
    out = subprocess.run([SIZE, "-A", obj], capture_output=True, text=True, check=True).stdout
    return sum(int(line.split()[1]) for line in out.splitlines()
               if line.startswith(".text"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--kernels", type=int, default=60,
                    help="functions of bench/gen_kernels.py in the generated source")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    args = ap.parse_args()
    wrapper = os.path.join(os.path.abspath(args.build), "bin", "roofline-clang++")
    tmp = tempfile.mkdtemp(prefix="roofline-build-time-")
    generated = os.path.join(tmp, "generated.cpp")
    with open(generated, "w") as f:
        subprocess.run([sys.executable, os.path.join(HERE, "gen_kernels.py"),
                        str(args.kernels)], stdout=f, check=True)
    sources = [("examples/hydro/hydro.cpp", os.path.join(ROOT, "examples/hydro/hydro.cpp")),
               ("examples/cg/cg.cpp", os.path.join(ROOT, "examples/cg/cg.cpp")),
               ("bench/kernels.cpp", os.path.join(HERE, "kernels.cpp")),
               ("generated (%d functions)" % args.kernels, generated)]
    builds = [("plain", [CLANG]),
              ("roofline", [wrapper]),
              ("roofline + cache model", [wrapper, "-mllvm", "-roofline-cache-model"]),
              ("-fprofile-instr-generate", [CLANG, "-fprofile-instr-generate"])]
    print("| source | " + " | ".join("%s: CPU s, text" % b for b, _ in builds) + " |")
    print("|---|" + "---|" * len(builds))
    for name, src in sources:
        times = {b: [] for b, _ in builds}
        sizes = {}
        for _ in range(args.runs):
            for b, cc in builds:
                obj = os.path.join(tmp, "x.o")
                times[b].append(timed(cc + ["-std=c++17", "-fopenmp", "-O2", "-g", "-c",
                                            src, "-o", obj]))
                sizes[b] = text_bytes(obj)
        base_t = statistics.median(times["plain"])
        cells = []
        for b, _ in builds:
            t = statistics.median(times[b])
            cells.append("%.2f s (%.2fx), %d KB (%.1fx)" % (
                t, t / base_t, sizes[b] // 1024, sizes[b] / sizes["plain"]))
        print("| %s | %s |" % (name, " | ".join(cells)))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
