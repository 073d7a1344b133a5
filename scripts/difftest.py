#!/usr/bin/env python3
"""Differential tester: the static counts the pass calls exact, against a run.

Generates random C loop nests (integer widths 8 to 128, signed and unsigned
counters and bounds, steps, <, <=, >, >=, != tests, do-while and
break-at-the-bottom shapes, triangular bounds, parameter guards that -O3
unswitches, possibly-zero inner trips, early exits, a loop over an aliasing
pair that -O3 versions behind a runtime check), many kernels to a program. Each program is built with roofline-clang at each
optimisation level with -roofline-json (the static summary) and run with
ROOFLINE_PROFILE (the instrumented counts of the same IR), and also built with
plain clang: the outputs must agree. Then, for every kernel the summary calls
exact whose stated assumptions hold for the run's arguments, the formulas
evaluated at those arguments must equal the run's FLOPs, integer operations
and bytes (a fifth of the statements update an integer hash table).

A kernel the summary does not call exact is not checked (an estimate may be
off); a negative formula value or an unreadable formula is always a failure.
Failures print the seed, the kernel's C source, and the two values.

USAGE:
  scripts/difftest.py --build build --seeds 0:200 [--opt O0,O2,O3-native] [--jobs 2]
  scripts/difftest.py --build build --seeds 1234 --keep /tmp/case  # one seed
Exit status: 0 when no wrong exact count, crash or output mismatch was found.
"""
import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction

KERNELS_PER_PROGRAM = 16

# The optimisation levels every tester builds at: -O0, -O2, and how HPC and
# ML users build, -O3 -march=native (unswitched nests, versioned and
# vectorised loops with runtime alias checks, AVX-512 masked remainders).
DEFAULT_LEVELS = "O0,O2,O3-native"


def level_flags(level, device=False):
    """A level's compiler flags: "O2" is -O2; "O3-native" is -O3
    -march=native (device code has no -march: only -O3)."""
    opt, _, native = level.partition("-")
    flags = ["-" + opt]
    if native == "native" and not device:
        flags.append("-march=native")
    elif native and native != "native":
        raise SystemExit("unknown level %r (O0, O2, O3-native, ...)" % level)
    return flags

INT_TYPES = [
    ("int8_t", 8, True), ("uint8_t", 8, False),
    ("int16_t", 16, True), ("uint16_t", 16, False),
    ("int", 32, True), ("unsigned", 32, False),
    ("long", 64, True), ("unsigned long", 64, False),
]


