"""Checks a roofline-probe result: positive figures, ordered bandwidths."""
import json
import sys

p = json.load(open(sys.argv[1]))
bw = {m["level"]: m["bytes_per_s"] for m in p["memory"]}
peaks = {c["precision"]: c["flops_per_s"] for c in p["compute"]}
assert all(v > 0 for v in list(bw.values()) + list(peaks.values())), (bw, peaks)
assert "dram" in bw and "l1" in bw, bw
assert bw["l1"] >= 0.9 * bw.get("l2", 0), bw
assert bw.get("l2", bw["l1"]) >= bw["dram"], bw
assert bw["l1"] > bw["dram"], bw
# fp32 is twice fp64 per vector; the suite runs tests side by side on few
# cores, so a quick probe's peaks are noisy: only a gross inversion fails.
assert peaks["fp32"] >= peaks["fp64"] * 0.75, peaks
assert all(m["source"].startswith("measured by roofline-probe") for m in p["memory"])
print("ok", {k: round(v / 1e9, 1) for k, v in bw.items()}, {k: round(v / 1e9, 1) for k, v in peaks.items()})
