#!/usr/bin/env python3
"""Checks the profile of test/CUDA/Inputs/launches.cu against hand-derived
exact counts (per launch), and optionally against Nsight Compute.

usage: check_launches.py PROFILE.json [--ncu NCU.csv] [--json OUT.json]
                         [--device hip]

--device hip: the profile of test/HIP/Inputs/launches.hip (the same
kernels and launches but hfma, run through the HIP shim).

The derivations (N = 2^20, Rows = 4096, Cols = 256, Block = 256):
  saxpy   grid 4096 x 256 = N threads, all pass i < N: one FMA each
          -> 2N FLOPs fp32; loads x[i], y[i]: 8N B; stores y[i]: 4N B.
  rowsum  grid 32 x 128 = 4096 threads = Rows: Cols fp64 adds each
          -> Rows*Cols FLOPs; loads 8*Rows*Cols B; stores 8*Rows B.
  blocksum  grid 4096 x 256, blockDim.x floats of shared memory: per
          block 256 global loads (1024 B) and shared stores (1024 B); the
          tree adds s = 128, 64, ..., 1: 255 fp32 adds, each loading two
          shared floats and storing one (2040 B loaded, 1020 B stored);
          thread 0 loads sh[0] (4 B) and stores out[b] (4 B).
  hfma    grid 2048 x 256 = N/2 threads, all pass: one __hfma2 = 2 fp16
          FMAs = 4 FLOPs; loads 12 B, stores 4 B.
"""
import csv
import json
import sys