class Kernel:
    """One generated kernel: C source, its parameters and the run's values."""

    def __init__(self, seed, index):
        self.rng = random.Random(seed * 1000003 + index)
        self.seed = seed
        self.name = "k%d" % index
        self.params = []   # (name, C type, value)
        self.lines = []
        self.ivs = []      # names of the enclosing induction variables
        self.depth = 0
        self.make()

    # -- parameters -------------------------------------------------------
    def param(self):
        r = self.rng
        if len(self.params) < 3 and (not self.params or r.random() < 0.5):
            ctype, width, signed = r.choice(INT_TYPES[2:] + INT_TYPES[4:] * 2)
            lo, hi = (-6, 40) if signed else (0, 40)
            if r.random() < 0.15:
                lo, hi = (0, 300)  # past the range of narrow counters
            if width == 16:
                hi = min(hi, 40)
            value = r.randint(lo, hi)
            name = "nmpq"[len(self.params)]
            self.params.append((name, ctype, value))
            return name
        return r.choice(self.params)[0]

    def bound(self):
        """A loop bound: a parameter, an outer counter, a constant, or sums."""
        r = self.rng
        choice = r.random()
        if choice < 0.45:
            e = self.param()
        elif choice < 0.65 and self.ivs:
            e = r.choice(self.ivs)
        elif choice < 0.8:
            e = str(r.randint(-3, 30))
        else:
            e = "%s + %d" % (self.param(), r.randint(-4, 6))
        if r.random() < 0.15 and self.ivs:
            e = "%s + %s" % (e, r.choice(self.ivs))
        return e

    # -- statements -------------------------------------------------------
    # Statements may update the host's integer table h (the CUDA tester's
    # kernels, which also run on the device, have no h).
    INTEGER_WORK = True

    def body(self):
        r = self.rng
        idx = " + ".join(self.ivs) if self.ivs else "0"
        coef = r.choice(["", "3 * ", "7 * "])
        what = r.random()
        if what < 0.2 and self.INTEGER_WORK:
            # Integer work: the hash update counts (a mul and an add, and
            # the counters' arithmetic in its value); the index does not.
            self.emit("h[(unsigned long)(%s) & 255] = h[(unsigned long)(%s) & 255]"
                      " * 31u + (unsigned)(%s(%s));" % (idx, idx, coef, idx))
        elif what < 0.76:
            self.emit("a[(unsigned long)(%s(%s)) & 1023] += 1.0f;" % (coef, idx))
        else:
            self.emit("b[(unsigned long)(%s(%s)) & 511] *= 1.0001;" % (coef, idx))

    def emit(self, text):
        self.lines.append("  " * (self.depth + 1) + text)

    def loop(self):
        r = self.rng
        iv = "i%d" % len(self.ivs)
        if r.random() < 0.03:
            ctype, width, signed = ("__int128", 128, True)
        else:
            ctype, width, signed = r.choice(INT_TYPES)
        start = self.bound()
        end = self.bound()
        step = r.choice([1, 1, 1, 2, 3, 4, 16])
        down = r.random() < 0.25
        if down:
            cmp = r.choice([">", ">=", "!="])
        else:
            cmp = r.choice(["<", "<=", "!="])
        if cmp == "!=":
            # Terminates only when the counter lands on the bound: step 1,
            # or an odd step on an unsigned narrow counter (wraps onto it).
            step = 1 if signed or width > 16 else r.choice([1, 3, 5])
        incr = "%s %s= %d" % (iv, "-" if down else "+", step)
        shape = r.choice(["for", "for", "for", "do", "break"])
        guard = r.random() < 0.2
        if guard:
            self.emit("if (%s > %d) {" % (self.param(), r.randint(-2, 10)))
            self.depth += 1
        if shape == "for":
            self.emit("for (%s %s = %s; %s %s %s; %s) {"
                      % (ctype, iv, start, iv, cmp, end, incr))
        elif shape == "do":
            self.emit("{")  # the counter's scope
            self.depth += 1
            self.emit("%s %s = %s;" % (ctype, iv, start))
            self.emit("do {")
        else:
            self.emit("for (%s %s = %s;; %s) {" % (ctype, iv, start, incr))
        self.depth += 1
        self.ivs.append(iv)
        self.inner()
        if shape == "do":
            self.emit("%s;" % incr)
        elif shape == "break":
            self.emit("if (!(%s %s %s)) break;" % (iv, cmp, end))
        self.ivs.pop()
        self.depth -= 1
        if shape == "do":
            self.emit("} while (%s %s %s);" % (iv, cmp, end))
            self.depth -= 1
        self.emit("}")
        if guard:
            self.depth -= 1
            self.emit("}")

    def inner(self):
        r = self.rng
        for _ in range(r.choice([1, 1, 2])):
            what = r.random()
            if what < 0.35 and self.depth < 3:
                self.loop()
            elif what < 0.5:
                self.emit("if (%s < %s) {" % (self.ivs[-1], self.bound()))
                self.depth += 1
                self.body()
                self.depth -= 1
                self.emit("}")
            elif what < 0.58:
                self.emit("if (%s == %s) break;" % (self.ivs[-1], self.bound()))
                self.body()
            else:
                self.body()

    # A loop over an aliasing pair: a[i + d] and a[i], d a parameter, so -O3
    # vectorises it behind a runtime alias check (versioned loops). The CUDA
    # tester's kernels leave it out.
    ALIASING_PAIR = True

    def aliasing_pair(self):
        n, d = self.param(), self.param()
        self.emit("{ unsigned long d = (unsigned long)%s & 255;" % d)
        self.emit("  for (long i = 0; i < (long)%s; ++i) a[i + d] = a[i] * 0.5f + 1.0f; }" % n)

    def make(self):
        if self.ALIASING_PAIR and self.rng.random() < 0.2:
            self.aliasing_pair()
        self.loop()
        if self.rng.random() < 0.3:
            self.loop()

    def source(self):
        params = "".join(", %s %s" % (t, n) for n, t, _ in self.params)
        return ("__attribute__((noinline)) void %s(float *a, double *b%s) {\n%s\n}\n"
                % (self.name, params, "\n".join(self.lines)))

    def call(self):
        args = "".join(", (%s)arg(%d)" % (t, v) for n, t, v in self.params)
        return "  %s(a, b%s);" % (self.name, args)


PRELUDE = r"""#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
static float a[1024];
static double b[512];
static unsigned h[256];
static char **argv_;
/* Arguments through argv: the compiler cannot fold them into the kernels. */
static long arg(long v) { return argv_[1] ? v + atol(argv_[1]) : v; }
/* Each run calls one kernel (argv[1]): one that does not end loses only itself. */
"""


