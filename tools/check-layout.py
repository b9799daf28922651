#!/usr/bin/env python3
"""The layout rules of docs/ARCHITECTURE.md (issue 14), checked on a tree.

  - no C function in harness/, db/, plot/ or workloads/ over 150 lines
    (a body runs from a '{' in column 0 to the next '}' in column 0);
  - sqlite3_ in no C source outside db/ and tests/;
  - no folder under harness/ with more than 10 .c files;
  - each e2e test has a number of its own (docs and notes cite "e2e NN").

Prints one line per breach and exits 1, or exits 0 quietly.
Usage: tools/check-layout.py [ROOT]
"""
import os
import re
import sys

MAX_LINES = 150
MAX_C_FILES = 10
# Functions let over the limit while their files are rewritten (none left):
# (path, name) pairs; the check fails when a listed function is no longer
# over the limit.
ALLOW_LONG = set()


def c_files(root, top):
    for dp, _, fn in os.walk(os.path.join(root, top)):
        for f in sorted(fn):
            if f.endswith(('.c', '.h')):
                yield os.path.join(dp, f)


def functions(path):
    lines = open(path, errors='replace').read().split('\n')
    start = None
    for i, line in enumerate(lines):
        if line.startswith('{') and start is None:
            sig = ' '.join(lines[max(0, i - 4):i])
            names = re.findall(r'(\w+)\s*\(', sig)
            name = names[-1] if names else '?'
            # the name is the last identifier called in the signature's first line
            for j in range(i - 1, max(-1, i - 5), -1):
                m = re.match(r'^[A-Za-z_].*?(\w+)\s*\(', lines[j])
                if m:
                    name = m.group(1)
                    break
            start = i
        elif line.startswith('}') and start is not None:
            yield name, start + 1, i - start + 1
            start = None


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else '.'
    bad = []
    seen_allowed = set()
    for top in ('harness', 'db', 'plot', 'workloads'):
        for p in c_files(root, top):
            if not p.endswith('.c'):
                continue
            rel = os.path.relpath(p, root)
            for name, line, n in functions(p):
                if n <= MAX_LINES:
                    continue
                if (rel, name) in ALLOW_LONG:
                    seen_allowed.add((rel, name))
                    print(f"{rel}:{line}: {name}() is {n} lines (allowed for now)")
                    continue
                bad.append(f"{rel}:{line}: {name}() is {n} lines, over {MAX_LINES}")
    for rel, name in sorted(ALLOW_LONG - seen_allowed):
        if not os.path.exists(os.path.join(root, rel)):
            continue
        bad.append(f"{rel}: {name}() is no longer over {MAX_LINES} lines: "
                   "take it off ALLOW_LONG in tools/check-layout.py")
    for top in os.listdir(root):
        if top in ('db', 'tests', '.git') or top.startswith('build'):
            continue
        for p in c_files(root, top) if os.path.isdir(os.path.join(root, top)) else ():
            for k, line in enumerate(open(p, errors='replace'), 1):
                if 'sqlite3_' in line:
                    bad.append(f"{os.path.relpath(p, root)}:{k}: sqlite3_ outside db/")
    hdir = os.path.join(root, 'harness')
    for d in sorted(os.listdir(hdir)):
        if os.path.isdir(os.path.join(hdir, d)):
            n = len([f for f in os.listdir(os.path.join(hdir, d)) if f.endswith('.c')])
            if n > MAX_C_FILES:
                bad.append(f"harness/{d}: {n} .c files, over {MAX_C_FILES}")
    e2e = os.path.join(root, 'tests', 'e2e')
    by_num = {}
    for f in sorted(os.listdir(e2e)) if os.path.isdir(e2e) else ():
        m = re.match(r'(\d+)-.*\.sh$', f)
        if m:
            by_num.setdefault(m.group(1), []).append(f)
    for num, names in sorted(by_num.items()):
        if len(names) > 1:
            bad.append(f"tests/e2e: number {num} is used by {', '.join(names)}")
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
