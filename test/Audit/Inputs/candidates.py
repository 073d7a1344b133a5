"""roofline-audit --format json on stdin -> one line per candidate and chain,
so that tests can check every figure with FileCheck."""
import json
import sys

A = json.load(sys.stdin)


def cost(c):
    t = "unbound" if c["seconds"] is None else "%.4g" % c["seconds"]
    return "I=%.6g t=%s" % (c["intensity"], t)


def value(v):
    return "unbound" if v is None else "%d" % v


for c in A["candidates"]:
    print("CANDIDATE %s: %s:%d %s -> %s:%d %s, buffer %s, fusible=%s, "
          "bytes_saved=%s (%s), round_trip=%s (%s), before %s, after %s"
          % (c["function"], c["producer_location"]["file"].split("/")[-1],
             c["producer_location"]["line"], c["producer"],
             c["consumer_location"]["file"].split("/")[-1],
             c["consumer_location"]["line"], c["consumer"], c["buffer"],
             str(c["fusible"]).lower(), c["bytes_saved"],
             value(c["bytes_saved_value"]), c["round_trip_bytes"],
             value(c["round_trip_bytes_value"]), cost(c["before"]), cost(c["after"])))
    print("REASON %s" % c["reason"])
for ch in A["chains"]:
    print("CHAIN %s: %s, buffers %s, bytes_saved=%s (%s), before %s, after %s"
          % (ch["function"], " -> ".join(ch["kernels"]), ",".join(ch["buffers"]),
             ch["bytes_saved"], value(ch["bytes_saved_value"]), cost(ch["before"]),
             cost(ch["after"])))
