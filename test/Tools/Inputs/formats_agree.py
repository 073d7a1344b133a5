"""The figures of one report in every format, compared kernel by kernel.

formats_agree.py table.txt report.json report.csv report.md report.sarif
report.html: reads each kernel's intensity, bound, limiter (of a
memory-bound kernel), attainable FLOP/s, minimum time, measured FLOP/s and
efficiency from each format that prints them, rounds them to the three
significant digits the text formats show, and prints one line per kernel
and field: the value all of them agree on and the formats that gave it, or
DIFFERS with each format's value.
"""
import csv
import html
import json
import re
import sys

SI = {"": 1, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15, "E": 1e18}
SECONDS = {"s": 1, "ms": 1e-3, "us": 1e-6, "ns": 1e-9}
UNKNOWN = "?"


def g3(v):
    """A number as the text formats round it; None (unknown) as '?'."""
    return UNKNOWN if v is None else "%.3g" % v


def si(text):
    """'25.6 GFLOP/s', '2 TFLOP/s', '200' -> a number."""
    m = re.fullmatch(r"([0-9.e+-]+) ?([kMGTPE]?)(?:FLOP/s)?", text.strip())
    return float(m.group(1)) * SI[m.group(2)]


def seconds(text):
    m = re.fullmatch(r"([0-9.e+-]+) (s|ms|us|ns)", text.strip())
    return float(m.group(1)) * SECONDS[m.group(2)]


def intensity(text):
    return None if text.strip() == UNKNOWN else float(text)


def efficiency(fraction):
    """The table's wording: '78%', '781% ABOVE BOUND'."""
    return "%.0f%%" % (fraction * 100) + (" ABOVE BOUND" if fraction > 1 else "")


def measured(text):
    """'20 GFLOP/s (78%)' -> ('2e+10', '78%'); '-' (no run) -> ('?', None)."""
    m = re.fullmatch(r"(.+FLOP/s) \((\d+%(?: ABOVE BOUND)?)\)", text.strip())
    if not m:
        return UNKNOWN, None
    return g3(si(m.group(1))), m.group(2)


def bound_words(bound, limiter):
    """JSON's and CSV's bound and limiter as the table says them."""
    if bound == "unknown":
        return "unknown", None
    return bound, limiter if bound == "memory" else None


def table_bound(text):
    """'memory (dram)', 'compute', 'unknown (traffic)'."""
    m = re.fullmatch(r"(memory|compute|unknown)(?: \((.+)\))?", text.strip())
    word, detail = m.group(1), m.group(2)
    return word, detail if word == "memory" else None


def from_table(path):
    lines = open(path).read().split("\n\n")[1].splitlines()
    head = re.split(r"\s{2,}", lines[0].strip())
    out = {}
    for line in lines[1:]:
        if not line.strip():
            break
        row = dict(zip(head, re.split(r"\s{2,}", line.strip())))
        word, limiter = table_bound(row["bound"])
        rate, eff = measured(row["measured"])
        out[row["kernel"]] = {
            "intensity": g3(intensity(row["I (FLOP/B)"])),
            "bound": word, "limiter": limiter,
            "attainable": g3(si(row["attainable"])),
            "min time": g3(seconds(row["min time"])),
            "measured": rate, "efficiency": eff}
    return out


def from_json(path):
    out = {}
    for k in json.load(open(path))["kernels"]:
        word, limiter = bound_words(k["bound"], k["limiter"])
        out[k["display_name"]] = {
            "intensity": g3(k["intensity"]), "bound": word, "limiter": limiter,
            "attainable": g3(k["attainable_flops_per_s"]),
            "min time": g3(k["min_seconds"]),
            "measured": g3(k.get("achieved_flops_per_s")),
            "efficiency": efficiency(k["efficiency"]) if "efficiency" in k else None}
    return out


def from_csv(path):
    out = {}
    for k in csv.DictReader(open(path)):
        word, limiter = bound_words(k["bound"], k["limiter"])
        num = lambda key: float(k[key]) if k[key] else None
        out[k["display_name"]] = {
            "intensity": g3(num("intensity")), "bound": word, "limiter": limiter,
            "attainable": g3(num("attainable_flops_per_s")),
            "min time": g3(num("min_seconds")),
            "measured": g3(num("achieved_flops_per_s")),
            "efficiency": efficiency(num("efficiency")) if k["efficiency"] else None}
    return out


def from_markdown(path):
    out = {}
    for line in open(path):
        if not line.startswith("| `"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        name = cells[0].strip("`").replace("\\|", "|")
        word, limiter = table_bound(re.sub(r"^\S+ ", "", cells[3]))  # the mark
        rate, eff = measured(cells[6])
        out[name] = {
            "intensity": g3(intensity(cells[2])), "bound": word,
            "limiter": limiter, "attainable": g3(si(cells[4])),
            "min time": g3(seconds(cells[5])), "measured": rate,
            "efficiency": eff}
    return out


def from_sarif(path):
    out = {}
    for r in json.load(open(path))["runs"][0]["results"]:
        m = re.fullmatch(
            r"(.+): I = (\S+) FLOP/B, (memory-bound \((.+)\)|compute-bound|"
            r"bound unknown \(traffic\)) on \S+ \(ridge \S+ FLOP/B\), "
            r"attainable (.+FLOP/s)(?: \(estimated counts\))?",
            r["message"]["text"])
        word = m.group(3).split("-")[0].replace("bound unknown (traffic)", "unknown")
        out[m.group(1)] = {
            "intensity": g3(intensity(m.group(2))), "bound": word,
            "limiter": m.group(4), "attainable": g3(si(m.group(5)))}
    return out


def from_html(path):
    out = {}
    text = open(path).read()
    for row in re.findall(r'<tr data-index="\d+"[^>]*>(.*?)</tr>', text, re.S):
        cells = re.findall(r'<td([^>]*)>(.*?)</td>', row, re.S)
        value = lambda i: (lambda v: float(v) if v else None)(
            re.search(r'data-v="([^"]*)"', cells[i][0]).group(1))
        out[html.unescape(cells[0][1])] = {
            "intensity": g3(value(4)), "bound": cells[5][1],
            "attainable": g3(value(6)), "min time": g3(value(7)),
            "measured": g3(value(8))}
    return out


READERS = [("table", from_table), ("json", from_json), ("csv", from_csv),
           ("markdown", from_markdown), ("sarif", from_sarif),
           ("html", from_html)]
FIELDS = ["intensity", "bound", "limiter", "attainable", "min time",
          "measured", "efficiency"]

Formats = [(name, read(path)) for (name, read), path in zip(READERS, sys.argv[1:])]
Kernels = list(Formats[0][1])
for name, rows in Formats:
    if sorted(rows) != sorted(Kernels):
        print("KERNELS DIFFER: %s has %s" % (name, sorted(rows)))
for kernel in Kernels:
    for field in FIELDS:
        values = [(name, rows[kernel][field]) for name, rows in Formats
                  if field in rows.get(kernel, {})]
        if field == "limiter" and all(v is None for _, v in values):
            continue  # only a memory-bound kernel has one
        if len({v for _, v in values}) == 1:
            print("%s %s: %s (%s)" % (kernel, field, values[0][1],
                                      " ".join(n for n, _ in values)))
        else:
            print("%s %s DIFFERS: %s" % (kernel, field, ", ".join(
                "%s=%s" % nv for nv in values)))
