"""Prints a profile's cache-model traffic per kernel, one line per level, for
FileCheck: "KERNEL LEVEL fill F writeback W". With --bounds K:L:LO:HI, also
checks LO <= writeback <= HI for kernel K at level L ("ok" or a failure);
--fills K:L:LO:HI the same of its fills.
With --report, reads a roofline-report JSON instead: per kernel its levels'
bytes and sources."""
import json
import sys

path, args = sys.argv[1], sys.argv[2:]
doc = json.load(open(path))
if "--report" in args:
    for k in doc["kernels"]:
        for lv in k["levels"]:
            print(f"{k['name']} {lv['level']} {lv['bytes']:.0f} {lv['source']}")
        print(f"{k['name']} limiter {k.get('limiter', '')}")
    sys.exit(0)
rows = {}
for k in doc["kernels"]:
    t = k.get("traffic")
    if not t:
        print(f"{k['name']} no traffic")
        continue
    for lv in t["levels"]:
        rows[(k["name"], lv["level"])] = lv
        print(f"{k['name']} {lv['level']} size {lv['size_bytes']} fill {lv['fill_bytes']} "
              f"writeback {lv['writeback_bytes']}")
    for loop in k.get("loops", []):
        if "traffic" in loop:
            lv = loop["traffic"]["levels"][0]
            print(f"{k['name']} loop {loop['line']} l1 fill {lv['fill_bytes']}")
for a in args:
    for flag, field, what in (("--bounds=", "writeback_bytes", "writeback"),
                              ("--fills=", "fill_bytes", "fill")):
        if a.startswith(flag):
            name, level, lo, hi = a[len(flag):].split(":")
            got = rows[(name, level)][field]
            ok = int(lo) <= got <= int(hi)
            print(f"{name} {level} {what} within [{lo}, {hi}]: {'ok' if ok else 'NO (%d)' % got}")
