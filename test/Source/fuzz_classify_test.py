#!/usr/bin/python3
"""Self-test of scripts/fuzz-classify.py, the classifier scripts/fuzz.sh files
failures by: every saved upstream reproducer's stack
(test/fuzz-regressions/upstream/*.stack) classifies as upstream, and each
stack of test/Source/Inputs/fuzz-stacks/ as its name's first word says
("fuel-..." or "upstream-...").

Usage: fuzz_classify_test.py SOURCE_ROOT
"""

import glob
import importlib.util
import os
import sys


def main(argv):
    root = argv[1]
    spec = importlib.util.spec_from_file_location(
        "fuzz_classify", os.path.join(root, "scripts", "fuzz-classify.py"))
    classifier = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(classifier)

    cases = [(p, "upstream") for p in sorted(glob.glob(
        os.path.join(root, "test", "fuzz-regressions", "upstream", "*.stack")))]
    for p in sorted(glob.glob(os.path.join(root, "test", "Source", "Inputs",
                                           "fuzz-stacks", "*.stack"))):
        cases.append((p, os.path.basename(p).split("-", 1)[0]))
    if not any(e == "upstream" for _, e in cases) or \
       not any(e == "fuel" for _, e in cases):
        print("fuzz-classify-test: expected both upstream and fuel stacks")
        return 1
    failed = 0
    for path, expected in cases:
        stack = classifier.frames(path)
        got = classifier.classify(stack)
        if not stack or got != expected:
            print(f"fuzz-classify-test: FAIL {os.path.relpath(path, root)}: "
                  f"{got}, expected {expected} ({len(stack)} frames)")
            failed += 1
    if failed:
        return 1
    print(f"fuzz-classify-test: {len(cases)} stacks classified as expected")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
