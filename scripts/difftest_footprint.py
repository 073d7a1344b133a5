#!/usr/bin/env python3
"""Differential tester for footprints: the distinct bytes the pass calls
exact, against the bytes a run touches.

Generates random loop nests over affine accesses (rectangular and
triangular bounds, strides, row-major 2-D indices, constant shifts as in
stencils, reads and writes) to three arrays, many kernels to a program.
The program is built twice from one source: with roofline-clang at each
optimisation level and -roofline-json (the static footprints; accesses are
plain array accesses), and with plain clang and -DTRUTH, where every access
marks its element in a shadow bitmap and the program prints, per kernel and
array, the bytes read and written. For every array whose footprint the
summary calls exact, and whose stated assumptions hold for the run's
arguments, the formula at those arguments must equal the run's bytes; a
bound must hold (lower <= run <= upper). Then at -O2 the program is
instrumented and run, with the kernels out of line and built static, so
that main inlines them: the footprint the profile measured for each kernel
(its formula evaluated at each call, or at each inlined entry with the
values the inlined code had, 0 where a call breaks an assumption) must
equal the run's bytes over its arrays when exact, and be at most them when
a lower bound.

USAGE:
  scripts/difftest_footprint.py --build build --seeds 0:50 [--opt O0,O2,O3-native]
Exit status: 0 when no wrong exact footprint and no broken bound was found.
"""
import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from difftest import (DEFAULT_LEVELS, level_flags, FormulaError, assumption_holds, check_seeds,  # noqa: E402
                      evaluate, read_summaries, run, seeds_of)

KERNELS_PER_PROGRAM = 12
ARRAYS = ("p", "q", "r")
CELLS = 1 << 16  # elements per array; indices start at CELLS / 2


class Kernel:
    def __init__(self, seed, index):
        self.rng = random.Random(seed * 7919 + index)
        self.name = "f%d" % index
        self.n = self.rng.randint(1, 24)
        self.m = self.rng.randint(1, 24)
        self.lines = []
        self.make()

    def make(self):
        r = self.rng
        depth = r.choice([1, 2, 2, 3])
        ivs = []
        ind = "  "
        for d in range(depth):
            iv = "i%d" % d
            lo = r.choice(["0", "0", "1"])
            if d and r.random() < 0.3:
                hi = "%s + 1" % ivs[-1]  # triangular
            else:
                hi = r.choice(["n", "m", "n - 1", "m + 2"])
            self.lines.append("%sfor (int %s = %s; %s < %s; ++%s) {"
                              % (ind, iv, lo, iv, hi, iv))
            ivs.append(iv)
            ind += "  "
        # An array written here is read only in place (y[i] = 1 + y[i]):
        # then the optimiser cannot forward a store to a later load, and
        # the source's accesses are the compiled code's.
        written = set(r.sample(ARRAYS, r.randint(0, 2)))
        readable = [a for a in ARRAYS if a not in written] or ["q"]
        if "q" in written and readable == ["q"]:
            written.discard("q")
        for _ in range(r.randint(1, 4)):
            terms = []
            for iv in ivs:
                c = r.choice(["", "", "2*", "n*", "m*", "0*", "-1*"])
                if c != "0*":
                    terms.append("%s%s" % (c, iv))
            shift = r.choice(["", "", " + 1", " - 1", " + n", " - m", " + 3"])
            idx = (" + ".join(terms) or "0") + shift
            if written and r.random() < 0.5:
                arr = written.pop()
                src = arr if r.random() < 0.5 else r.choice(readable)
                self.lines.append("%sW(%s, %s) = 1.0f + R(%s, %s);"
                                  % (ind, arr, idx, src, idx))
            else:
                self.lines.append("%sacc += R(%s, %s);"
                                  % (ind, r.choice(readable), idx))
        for d in range(depth):
            ind = ind[:-2]
            self.lines.append("%s}" % ind)

    def source(self):
        return ("KATTR float %s(float *p, float *q, "
                "float *r, int n, int m) {\n  float acc = 0;\n%s\n  return acc;\n}\n"
                % (self.name, "\n".join(self.lines)))