def program(kernels):
    body = "\n".join(k.source() for k in kernels)
    cases = "\n".join("  case %d:\n  %s\n    break;" % (i, k.call())
                       for i, k in enumerate(kernels))
    return (PRELUDE + body + "\nint main(int argc, char **argv) {\n"
            "  argv_ = argv + 1;\n  if (argc < 2) return 2;\n"
            "  switch (atoi(argv[1])) {\n" + cases + "\n  }\n  double s = 0;\n"
            "  for (int i = 0; i < 1024; ++i) s += a[i];\n"
            "  for (int i = 0; i < 512; ++i) s += b[i];\n"
            "  for (int i = 0; i < 256; ++i) s += h[i];\n"
            "  printf(\"%.17g\\n\", s);\n  return 0;\n}\n")


# -- formulas ---------------------------------------------------------------
TOKEN = re.compile(r"\s*(?:(\d+)|([A-Za-z_][A-Za-z_0-9.$]*)|(\^|\*|/|\+|-|\(|\)|&&|\|\||<=|>=|==|!=|<|>|!|,))")


class FormulaError(Exception):
    pass


def evaluate(text, env):
    """Evaluates a formula or assumption (the summary's grammar) exactly."""
    toks = []
    pos = 0
    text = text.strip()
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise FormulaError("cannot read %r at %d" % (text, pos))
        toks.append(m.group(1) or m.group(2) or m.group(3))
        pos = m.end()
    toks.append(None)
    i = [0]

    def peek():
        return toks[i[0]]

    def take(t=None):
        tok = toks[i[0]]
        if t is not None and tok != t:
            raise FormulaError("expected %r in %r" % (t, text))
        i[0] += 1
        return tok

    def primary():
        tok = take()
        if tok is None:
            raise FormulaError("unexpected end of %r" % text)
        if tok == "(":
            v = orexpr()
            take(")")
            return v
        if tok == "-":
            return -power()
        if tok == "!":
            return not primary()
        if tok.isdigit():
            return Fraction(int(tok))
        if tok in ("floor", "ceil", "min", "max") and peek() == "(":
            take("(")
            if tok in ("floor", "ceil"):
                v = sum_()
                if peek() == "/":
                    take("/")
                    v = v / sum_()
                take(")")
                q = v.numerator // v.denominator
                if tok == "ceil" and q != v:
                    q += 1
                return Fraction(q)
            args = [sum_()]
            while peek() == ",":
                take(",")
                args.append(sum_())
            take(")")
            return min(args) if tok == "min" else max(args)
        if tok in env:
            return Fraction(env[tok])
        raise FormulaError("unbound variable %r in %r" % (tok, text))

    def power():
        v = primary()
        if peek() == "^":
            take()
            e = power()
            v = v ** int(e)
        return v

    def product():
        v = power()
        while peek() in ("*", "/"):
            op = take()
            r = power()
            v = v * r if op == "*" else v / r
        return v

    def sum_():
        v = product() if peek() != "-" else (take() and -product())
        while peek() in ("+", "-"):
            op = take()
            r = product()
            v = v + r if op == "+" else v - r
        return v

    def compare():
        v = sum_()
        if peek() in ("<", "<=", ">", ">=", "==", "!="):
            op = take()
            r = sum_()
            return {"<": v < r, "<=": v <= r, ">": v > r, ">=": v >= r,
                    "==": v == r, "!=": v != r}[op]
        return v

    def andexpr():
        v = compare()
        while peek() == "&&":
            take()
            r = compare()
            v = bool(v) and bool(r)
        return v

    def orexpr():
        v = andexpr()
        while peek() == "||":
            take()
            r = andexpr()
            v = bool(v) or bool(r)
        return v

    v = orexpr()
    if peek() is not None:
        raise FormulaError("trailing %r in %r" % (peek(), text))
    return v


def assumption_holds(text, env):
    """An assumption is 'CONDITION (where)'; None when it cannot be read."""
    cond = re.sub(r"\s*\((guard|loop|assumed|at|in) .*\)\s*$", "", text)
    cond = re.sub(r"\s*\([^()]*\.(c|cu|cpp):\d+[^()]*\)\s*$", "", cond)
    cond = re.sub(r"\s+for [A-Za-z_][\w*()+]*\s*$", "", cond)  # "... for q": whose
    try:
        return bool(evaluate(cond, env))
    except (FormulaError, ZeroDivisionError, TypeError):
        return None


# -- one program ------------------------------------------------------------
def read_summaries(jdir):
    """The kernels of every summary JSON in \p jdir, by name (the display
    name up to its parameter list)."""
    summaries = {}
    for name in [n for n in os.listdir(jdir) if n.endswith(".json")]:
        with open(os.path.join(jdir, name)) as f:
            for k in json.load(f)["kernels"]:
                summaries[k["display_name"].split("(")[0]] = k
    return summaries


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120, **kw)


