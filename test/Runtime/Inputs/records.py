#!/usr/bin/env python3
"""Prints a profile's kernel records one line each, sorted by name, for
FileCheck: calls, FLOPs, DRAM-level bytes loaded and stored, the static
FLOP formula and the calls its counts leave out."""
import json
import sys

with open(sys.argv[1]) as f:
    kernels = json.load(f)["kernels"]
for k in sorted(kernels, key=lambda k: k["display_name"]):
    static = k.get("static", {}).get("flops", "-")
    uncounted = "; ".join(k.get("uncounted_calls", [])) or "-"
    print(f"{k['display_name']}: calls={k['calls']} flops={k['flops']['total']} "
          f"load={k['bytes']['load']} store={k['bytes']['store']} "
          f"static={static} uncounted={uncounted}")
