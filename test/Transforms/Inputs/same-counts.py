"""Two profiles of the same program: every kernel's FLOPs, bytes and
integer operations are equal (the counters' storage must not change them)."""
import json
import sys

a, b = (json.load(open(p)) for p in sys.argv[1:3])
key = lambda k: (k["flops"]["total"], k["bytes"]["load"], k["bytes"]["store"],
                 k["intops"]["total"], k["calls"])
ka = {k["display_name"]: key(k) for k in a["kernels"]}
kb = {k["display_name"]: key(k) for k in b["kernels"]}
print("same-counts: %s" % ("equal" if ka == kb and ka else "differ: %s vs %s" % (ka, kb)))
