#!/usr/bin/python3
"""Checks the file-header banner of every C, C++ and TableGen file.

LLVM style: the first line names the file and describes it, padded with dashes
to exactly 80 columns, and carries the editor mode of a header or .td file:

//===- Name.h - Description -------------------------------------*- C++ -*-===//
//===- Name.cpp - Description ---------------------------------------------===//
//===- Name.td - Description -------------------------------*- tablegen -*-===//

Usage: check-banners.py DIR_OR_FILE...
Directories are searched recursively, skipping hidden directories and build
trees (any directory holding a CMakeCache.txt). Prints one line per bad file
and exits 1 if there is any.
"""

import os
import re
import sys

WIDTH = 80
# Suffix -> the endings its banner may have after the description and a
# space: dashes, then the editor mode of a header or TableGen file.
ENDINGS = {
    ".h": (r"-*-\*- C\+\+ -\*-===//", r"-*-\*- C -\*-===//"),
    ".cpp": (r"-+===//",),
    ".c": (r"-+===//",),
    ".td": (r"-*-\*- tablegen -\*-===//",),
}


def problem(path):
    """Returns what is wrong with the banner of `path`, or None."""
    name = os.path.basename(path)
    endings = ENDINGS[os.path.splitext(name)[1]]
    with open(path, encoding="utf-8") as f:
        first = f.readline().rstrip("\n")
    prefix = "//===- " + name + " - "
    if not first.startswith(prefix):
        return "does not start with '%s'" % prefix
    if len(first) != WIDTH:
        return "is %d columns, not %d" % (len(first), WIDTH)
    body = first[len(prefix):]
    if any(re.fullmatch(r"\S(.*\S)? " + e, body) for e in endings):
        return None
    return "does not end in a space, dashes and '%s'" % (
        "-*- C++ -*-===//" if name.endswith(".h") else
        "-*- tablegen -*-===//" if name.endswith(".td") else "===//")


def sources(arg):
    """Yields the C, C++ and TableGen files under `arg`, sorted."""
    if os.path.isfile(arg):
        yield arg
        return
    for root, dirs, files in os.walk(arg):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and
                         not os.path.exists(
                             os.path.join(root, d, "CMakeCache.txt")))
        for f in sorted(files):
            if os.path.splitext(f)[1] in ENDINGS:
                yield os.path.join(root, f)


def main(args):
    if not args:
        sys.stderr.write(__doc__)
        return 2
    bad = 0
    checked = 0
    for arg in args:
        for path in sources(arg):
            checked += 1
            why = problem(path)
            if why:
                bad += 1
                print("%s: banner %s" % (path, why))
    print("%d files checked, %d bad banners" % (checked, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
