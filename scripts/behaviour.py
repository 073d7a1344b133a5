#!/usr/bin/env python3
"""Behaviour differential: an instrumented program must behave as the plain one.

Each program is built at each optimisation level twice: plain with clang-22
and instrumented with roofline-clang(++) (the same flags and -g). The plain
build runs once: its stdout, exit status and stderr are the reference. The
instrumented build then runs in every mode of the runtime (counts, the cache
model, every set simulated, under LD_BIND_NOT=1, the call trace, 2 OpenMP
threads), R times each, with address randomisation left as the system has
it. Each run must print the same stdout, end with the same status (no
signal), print the same stderr but for "roofline:" lines, and write a
profile ($ROOFLINE_PROFILE, a fresh directory per run) that is JSON with
"schema": "roofline-profile" and a "kernels" list; roofline-report reads
one profile per (program, level, mode) with exit status 0.

Programs: the bundled CPU example, the hydro (LULESH-shaped) and cg
(miniFE-shaped) proxies, all of PolyBench, the cache-model and binding test
inputs, a program that forks and starts threads around its kernel calls,
two programs from scripts/difftest.py's generator (fixed seeds), and the
MPI test input under mpirun where mpicc and mpirun exist. --routes builds
hydro and cg the three supported ways (roofline-clang++; CMake with
roofline-clang++ as the compiler; CMake with clang-22 and
find_package(Roofline) + roofline_instrument) and checks those too; the
default run includes them.

USAGE:
  scripts/behaviour.py [--build build] [--repeats 2] [--jobs 2]
                       [--programs hydro,cg] [--modes counts,cache]
                       [--levels O0,O2,O3] [--routes yes|no|only]
                       [--keep DIR] [--timeout 20]
Prints one line per (program, level, mode): "ok  hydro -O2 cache x2" or
"FAIL hydro -O2 cache: ..." with the difference; ends with
"behaviour: N runs, M failures" and exits 1 on any failure.
"""
import argparse
import difflib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLANG = "/usr/lib/llvm-22/bin/clang"
CLANGXX = "/usr/lib/llvm-22/bin/clang++"
LEVELS = {"O0": ["-O0"], "O2": ["-O2"], "O3": ["-O3", "-march=native"]}
GENERATED_SEEDS = (7, 11)
SYSFS_CACHE = "/sys/devices/system/cpu/cpu0/cache/index0/size"
EXPLICIT_CACHE = "32K:8:64,1M:16:64,32M:16:64"


# -- programs ---------------------------------------------------------------
class Program:
    """A program to check: its source and how to build and run it."""

    def __init__(self, name, source, cxx=False, flags=(), args=(), openmp=False,
                 profile="profile.json", profiles=1, mask=None, mpi=False):
        self.name = name
        self.source = source
        self.cxx = cxx
        self.flags = list(flags)       # compile and link flags, both builds
        self.args = list(args)
        self.openmp = openmp           # the threads mode applies
        self.profile = profile         # the $ROOFLINE_PROFILE file name
        self.profiles = profiles       # how many profiles one run writes
        self.mask = mask               # (regex, replacement) for timings
        self.mpi = mpi


# examples/cpu/kernels.cpp prints its times: they are masked before comparing.
TIMES = (re.compile(r"[-+0-9.e]+ ms, [-+0-9.a-z]+ GFLOP/s"), "# ms, # GFLOP/s")


def programs(work):
    """Every program, the generated ones written into \\p work."""
    src = lambda *p: os.path.join(SRC, *p)
    progs = [
        Program("kernels", src("examples", "cpu", "kernels.cpp"), cxx=True,
                args=["65536", "64", "32"], mask=TIMES),
        Program("hydro", src("examples", "hydro", "hydro.cpp"), cxx=True,
                flags=["-fopenmp"], openmp=True),
        Program("cg", src("examples", "cg", "cg.cpp"), cxx=True,
                flags=["-fopenmp"], openmp=True),
        Program("polybench", src("test", "Inlining", "polybench-all.c"), flags=["-lm"]),
        Program("cache_traffic", src("test", "Runtime", "Inputs", "cache_traffic.cpp"),
                cxx=True, flags=["-pthread"]),
        Program("binding", src("test", "Runtime", "Inputs", "binding_kernels.c")),
        # Parent and child each write a profile (the child's under its pid).
        Program("fork", src("test", "Differential", "Inputs", "fork_kernels.c"),
                flags=["-pthread"], profile="p-%p.json", profiles=2),
    ]
    for seed in GENERATED_SEEDS:
        progs.append(Program("gen%d" % seed, os.path.join(work, "gen%d.c" % seed)))
    if shutil.which("mpicc") and shutil.which("mpirun"):
        progs.append(Program("mpi", src("test", "Runtime", "Inputs", "mpi_ranks.c"),
                             profile="p-%r.json", profiles=2, mpi=True))
    return progs


