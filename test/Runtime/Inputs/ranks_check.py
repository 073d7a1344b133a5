"""Checks a merged profile's per-rank records of kernel NAME against its
totals: the ranks given, calls adding up to the merged calls, and
rank_seconds (min, mean, max, fastest, slowest) computed from per_rank.
Prints one line for FileCheck."""
import json
import sys

path, name, ranks = sys.argv[1], sys.argv[2], [int(r) for r in sys.argv[3].split(",")]
k = next(k for k in json.load(open(path))["kernels"] if k["name"] == name)
per = k["per_rank"]
secs = [r["seconds"] for r in per]
rs = k["rank_seconds"]
ok = (sorted(r["rank"] for r in per) == ranks
      and sum(r["calls"] for r in per) == k["calls"]
      and rs["ranks"] == len(per)
      and rs["min"] == min(secs) and rs["max"] == max(secs)
      and abs(rs["mean"] - sum(secs) / len(secs)) <= 1e-12 * max(1.0, rs["mean"])
      and per[secs.index(max(secs))]["rank"] == rs["slowest_rank"]
      and per[secs.index(min(secs))]["rank"] == rs["fastest_rank"])
print(f"{name}: {len(per)} ranks, {k['calls']} calls, spread {'consistent' if ok else 'WRONG ' + json.dumps(k)}")