class Result:
    def __init__(self):
        self.checked = 0      # kernel x level comparisons of exact counts
        self.exact = 0        # kernels the summary called exact
        self.skipped = 0      # exact, but an assumption failed or is unreadable
        self.failures = []    # (seed, text)


def check_program(seed, opts, build, keep):
    kernels = [Kernel(seed, i) for i in range(KERNELS_PER_PROGRAM)]
    res = Result()
    work = keep or tempfile.mkdtemp(prefix="roofline-diff-")
    os.makedirs(work, exist_ok=True)
    src = os.path.join(work, "p%d.c" % seed)
    with open(src, "w") as f:
        f.write(program(kernels))
    clang = "/usr/lib/llvm-22/bin/clang"
    wrapper = os.path.join(build, "bin", "roofline-clang")

    def fail(text, kernel=None):
        where = "\n" + kernel.source() if kernel else ""
        res.failures.append((seed, text + where))

    try:
        for opt in opts:
            # The plain build at the same level: its output is the reference
            # (a loop that does not end, or signed overflow, is left out).
            plain = os.path.join(work, "plain-" + opt)
            r = run([clang] + level_flags(opt) + ["-w", src, "-o", plain])
            if r.returncode:
                fail("plain clang failed: " + r.stderr[-2000:])
                return res
            masked = masked_kernels(clang, opt, src, work)
            expected = {}
            for i, k in enumerate(kernels):
                r = run(["timeout", "1", plain, str(i)])
                if r.returncode == 0:
                    expected[k.name] = r.stdout
            out = os.path.join(work, opt)
            jdir = os.path.join(work, opt + "-json") + "/"
            shutil.rmtree(jdir, ignore_errors=True)
            os.makedirs(jdir)
            r = run([wrapper] + level_flags(opt) + ["-w", "-mllvm", "-roofline-json=" + jdir,
                     src, "-o", out])
            if r.returncode:
                fail("roofline-clang -%s failed (rc %d):\n%s"
                     % (opt, r.returncode, r.stderr[-3000:]))
                continue
            summaries = read_summaries(jdir)
            for i, kernel in enumerate(kernels):
                if kernel.name not in expected:
                    continue
                prof = os.path.join(work, "%s-%d.profile.json" % (opt, i))
                env = dict(os.environ, ROOFLINE_PROFILE=prof)
                got = run(["timeout", "20", out, str(i)], env=env)
                if got.returncode or got.stdout != expected[kernel.name]:
                    fail("-%s: instrumented output %r (rc %d), plain %r"
                         % (opt, got.stdout, got.returncode, expected[kernel.name]),
                         kernel)
                    continue
                with open(prof) as f:
                    measured = {k["display_name"]: k for k in json.load(f)["kernels"]}
                s = summaries.get(kernel.name)
                m = measured.get(kernel.name)
                if s is None:
                    # Functions with no work are left out of the summary; one
                    # the run sees work in was missed.
                    if m and (m["flops"]["total"] or m["bytes"]["load"]):
                        fail("-%s: kernel %s missing from the summary, the run "
                             "counted %s FLOPs" % (opt, kernel.name,
                                                   m["flops"]["total"]), kernel)
                    continue
                compare(res, opt, kernel, s, m, fail, kernel.name in masked)
    finally:
        if not keep:
            shutil.rmtree(work, ignore_errors=True)
    return res


def masked_kernels(clang, opt, src, work):
    """The functions whose code at level \p opt has masked loads or stores:
    the vectoriser folded a loop's tail into masks, and the run counts the
    arithmetic of the masked-off lanes, which the program never asked for
    (docs/counting.md, "Bytes")."""
    ir = os.path.join(work, "plain-%s.ll" % opt)
    r = run([clang] + level_flags(opt) + ["-w", "-S", "-emit-llvm", src, "-o", ir])
    names, current = set(), None
    if r.returncode:
        return names
    with open(ir) as f:
        for line in f:
            m = re.match(r"define .*@([\w.]+)\(", line)
            if m:
                current = m.group(1)
            elif line.startswith("}"):
                current = None
            elif current and "@llvm.masked." in line:
                names.add(current)
    return names


