"""Compares two directories of summaries kernel by kernel (by display name):
per-thread FLOPs and bytes formulas, exactness, footprint per launch."""
import glob
import json
import os
import sys

def kernels(directory):
    out = {}
    for path in glob.glob(os.path.join(directory, "*.json")):
        with open(path) as f:
            for k in json.load(f)["kernels"]:
                out[k["display_name"]] = k
    return out


def counts(k):
    f = k["formula"]
    fp = k.get("footprint") or {}
    return (f["flops"], f["bytes_load"], f["bytes_store"], k["exact"],
            fp.get("read"), fp.get("written"), fp.get("exact"))

a, b = kernels(sys.argv[1]), kernels(sys.argv[2])
same = 0
for name in sorted(a):
    if name in b and counts(a[name]) == counts(b[name]):
        same += 1
    else:
        print("DIFFERS %s: %s vs %s" % (name, counts(a[name]),
                                        counts(b[name]) if name in b else None))
print("same-counts: %d kernels, %d the same" % (len(a), same))