def write_generated(prog, work, timeout):
    """Writes a program of difftest.py's kernels for seed gen<N>: those
    that end and print the same at -O0 and -O2 (plain), called in order."""
    sys.path.insert(0, os.path.join(SRC, "scripts"))
    import difftest
    seed = int(prog.name[3:])
    kernels = [difftest.Kernel(seed, i) for i in range(difftest.KERNELS_PER_PROGRAM)]
    probe = os.path.join(work, "probe%d.c" % seed)
    with open(probe, "w") as f:
        f.write(difftest.program(kernels))
    outputs = {}
    for level in ("O0", "O2"):
        exe = probe[:-2] + "-" + level
        r = run([CLANG, "-" + level, "-w", probe, "-o", exe], timeout=120)
        if r.rc:
            return "generator: plain clang failed: " + r.stderr[-500:]
        for i in range(len(kernels)):
            r = run([exe, str(i)], timeout=timeout / 10)
            outputs.setdefault(i, []).append(r.stdout if r.rc == 0 else None)
    chosen = [k for i, k in enumerate(kernels)
              if outputs[i][0] is not None and outputs[i][0] == outputs[i][1]]
    calls = "\n".join(k.call() for k in chosen)
    main = ("int main(int argc, char **argv) {\n  (void)argc;\n  argv_ = argv + 1;\n"
            "%s\n  double s = 0;\n  for (int i = 0; i < 1024; ++i) s += a[i];\n"
            "  for (int i = 0; i < 512; ++i) s += b[i];\n"
            "  printf(\"%%d kernels: %%.17g\\n\", %d, s);\n  return 0;\n}\n"
            % (calls, len(chosen)))
    with open(prog.source, "w") as f:
        f.write("/* difftest.py seed %d: the kernels that end. */\n" % seed)
        prelude = difftest.PRELUDE.replace(
            "/* Each run calls one kernel (argv[1]): one that does not end loses only itself. */\n",
            "")
        f.write(prelude + "\n".join(k.source() for k in chosen) + main)
    return None


# -- processes --------------------------------------------------------------
class Result:
    def __init__(self, rc, stdout, stderr, timed_out=False, seconds=0.0):
        self.rc = rc
        self.stdout = stdout
        self.stderr = stderr
        self.timed_out = timed_out
        self.seconds = seconds


def run(cmd, env=None, timeout=60, cwd=None):
    """Runs \\p cmd in its own process group (a timeout ends all of it)."""
    start = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         env=env, cwd=cwd, start_new_session=True)
    try:
        out, err = p.communicate(timeout=timeout)
        timed_out = False
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, err = p.communicate()
        timed_out = True
    return Result(p.returncode, out.decode(errors="replace"),
                  err.decode(errors="replace"), timed_out, time.monotonic() - start)