def compare(res, opt, kernel, s, m, fail, masked=False):
    """The run's counts against the exact static ones; where the code has
    masked lanes (\p masked) the run may count more, never less."""
    f = s["formula"]
    env = {n: v for n, _, v in kernel.params}
    fields = [("flops", f["flops"]), ("intops", f.get("intops", "0")),
              ("bytes_load", f["bytes_load"]), ("bytes_store", f["bytes_store"])]
    for what, text in fields:
        if "invalid" in text or "$" in text or "unknown" in text and s["exact"]:
            fail("-%s %s: %s formula %r" % (opt, kernel.name, what, text), kernel)
            return
    for p in f.get("params", []):
        if p.startswith("$") or p not in env and not p.startswith(("trip_L", "floor(")):
            if p not in ("a", "b"):
                fail("-%s %s: parameter %r is not a parameter" % (opt, kernel.name, p),
                     kernel)
                return
    if not s["exact"]:
        return
    res.exact += 1
    for a in s.get("assumptions", []):
        held = assumption_holds(a, env)
        if held is None:
            fail("-%s %s: unreadable assumption %r" % (opt, kernel.name, a), kernel)
            return
        if not held:
            res.skipped += 1
            return
    calls = m["calls"] if m else 0
    if calls == 0:
        # Not called (a kernel the run never entered is not in the profile).
        got = {"flops": 0, "intops": 0, "bytes_load": 0, "bytes_store": 0}
    else:
        got = {"flops": m["flops"]["total"],
               "intops": m.get("intops", {}).get("total", 0),
               "bytes_load": m["bytes"]["load"], "bytes_store": m["bytes"]["store"]}
    res.checked += 1
    res.masked = getattr(res, "masked", 0) + masked
    for what, text in fields:
        try:
            want = evaluate(text, env)
        except (FormulaError, ZeroDivisionError) as e:
            fail("-%s %s: %s formula %r: %s" % (opt, kernel.name, what, text, e), kernel)
            return
        if want != got[what] and not (masked and want < got[what]):
            fail("-%s %s: %s is %s (exact: %r under %s at %s), the run counted %s"
                 % (opt, kernel.name, what, want, text, s.get("assumptions"),
                    env, got[what]), kernel)
            return


def check_seeds(check, seeds, jobs, progress=0, tag="difftest"):
    """Runs check(seed) -> Result over \p seeds on \p jobs threads; prints
    each failure as it comes (and the totals every \p progress programs)."""
    total = Result()
    done = 0
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        for r in pool.map(check, seeds):
            total.checked += r.checked
            total.exact += r.exact
            total.skipped += r.skipped
            total.masked = getattr(total, "masked", 0) + getattr(r, "masked", 0)
            total.measured = getattr(total, "measured", 0) + getattr(r, "measured", 0)
            total.failures += r.failures
            for seed, text in r.failures:
                print("FAIL seed %d: %s\n" % (seed, text), flush=True)
            done += 1
            if progress and done % progress == 0:
                print("%s: progress: %d programs, %d compared, %d failures"
                      % (tag, done, total.checked, len(total.failures)), flush=True)
    return total


def seeds_of(text):
    if text.startswith("daily:"):
        # N programs from a range that changes every day: the suite covers
        # new programs over time, and a failure names its seed.
        import time
        n = int(text.split(":")[1])
        day = int(time.time() // 86400) % 100000
        return range(day * n, day * n + n)
    if ":" in text:
        lo, hi = text.split(":")
        return range(int(lo), int(hi))
    return [int(text)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--seeds", default="0:20",
                    help="N, LO:HI, or daily:N (programs)")
    ap.add_argument("--opt", default=DEFAULT_LEVELS,
                    help="levels, comma-separated (O3-native: -O3 -march=native)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--keep", help="keep the files of one seed here")
    ap.add_argument("--progress", type=int, default=0,
                    help="print the totals every N programs")
    ap.add_argument("--print", action="store_true", help="print the program and exit")
    args = ap.parse_args()
    seeds = list(seeds_of(args.seeds))
    if args.print:
        print(program([Kernel(seeds[0], i) for i in range(KERNELS_PER_PROGRAM)]))
        return 0
    opts = args.opt.split(",")
    total = check_seeds(lambda s: check_program(s, opts, args.build, args.keep),
                        seeds, args.jobs, args.progress)
    kernels = len(seeds) * KERNELS_PER_PROGRAM
    print("difftest: seeds %d..%d" % (seeds[0], seeds[-1]))
    print("difftest: %d programs, %d kernels x %d levels; %d called exact, %d compared,"
          " %d of them with masked lanes (the run may count more),"
          " %d with an assumption the run does not meet; %d failures"
          % (len(seeds), kernels, len(opts), total.exact, total.checked,
             getattr(total, "masked", 0), total.skipped, len(total.failures)))
    return 1 if total.failures else 0


if __name__ == "__main__":
    sys.exit(main())
