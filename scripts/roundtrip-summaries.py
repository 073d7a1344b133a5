#!/usr/bin/env python3
"""Every static summary under DIR (by default the summaries the lit suite
wrote under build/test; see summaries()) read back by both tools: roofline-report places
each (every formula evaluated, at the sizes given or the large-size limit)
and roofline-audit loads it. A summary a tool rejects is a failure: the
plugin must never write what its own tools cannot read (issue 52, item 6).

  python3 scripts/roundtrip-summaries.py [--build build] [DIR ...]

Prints one line per failure and "roundtrip: N summaries, M failures"."""
import argparse
import json
import os
import subprocess
import sys
import tempfile

# What the formula reader (lib/Model/Formula.cpp) says of a formula it does
# not take, in an error or a row's note.
REJECTED = ("formula '", "constant too large", "division by a non-constant",
            "exponent must be", "unknown node")


def summaries(dirs):
    """The summaries the plugin wrote: every kernel names its `source` and
    `target` (the bad-input tests' hand-made summaries do not)."""
    for d in dirs:
        for root, _, files in os.walk(d):
            for f in sorted(files):
                if not f.endswith(".json"):
                    continue
                path = os.path.join(root, f)
                try:
                    with open(path) as fh:
                        doc = json.load(fh)
                except (OSError, ValueError):
                    continue
                if not isinstance(doc, dict) or doc.get("schema") != "roofline-static-summary":
                    continue
                kernels = doc.get("kernels")
                if isinstance(kernels, list) and kernels and all(
                        isinstance(k, dict) and "source" in k and "target" in k
                        for k in kernels):
                    yield path


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


def check(path, build, empty_source):
    report = os.path.join(build, "bin", "roofline-report")
    audit = os.path.join(build, "bin", "roofline-audit")
    rc, out, err = run([report, path, "--format", "json"])
    if rc != 0:
        return "roofline-report exit %d: %s" % (rc, err.strip().splitlines()[-1:] or "")
    try:
        doc = json.loads(out)
    except ValueError as e:
        return "roofline-report wrote no JSON: %s" % e
    for k in doc.get("kernels", []):
        for note in k.get("notes", []) + k.get("static_notes", []):
            if any(r in note for r in REJECTED):
                return "roofline-report on %s: %s" % (k.get("display_name"), note)
    rc, out, err = run([audit, "--summary=" + path, empty_source, "--"])
    if rc != 0:
        return "roofline-audit exit %d: %s" % (rc, (err or out).strip().splitlines()[-1:])
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("dirs", nargs="*")
    a = ap.parse_args()
    dirs = a.dirs or [os.path.join(a.build, "test")]
    failures = n = 0
    with tempfile.TemporaryDirectory() as tmp:
        empty = os.path.join(tmp, "empty.cpp")
        with open(empty, "w") as f:
            f.write("int main() { return 0; }\n")
        for path in summaries(dirs):
            n += 1
            why = check(path, a.build, empty)
            if why:
                failures += 1
                print("FAIL %s: %s" % (path, why))
    print("roundtrip: %d summaries, %d failures" % (n, failures))
    return 1 if failures or n == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
