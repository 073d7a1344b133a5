#!/usr/bin/env python3
"""llvm-stress over the analysis and the instrumenter.

For each seed, llvm-stress writes a random function (loops, vectors, odd
integer widths, selects, casts). For the host triple and for nvptx64 (the
function made a kernel), the module goes through
  opt -passes='print<roofline>,roofline-instrument' | opt -passes=verify | llc
(and ptxas for nvptx, when the CUDA toolkit is there). A module that llc
compiles without the plugin must compile with it: a crash, a verifier error
or an llc/ptxas failure that only the instrumented module has is a failure,
printed with the seed and the command to reproduce it.

USAGE:
  scripts/stress.py --build build --seeds 0:50 [--size 120] [--triples host,nvptx]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

LLVM = "/usr/lib/llvm-22/bin"
TRIPLES = {
    "host": ("x86_64-unknown-linux-gnu", []),
    "nvptx": ("nvptx64-nvidia-cuda", ["-mcpu=sm_80"]),
}


def sh(cmd, stdin=None):
    return subprocess.run(cmd, input=stdin, capture_output=True, timeout=120)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--seeds", default="0:20", help="LO:HI")
    ap.add_argument("--size", type=int, default=120)
    ap.add_argument("--triples", default="host,nvptx")
    args = ap.parse_args()
    lo, hi = (int(x) for x in args.seeds.split(":"))
    plugin = os.path.join(args.build, "lib", "RooflinePass.so")
    ptxas = shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
    has_ptxas = os.path.exists(ptxas)
    work = tempfile.mkdtemp(prefix="roofline-stress-")
    failures = compiled = skipped = 0
    try:
        for seed in range(lo, hi):
            ir = sh([LLVM + "/llvm-stress", "-seed=%d" % seed,
                     "-size=%d" % args.size]).stdout
            for name in args.triples.split(","):
                triple, llc_flags = TRIPLES[name]
                text = ir.decode()
                text = 'target triple = "%s"\n' % triple + text
                if name == "nvptx":
                    text = re.sub(r"define void @", "define ptx_kernel void @", text)
                src = os.path.join(work, "s%d-%s.ll" % (seed, name))
                with open(src, "w") as f:
                    f.write(text)
                llc = [LLVM + "/llc", "-O2"] + llc_flags
                # The reference: does the module compile without the plugin?
                plain = sh(llc + [src, "-o", os.devnull])
                if plain.returncode:
                    skipped += 1
                    continue
                repro = ("%s/opt -load-pass-plugin=%s -passes='print<roofline>,"
                         "roofline-instrument' %s -S | %s -" % (LLVM, plugin, src, " ".join(llc)))
                printed = sh([LLVM + "/opt", "-load-pass-plugin=" + plugin,
                              "-passes=print<roofline>", "-disable-output", src])
                if printed.returncode:
                    failures += 1
                    print("FAIL seed %d %s: print<roofline>: %s\n  %s" % (
                        seed, name, printed.stderr.decode()[-1500:], repro))
                    continue
                inst = sh([LLVM + "/opt", "-load-pass-plugin=" + plugin,
                           "-passes=roofline-instrument,verify", src, "-o", "-"])
                if inst.returncode:
                    failures += 1
                    print("FAIL seed %d %s: opt: %s\n  %s" % (
                        seed, name, inst.stderr.decode()[-1500:], repro))
                    continue
                out = os.path.join(work, "s%d-%s.s" % (seed, name))
                back = sh(llc + ["-", "-o", out], stdin=inst.stdout)
                if back.returncode:
                    failures += 1
                    print("FAIL seed %d %s: llc: %s\n  %s" % (
                        seed, name, back.stderr.decode()[-1500:], repro))
                    continue
                if name == "nvptx" and has_ptxas:
                    plain_ptx = os.path.join(work, "plain.ptx")
                    sh(llc + [src, "-o", plain_ptx])
                    ref = sh([ptxas, "-arch=sm_80", plain_ptx, "-o", os.devnull])
                    got = sh([ptxas, "-arch=sm_80", out, "-o", os.devnull])
                    if ref.returncode == 0 and got.returncode:
                        failures += 1
                        print("FAIL seed %d nvptx: ptxas: %s\n  %s" % (
                            seed, got.stderr.decode()[-1500:], repro))
                        continue
                compiled += 1
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("stress: seeds %d..%d, %d modules compiled with the plugin, %d that llc "
          "rejects without it skipped; %d failures" % (lo, hi - 1, compiled, skipped,
                                                       failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
