"""Compares the placements of two plan files (docs/PLAN-FORMAT.md).

Prints one line per (function, node) of the first file with its placement,
and exits non-zero when the second file places any of them differently or
lists a different set of nodes.

Usage: compare-placements.py A.json B.json
"""

import json
import sys


def placements(path):
    with open(path, encoding="utf-8") as f:
        plan = json.load(f)
    return {(fn["name"], n["id"]): n["placement"]
            for fn in plan["functions"] for n in fn["nodes"]}


def main() -> int:
    a = placements(sys.argv[1])
    b = placements(sys.argv[2])
    if a.keys() != b.keys():
        print("the files list different nodes")
        return 1
    for key in sorted(a):
        if a[key] != b[key]:
            print(f"{key[0]} node {key[1]}: {a[key]} vs {b[key]}")
            return 1
        print(f"{key[0]} node {key[1]}: {a[key]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
