#!/usr/bin/env python3
"""LLM prefill vs decode from the plugin's formulas (real shapes) and a run.

USAGE: analyze.py REPORT OUTDIR PROMPT CTX BATCH...   (scripts/examples.sh llm)
       analyze.py REPORT OUTDIR cuda      (scripts/examples.sh llm-cuda)

OUTDIR/llm.json: the static summary of the scenario functions of llm.cpp
(7B-class shapes baked in, the prompt length, context and batch left as
parameters). OUTDIR/stack.json: the generic decoder_stack<T, KV>
instantiations. OUTDIR/run-*.profile.json + run-*.args: reduced-size runs.
Every number printed is roofline-report's evaluation of the plugin's
formulas (--assume) or a run's exact counts.
"""
import json
import os
import re
import subprocess
import sys

REPORT, OUT, PROMPT, CTX = (sys.argv[1:5] + [None])[:4]  # PROMPT "cuda": no CTX
BATCHES = sys.argv[5:]
PLATFORMS = ("h100-sxm", "h200")


def run(args):
    return subprocess.run([REPORT] + args, capture_output=True, text=True,
                          check=True).stdout


def report(args):
    return json.loads(run(args + ["--format", "json"]))


def si(x, unit=""):
    for p, s in ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k"), (1, ""),
                 (1e-3, "m"), (1e-6, "u"), (1e-9, "n")):
        if abs(x) >= p:
            return "%.3g %s%s" % (x / p, s, unit)
    return "0 %s" % unit


def short(name):
    return re.sub(r"^void |\(.*", "", name)


# ---- CUDA: `analyze.py REPORT OUTDIR cuda` (scripts/examples.sh llm-cuda) -----
# gemv.cu's decode GEMV (fp16, one thread per output row): the per-thread
# formulas times Dout threads, beside llm.cpp's linear<_Float16> per call
# (OUTDIR/linear.json), for the projections of one decoder layer at the
# scenarios' shapes (read from llm.cpp), MHA, batch 1 and 8.
def cuda():
    src = open(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                            "llm.cpp")).read()
    c = {n: int(v) for n, v in
         re.findall(r"\b(Layers|D|HeadDim|FFN) = (\d+)", src)}
    g, hkv = map(int, re.search(r"#define MHA (\d+), (\d+)", src).groups())
    d, dff, qd, kvd = c["D"], c["FFN"], g * hkv * c["HeadDim"], \
        hkv * c["HeadDim"]
    projs = (("q", d, qd), ("k", d, kvd), ("v", d, kvd), ("o", qd, d),
             ("gate", d, dff), ("up", d, dff), ("down", dff, d))
    gj = json.load(open(os.path.join(OUT, "gemv.json")))
    print("== gemv.cu: the plugin's per-thread formulas (sm_90) ==")
    for k in gj["kernels"]:
        f = k["formula"]
        print("%-14s FLOPs %-7s (%s) global load %-7s store %s" % (
            short(k["display_name"]), f["flops"],
            ", ".join("%s %s %s" % (p, op, n) for p, ops in
                      f["classes"].items() for op, n in ops.items()),
            f["bytes_load"], f["bytes_store"]))
        json.dump(dict(gj, kernels=[k]), open(os.path.join(
            OUT, short(k["display_name"]) + ".json"), "w"))
    lin = os.path.join(OUT, "linear.json")
    f = json.load(open(lin))["kernels"][0]["formula"]
    print("linear<_Float16> (llm.cpp, per call) FLOPs %s, memory load %s, "
          "store %s\n" % (f["flops"], f["bytes_load"], f["bytes_store"]))
    for b in (1, 8):
        gemv = os.path.join(OUT, "gemv_fp16_b%d.json" % b)
        print("== decode, batch %d: the projections of one layer (d = %d, "
              "FFN %d, MHA); gemv_fp16_b%d on %s ==" % (
                  b, d, dff, b, " / ".join(PLATFORMS)))
        print("%-5s %6s %6s | %9s %9s | %9s %9s %5s %6s | %s" % (
            "proj", "Din", "Dout", "C++ FLOPs", "CUDA", "C++ B", "CUDA B",
            "x", "FLOP/B", "bound, min time per platform"))
        tot = dict(cf=0, gf=0, cb=0, gb=0)
        times = [0] * len(PLATFORMS)
        ctimes = [0] * len(PLATFORMS)
        for name, din, dout in projs:
            cs = [report([lin, "--platform", p, "--assume", "N=%d,Din=%d,"
                          "Dout=%d" % (b, din, dout)])["kernels"][0]
                  for p in PLATFORMS]
            cpp = cs[0]
            gs = [report([gemv, "--platform", p, "--assume",
                          "Din=%d,Dout=%d,threads=%d" % (din, dout, dout)])["kernels"][0]
                  for p in PLATFORMS]
            print("%-5s %6d %6d | %9s %9s | %9s %9s %5.3g %6.3g | %s" % (
                name, din, dout, si(cpp["flops"]),
                "=" if gs[0]["flops"] == cpp["flops"] else si(gs[0]["flops"]),
                si(cpp["bytes"], "B"), si(gs[0]["bytes"], "B"),
                gs[0]["bytes"] / cpp["bytes"], gs[0]["intensity"],
                "  ".join("%s %s" % (g["bound"], si(g["min_seconds"], "s"))
                          for g in gs)))
            for key, v in (("cf", cpp["flops"]), ("gf", gs[0]["flops"]),
                           ("cb", cpp["bytes"]), ("gb", gs[0]["bytes"])):
                tot[key] += v
            times = [t + g["min_seconds"] for t, g in zip(times, gs)]
            ctimes = [t + k["min_seconds"] for t, k in zip(ctimes, cs)]
        L = c["Layers"]
        print("%d layers: C++ %d FLOPs, %d B; CUDA %d FLOPs (%s), %d B (%.2fx)"
              % (L, L * tot["cf"], L * tot["cb"], L * tot["gf"],
                 "equal" if tot["gf"] == tot["cf"] else "DIFFERENT",
                 L * tot["gb"], tot["gb"] / tot["cb"]))
        print("%d layers: minimum time (%s): C++ %s, CUDA %s\n" % (
            L, " / ".join(PLATFORMS),
            " / ".join(si(L * t, "s") for t in ctimes),
            " / ".join(si(L * t, "s") for t in times)))