def clean_env(**extra):
    """The environment of a run: none of the runtime's settings inherited."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("ROOFLINE_") and k not in ("LD_BIND_NOT", "OMP_NUM_THREADS")}
    env.update(extra)
    return env


def status(rc):
    return "signal %s" % signal.Signals(-rc).name if rc < 0 else "exit %d" % rc


# -- modes ------------------------------------------------------------------
def cache_setting():
    try:
        with open(SYSFS_CACHE) as f:
            f.read()
        return "1"
    except OSError:
        return EXPLICIT_CACHE


def modes():
    cache = cache_setting()
    return {
        "counts": {},
        "cache": {"ROOFLINE_CACHE": cache},
        "cache-all-sets": {"ROOFLINE_CACHE": cache, "ROOFLINE_CACHE_SAMPLE": "1"},
        "cache-lazy": {"ROOFLINE_CACHE": cache, "LD_BIND_NOT": "1"},
        "trace": {"ROOFLINE_TRACE": "1"},
        "threads": {"OMP_NUM_THREADS": "2"},
    }


# -- building ---------------------------------------------------------------
def compile_cmd(prog, level, build, instrumented, out):
    if prog.mpi:
        cc = ["mpicc"]
    elif instrumented:
        cc = [os.path.join(build, "bin", "roofline-clang++" if prog.cxx else "roofline-clang")]
    else:
        cc = [CLANGXX if prog.cxx else CLANG]
    # With traced copies: the cache modes below run them.
    flags = LEVELS[level] + (["-g", "-mllvm", "-roofline-cache-model"] if instrumented else [])
    return cc + flags + [prog.source, "-o", out] + prog.flags


def build(prog, level, build_dir, work):
    """Builds plain and instrumented; returns (plain, instrumented, error)."""
    exes = []
    for instrumented in (False, True):
        exe = os.path.join(work, "%s-%s-%s" % (prog.name, level,
                                               "roofline" if instrumented else "plain"))
        env = None
        if prog.mpi:
            wrapper = os.path.join(build_dir, "bin", "roofline-clang")
            env = dict(os.environ, OMPI_CC=wrapper if instrumented else CLANG)
        cmd = compile_cmd(prog, level, build_dir, instrumented, exe)
        r = run(cmd, env=env, timeout=600)
        if r.rc:
            return None, None, "%s build failed (%s):\n  %s\n%s" % (
                "instrumented" if instrumented else "plain", status(r.rc),
                " ".join(cmd), tail(r.stderr))
        exes.append(exe)
    return exes[0], exes[1], None


# -- running and comparing --------------------------------------------------
def launch(prog, exe, env, timeout, cwd):
    cmd = [exe] + prog.args
    if prog.mpi:
        cmd = ["mpirun", "--allow-run-as-root", "--oversubscribe", "-np", "2"] + cmd
    return run(cmd, env=env, timeout=timeout, cwd=cwd)


def normalise(prog, r):
    out = r.stdout
    if prog.mask:
        out = prog.mask[0].sub(prog.mask[1], out)
    if prog.mpi:
        out = "".join(sorted(out.splitlines(True)))
    err = "".join(l for l in r.stderr.splitlines(True) if not l.startswith("roofline:"))
    if prog.mpi:
        err = ""  # the launcher's own messages vary
    return out, err


def tail(text, lines=12):
    return "\n".join("    " + l for l in text.rstrip("\n").splitlines()[-lines:])


def first_difference(want, got, what):
    diff = list(difflib.unified_diff(want.splitlines(), got.splitlines(),
                                     "plain " + what, "instrumented " + what, lineterm="", n=1))
    return "\n".join("    " + l for l in diff[:14])


def check_profiles(prog, rundir):
    """The profiles of one run: their paths, or an error."""
    names = sorted(n for n in os.listdir(rundir) if n.endswith(".json"))
    if len(names) != prog.profiles:
        return None, "%d profile(s) written, expected %d: %s" % (
            len(names), prog.profiles, ", ".join(names) or "none")
    paths = []
    for n in names:
        path = os.path.join(rundir, n)
        try:
            with open(path) as f:
                data = json.load(f)
        except (OSError, ValueError) as e:
            return None, "profile %s does not parse: %s" % (n, e)
        if data.get("schema") != "roofline-profile" or not isinstance(data.get("kernels"), list):
            return None, "profile %s: no \"schema\": \"roofline-profile\" or no kernels list" % n
        paths.append(path)
    return paths, None


def one_run(prog, exe, mode_env, expected, rundir, timeout, report):
    """Runs the instrumented build once; returns None or the difference."""
    os.makedirs(rundir)
    env = clean_env(ROOFLINE_PROFILE=os.path.join(rundir, prog.profile), **mode_env)
    r = launch(prog, exe, env, timeout, rundir)
    with open(os.path.join(rundir, "stderr.txt"), "w") as f:
        f.write(r.stderr)
    if r.timed_out:
        return "timed out after %.0f s (plain: %.2f s)%s" % (
            timeout, expected.seconds, "\n  stderr:\n" + tail(r.stderr) if r.stderr else "")
    out, err = normalise(prog, r)
    want_out, want_err = normalise(prog, expected)
    problems = []
    if r.rc != expected.rc:
        problems.append("%s, plain %s" % (status(r.rc), status(expected.rc)))
    if out != want_out:
        problems.append("stdout differs:\n" + first_difference(want_out, out, "stdout"))
    if err != want_err:
        problems.append("stderr differs:\n" + first_difference(want_err, err, "stderr"))
    if problems:
        return "\n  ".join(problems) + ("\n  stderr:\n" + tail(r.stderr) if r.stderr else "")
    paths, error = check_profiles(prog, rundir)
    if error:
        return error
    if report:
        rep = run([report] + paths + ["--format", "json"], timeout=120)
        if rep.rc:
            return "roofline-report %s --format json: %s\n%s" % (
                " ".join(paths), status(rep.rc), tail(rep.stderr))
    return None


def check_case(prog, level, mode, mode_env, exe, expected, args, work):
    """R runs of one (program, level, mode); returns (runs, failures, line)."""
    report = os.path.join(args.build, "bin", "roofline-report")
    failures = []
    runs = 0
    for i in range(args.repeats):
        rundir = os.path.join(work, "runs", "%s-%s-%s-%d" % (prog.name, level, mode, i))
        runs += 1
        why = one_run(prog, exe, mode_env, expected, rundir, args.timeout, report if i == 0 else None)
        if why:
            failures.append((i, why))
            if why.startswith("timed out"):
                break  # the rest would time out too: the suite stays bounded
        elif not args.keep:
            shutil.rmtree(rundir, ignore_errors=True)
    label = "%s -%s %s" % (prog.name, level, mode)
    if not failures:
        return runs, 0, "ok  %s x%d" % (label, runs)
    first = failures[0][1]
    kept = " (kept in %s)" % os.path.join(work, "runs") if args.keep else ""
    return runs, len(failures), "FAIL %s: %d of %d runs%s; run %d: %s" % (
        label, len(failures), runs, kept, failures[0][0], first)


def check_level(prog, level, args, work, mode_table):
    """Builds one program at one level, runs plain, then every mode."""
    plain, inst, error = build(prog, level, args.build, work)
    if error:
        return [(1, 1, "FAIL %s -%s: %s" % (prog.name, level, error))]
    expected = launch(prog, plain, clean_env(), args.timeout, work)
    if expected.timed_out or expected.rc < 0:
        return [(1, 1, "FAIL %s -%s: the plain build %s" % (
            prog.name, level, "timed out" if expected.timed_out else status(expected.rc)))]
    results = []
    for mode in args.modes:
        if mode == "threads" and not prog.openmp:
            continue
        results.append(check_case(prog, level, mode, mode_table[mode], inst, expected,
                                  args, work))
    return results


# -- build routes -----------------------------------------------------------
def cmake_build(src, out, compiler, extra):
    cmd = ["cmake", "-S", src, "-B", out, "-G", "Ninja",
           "-DCMAKE_CXX_COMPILER=" + compiler, "-DCMAKE_BUILD_TYPE=RelWithDebInfo"] + extra
    r = run(cmd, timeout=300)
    if r.rc == 0:
        r = run(["cmake", "--build", out], timeout=600)
    return r


def check_route(app, route, args, work):
    """Builds \\p app one way, runs it as plain clang++ -O2's build runs."""
    src = os.path.join(SRC, "examples", app)
    out = os.path.join(work, "routes", "%s-%s" % (app, route))
    os.makedirs(out, exist_ok=True)
    prog = Program(app, os.path.join(src, app + ".cpp"), cxx=True, openmp=True)
    wrapper = os.path.join(args.build, "bin", "roofline-clang++")
    plain = os.path.join(out, "plain")
    r = run([CLANGXX, "-O2", "-fopenmp", prog.source, "-o", plain], timeout=300)
    if r.rc:
        return 1, 1, "FAIL route %s %s: plain clang++ failed\n%s" % (app, route, tail(r.stderr))
    if route == "wrapper":
        exe = os.path.join(out, app)
        r = run([wrapper, "-O2", "-g", "-fopenmp", prog.source, "-o", exe], timeout=600)
    elif route == "cmake-wrapper":
        exe = os.path.join(out, "build", app)
        r = cmake_build(src, os.path.join(out, "build"), wrapper, [])
    elif route == "cmake-package":
        exe = os.path.join(out, "build", app)
        r = cmake_build(src, os.path.join(out, "build"), CLANGXX,
                        ["-DROOFLINE_INSTRUMENT=ON", "-DRoofline_DIR=" + os.path.abspath(args.build)])
    else:  # cmake-plain: ROOFLINE_INSTRUMENT off, no profile
        exe = os.path.join(out, "build", app)
        r = cmake_build(src, os.path.join(out, "build"), CLANGXX, [])
        prog.profiles = 0
    if r.rc:
        return 1, 1, "FAIL route %s %s: build failed (%s)\n%s" % (
            app, route, status(r.rc), tail(r.stdout + r.stderr))
    expected = launch(prog, plain, clean_env(), args.timeout, out)
    report = os.path.join(args.build, "bin", "roofline-report") if prog.profiles else None
    why = one_run(prog, exe, {}, expected, os.path.join(out, "run"), args.timeout, report)
    if why:
        return 1, 1, "FAIL route %s %s: %s" % (app, route, why)
    return 1, 0, "ok  route %s %s" % (app, route)


