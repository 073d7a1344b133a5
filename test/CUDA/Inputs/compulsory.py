"""Each kernel of roofline-report JSONs beside the compulsory DRAM bytes
derived by hand in its source: a comment "HAND <kernel>: ... = <bytes> B."
(the number may carry thousands separators and run onto the next comment
line). Prints, per kernel, "<kernel> <limiter> <tool bytes> B, hand
<bytes> B: within 10%", or the ratio when it is not.

  python3 compulsory.py SOURCE REPORT.json..."""
import json
import re
import sys

source, reports = sys.argv[1], sys.argv[2:]
text = open(source).read()
hand = {}
for m in re.finditer(r"HAND (\w+):(.*?)=[\s/]*([\d,]+) B\.", text, re.S):
    hand[m.group(1)] = int(m.group(3).replace(",", ""))
for report in reports:
    for k in json.load(open(report))["kernels"]:
        name = k["display_name"].split("(")[0]
        got, want = k["bytes"], hand.get(name)
        if want is None:
            print(name, "no hand derivation")
            continue
        ratio = (got or 0) / want
        verdict = "within 10%" if abs(ratio - 1) <= 0.10 else "ratio %.3f" % ratio
        print("%s %s %d B, hand %d B: %s" % (name, k["limiter"], got or 0, want, verdict))
