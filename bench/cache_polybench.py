#!/usr/bin/env python3
"""The cache model (ROOFLINE_CACHE) against valgrind on PolyBench's 30 kernels.

Builds bench/cache_polybench.c (one kernel a process, PolyBench/C 4.2.1's
MEDIUM or LARGE sizes, arrays page-aligned at fixed offsets, caches flushed
before the kernel) plain with clang and instrumented with roofline-clang,
the same flags. For each kernel:

  - the plain build under `valgrind --tool=cachegrind --cache-sim=yes`:
    fills per level, (D1mr + D1mw) x line and (DLmr + DLmw) x line, of the
    kernel's function;
  - the plain build under `valgrind --tool=callgrind --cache-sim=yes
    --simulate-wb=yes`: the last level's write-backs, (ILdmr + DLdmr +
    DLdmw) x line (the last level's misses that evict a dirty line).
    Cachegrind 3.19 models no dirty lines at all, and callgrind's first
    level is write-through, so no valgrind tool gives the first level's
    write-backs: those are shown, not judged;
  - the instrumented build with ROOFLINE_CACHE set to the same geometry,
    once with every set simulated (ROOFLINE_CACHE_SAMPLE=1) and once with
    the runtime's default sample.

Errors are |model - valgrind| / valgrind; a level where both are below
--floor bytes is not judged (a few lines are not a percentage).

Usage: bench/cache_polybench.py [--size MEDIUM|LARGE] [--kernels gemm,lu]
           [--jobs 1] [--json FILE] [--geometry 48K:12:64,2M:16:64]
           [--no-callgrind] [--timeout SECONDS] [--check 0.02] [--markdown]
       bench/cache_polybench.py --from FILE.json [--markdown]
       bench/cache_polybench.py --explain jacobi-2d --tsteps 10 [--geometry ...]

--explain replays a valgrind lackey trace of one kernel through
bench/cache_trace.c, from cachegrind's semantics to the model's, one step
at a time, to show which difference makes a gap.
Exit 1 when --check is given and an error is above it; 77 without valgrind.
"""
import argparse
import concurrent.futures
import datetime
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict

from cache_model import CLANG, FLAGS, cachegrind_counts, size_bytes

HERE = os.path.dirname(os.path.abspath(__file__))
# -fno-math-errno: sqrt is an instruction, not a call into libm (which the
# model would not see and cachegrind would count under libm's name).
BUILD_FLAGS = [*FLAGS, "-fno-math-errno"]


def callgrind_counts(path):
    """Per function: the summed self events of a callgrind.out file written
    with --compress-strings=no --compress-pos=no."""
    events, fn, out, call = [], None, defaultdict(lambda: defaultdict(int)), False
    with open(path) as f:
        for line in f:
            if line.startswith("events:"):
                events = line.split()[1:]
            elif line.startswith("fn="):
                fn = line[3:].strip()
            elif line.startswith("calls="):
                call = True  # the next cost line is the call's inclusive cost
            elif fn and line[:1].isdigit():
                if call:
                    call = False
                    continue
                for e, v in zip(events, line.split()[1:]):
                    out[fn][e] += int(v)
    return out


def timed(cmd, env=None, timeout=None):
    start = time.perf_counter()
    subprocess.run(cmd, check=True, env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, timeout=timeout)
    return time.perf_counter() - start


def error(ref, got, floor):
    if ref is None or got is None or max(ref, got) < floor:
        return None
    return abs(got - ref) / max(ref, 1)