ROUTES = ("wrapper", "cmake-wrapper", "cmake-package", "cmake-plain")


# -- main -------------------------------------------------------------------
def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default="build", help="Roofline's build directory")
    ap.add_argument("--repeats", type=int, default=2, help="runs per (program, level, mode)")
    ap.add_argument("--programs", help="NAME,... (default: all)")
    ap.add_argument("--modes", default=",".join(modes()), help="NAME,...")
    ap.add_argument("--levels", default="O0,O2,O3", help="of O0,O2,O3")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--keep", help="keep the builds, runs and profiles here")
    ap.add_argument("--timeout", type=float, default=20, help="seconds per run")
    ap.add_argument("--routes", choices=("yes", "no", "only"), default="yes",
                    help="also build hydro and cg through the wrapper and CMake")
    args = ap.parse_args()
    args.build = os.path.abspath(args.build)
    args.modes = args.modes.split(",")
    args.levels = args.levels.split(",")
    for m in args.modes:
        if m not in modes():
            ap.error("unknown mode %r (%s)" % (m, ", ".join(modes())))
    for l in args.levels:
        if l not in LEVELS:
            ap.error("unknown level %r (O0, O2, O3)" % l)
    return args


def aslr():
    try:
        with open("/proc/sys/kernel/randomize_va_space") as f:
            return f.read().strip()
    except OSError:
        return "unknown"


