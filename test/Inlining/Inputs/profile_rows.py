#!/usr/bin/env python3
"""Prints a profile's kernel records one line each, sorted by name, for
FileCheck; with --same-flops OTHER, checks that every kernel has the same
FLOPs as in OTHER (the same program built with -fno-inline). With --source
TABLE (a Python file with SOURCE = {kernel: (FLOPs, formula)}, derived by
hand) each kernel's FLOPs are judged: equal to the source count, or, where
the optimiser removed work, equal to OTHER's; with --inlined-into F every
kernel of the table must be a record inlined into F."""
import argparse
import json
import runpy
import sys


def load(path):
    with open(path) as f:
        return {k["display_name"]: k for k in json.load(f)["kernels"]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("profile")
    ap.add_argument("--same-flops", metavar="OTHER")
    ap.add_argument("--source", metavar="TABLE")
    ap.add_argument("--inlined-into", metavar="F")
    ap.add_argument("--level", metavar="O2|O3",
                    help="which of TABLE's OPTIMISED counts apply")
    args = ap.parse_args()
    kernels = load(args.profile)
    if args.source:
        table = runpy.run_path(args.source)
        optimised = {k: v for (k, level), v in
                     table.get("OPTIMISED", {}).items() if level == args.level}
        return judge(kernels, table["SOURCE"], optimised,
                     load(args.same_flops) if args.same_flops else {},
                     args.inlined_into)
    for name in sorted(kernels):
        k = kernels[name]
        into = ",".join(k.get("inlined_into", [])) or "-"
        print(f"kernel {name} inlined_into={into} calls={k['calls']} "
              f"flops={k['flops']['total']} load={k['bytes']['load']} "
              f"store={k['bytes']['store']} timing={k.get('timing')}")
        for loop in k.get("loops", []):
            # By its line from the function's (stable as the file grows).
            print(f"  loop +{loop['line'] - k['line']} entries={loop.get('entries')} "
                  f"iterations={loop.get('iterations')} flops={loop['flops']} "
                  f"timed={'seconds' in loop}"
                  + (f" per_entry={loop['min_iterations_per_entry']}.."
                     f"{loop['max_iterations_per_entry']}"
                     if "max_iterations_per_entry" in loop else ""))
    if args.same_flops:
        # FLOPs only: inlining lets the optimiser keep more values in
        # registers (a caller's buffers are known not to alias), so the
        # bytes loaded may fairly differ; the operations may not.
        other = load(args.same_flops)
        shared = sorted(set(kernels) & set(other))
        bad = [n for n in shared
               if kernels[n]["flops"]["total"] != other[n]["flops"]["total"]]
        for n in bad:
            print(f"MISMATCH {n}: {kernels[n]['flops']['total']} FLOPs inlined, "
                  f"{other[n]['flops']['total']} not")
        print(f"same FLOPs as -fno-inline: {len(shared) - len(bad)} of {len(shared)}")
    return 0


def judge(kernels, source, optimised, other, into):
    """One line per kernel of the table, then the tally."""
    tally = {"source": 0, "fno-inline": 0, "optimised": 0, "wrong": 0}
    for name, (flops, formula) in sorted(source.items()):
        k = kernels.get(name)
        if k is None:
            print(f"{name}: MISSING from the profile")
            tally["wrong"] += 1
            continue
        got = k["flops"]["total"]
        where = ",".join(k.get("inlined_into", [])) or "-"
        if into and where != into:
            print(f"{name}: inlined_into={where}, not {into}")
            tally["wrong"] += 1
            continue
        ref = other.get(name, {}).get("flops", {}).get("total")
        if got == flops:
            verdict, key = "= source", "source"
        elif ref is not None and got == ref and got < flops:
            verdict, key = f"= -fno-inline, {flops - got} fewer than the source", "fno-inline"
        elif name in optimised and got == optimised[name][0]:
            verdict, key = (f"= the optimised code's {optimised[name][0]} "
                            f"({optimised[name][1]})", "optimised")
        else:
            verdict, key = f"WRONG (-fno-inline {ref})", "wrong"
        tally[key] += 1
        print(f"{name}: inlined_into={where} calls={k['calls']} flops={got} "
              f"source={flops} ({formula}): {verdict}")
    print(f"{len(source)} kernels: {tally['source']} equal to the source "
          f"count, {tally['fno-inline']} with work removed by the optimiser "
          f"(equal to -fno-inline), {tally['optimised']} equal to the "
          f"optimised code's count by hand, {tally['wrong']} wrong")
    return 0


if __name__ == "__main__":
    sys.exit(main())
