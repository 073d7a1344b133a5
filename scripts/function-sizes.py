#!/usr/bin/env python3
"""Lines of every function body in C++ sources, by a brace scan.

A function is a top-level '{' (at namespace depth) whose preceding text ends
in ')' or a trailing qualifier (const, override, noexcept): that skips
classes, namespaces, enums and initialisers. Comments, strings and character
literals are blanked first so their braces do not count.

  scripts/function-sizes.py [--over N] [--allow NAME ...]
                            [--file-lines M] DIR...

prints "LINES FILE:LINE NAME" for each function over N lines (default 120),
longest first, and "LINES FILE" for each .cpp or .h file over M lines
(default: not checked); exits 1 when a function is not named by --allow or
a file is over M.
"""
import argparse
import os
import re
import sys

SOURCE = ('.cpp', '.h', '.cc', '.inc')


def blank(text):
    """Text with comments, strings and character literals replaced by
    spaces (newlines kept, so line numbers hold)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
            out.append(' ' * (j - i))
            i = j
        elif text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r'[^\n]', ' ', text[i:j]))
            i = j
        elif text.startswith('R"', i) and (i == 0 or not text[i - 1].isalnum()):
            m = re.match(r'R"([^(\s]*)\(', text[i:])
            if not m:
                out.append(c)
                i += 1
                continue
            end = text.find(')' + m.group(1) + '"', i)
            j = n if end < 0 else end + len(m.group(1)) + 2
            out.append(re.sub(r'[^\n]', ' ', text[i:j]))
            i = j
        elif c in '"\'':
            if c == "'" and i > 0 and text[i - 1].isalnum():
                out.append(c)  # a digit separator: 1'000
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != '\n':
                j += 2 if text[j] == '\\' else 1
            j = min(j + 1, n)
            out.append(' ' * (j - i))
            i = j
        else:
            out.append(c)
            i += 1
    return ''.join(out)


HEAD = re.compile(r'\)\s*(const|override|noexcept|final|mutable|\s)*'
                  r'(->\s*[\w:<>,\s*&]+)?\s*$')


def functions(path):
    text = blank(open(path, encoding='utf-8', errors='replace').read())
    depth = 0
    scopes = []  # for each open brace: True when it is a function body
    start = 0
    for i, c in enumerate(text):
        if c == '{':
            before = text[max(0, i - 400):i]
            inside_function = any(scopes)
            is_function = not inside_function and bool(HEAD.search(before))
            if is_function:
                start = i
            scopes.append(is_function)
        elif c == '}' and scopes:
            if scopes.pop():
                first = text.count('\n', 0, start) + 1
                last = text.count('\n', 0, i) + 1
                head = text[max(0, start - 400):start]
                head = head[:head.rfind(')') + 1] if ')' in head else head
                name = name_of(head)
                yield last - first + 1, first, name


def name_of(head):
    """The name before the parameter list that closes at the end of head."""
    depth = 0
    for i in range(len(head) - 1, -1, -1):
        if head[i] == ')':
            depth += 1
        elif head[i] == '(':
            depth -= 1
            if depth == 0:
                m = re.search(r'([\w:~]+(?:operator\W+)?)\s*(<[^()]*>)?\s*$',
                              head[:i])
                return m.group(1) if m else '?'
    return '?'


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--over', type=int, default=120)
    ap.add_argument('--allow', action='append', default=[])
    ap.add_argument('--file-lines', type=int, default=0)
    ap.add_argument('dirs', nargs='+')
    args = ap.parse_args()
    rows = []
    too_long_files = 0
    for d in args.dirs:
        for root, _, files in os.walk(d):
            for f in sorted(files):
                if f.endswith(SOURCE):
                    p = os.path.join(root, f)
                    n = open(p, encoding='utf-8', errors='replace').read().count('\n')
                    if args.file_lines and n > args.file_lines:
                        print(f'{n:5d} {p}  (file over {args.file_lines} lines)')
                        too_long_files += 1
                    for lines, line, name in functions(p):
                        if lines > args.over:
                            rows.append((lines, p, line, name))
    rows.sort(key=lambda r: (-r[0], r[1]))
    unexplained = 0
    for lines, p, line, name in rows:
        allowed = name in args.allow or name.split('::')[-1] in args.allow
        unexplained += not allowed
        print(f'{lines:5d} {p}:{line} {name}{"" if allowed else "  (not allowed)"}')
    return 1 if unexplained or too_long_files else 0


if __name__ == '__main__':
    sys.exit(main())
