"""Each kernel of roofline-report JSONs beside the compulsory DRAM bytes
derived by hand in its source: a comment "HAND <kernel>: ... = <bytes> B."
(the number may carry thousands separators and run onto the next comment
line), or "= <low> to <high> B." for bytes that depend on data (a gather:
the tool's bytes and bytes_at_most are compared with the two ends).
Prints, per kernel, "<kernel> <limiter> <tool bytes> B, hand <bytes> B:
within 10%", or the ratio when it is not.

  python3 compulsory.py SOURCE REPORT.json..."""
import json
import re
import sys

source, reports = sys.argv[1], sys.argv[2:]
text = open(source).read()
hand = {}
NUMBER = r"([\d,]+)"
for m in re.finditer(r"HAND (\w+):(.*?)=[\s/]*" + NUMBER + r"(?:[\s/]+to[\s/]+" +
                     NUMBER + r")? B\.", text, re.S):
    low = int(m.group(3).replace(",", ""))
    high = int(m.group(4).replace(",", "")) if m.group(4) else low
    hand[m.group(1)] = (low, high)
for report in reports:
    for k in json.load(open(report))["kernels"]:
        name = k["display_name"].split("(")[0]
        got, want = k["bytes"], hand.get(name)
        if want is None:
            print(name, "no hand derivation")
            continue
        got = got or 0
        most = k.get("bytes_at_most", got)
        ratios = [got / want[0], most / want[1]]
        verdict = ("within 10%" if all(abs(r - 1) <= 0.10 for r in ratios) else
                   "ratio " + " to ".join("%.3f" % r for r in ratios[:1 + (want[0] != want[1])]))
        if want[0] == want[1]:
            print("%s %s %d B, hand %d B: %s" % (name, k["limiter"], got, want[0], verdict))
        else:
            print("%s %s %d to %d B, hand %d to %d B: %s" %
                  (name, k["limiter"], got, most, want[0], want[1], verdict))