PRELUDE = r"""#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define CELLS %d
#ifdef INLINED /* inlined into main: its footprint measured at each entry */
#define KATTR static
#else
#define KATTR __attribute__((noinline))
#endif
#ifdef TRUTH
/* Every access marks its element: [array][read/written]. */
static unsigned char seen[3][2][CELLS];
static float *base[3];
static float *mark(float *p, long i, int w) {
  for (int a = 0; a < 3; ++a)
    if (p >= base[a] - CELLS / 2 && p < base[a] + CELLS / 2) {
      long e = p + i - (base[a] - CELLS / 2);
      if (e >= 0 && e < CELLS)
        seen[a][w][e] = 1;
    }
  return p + i;
}
#define R(p, i) (*mark(p, i, 0))
#define W(p, i) (*mark(p, i, 1))
#else
#define R(p, i) (p)[i]
#define W(p, i) (p)[i]
#endif
static float store[3][CELLS];
""" % CELLS


# The truth build's report: per array, the bytes read and written.
TRUTH_REPORT = r"""  const char *names = "pqr";
  for (int a = 0; a < 3; ++a) {
    long rd = 0, wr = 0;
    for (long e = 0; e < CELLS; ++e)
      rd += seen[a][0][e], wr += seen[a][1][e];
    printf("%c %ld %ld\n", names[a], 4 * rd, 4 * wr);
  }"""


def program(kernels):
    body = "\n".join(k.source() for k in kernels)
    calls = "\n".join(
        "  case %d: s = %s(P, Q, Rr, %d + off, %d + off); break;"
        % (i, k.name, k.n, k.m) for i, k in enumerate(kernels))
    return (PRELUDE + body + r"""
int main(int argc, char **argv) {
  if (argc < 2) return 2;
  int off = argc > 2 ? atoi(argv[2]) : 0; /* 0: the compiler cannot fold n, m */
  float *P = store[0] + CELLS / 2, *Q = store[1] + CELLS / 2, *Rr = store[2] + CELLS / 2;
  float s = 0;
#ifdef TRUTH
  base[0] = P, base[1] = Q, base[2] = Rr;
#endif
  switch (atoi(argv[1])) {
""" + calls + r"""
  }
#ifdef TRUTH
""" + TRUTH_REPORT + r"""
#endif
  printf("%g\n", s);
  return 0;
}
""")


class Result:
    """As difftest's (check_seeds sums these fields)."""

    def __init__(self):
        self.checked = 0   # arrays with an exact footprint compared
        self.exact = 0     # arrays with bounds checked (not exact)
        self.skipped = 0   # an assumption failed or is unreadable
        self.measured = 0  # measured footprints compared (out of line, inlined)
        self.failures = []


def truth_bytes(flags, src, kernels, work, seed, res):
    """Builds \p src with -DTRUTH (plain clang, \p flags first) and runs each
    kernel: per kernel name, per array, (bytes read, bytes written); None
    (a failure in \p res) when it does not build."""
    exe = os.path.join(work, "truth")
    r = run(["/usr/lib/llvm-22/bin/clang"] + flags + ["-O0", "-w", "-DTRUTH", src, "-o", exe])
    if r.returncode:
        res.failures.append((seed, "truth build failed: " + r.stderr[-2000:]))
        return None
    truth = {}
    for i, k in enumerate(kernels):
        out = run([exe, str(i)])
        if out.returncode == 0:
            truth[k.name] = {l.split()[0]: (int(l.split()[1]), int(l.split()[2]))
                             for l in out.stdout.splitlines()[:3]}
    return truth


