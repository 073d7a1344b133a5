#!/usr/bin/env python3
"""Prints a profile's kernel records one line each, sorted by name, for
FileCheck; with --same-flops OTHER, checks that every kernel has the same
FLOPs as in OTHER (the same program built with -fno-inline)."""
import argparse
import json
import sys


def load(path):
    with open(path) as f:
        return {k["display_name"]: k for k in json.load(f)["kernels"]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("profile")
    ap.add_argument("--same-flops", metavar="OTHER")
    args = ap.parse_args()
    kernels = load(args.profile)
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
                  f"timed={'seconds' in loop}")
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


if __name__ == "__main__":
    sys.exit(main())
