#!/usr/bin/env python3
"""One name, one class: lists classes and structs that two files define
under the same name in the same named namespace.

C++ allows one definition of a class per program (the one-definition
rule); the compiler does not check it across files. Two `roofline::Placement`
structs (the roofline model's and the counter placement's) once linked
into one plugin, and the linker kept one destructor for both: the plugin
crashed. This reads the sources the way they are written here: namespaces
open with `namespace X {` and close with `} // namespace X`, and a
class at namespace scope starts its line. Classes in an anonymous namespace
are private to their file and not listed.

Usage: python3 scripts/class-names.py DIR...   (prints nothing when clean)
"""
import os
import re
import sys

OPEN = re.compile(r"^namespace\s*([A-Za-z_][\w:]*)?\s*\{")
CLOSE = re.compile(r"^\}\s*//\s*(?:end\s+)?(?:anonymous\s+)?namespace")
CLASS = re.compile(r"^(?:struct|class)\s+(?:\[\[[^\]]*\]\]\s*)?([A-Za-z_]\w*)\s*(?:final\s*)?(?:\{|:(?!:))")


def definitions(path):
    stack = []
    for number, line in enumerate(open(path, errors="replace"), 1):
        m = OPEN.match(line)
        if m:
            stack.append(m.group(1) or "")  # "" is an anonymous namespace
            continue
        if CLOSE.match(line):
            if stack:
                stack.pop()
            continue
        m = CLASS.match(line)
        if m and m.group(1) and "" not in stack:
            yield "::".join(stack + [m.group(1)]), number


def main():
    seen = {}
    for top in sys.argv[1:]:
        for root, dirs, files in os.walk(top):
            dirs.sort()  # a stable order of the files named
            for name in sorted(files):
                if name.endswith((".h", ".cpp", ".inc")):
                    path = os.path.join(root, name)
                    for qualified, line in definitions(path):
                        seen.setdefault(qualified, []).append("%s:%d" % (path, line))
    clashes = {k: v for k, v in seen.items() if len(v) > 1}
    for name in sorted(clashes):
        print("%s is defined twice: %s" % (name, ", ".join(clashes[name])))
    return 1 if clashes else 0


if __name__ == "__main__":
    sys.exit(main())