N, ROWS, COLS, BLOCK = 1 << 20, 4096, 256, 256
BLOCKS = N // BLOCK
EXPECTED = {
    # name: (launches, stream, grid, block, shared, threads, flops by
    #        precision, global load, global store, shared load, shared store)
    "saxpy": dict(launches=10, stream=1, grid=[BLOCKS, 1, 1], block=[256, 1, 1],
                  shared=0, threads=N, flops={"fp32": 2 * N},
                  load=8 * N, store=4 * N),
    "rowsum": dict(launches=10, stream=2, grid=[ROWS // 128, 1, 1],
                   block=[128, 1, 1], shared=0, threads=ROWS,
                   flops={"fp64": ROWS * COLS}, load=8 * ROWS * COLS,
                   store=8 * ROWS),
    "blocksum": dict(launches=1, stream=0, grid=[BLOCKS, 1, 1],
                     block=[256, 1, 1], shared=BLOCK * 4, threads=N,
                     flops={"fp32": 255 * BLOCKS}, load=1024 * BLOCKS,
                     store=4 * BLOCKS,
                     shared_load=(2040 + 4) * BLOCKS,
                     shared_store=(1024 + 1020) * BLOCKS),
    "hfma": dict(launches=1, stream=0, grid=[N // 2 // 256, 1, 1],
                 block=[256, 1, 1], shared=0, threads=N // 2,
                 flops={"fp16": 4 * (N // 2)}, load=12 * (N // 2),
                 store=4 * (N // 2)),
}


def short(name):
    return name.split("(")[0]


def expected(device):
    """The kernels launches.cu (cuda) or launches.hip (hip) launches."""
    return {k: v for k, v in EXPECTED.items() if device == "cuda" or k != "hfma"}


def check_profile(profile, device="cuda"):
    failures, results = [], {}
    kernels = {short(k["display_name"]): k for k in profile["kernels"]
               if k.get("device") == device}
    for name, want in expected(device).items():
        k = kernels.get(name)
        if k is None:
            failures.append(f"{name}: not in the profile")
            continue
        got = {"launches": k["calls"], "threads": k["threads"],
               "flops": {p: v for p, v in k["flops"].items()
                         if p not in ("total", "special") and v},
               "load": k["bytes"].get("global", {}).get("load", 0),
               "store": k["bytes"].get("global", {}).get("store", 0)}
        if "shared_load" in want:
            got["shared_load"] = k["bytes"].get("shared", {}).get("load", 0)
            got["shared_store"] = k["bytes"].get("shared", {}).get("store", 0)
        n = want["launches"]
        expect = {"launches": n, "threads": want["threads"] * n,
                  "flops": {p: v * n for p, v in want["flops"].items()},
                  "load": want["load"] * n, "store": want["store"] * n}
        for key in ("shared_load", "shared_store"):
            if key in want:
                expect[key] = want[key] * n
        for key, value in expect.items():
            if got.get(key) != value:
                failures.append(f"{name}: {key} = {got.get(key)}, expected {value}")
        columns = k["launch_columns"]
        if len(k["launches"]) != n:
            failures.append(f"{name}: {len(k['launches'])} launch records, expected {n}")
        for i, row in enumerate(k["launches"]):
            l = dict(zip(columns, row))
            l["grid"] = [l["grid_x"], l["grid_y"], l["grid_z"]]
            l["block"] = [l["block_x"], l["block_y"], l["block_z"]]
            for key in ("grid", "block", "shared", "stream", "threads"):
                if l[key] != want[key]:
                    failures.append(f"{name}: launch {i}: {key} = {l[key]}, expected {want[key]}")
            if l["flops"] != sum(want["flops"].values()):
                failures.append(f"{name}: launch {i}: flops = {l['flops']}")
            if l["seconds"] <= 0:
                failures.append(f"{name}: launch {i}: no time")
        results[name] = {"measured": got, "expected": expect,
                         "seconds": k["seconds"]}
    return failures, results


def ncu_flops(path):
    """Per kernel: fp32/fp64/fp16 FLOPs from the SASS instruction counts
    (an FFMA is two FLOPs; an HFMA2 or HADD2 works on two halves)."""
    sums = {}
    with open(path, newline="") as f:
        rows = [r for r in csv.reader(f) if len(r) > 5]
    head = rows[0]
    name_i, metric_i, value_i = (head.index("Kernel Name"),
                                 head.index("Metric Name"),
                                 head.index("Metric Value"))
    for r in rows[1:]:
        metric = r[metric_i]
        op = metric.split("op_")[1].split("_pred_on")[0]
        v = float(r[value_i].replace(",", ""))
        sums.setdefault(short(r[name_i]), {}).setdefault(op, 0)
        sums[short(r[name_i])][op] += v
    out = {}
    for kernel, ops in sums.items():
        g = lambda k: ops.get(k, 0)
        out[kernel] = {
            "fp32": g("fadd") + g("fmul") + 2 * g("ffma"),
            "fp64": g("dadd") + g("dmul") + 2 * g("dfma"),
            # HADD2/HMUL2/HFMA2 each do two operations (the ncu counts are
            # per instruction); scalar HADD etc. are counted the same way.
            "fp16_per_instruction": g("hadd") + g("hmul") + 2 * g("hfma"),
            "fp16_two_lanes": 2 * (g("hadd") + g("hmul") + 2 * g("hfma")),
            "instructions": ops}
    return out


def main():
    args = sys.argv[1:]
    profile = json.load(open(args[0]))
    device = args[args.index("--device") + 1] if "--device" in args else "cuda"
    failures, results = check_profile(profile, device)
    if "--ncu" in args:
        ncu = ncu_flops(args[args.index("--ncu") + 1])
        for name, r in results.items():
            n = ncu.get(name)
            if not n:
                failures.append(f"{name}: not in the ncu output")
                continue
            ours = r["measured"]["flops"]
            launches = r["expected"]["launches"]
            r["ncu"] = n
            for p in ("fp32", "fp64"):
                # ncu ran the plain program: the same launches.
                if ours.get(p, 0) != n[p]:
                    failures.append(f"{name}: {p} FLOPs {ours.get(p, 0)} (ours) != {n[p]} (ncu, {launches} launches)")
            if ours.get("fp16", 0) not in (n["fp16_per_instruction"], n["fp16_two_lanes"]):
                failures.append(f"{name}: fp16 FLOPs {ours.get('fp16', 0)} (ours) != ncu {n['fp16_two_lanes']}")
    if "--json" in args:
        json.dump({"failures": failures, "kernels": results},
                  open(args[args.index("--json") + 1], "w"), indent=1)
    for f in failures:
        print("FAIL:", f)
    want = expected(device)
    print(f"{len(want) - len({f.split(':')[0] for f in failures})} of {len(want)} kernels exact")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
