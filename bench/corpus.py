#!/usr/bin/env python3
"""The verdict on real-shaped programs: the tool's limiter beside one derived by hand.

Builds the programs in bench/corpus/ (written the way real projects write
them: llama2.c's decode, darknet's forward pass, STREAM, kerncraft-style
stencils, reductions, Gauss-Seidel) with roofline-clang -O3 -march=native
(and -ffast-math where it changes the code), runs each on one thread at the
working sets its sizes allow (L1, L2, past the last level), once for counts
and times (three times: each row's median run is kept) and once with
ROOFLINE_CACHE=1 for traffic, and places every function and loop with
roofline-report on this machine's probed roofs.

Each kernel row shows the limiter derived by hand (HAND below, with the
derivation) beside the tool's. The summary gives the share of rows whose
limiter matches, the median efficiency of those rows, and every row, by
function or by loop, above 1.05.

Usage: bench/corpus.py [--build build] [--only PROGRAM] [--repeats 3] [--markdown]
                       [--dump ROWS.json]
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "corpus")

# Builds: the flags HPC and ML users build with.
BUILDS = {"O3": ["-O3", "-march=native"],
          "fast": ["-O3", "-march=native", "-ffast-math"]}

# (program, builds, [(size label, argv)]). Sizes: l1 fits the 32 KiB L1d,
# l2 the 512 KiB L2, dram is several times the 32 MiB L3. Repeats make
# each run 0.1-0.5 s.
RUNS = [
    ("reductions", ["O3", "fast"], [("l1", ["16K", "20000"]),
                                    ("l2", ["256K", "1500"]),
                                    ("dram", ["256M", "3"])]),
    ("gauss_seidel", ["O3", "fast"], [("l1", ["40", "20000"]),
                                      ("l2", ["200", "800"]),
                                      ("dram", ["4000", "3"])]),
    ("stencils", ["O3"], [("l1", ["2d", "24K", "40000"]),
                          ("l2", ["2d", "384K", "3000"]),
                          ("dram", ["2d", "256M", "4"])]),
    ("stencils", ["O3"], [("l1", ["3d", "24K", "40000"]),
                          ("l2", ["3d", "384K", "3000"]),
                          ("dram", ["3d", "256M", "4"])]),
    ("stream", ["O3"], [("l1", ["24K", "40000"]),
                        ("l2", ["384K", "2500"]),
                        ("dram", ["384M", "4"])]),
    ("llm_decode", ["O3", "fast"], [("60MB", ["15M", "48", "@15M.bin"]),
                                    ("1MB", ["260K", "256", "@260K.bin"])]),
    ("cnn_forward", ["O3", "fast"], [("32px", ["32", "400"]),
                                     ("448px", ["448", "2"])]),
]

# The limiter derived by hand, per (program, build, row, size); a row is a
# function or "loop: <source text of the loop's first line>". Values:
# l1, l2, l3, dram (the level's bandwidth), ports (the core's issue ports
# for the code as compiled), chain (a loop-carried dependency chain),
# compute (the FLOP roof), faults (the OS's page faults at a buffer's
# first touch: no roof the tool has); "a|b" where the derivation puts the two within
# 15% of each other. Where the machine changes the answer, by_cpu() gives
# one derivation per machine, chosen by the cached probe's llvm_cpu:
# - znver3 (the VM of docs/performance.md's first table): one thread at
#   3.24 GHz, fp64 29.1 / fp32 58.7 GFLOP/s, L1 265, L2 150, L3 105, DRAM
#   32.5 GB/s; L1d 32 KiB, L2 512 KiB, L3 32 MiB; FP add latency 3, FMA 4;
#   two 256-bit loads and one 256-bit store a cycle.
# - znver5 (this VM: Zen 5, AVX-512 at full width): one thread at 3.4-3.7
#   GHz, fp64 110 / fp32 222 GFLOP/s (two 512-bit FMAs a cycle), L1 403
#   (118 B a cycle: two 64-byte loads), L2 280 (82 B a cycle), L3 126, DRAM
#   57.9 GB/s; L1d 48 KiB, L2 1 MiB, L3 8 MiB as the probe's sweep finds
#   it (CPUID gives the package's 508 MiB); FP add latency 2, FMA 4.
def by_cpu(**derivations):
    return {"by_cpu": derivations}


HAND = {
    # Strict FP order: one accumulator, so each add waits for the last.
    # sum: 3 cycles per 8 B = 8.6 GB/s; dot: 4 cycles per 16 B = 13 GB/s:
    # both below every level's bandwidth, DRAM's 32.5 GB/s included.
    ("reductions", "O3", "sum"): "chain",
    ("reductions", "O3", "dot"): "chain",
    # -ffast-math: four vector accumulators, each add (3 cycles) or FMA (4)
    # waiting for the one before in its accumulator. sum: 16 doubles (128
    # B) an iteration, 4 loads at 2 a cycle (2 cycles) but 3 cycles of
    # chain: 138 GB/s, so at L1 (265) the chain; at L2 (150 GB/s: 2.7
    # cycles) a tie. dot: 256 B an iteration, 8 loads (4 cycles) against a
    # 4-cycle chain: a tie at L1; L2 needs 5.5 cycles: l2. dram: both
    # stream 128-256 MB at 32.5 GB/s, far below the core.
    # znver5: 4 zmm accumulators (32 doubles, 256 B an iteration). sum:
    # the add chain 2 cycles, 4 loads at 2 a cycle 2 cycles, L1 256 B at 118
    # B a cycle 2.2 cycles: all three within 15%; L2 (82 B a cycle) 3.1
    # cycles: l2. dot: 8 loads (4 cycles), the FMA chain 4, L1 512 B 4.3: all
    # three; L2 6.2 cycles: l2.
    ("reductions", "fast", "sum"): by_cpu(
        znver3={"l1": "chain", "l2": "l2|chain", "dram": "dram"},
        znver5={"l1": "l1|chain|ports", "l2": "l2", "dram": "dram"}),
    ("reductions", "fast", "dot"): by_cpu(
        znver3={"l1": "ports|chain", "l2": "l2", "dram": "dram"},
        znver5={"l1": "l1|chain|ports", "l2": "l2", "dram": "dram"}),
    # Each point needs the one just written (phi[i][j-1]): add, add, add,
    # mul in order = 12 cycles, or add + mul = 6 when reassociated; 16-24 B
    # a point in 2-4 ns is under 12 GB/s at any level.
    ("gauss_seidel", "O3", "gauss_seidel"): "chain",
    ("gauss_seidel", "fast", "gauss_seidel"): "chain",
    # 2-D 5-point: 4 FLOPs, 4 loads, 1 store a point; vectorised, 4 points
    # in 2 cycles (loads) = 26 GFLOP/s. dram: 24 B a point (read a, write
    # b, b's write-allocate; the three rows of a held in cache) = 5.4
    # GFLOP/s. l2: 24 B a point at 150 GB/s = 25 GFLOP/s, a tie with the
    # ports. l1: rows of 36 points, 9 vectors: the ports.
    # znver5, 8 doubles a zmm: 4 loads and 1 store a vector on the two
    # FP load/store pipes, 2.5 cycles; L1 320 B at 118 B a cycle, 2.7:
    # l1|ports. l2: 24 B a point at 82 B a cycle, 2.3 cycles a vector: all
    # three.
    ("stencils", "O3", "jacobi_2d5pt"): by_cpu(
        znver3={"l1": "ports", "l2": "l2|ports", "dram": "dram"},
        znver5={"l1": "l1|ports", "l2": "l1|l2|ports", "dram": "dram"}),
    # 3-D 7-point: 6 FLOPs, 6 loads, 1 store a point: 4 points in 3 cycles
    # = 26 GFLOP/s. dram: 24 B a point (three planes of 1.3 MB held in L3)
    # = 8.1 GFLOP/s. l2 (side 28): planes of 6 KB, 24-40 B a point from L2
    # = 22-37 GFLOP/s: a tie. l1 (side 11): 9-point rows, ports.
    # znver5: 6 loads and 1 store a vector, 3.5 cycles on the two pipes;
    # L1 448 B a vector, 3.8 cycles: l1|ports; l2 (24-40 B a point, 2.3-3.9
    # cycles a vector): all three.
    ("stencils", "O3", "jacobi_3d7pt"): by_cpu(
        znver3={"l1": "ports", "l2": "l2|ports", "dram": "dram"},
        znver5={"l1": "l1|ports", "l2": "l1|l2|ports", "dram": "dram"}),
    # STREAM: its four loops sit in main's NTIMES loop, one nest (a row by
    # loop is a top-level nest). 16 B (copy, scale) or 24 B (add, triad) a
    # point, plus the write-allocate of the stored array; one 256-bit store
    # a cycle. l1: copy (a memcpy) and scale at 64 B a cycle are the
    # store's (ports), add and triad at 96 B a cycle pass L1's 82: the
    # four together are within 15% of either. l2 and dram: the level.
    ("stream", "O3", "loop: for (k = 0; k < NTIMES; k++) {"): {
        "l1": "l1|ports", "l2": "l2", "dram": "dram"},
    # llama2.c's matmul: rows of n = 288 or 768 (15M), 64 or 172 (260K).
    # O3: one FMA chain a row, 4 cycles a point = 1.6 GFLOP/s, 3.2 GB/s of
    # weights: the chain at both sizes. fast: 8 x 4 accumulators; 15M
    # streams 60 MB a token from DRAM (4 B a point at 32.5 GB/s = 16
    # GFLOP/s, the core does 4x that): dram. 260K: 1 MB of weights in L3
    # (105 GB/s = 52 GFLOP/s), but rows of 64 are 2 vector iterations and a
    # horizontal sum: the ports.
    ("llm_decode", "O3", "matmul"): "chain",
    ("llm_decode", "fast", "matmul"): {"60MB": "dram", "1MB": "ports"},
    # forward is matmul's time (97% of its FLOPs) plus small loops.
    ("llm_decode", "O3", "forward"): "chain",
    ("llm_decode", "fast", "forward"): {"60MB": "dram", "1MB": "ports"},
    # rmsnorm: a sum of squares in one chain (O3: 288 x 4 cycles = 360 ns
    # a call against 1.2 KB of weights from DRAM at 32.5 GB/s = 35 ns), then
    # a scaled copy. fast: the sum is 9 vector iterations and a horizontal
    # sum, about 20 ns, while its 1.2 KB of weights (evicted by the 60 MB a
    # token streams) come from DRAM: dram. 260K: 256 B of weights from L3
    # (2.4 ns) against the reduction's and the square root's latency: the
    # chain of the code around the loops.
    ("llm_decode", "O3", "rmsnorm"): "chain",
    ("llm_decode", "fast", "rmsnorm"): {"60MB": "dram", "1MB": "chain"},
    # darknet gemm_nn: C[i][:] += A_PART * B[k][:], vectorised over j: per
    # 8 points 1 load of B, 1 load and 1 store of C, 1 FMA: the store, 1
    # cycle = 52 GFLOP/s. 32px: B (K x N) is 27-144 KB and a C row 1-4 KB:
    # both within L2, B's rows stream from L2 at 4 B a point = 75 GFLOP/s:
    # ports. 448px, layer by layer: conv1 (M 16, K 27, N 200704, 173
    # MFLOP): a C row of 800 KB passes L2, 12 B a point from L3 = 17.5
    # GFLOP/s; conv2 and conv3 (M 32/64, K 144/288, N 50176/12544, 462
    # MFLOP each): a C row (200/50 KB) stays in L2, B (29/14 MB) streams from
    # L3 through L2: 12 B a point at L2's 150 GB/s = 25 GFLOP/s, L3's 4 B a
    # point = 52. Two thirds of the FLOPs at L2's bound, the rest at L3's:
    # l2 binds the whole (37 ms against L3's 19 ms).
    # znver5 (16 floats a zmm): 2 loads and a store a vector, 1.5 cycles on
    # the two load/store pipes; L1 192 B a vector, 1.6 cycles: l1|ports at
    # 32px. 448px: a 1 MiB L2 holds conv1's 800 KB C row, but B (21.7, 28.9
    # and 14.4 MB for conv1-3) passes the 8 MiB L3 and streams from DRAM once
    # per row of A: 4 B a point at 57.9 GB/s = 29 GFLOP/s, below L2's 12 B a
    # point at 280 GB/s (47) and the core (over 100): dram for all three.
    ("cnn_forward", "O3", "gemm_nn"): by_cpu(
        znver3={"32px": "ports", "448px": "l2"},
        znver5={"32px": "l1|ports", "448px": "dram"}),
    ("cnn_forward", "fast", "gemm_nn"): by_cpu(
        znver3={"32px": "ports", "448px": "l2"},
        znver5={"32px": "l1|ports", "448px": "dram"}),
    # im2col: a gather with bounds tests per element, no FLOPs. At 32 px a
    # row is 32 elements, four 8-wide vector iterations: the row's own
    # code (bounds, alias checks) outside the innermost loop takes the
    # time: ports. At 448 px the first call writes the calloc'd workspace
    # (22 MB) for the first time, and its page faults take the time: 81 ms
    # for one image's three calls, 3-4 ms for each image after it (whose
    # 130 MB of stores and write-allocate fills make it DRAM-bound):
    # faults, over the two images the row runs.
    ("cnn_forward", "O3", "im2col_cpu"): {"32px": "ports", "448px": "faults"},
    ("cnn_forward", "fast", "im2col_cpu"): {"32px": "ports", "448px": "faults"},
}


def run(cmd, env=None, cwd=None):
    e = dict(os.environ)
    e.update(env or {})
    subprocess.run(cmd, check=True, env=e, stdout=subprocess.DEVNULL, cwd=cwd)


def family(limiter):
    """The tool's limiter as one of HAND's words."""
    if limiter.startswith("in-core: dependency chain"):
        return "chain"
    if limiter.startswith("in-core: "):
        return limiter[len("in-core: "):]
    return limiter


def row_key(name, sources):
    """A function's name, or "loop: <its first source line>"."""
    m = re.match(r"\[loop in (\S+) at ([^:]+):(\d+)\]", name)
    if not m:
        return name.split("(")[0]
    lines = sources.get(m.group(2))
    text = lines[int(m.group(3)) - 1].strip() if lines else m.group(3)
    return "loop: " + text


