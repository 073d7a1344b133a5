#!/usr/bin/env python3
"""MLP inference vs training: measured counts of each phase, and the bound.

USAGE: analyze.py REPORT OUTDIR Bt,In,Hd,Out BATCH...  (scripts/examples.sh training)

OUTDIR/mlp.json: the plugin's summary of the phase functions (infer,
train_sgd, train_adam); OUTDIR/{infer,sgd,adam}.profile.json: the
instrumented runs of each phase at Bt,In,Hd,Out. A phase's measured counts
are the sums over its kernels in the run's profile; its static counts are
roofline-report's evaluation of the phase function's formula.
"""
import json
import os
import subprocess
import sys

REPORT, OUT, SIZES = sys.argv[1], sys.argv[2], sys.argv[3]
BATCHES = sys.argv[4:]
PHASES = (("infer", "infer"), ("sgd", "train_sgd"), ("adam", "train_adam"))
summary = os.path.join(OUT, "mlp.json")
Bt, In, Hd, Out = SIZES.split(",")
assume = "Bt=%s,In=%s,Hd=%s,Out=%s" % (Bt, In, Hd, Out)


def run(args):
    return subprocess.run([REPORT] + args, capture_output=True, text=True,
                          check=True).stdout


def report(args):
    return json.loads(run(args + ["--format", "json"]))


static = {k["display_name"].split("(")[0]: k for k in report(
    [summary, "--platform", "h100-sxm", "--assume", assume])["kernels"]}
print("== measured: each phase run once (instrumented), Bt=%s In=%s Hd=%s "
      "Out=%s ==" % (Bt, In, Hd, Out))
print("%-6s %14s %14s %12s %9s  %s" % ("phase", "FLOPs", "bytes", "I (FLOP/B)",
                                       "seconds", "static formula at these sizes"))
for run_name, fn in PHASES:
    prof = json.load(open(os.path.join(OUT, run_name + ".profile.json")))
    ks = prof["kernels"]
    fl = sum(k["flops"]["total"] for k in ks)
    by = sum(k["bytes"]["load"] + k["bytes"]["store"] for k in ks)
    s = static[fn]
    print("%-6s %14d %14d %12.4g %9.3f  %s: %d FLOPs, %d B: %s" %
          (run_name, fl, by, fl / by, sum(k["seconds"] for k in ks), fn,
           s["flops"], s["bytes_load"] + s["bytes_store"],
           "equal" if (fl, by) == (s["flops"], s["bytes_load"] + s["bytes_store"]) else "DIFFERENT"))
print()

print("== the adam run, per kernel (measured on this machine against the "
      "default CPU platform) ==")
print("$ roofline-report adam.profile.json")
print(run([os.path.join(OUT, "adam.profile.json")]))

for plat in ("h100-sxm", "intel-xeon-8480"):
    args = [summary, "--platform", plat, "--assume", assume]
    print("== the phases at the run's sizes on %s ==" % plat)
    print("$ roofline-report mlp.json " + " ".join(args[1:]))
    print(run(args))

print("== intensity (FLOP/B) by batch size, In=%s Hd=%s Out=%s; bound on "
      "h100-sxm ==" % (In, Hd, Out))
print("%-12s" % "phase" + "".join(" | batch %-14s" % b for b in BATCHES))
rows = {}
for b in BATCHES:
    r = report([summary, "--platform", "h100-sxm", "--assume",
                "Bt=%s,In=%s,Hd=%s,Out=%s" % (b, In, Hd, Out)])
    for k in r["kernels"]:
        rows.setdefault(k["display_name"].split("(")[0], []).append(k)
for name, ks in rows.items():
    # An intensity is null where the verdict is not known (its traffic).
    print("%-12s" % name + "".join(
        " | %7s %-12s" % ("%.3g" % k["intensity"] if k["intensity"] is not None else "?",
                          k["bound"]) for k in ks))
