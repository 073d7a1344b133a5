#!/usr/bin/env python3
"""Prints a profile's kernel records and their loop nests one line each,
sorted, for FileCheck and for diffs between runs: calls, FLOPs, DRAM-level
bytes loaded and stored, the footprint counted from each call's arguments
(read and written bytes), and per loop nest its entries and iterations and
the fewest and most iterations of one entry (times left out: they differ
from run to run). --only NAME prints that record alone."""
import json
import sys

args = sys.argv[1:]
only = None
if args and args[0] == "--only":
    only, args = args[1], args[2:]
with open(args[0]) as f:
    kernels = json.load(f)["kernels"]
for k in sorted(kernels, key=lambda k: k["display_name"]):
    if only and k["display_name"] != only:
        continue
    fp = k.get("footprint")
    footprint = (f" footprint={fp['read']}/{fp['written']}"
                 f"{' exact' if fp.get('exact') else ''}" if fp else "")
    print(f"{k['display_name']}: calls={k['calls']} flops={k['flops']['total']} "
          f"load={k['bytes']['load']} store={k['bytes']['store']}{footprint}")
    for l in sorted(k.get("loops", []), key=lambda l: (l.get("line", 0), l.get("function", ""))):
        print(f"  loop line {l.get('line')}: entries={l.get('entries')} "
              f"iterations={l.get('iterations')} "
              f"min={l.get('min_iterations_per_entry')} "
              f"max={l.get('max_iterations_per_entry')}")