def measure(kernel, args, plain, inst, tmp):
    """One kernel's runs; a row of the comparison."""
    (s1, w1, l1), (s2, w2, l2) = args.levels
    line = int(l1)
    fn = "kernel_" + kernel.replace("-", "_")
    run = [kernel, args.size] + ([str(args.tsteps)] if args.tsteps else [])
    row = {"kernel": kernel, "seconds": {}}
    base = os.path.join(tmp, kernel)
    env = dict(os.environ, ROOFLINE_PROFILE=base + ".off.json")
    row["seconds"]["plain"] = timed([plain, *run])
    geometry = ["--I1=32768,8,64", f"--D1={size_bytes(s1)},{w1},{l1}",
                f"--LL={size_bytes(s2)},{w2},{l2}"]
    try:
        row["seconds"]["cachegrind"] = timed(
            ["valgrind", "--tool=cachegrind", "--cache-sim=yes", *geometry,
             f"--cachegrind-out-file={base}.cg", plain, *run], timeout=args.timeout)
    except subprocess.TimeoutExpired:
        row["skipped"] = f"cachegrind ran over {args.timeout:.0f} s"
        return row
    c = cachegrind_counts(base + ".cg")[fn]
    ref = {"fill": [(c["D1mr"] + c["D1mw"]) * line, (c["DLmr"] + c["DLmw"]) * line],
           "writeback": [None, None]}
    row["instruction_fills_ll"] = c["ILmr"] * line
    if args.callgrind:
        try:
            row["seconds"]["callgrind"] = timed(
                ["valgrind", "--tool=callgrind", "--cache-sim=yes", "--simulate-wb=yes",
                 *geometry, "--compress-strings=no", "--compress-pos=no",
                 f"--callgrind-out-file={base}.cl", plain, *run], timeout=args.timeout)
            w = callgrind_counts(base + ".cl")[fn]
            ref["writeback"][1] = (w["ILdmr"] + w["DLdmr"] + w["DLdmw"]) * line
            row["callgrind_fill_ll"] = (w["DLmr"] + w["DLmw"]) * line
        except subprocess.TimeoutExpired:
            row["callgrind_skipped"] = f"callgrind ran over {args.timeout:.0f} s"
    model = {}
    for label, sample in (("all", "1"), ("sampled", None)):
        menv = dict(env, ROOFLINE_PROFILE=f"{base}.{label}.json", ROOFLINE_CACHE=args.geometry)
        menv.pop("ROOFLINE_CACHE_SAMPLE", None)
        if sample:
            menv["ROOFLINE_CACHE_SAMPLE"] = sample
        row["seconds"]["model_" + label] = timed([inst, *run], menv)
        with open(f"{base}.{label}.json") as f:
            k = next(k for k in json.load(f)["kernels"] if k["name"] == fn)
        levels = k["traffic"]["levels"]
        model[label] = {"fill": [lv["fill_bytes"] for lv in levels],
                        "writeback": [lv["writeback_bytes"] for lv in levels]}
    row["valgrind"] = ref
    row["model"] = model
    row["error"] = {label: {kind: [error(r, g, args.floor)
                                   for r, g in zip(ref[kind], model[label][kind])]
                            for kind in ("fill", "writeback")}
                    for label in model}
    return row


def pct(x):
    return "-" if x is None else f"{100 * x:.2f}%"


def table(rows, floor, markdown):
    """The comparison: per level, valgrind's bytes and the model's error,
    every set simulated and the default sample."""
    head = ["kernel", "L1 fill, cachegrind", "all sets", "sampled", "LL fill, cachegrind",
            "all sets", "sampled", "LL write-back, callgrind", "all sets", "sampled",
            "L1 write-back, model", "sampled"]
    out = []
    for r in rows:
        if "skipped" in r:
            out.append([r["kernel"], f"skipped: {r['skipped']}"] + [""] * (len(head) - 2))
            continue
        e, v, m = r["error"], r["valgrind"], r["model"]
        l1wb = m["all"]["writeback"][0]
        cells = [r["kernel"]]
        for kind, level in (("fill", 0), ("fill", 1), ("writeback", 1)):
            ref = v[kind][level]
            cells += ["-" if ref is None else f"{ref:.0f}",
                      pct(e["all"][kind][level]), pct(e["sampled"][kind][level])]
        cells += [f"{l1wb:.0f}", pct(error(l1wb, m["sampled"]["writeback"][0], floor))]
        out.append(cells)
    if markdown:
        lines = ["| " + " | ".join(head) + " |",
                 "|---|" + "--:|" * (len(head) - 1)]
        lines += ["| " + " | ".join(cells) + " |" for cells in out]
        return "\n".join(lines)
    short = ["kernel", "L1 fill vg", "all", "sampled", "LL fill vg", "all", "sampled",
             "LL wb vg", "all", "sampled", "L1 wb model", "sampled"]
    widths = [15, 12, 8, 8, 12, 8, 8, 12, 8, 8, 12, 8]
    fmt = lambda cells: "".join(  # noqa: E731
        (f"{c:<{w}}" if i == 0 else f"{c:>{w}}") for i, (c, w) in enumerate(zip(cells, widths)))
    return "\n".join([fmt(short)] + [
        f"{c[0]:<15}{c[1]}" if c[1].startswith("skipped") else fmt(c) for c in out])


