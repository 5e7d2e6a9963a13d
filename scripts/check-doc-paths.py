#!/usr/bin/python3
"""Checks that every repository path the documents name exists.

A document (README.md and every .md under docs/ and bench/) names a path as
code: a backticked word that starts with one of the repository's top-level
folders (`lib/Planner/Placement.cpp`, `test/topologies/cpu-only.json`,
`include/fuel/Runtime/`). This script fails when such a path is not in the
repository, naming each document, line and path. Not paths, by rule:
placeholders (`<backend>`, `NAME`, `*`, `…`, `{a,b}`, `%t`, `$VAR`), build
outputs (`build/…`, `bin/…` and what the build generates under a build
directory), command lines (a backticked text with a space), paths under a
document's heading that lists what does not exist yet (NOT_YET), and a
trailing `:LINE` or `#anchor`, which are dropped before the check.

Usage: check-doc-paths.py [SOURCE_DIR]   (default: the repository root)
       check-doc-paths.py --self-test    (checks the checker on a made-up tree)
"""

import os
import re
import sys
import tempfile

TOP_LEVEL = ("bench", "cmake", "docs", "examples", "fuzz", "include",
             "kernels", "lib", "runtime", "scripts", "test", "tools",
             "unittests")
# Sections that list paths which do not exist yet, by design: KERNELS.md's
# registered kernels whose lowering is still to be written (its table is
# tied to the registry by FuelTargetTests' KernelLoweringTest).
NOT_YET = {os.path.join("docs", "KERNELS.md"):
           "## Kernels whose figures are estimates"}
CODE = re.compile(r"`([^`\n]+)`")
PLACEHOLDER = re.compile(r"[<>*{}\u2026$%|\[\]]|\.\.\.|\bN\b|[A-Z]{2,}(?:\.|$)")


def documents(root):
    found = [os.path.join(root, "README.md")]
    for folder in ("docs", "bench"):
        for base, dirs, files in os.walk(os.path.join(root, folder)):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            found += [os.path.join(base, f) for f in sorted(files)
                      if f.endswith(".md")]
    return [f for f in found if os.path.isfile(f)]


def candidate(text):
    """The repository path `text` names, or None when it names none."""
    if " " in text or "\t" in text:
        return None
    path = re.sub(r"(:\d+(-\d+)?|#[\w-]*)$", "", text).rstrip(".,;:")
    if "/" not in path or path.split("/", 1)[0] not in TOP_LEVEL:
        return None
    if PLACEHOLDER.search(path):
        return None
    return path


def check(root):
    bad = []
    for doc in documents(root):
        skipped = NOT_YET.get(os.path.relpath(doc, root))
        skipping = False
        with open(doc, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                if line.startswith("#"):
                    skipping = line.rstrip() == skipped
                if skipping:
                    continue
                for match in CODE.finditer(line):
                    path = candidate(match.group(1))
                    if path and not os.path.exists(os.path.join(root, path)):
                        bad.append(f"{os.path.relpath(doc, root)}:{number}: "
                                   f"`{path}` does not exist")
    return bad


def self_test():
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, "lib", "Planner"))
        os.makedirs(os.path.join(root, "docs"))
        open(os.path.join(root, "lib", "Planner", "Cut.cpp"), "w").close()
        with open(os.path.join(root, "README.md"), "w") as f:
            f.write("See `lib/Planner/Cut.cpp:12`, `lib/Planner/` and "
                    "`lib/Planner/Gone.cpp`.\n")
        with open(os.path.join(root, "docs", "A.md"), "w") as f:
            f.write("`lib/<backend>/X.cpp`, `test/NAME.mlir`, "
                    "`build/bin/fuel-run`, `lib/Planner/*.cpp`,\n"
                    "`fuel-run test/x.fuelx --dump`, `include/gone.h`.\n")
        bad = check(root)
        expected = ["README.md:1: `lib/Planner/Gone.cpp` does not exist",
                    "docs/A.md:2: `include/gone.h` does not exist"]
        if bad != expected:
            print("check-doc-paths: self-test failed:\n  got " + repr(bad))
            return 1
    print("check-doc-paths: self-test passed")
    return 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    root = argv[1] if len(argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..")
    bad = check(os.path.abspath(root))
    for line in bad:
        print(line)
    print(f"check-doc-paths: {len(documents(root))} documents, "
          f"{len(bad)} missing paths")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