def expected(program, build, key, size, cpu):
    want = HAND.get((program, build, key))
    if isinstance(want, dict) and "by_cpu" in want:
        # Another machine: the newest derivation, said in the summary.
        want = want["by_cpu"].get(cpu, want["by_cpu"]["znver5"])
    if isinstance(want, dict):
        return want.get(size)
    return want


def probed_cpu(bindir):
    """The cached probe's llvm_cpu: the machine the derivations are for."""
    path = subprocess.run([os.path.join(bindir, "roofline-probe"), "--print-cache-path"],
                          capture_output=True, text=True).stdout.strip()
    try:
        return json.load(open(path)).get("llvm_cpu", "")
    except (OSError, ValueError):
        return ""


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(HERE, "..", "build"))
    ap.add_argument("--only", default="")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--repeats", type=int, default=3,
                    help="timed runs per case; each row's median is kept")
    ap.add_argument("--dump", default="", help="write every row as JSON to this file")
    a = ap.parse_args()
    bindir = os.path.join(os.path.abspath(a.build), "bin")
    cpu = None  # known once the first report has probed this machine
    tmp = tempfile.mkdtemp(prefix="roofline-corpus-")
    sources = {}
    rows = []
    for program, builds, sizes in RUNS:
        if a.only and program != a.only:
            continue
        src = os.path.join(CORPUS, program + ".c")
        sources[program + ".c"] = open(src).read().splitlines()
        for build in builds:
            exe = os.path.join(tmp, program + "." + build)
            if not os.path.exists(exe):
                run([os.path.join(bindir, "roofline-clang")] + BUILDS[build] +
                    ["-g", "-mllvm", "-roofline-cache-model", src, "-o", exe, "-lm"])
            for size, argv in sizes:
                argv = [os.path.join(tmp, x[1:]) if x.startswith("@") else x
                        for x in argv]
                if any(x.startswith("@") and not os.path.exists(os.path.join(tmp, x[1:]))
                       for x in sizes[[s for s, _ in sizes].index(size)][1]):
                    # The first run writes the input file; time the runs after it.
                    run([exe] + argv, {"ROOFLINE_PROFILE": os.path.join(tmp, "setup.json")})
                tag = os.path.join(tmp, "%s.%s.%s.%s" % (program, build, size, argv[0]))
                run([exe] + argv, {"ROOFLINE_PROFILE": tag + ".traffic.json",
                                   "ROOFLINE_CACHE": "1"})
                # --repeats timed runs (a VM's neighbours slow some): per
                # row, the run of median efficiency (the best would pick a
                # timer's undercount as readily as a quiet machine).
                runs = {}
                for r in range(a.repeats):
                    timed = "%s.time%d.json" % (tag, r)
                    run([exe] + argv, {"ROOFLINE_PROFILE": timed})
                    for by in ("function", "loop"):
                        out = subprocess.run(
                            [os.path.join(bindir, "roofline-report"), timed,
                             "--traffic", tag + ".traffic.json", "--by", by,
                             "--format", "json"],
                            check=True, capture_output=True, text=True).stdout
                        for k in json.loads(out)["kernels"]:
                            if "efficiency" not in k:
                                continue
                            key = row_key(k["display_name"], sources)
                            if cpu is None:
                                cpu = probed_cpu(bindir)
                            label = size if program != "stencils" else argv[0] + " " + size
                            row = {"program": program, "build": build, "size": label,
                                   "by": by, "row": key,
                                   "hand": expected(program, build, key, size, cpu),
                                   "tool": family(k["limiter"]),
                                   "efficiency": k["efficiency"]}
                            # By the row's own name: two loops may share
                            # their first line's text (STREAM's set-up).
                            runs.setdefault((by, k["display_name"]), []).append(row)
                for same in runs.values():
                    same.sort(key=lambda r: r["efficiency"])
                    rows.append(same[len(same) // 2])
    if a.dump:
        json.dump(rows, open(a.dump, "w"), indent=1)
    judged = [r for r in rows if r["hand"] and r["by"] == "function" or
              r["hand"] and r["row"].startswith("loop: ")]
    # A function row and its loop row with the same verdict are one row.
    seen, table = set(), []
    for r in judged:
        k = (r["program"], r["build"], r["size"], r["row"])
        if k not in seen:
            seen.add(k)
            r["match"] = r["tool"] in r["hand"].split("|")
            table.append(r)
    if a.markdown:
        print("| program | build | size | row | hand | tool | efficiency |")
        print("|---|---|---|---|---|---|--:|")
        for r in table:
            # "a|b" inside a cell would end it: escaped.
            print("| %s | %s | %s | `%s` | %s | %s%s | %.2f |" % (
                r["program"], r["build"], r["size"], r["row"],
                r["hand"].replace("|", "\\|"), r["tool"],
                "" if r["match"] else " **(differs)**", r["efficiency"]))
    else:
        print("%-12s %-5s %-8s %-36s %-9s %-9s %5s" % ("program", "build", "size", "row",
                                                   "hand", "tool", "eff"))
        for r in table:
            print("%-12s %-5s %-8s %-36s %-9s %-9s %5.2f%s" % (
                r["program"], r["build"], r["size"], r["row"][:36], r["hand"], r["tool"],
                r["efficiency"], "" if r["match"] else "  DIFFERS"))
    above = [r for r in rows if r["efficiency"] > 1.05]
    matched = sum(r["match"] for r in table)
    effs = [r["efficiency"] for r in table]
    print("\nderivations for %s (the cached probe's llvm_cpu)" % (cpu or "an unprobed machine"))
    print("%d kernel rows: limiter matches in %d (%.0f%%); efficiency median %.2f, "
          "min %.2f, max %.2f" % (len(table), matched, 100.0 * matched / max(len(table), 1),
                                 statistics.median(effs) if effs else 0,
                                 min(effs) if effs else 0, max(effs) if effs else 0))
    print("%d rows in all (by function and by loop); above 1.05: %d" % (len(rows), len(above)))
    for r in above:
        print("  ABOVE: %s %s %s %s (%s) %.2f" % (r["program"], r["build"], r["size"],
                                               r["row"], r["by"], r["efficiency"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