def worst(rows, label, kind, level):
    errs = [(r["error"][label][kind][level], r["kernel"]) for r in rows
            if "error" in r and r["error"][label][kind][level] is not None]
    return max(errs, default=(None, None))


def report(meta, floor, markdown):
    """Prints the table, the times and the worst errors; returns the worst."""
    rows = meta["rows"]
    print(f"PolyBench {meta['size']}, geometry {meta['geometry']}, {meta['date']}\n")
    print(table(rows, floor, markdown))
    total = defaultdict(float)
    for r in rows:
        if "skipped" not in r:
            for k, v in r["seconds"].items():
                total[k] += v
    print("\ntime, kernels not skipped: " + ", ".join(f"{k} {v:.1f} s" for k, v in total.items()))
    if total.get("cachegrind"):
        print(f"model/cachegrind: every set {total['model_all'] / total['cachegrind']:.2f}, "
              f"default sample {total['model_sampled'] / total['cachegrind']:.2f}")
    bad = 0.0
    for label in ("all", "sampled"):
        parts = []
        for kind, level, name in (("fill", 0, "L1 fill"), ("fill", 1, "LL fill"),
                                  ("writeback", 1, "LL write-back")):
            e, k = worst(rows, label, kind, level)
            parts.append(f"{name} {pct(e)} ({k})" if e is not None else f"{name} -")
            bad = max(bad, e or 0.0)
        print(f"worst error, {'every set' if label == 'all' else 'default sample'}: "
              + ", ".join(parts))
    print(f"(-: below {floor:.0f} bytes in both, not judged; L1 write-backs have no valgrind "
          "reference: their 'sampled' is the default sample against every set)")
    return bad


