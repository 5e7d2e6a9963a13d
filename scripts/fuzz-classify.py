#!/usr/bin/python3
"""Classifies a fuzzer's failure stack as fuel's or upstream's.

Usage: fuzz-classify.py STACK...  prints "upstream" or "fuel" per file.

scripts/fuzz.sh files a failure whose faulting frames are all in LLVM/MLIR
under test/fuzz-regressions/upstream/ and every other one as fuel's. The
faulting frames are the stack's own frames (sanitizer, libc, libstdc++ and
libFuzzer frames left out) from the top down to the fuzz target's entry
(LLVMFuzzerTestOneInput). A fuel frame there makes the failure fuel's,
unless it is only a parse entry point (a fuel op's or attribute's
`parse(...AsmParser&...)`, which hands its regions and nested ops to the
upstream parser) below an upstream top frame: such a frame calls the
faulting code but is not where it faults (docs/RELIABILITY.md, "Filing a
failure").
"""

import re
import sys

RUNTIME = re.compile(r"__sanitizer|__asan|__ubsan|__interceptor|compiler-rt|"
                     r"libc\.so|libc_start|raise|abort|fuzzer::|libstdc\+\+")
PARSE_ENTRY = re.compile(r"\bmlir::fuel::[\w:]*::parse\w*\([^)]*AsmParser&")


def frames(path):
    """The frames of the first stack in `path`, top first."""
    out = []
    with open(path, errors="replace") as f:
        for line in f:
            m = re.match(r"\s*#(\d+) 0x[0-9a-f]+ in (.*)", line) or \
                re.match(r"\s*#(\d+) 0x[0-9a-f]+ +(\(.*)", line)
            if not m:
                if out:
                    break
                continue
            if int(m.group(1)) == 0 and out:
                break
            out.append(m.group(2))
    return out


def is_upstream(frame):
    return ("libMLIR" in frame or "/usr/lib/llvm-22/include/" in frame or
            re.search(r"\(/usr/lib/llvm-22/lib/", frame) is not None)


def classify(stack):
    own = []
    for f in stack:
        if "LLVMFuzzerTestOneInput" in f:
            break
        if RUNTIME.search(f):
            continue
        own.append(f)
    if not own or not is_upstream(own[0]):
        return "fuel"
    for f in own:
        if is_upstream(f) or PARSE_ENTRY.search(f):
            continue
        return "fuel"
    return "upstream"


def main(argv):
    if len(argv) < 2:
        print("usage: fuzz-classify.py STACK...", file=sys.stderr)
        return 2
    for path in argv[1:]:
        try:
            print(classify(frames(path)))
        except OSError as e:
            print(f"fuzz-classify.py: {path}: {e.strerror}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
