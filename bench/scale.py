#!/usr/bin/env python3
"""Scale of roofline-report: merge and report over many large profiles.

Usage (from the repository root, after scripts/build.sh):
    python3 bench/scale.py [--kernels 10000] [--profiles 100]
    python3 bench/scale.py --launches 1000000 [--profiles 10] [--kernels 10]
Writes --profiles profiles of --kernels kernels each (as many processes of
one program would), then times `roofline-report merge` over all of them and
the report (table and JSON) of the merged file, with their peak memory.
With --launches, the kernels are CUDA kernels with that many launch records
in all (spread over the profiles and kernels, 8 launch configurations per
kernel), as the CUDA shim writes them."""
import argparse
import json
import os
import resource
import subprocess
import tempfile
import time

REPORT = "build/bin/roofline-report"


def kernel(i, scale):
    n = 1000 * (i % 97 + 1) * scale
    return {
        "name": "_Z6kernel%di" % i, "display_name": "kernel%d(int)" % i,
        "file": "/src/k%d.cpp" % (i % 50), "line": 10 + i, "calls": scale,
        "seconds": 1e-6 * n, "flops": {"fp32": 2 * n, "total": 2 * n, "special": 0},
        "flop_classes": {"fp32": {"fma": n}},
        "bytes": {"load": 8 * n, "store": 4 * n, "memory": {"load": 8 * n, "store": 4 * n}},
        "static": {"flops": "2*n", "bytes_load": "8*n", "bytes_store": "4*n", "exact": True},
        "loops": [{"line": 11 + i, "flops": 2 * n, "bytes_load": 8 * n, "bytes_store": 4 * n}],
    }


def cuda_kernel(i, launches):
    n = 1 << 20
    records = [[4096 >> (j % 8), 1, 1, 256, 1, 1, 0, j % 2, 1e-5 * j, 1e-5, n,
                2 * n, 8 * n, 4 * n, n >> (j % 8), 2.0, None, None]
               for j in range(launches)]
    return {
        "name": "_Z5saxpy%difPKfPf" % i, "display_name": "saxpy%d(int, float, float const*, float*)" % i,
        "device": "cuda", "file": "/src/k%d.cu" % i, "line": 10 + i, "calls": launches,
        "seconds": 1e-5 * launches, "threads": n * launches,
        "flops": {"fp32": 2 * n * launches, "total": 2 * n * launches, "special": 0},
        "flop_classes": {"fp32": {"fma": n * launches}},
        "bytes": {"load": 8 * n * launches, "store": 4 * n * launches,
                  "global": {"load": 8 * n * launches, "store": 4 * n * launches}},
        "static": {"flops": "2", "bytes_load": "8", "bytes_store": "4", "exact": True,
                   "per": "thread", "params": ["n", "a", "x", "y"]},
        "launches_not_recorded": 0,
        "launch_columns": ["grid_x", "grid_y", "grid_z", "block_x", "block_y", "block_z",
                           "shared", "stream", "start", "seconds", "threads", "flops",
                           "bytes_load", "bytes_store", "n", "a", "x", "y"],
        "launches": records,
    }


def run(cmd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    if status:
        raise SystemExit("failed: %s" % cmd)
    return time.perf_counter() - start, usage.ru_maxrss / 1024.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kernels", type=int, default=10000)
    ap.add_argument("--profiles", type=int, default=100)
    ap.add_argument("--launches", type=int, default=0)
    a = ap.parse_args()
    if a.launches:
        return launches(a)
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for p in range(a.profiles):
            doc = {"schema": "roofline-profile", "version": 1, "pid": p, "host": "h",
                   "kernels": [kernel(i, p + 1) for i in range(a.kernels)]}
            path = os.path.join(tmp, "p%d.json" % p)
            with open(path, "w") as f:
                json.dump(doc, f)
            paths.append(path)
        size = sum(os.path.getsize(p) for p in paths) / 1e6
        merged = os.path.join(tmp, "all.json")
        t, rss = run([REPORT, "merge"] + paths + ["-o", merged])
        print("| merge %d profiles x %d kernels (%.0f MB of JSON) | %.2f s | %.0f MiB |"
              % (a.profiles, a.kernels, size, t, rss))
        with open(merged) as f:
            m = json.load(f)
        assert len(m["kernels"]) == a.kernels
        calls = sum(range(1, a.profiles + 1))
        assert m["kernels"][0]["calls"] == calls, m["kernels"][0]["calls"]
        for fmt in ["table", "json", "html"]:
            t, rss = run([REPORT, merged, "--platform", "h100-sxm", "--format", fmt,
                          "-o", os.path.join(tmp, "r." + fmt)])
            print("| report --format %s, %d kernels | %.2f s | %.0f MiB |" % (fmt, a.kernels, t, rss))


def launches(a):
    per_kernel = a.launches // (a.profiles * a.kernels)
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for p in range(a.profiles):
            doc = {"schema": "roofline-profile", "version": 1, "pid": p, "host": "h",
                   "kernels": [cuda_kernel(i, per_kernel) for i in range(a.kernels)]}
            path = os.path.join(tmp, "p%d.json" % p)
            with open(path, "w") as f:
                json.dump(doc, f)
            paths.append(path)
        size = sum(os.path.getsize(p) for p in paths) / 1e6
        total = per_kernel * a.kernels * a.profiles
        merged = os.path.join(tmp, "all.json")
        t, rss = run([REPORT, "merge"] + paths + ["-o", merged])
        print("| merge %d profiles x %d CUDA kernels, %d launch records (%.0f MB of JSON) | %.2f s | %.0f MiB |"
              % (a.profiles, a.kernels, total, size, t, rss))
        t, rss = run([REPORT, paths[0], "--platform", "h100-sxm"])
        print("| report on one profile, %d launch records | %.2f s | %.0f MiB |"
              % (per_kernel * a.kernels, t, rss))
        for fmt in ["table", "json"]:
            t, rss = run([REPORT, merged, "--platform", "h100-sxm", "--format", fmt,
                          "-o", os.path.join(tmp, "r." + fmt)])
            print("| report --format %s, %d launch records, %d rows | %.2f s | %.0f MiB |"
                  % (fmt, total, 8 * a.kernels, t, rss))
        with open(os.path.join(tmp, "r.json")) as f:
            rows = json.load(f)["kernels"]
        assert len(rows) == 8 * a.kernels, len(rows)


if __name__ == "__main__":
    main()