def explain(args, flags, tmp):
    """--explain: one kernel's fills from cachegrind, from the model, and from
    a lackey trace replayed step by step from cachegrind's semantics to the
    model's (bench/cache_trace.c)."""
    (s1, w1, _), (s2, w2, _) = args.levels
    kernel, fn = args.explain, "kernel_" + args.explain.replace("-", "_")
    run = [kernel, args.size] + ([str(args.tsteps)] if args.tsteps else [])
    plain, inst, sim = (os.path.join(tmp, n) for n in ("plain", "inst", "trace"))
    flags = [*flags, "-no-pie"]  # fixed addresses: the function's range from nm
    src = os.path.join(HERE, "cache_polybench.c")
    subprocess.run([CLANG, *flags, src, "-o", plain, "-lm"], check=True)
    subprocess.run([os.path.join(args.build, "bin", "roofline-clang"), *flags, "-mllvm", "-roofline-cache-model", src, "-o", inst,
                    "-lm"], check=True)
    subprocess.run([CLANG, "-O2", os.path.join(HERE, "cache_trace.c"), "-o", sim], check=True)
    symbols = {}
    for line in subprocess.run(["nm", "-S", plain], check=True, capture_output=True,
                               text=True).stdout.splitlines():
        f = line.split()
        if len(f) == 4:
            symbols[f[3]] = (int(f[0], 16), int(f[0], 16) + int(f[1], 16))
    cg = os.path.join(tmp, "cg.out")
    subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=yes", "--I1=32768,8,64",
                    f"--D1={size_bytes(s1)},{w1},64", f"--LL={size_bytes(s2)},{w2},64",
                    f"--cachegrind-out-file={cg}", "-q", plain, *run],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    c = cachegrind_counts(cg)[fn]
    prof = os.path.join(tmp, "model.json")
    subprocess.run([inst, *run], check=True, stdout=subprocess.DEVNULL,
                   env=dict(os.environ, ROOFLINE_PROFILE=prof, ROOFLINE_CACHE=args.geometry,
                            ROOFLINE_CACHE_SAMPLE="1"))
    with open(prof) as f:
        levels = next(k for k in json.load(f)["kernels"] if k["name"] == fn)["traffic"]["levels"]
    print(f"{kernel} {' '.join(run[1:])}, geometry {args.geometry}")
    print(f"{'cachegrind':<32} L1 fill {(c['D1mr'] + c['D1mw']) * 64:>14}"
          f"  LL fill {(c['DLmr'] + c['DLmw']) * 64:>14}")
    print(f"{'the model, every set':<32} L1 fill {levels[0]['fill_bytes']:>14}"
          f"  LL fill {levels[1]['fill_bytes']:>14}")
    print("the trace (valgrind --tool=lackey), replayed:", flush=True)
    lackey = subprocess.Popen(["valgrind", "--tool=lackey", "--trace-mem=yes",
                               "--log-file=/dev/stdout", plain, *run],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    (flo, fhi), (klo, khi) = symbols["flush"], symbols[fn]
    subprocess.run([sim, f"{klo:x}", f"{khi:x}", f"{flo:x}", f"{fhi:x}", str(size_bytes(s1)),
                    w1, str(size_bytes(s2)), w2], stdin=lackey.stdout, check=True)
    lackey.stdout.close()
    return lackey.wait()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(HERE, "..", "build"))
    ap.add_argument("--size", default="MEDIUM", choices=["MEDIUM", "LARGE"])
    ap.add_argument("--kernels", help="comma-separated (default: all 30)")
    ap.add_argument("--jobs", type=int, default=1, help="kernels at a time (times are then shared)")
    ap.add_argument("--geometry", default="48K:12:64,2M:16:64")
    ap.add_argument("--no-callgrind", dest="callgrind", action="store_false",
                    help="no last-level write-backs (saves a valgrind run a kernel)")
    ap.add_argument("--timeout", type=float, default=None,
                    help="seconds a valgrind run may take; a kernel over it is skipped")
    ap.add_argument("--cflags", default="", help="more flags for both builds")
    ap.add_argument("--floor", type=float, default=65536)
    ap.add_argument("--check", type=float, default=None)
    ap.add_argument("--json", help="the comparison, rewritten after each kernel")
    ap.add_argument("--tsteps", type=int, help="the stencils' time steps (default PolyBench's)")
    ap.add_argument("--explain", metavar="KERNEL",
                    help="trace one kernel (valgrind's lackey) to show where the model and "
                         "cachegrind part (slow: use --tsteps for a stencil)")
    ap.add_argument("--from", dest="saved", help="no runs: report a --json file again")
    ap.add_argument("--markdown", action="store_true", help="the table in Markdown")
    args = ap.parse_args()
    if args.saved:
        with open(args.saved) as f:
            report(json.load(f), args.floor, args.markdown)
        return 0
    if not shutil.which("valgrind"):
        print("cache_polybench.py: valgrind is not installed", file=sys.stderr)
        return 77
    args.levels = [tuple(l.split(":")) for l in args.geometry.split(",")]
    if len(args.levels) != 2:
        print("cache_polybench.py: valgrind models two levels: give two", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        plain, inst = os.path.join(tmp, "plain"), os.path.join(tmp, "inst")
        src = os.path.join(HERE, "cache_polybench.c")
        flags = [*BUILD_FLAGS, *args.cflags.split()]
        if args.explain:
            return explain(args, flags, tmp)
        subprocess.run([CLANG, *flags, src, "-o", plain, "-lm"], check=True)
        subprocess.run([os.path.join(args.build, "bin", "roofline-clang"), *flags,
                        "-mllvm", "-roofline-cache-model", src, "-o", inst, "-lm"], check=True)
        names = subprocess.run([plain, "list"], check=True, capture_output=True,
                               text=True).stdout.split()
        kernels = args.kernels.split(",") if args.kernels else names
        unknown = [k for k in kernels if k not in names]
        if unknown:
            print(f"cache_polybench.py: no kernel {', '.join(unknown)}", file=sys.stderr)
            return 2
        meta = {"size": args.size, "geometry": args.geometry,
                "date": datetime.date.today().isoformat(), "rows": []}
        done = {}
        start = time.perf_counter()
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            futures = {pool.submit(measure, k, args, plain, inst, tmp): k for k in kernels}
            for fut in concurrent.futures.as_completed(futures):
                row = fut.result()
                done[row["kernel"]] = row
                s = row["seconds"]
                print(f"{row['kernel']}: " + ", ".join(f"{k} {v:.1f} s" for k, v in s.items())
                      + (f"; skipped: {row['skipped']}" if "skipped" in row else ""),
                      file=sys.stderr, flush=True)
                if args.json:
                    meta["rows"] = [done[k] for k in kernels if k in done]
                    with open(args.json, "w") as f:
                        json.dump(meta, f, indent=1)
    meta["rows"] = [done[k] for k in kernels]
    bad = report(meta, args.floor, args.markdown)
    print(f"wall {time.perf_counter() - start:.0f} s")
    if args.check is not None and bad > args.check:
        print(f"FAIL: an error above {100 * args.check:.1f}%")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
