"""Counts fp32 add/sub, mul and fma instructions per .entry in PTX (stdin):
one line per kernel, 'NAME: add A mul M fma F', in the order of the PTX."""
import re
import sys

counts = {}
order = []
name = None
for line in sys.stdin:
    m = re.search(r"\.entry\s+([A-Za-z0-9_$]+)", line)
    if m:
        name = m.group(1)
        order.append(name)
        counts[name] = {"add": 0, "mul": 0, "fma": 0}
        continue
    op = line.strip().split(" ")[0].split("\t")[0]
    if name is None or not op.endswith(".f32"):
        continue
    base = op.split(".")[0]
    if base in ("add", "sub"):
        counts[name]["add"] += 1
    elif base == "mul":
        counts[name]["mul"] += 1
    elif base == "fma":
        counts[name]["fma"] += 1
for n in order:
    c = counts[n]
    print("%s: add %d mul %d fma %d" % (n, c["add"], c["mul"], c["fma"]))