if PROMPT == "cuda":
    cuda()
    sys.exit(0)


llm = os.path.join(OUT, "llm.json")
print("== the plugin's formulas (4 layers, d = 4096, 32 query heads of 128, "
      "FFN 11008) ==")
for k in json.load(open(llm))["kernels"]:
    f = k["formula"]
    print("%-20s FLOPs %s\n%-20s bytes %s + %s" %
          (short(k["display_name"]), f["flops"], "", f["bytes_load"],
           f["bytes_store"]))
print()

assume = "prompt=%s,ctx=%s,batch=%s" % (PROMPT, CTX, BATCHES[0])
args = [llm, "--platform", PLATFORMS[0], "--assume", assume]
print("== prompt %s tokens, decode with %s tokens in the KV cache, batch %s "
      "==" % (PROMPT, CTX, BATCHES[0]))
print("$ roofline-report llm.json " + " ".join(args[1:]))
print(run(args))

# The plugin classes the fp16 FLOPs of this C++ code as fp16 vector work,
# judged against the fp16 vector (CUDA core, half2 FMA) roof of the H100/H200
# files. On a GPU these GEMMs and attention products run on tensor cores: a
# copy of each platform file whose fp16 vector roof is the fp16 tensor
# figure shows that case.
def tensor_platform(name):
    plat = json.load(open(os.path.join(os.path.dirname(__file__), "..", "..",
                                       "platforms", name + ".json")))
    t = [c for c in plat["compute"]
         if c["precision"] == "fp16" and c["unit"] == "tensor"][0]
    plat["compute"] = [c for c in plat["compute"]
                       if not (c["precision"] == "fp16" and c["unit"] == "vector")]
    plat["compute"].append(dict(t, unit="vector", source=(
        "Derived for examples/llm: the fp16 tensor figure of %s.json, so "
        "that fp16 work counted on a CPU is judged as tensor-core work. " %
        name) + t["source"]))
    plat["name"] += "-fp16-tensor"
    plat["display_name"] += " (fp16 work on tensor cores)"
    out = os.path.join(OUT, plat["name"] + ".json")
    json.dump(plat, open(out, "w"), indent=1)
    return out