def check_program(seed, opts, build, keep):
    kernels = [Kernel(seed, i) for i in range(KERNELS_PER_PROGRAM)]
    res = Result()
    work = keep or tempfile.mkdtemp(prefix="roofline-fp-")
    os.makedirs(work, exist_ok=True)
    src = os.path.join(work, "fp%d.c" % seed)
    with open(src, "w") as f:
        f.write(program(kernels))
    try:
        truth = truth_bytes([], src, kernels, work, seed, res)
        if truth is None:
            return res
        for opt in opts:
            jdir = os.path.join(work, opt + "-json") + "/"
            shutil.rmtree(jdir, ignore_errors=True)
            os.makedirs(jdir)
            r = run([os.path.join(build, "bin", "roofline-clang")] + level_flags(opt) + ["-w",
                     "-c", "-mllvm", "-roofline-json=" + jdir, src, "-o",
                     os.path.join(work, opt + ".o")])
            if r.returncode:
                res.failures.append((seed, "-%s: build failed: %s" % (opt, r.stderr[-2000:])))
                continue
            summaries = read_summaries(jdir)
            for k in kernels:
                s, t = summaries.get(k.name), truth.get(k.name)
                if s is None or t is None:
                    continue
                env = {"n": k.n, "m": k.m}
                if not all(assumption_holds(a, env) for a in s["assumptions"]):
                    res.skipped += 1
                    continue
                for p in s["pointer_params"]:
                    fp = p.get("footprint")
                    if fp is None or p["name"] not in t:
                        continue
                    if not all(assumption_holds(a, env) is True
                               for a in fp["assumptions"]):
                        res.skipped += 1
                        continue
                    got = t[p["name"]]
                    try:
                        hi = [evaluate(fp[x], env) for x in ("read", "written")]
                        lo = [evaluate(fp.get(x + "_at_least", fp[x]), env)
                              for x in ("read", "written")]
                    except (FormulaError, ZeroDivisionError, TypeError, KeyError):
                        if fp["exact"]:
                            res.failures.append((seed, "-%s %s %s: unreadable %r"
                                                 % (opt, k.name, p["name"], fp)))
                        continue
                    # A loop that does not run gives a formula below 0: 0 bytes.
                    hi = [max(0, v) for v in hi]
                    lo = [max(0, v) for v in lo]
                    if fp["exact"]:
                        res.checked += 1
                        if [int(v) for v in hi] != list(got):
                            res.failures.append((seed, "-%s %s array %s: exact "
                                                 "footprint %s = %s, the run touched %s\n%s"
                                                 % (opt, k.name, p["name"],
                                                    (fp["read"], fp["written"]), hi,
                                                    got, k.source())))
                    else:
                        res.exact += 1
                        for d in range(2):
                            if not lo[d] <= got[d]:
                                res.failures.append((seed, "-%s %s array %s: lower "
                                                     "bound %s > the run's %s\n%s"
                                                     % (opt, k.name, p["name"], lo[d],
                                                        got[d], k.source())))
        for inlined in (False, True):
            check_measured(seed, kernels, truth, src, work, build, res, inlined)
    finally:
        if not keep:
            shutil.rmtree(work, ignore_errors=True)
    return res


def check_measured(seed, kernels, truth, src, work, build, res, inlined):
    """The footprints a run measures per call (out of line) or per entry
    (\p inlined into main), each against the bytes the run touched."""
    how = "inlined" if inlined else "out of line"
    exe = os.path.join(work, "inlined" if inlined else "noinline")
    r = run([os.path.join(build, "bin", "roofline-clang"), "-O2", "-w"] +
            (["-DINLINED"] if inlined else []) + [src, "-o", exe])
    if r.returncode:
        res.failures.append((seed, "-O2 %s: build failed: %s" % (how, r.stderr[-2000:])))
        return
    for i, k in enumerate(kernels):
        t = truth.get(k.name)
        if t is None:
            continue
        prof = os.path.join(work, "%s-%d.json" % (how.replace(" ", "-"), i))
        out = run([exe, str(i)], env=dict(os.environ, ROOFLINE_PROFILE=prof))
        if out.returncode or not os.path.exists(prof):
            continue
        with open(prof) as f:
            rec = {x["name"]: x for x in json.load(f)["kernels"]}.get(k.name)
        fp = rec.get("footprint") if rec else None
        if not fp or bool(rec.get("inlined_into")) != inlined:
            continue  # not measured (the profile says so), or not inlined
        got = [sum(v[d] for v in t.values()) for d in range(2)]
        have = [fp["read"], fp["written"]]
        res.measured += 1
        bad = (have != got) if fp["exact"] else any(
            have[d] > got[d] for d in range(2))
        if bad:
            res.failures.append((seed, "-O2 %s %s: measured footprint %s "
                                 "(%s), the run touched %s\n%s"
                                 % (how, k.name, have, "exact" if fp["exact"]
                                    else "lower bound", got, k.source())))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--seeds", default="0:20")
    ap.add_argument("--opt", default=DEFAULT_LEVELS)
    ap.add_argument("--keep")
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    opts = a.opt.split(",")

    def check(seed):
        return check_program(seed, opts, a.build, a.keep)

    total = check_seeds(check, seeds_of(a.seeds), a.jobs, tag="difftest-footprint")
    print("difftest-footprint: %d exact footprints compared, %d bounds checked, "
          "%d skipped (assumptions), %d measured footprints compared (out of "
          "line and inlined), %d failures"
          % (total.checked, total.exact, total.skipped, total.measured,
             len(total.failures)))
    return 1 if total.failures else 0


if __name__ == "__main__":
    sys.exit(main())
