#!/usr/bin/python3
"""Prints the first spirv.module of an MLIR file (generic braces matched), so
that mlir-translate --serialize-spirv, which takes only a top-level
spirv.module, can serialize what convert-gpu-to-spirv put beside the
gpu.module."""

import sys


def main():
    text = open(sys.argv[1]).read()
    start = text.find("spirv.module")
    if start < 0:
        sys.exit("extract-spirv-module: no spirv.module in " + sys.argv[1])
    depth = 0
    for i in range(text.index("{", start), len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                print(text[start : i + 1])
                return
    sys.exit("extract-spirv-module: unbalanced braces in " + sys.argv[1])


if __name__ == "__main__":
    main()