TENSOR = [tensor_platform(p) for p in PLATFORMS]
ALL = list(PLATFORMS) + TENSOR


def pname(p):
    return os.path.basename(p)[:-5] if p.endswith(".json") else p


print("== intensity (FLOP/B) and bound: prefill of %s tokens; decode with %s "
      "tokens of context at each batch ==" % (PROMPT, CTX))
rows, ridges = {}, {}
for b in BATCHES:
    for p in ALL:
        r = report([llm, "--platform", p, "--assume",
                    "prompt=%s,ctx=%s,batch=%s" % (PROMPT, CTX, b)])
        for k in r["kernels"]:
            rows.setdefault(short(k["display_name"]), {})[(b, p)] = k
            if "fp16" in k["display_name"]:
                ridges[pname(p)] = (k["ridge"], k["roof"])
for p, (rg, roof) in ridges.items():
    print("  %-22s ridge for fp16 work %6.4g FLOP/B (%s)" % (p, rg, roof))
print("  bounds below: h100-sxm h200 (fp16 on the CUDA cores' fp16 vector "
      "roof) / h100-sxm h200 with fp16 on the tensor roof")
head = "%-20s %9s" % ("scenario", "FLOPs")
for b in BATCHES:
    head += " | %-32s" % ("batch %s: bytes, I, bounds" % b)
print(head)
for name, by in rows.items():
    line = "%-20s %9s" % (name, si(by[(BATCHES[0], ALL[0])]["flops"]))
    for b in BATCHES:
        k = by[(b, ALL[0])]
        line += " | %7s %6.4g %s" % (si(k["bytes"], "B"), k["intensity"] or float("inf"), " ".join(
            by[(b, p)]["bound"][:3] + ("/" if p == PLATFORMS[-1] else "")
            for p in ALL))
    print(line)
print()

# Time per generated token: the decode step's minimum time per sequence.
print("== decode: minimum time per step / per token in us (h100-sxm, h200; "
      "fp16 on their tensor roofs) ==")
for name, by in rows.items():
    if not name.startswith("decode"):
        continue
    line = "%-20s" % name
    plats = (TENSOR if "fp16" in name else PLATFORMS)
    for b in BATCHES:
        t = [by[(b, p)]["min_seconds"] for p in plats]
        line += " | batch %2s: %s" % (b, " ".join(
            "%6.0f/%4.0f" % (x * 1e6, x * 1e6 / int(b)) for x in t))
    print(line)
print()

# Reduced-size runs against the static formulas of decoder_stack<T, KV>.
stack = os.path.join(OUT, "stack.json")
names = {"fp32": "decoder_stack<float, float>",
         "fp16": "decoder_stack<_Float16, _Float16>",
         "fp16-kv8": "decoder_stack<_Float16, signed char>"}
print("== reduced-size runs: exact counts of the instrumented run vs the "
      "static formula ==")
for f in sorted(os.listdir(OUT)):
    if not f.endswith(".args"):
        continue
    variant, *vals = open(os.path.join(OUT, f)).read().split()
    keys = ("L", "B", "Nq", "past", "d", "G", "Hkv", "dh", "dff")
    a = ",".join("%s=%s" % kv for kv in zip(keys, vals))
    st = [k for k in report([stack, "--platform", PLATFORMS[0], "--assume", a])
          ["kernels"] if short(k["display_name"]) == names[variant]][0]
    prof = json.load(open(os.path.join(OUT, f[:-5] + ".profile.json")))
    fl = sum(k["flops"]["total"] for k in prof["kernels"])
    by = sum(k["bytes"]["load"] + k["bytes"]["store"] for k in prof["kernels"])
    print("%-8s %-44s run %9d FLOPs %9d B | static %9d FLOPs %9d B: %s" %
          (variant, a, fl, by, st["flops"], st["bytes_load"] + st["bytes_store"],
           "equal" if (fl, by) == (st["flops"], st["bytes_load"] + st["bytes_store"])
           else "DIFFERENT"))