def main():
    args = parse_args()
    start = time.monotonic()
    work = os.path.abspath(args.keep) if args.keep else tempfile.mkdtemp(prefix="roofline-behaviour-")
    os.makedirs(work, exist_ok=True)
    shutil.rmtree(os.path.join(work, "runs"), ignore_errors=True)
    shutil.rmtree(os.path.join(work, "routes"), ignore_errors=True)
    print("behaviour: randomize_va_space=%s (address randomisation %s), cache model %s"
          % (aslr(), "on" if aslr() in ("1", "2") else "OFF", cache_setting()), flush=True)
    progs = programs(work)
    if args.programs:
        wanted = args.programs.split(",")
        unknown = set(wanted) - {p.name for p in progs}
        if unknown:
            print("behaviour: unknown program(s): %s" % ", ".join(sorted(unknown)))
            return 2
        progs = [p for p in progs if p.name in wanted]
    if args.routes == "only":
        progs = []
    results = []
    for p in [p for p in progs if p.name.startswith("gen")]:
        error = write_generated(p, work, args.timeout)
        if error:
            results.append((1, 1, "FAIL %s: %s" % (p.name, error)))
            print(results[-1][2], flush=True)
            progs.remove(p)
    mode_table = modes()
    tasks = [(p, l) for p in progs for l in args.levels]
    route_apps = [a for a in ("hydro", "cg") if not args.programs or a in args.programs.split(",")]
    routes = [(a, r) for a in route_apps for r in ROUTES] if args.routes != "no" else []
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(check_level, p, l, args, work, mode_table) for p, l in tasks]
        futures += [pool.submit(lambda a=a, r=r: [check_route(a, r, args, work)])
                    for a, r in routes]
        for f in futures:
            for line in f.result():
                results.append(line)
                print(line[2], flush=True)
    runs = sum(r[0] for r in results)
    failures = sum(r[1] for r in results)
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    print("behaviour: elapsed %.0f s" % (time.monotonic() - start))
    print("behaviour: %d runs, %d failures" % (runs, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
