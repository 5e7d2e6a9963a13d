#!/usr/bin/python3
"""Writes the fixed list of ONNX backend node tests fuel's conformance suite
runs (test/onnx/node-tests.txt), from Debian's libonnx-testdata.

  onnx-node-test-list.py [--data DIR] [--out FILE] [--excluded]

A test is on the list when
  - its name does not end in `_expanded` (those spell a function's body out
    as primitive ops; the importer sees the function op itself),
  - every node of its graph is one of the ops fuel imports (OPS below, the
    importer's coverage),
  - every graph output is a float32 tensor, and every graph input is a
    float32 tensor or an int64/int32/bool tensor, which the runner folds into
    a constant with `fuel-import-onnx --fold-input` ("f32 data after
    folding"),
  - and it is not on EXCLUDED, the tests of these ops that leave the list
    with a reason (docs/ONNX.md, "Conformance", lists them).
The list is sorted by op, then name: `OP TEST` per line. --excluded prints,
instead, every test of these ops that is not on the list, with its reason,
as a Markdown table. The same data give the same bytes.
"""

import argparse
import os
import sys

import onnx
from onnx import TensorProto

DEFAULT_DATA = "/usr/share/libonnx-testdata/data/node"

# The ops fuel-import-onnx covers (docs/ONNX.md).
OPS = sorted("""
MatMul Gemm Add Sub Mul Div Neg Abs Relu LeakyRelu Sigmoid Tanh Exp Log Sqrt
Reciprocal Pow Erf Softmax LogSoftmax LayerNormalization BatchNormalization
Conv MaxPool AveragePool GlobalAveragePool ReduceMean ReduceSum ReduceMax
Reshape Flatten Transpose Squeeze Unsqueeze Concat Split Slice Gather Where
Cast Shape Identity Constant Gelu
""".split())

FOLDABLE = (TensorProto.INT64, TensorProto.INT32, TensorProto.BOOL)

# Tests that meet the rules above but leave the list, with the reason.
EXCLUDED = {
    "test_batchnorm_epsilon_training_mode":
        "training mode (batch statistics and running-mean outputs); the "
        "importer covers BatchNormalization for inference",
    "test_batchnorm_example_training_mode":
        "training mode (batch statistics and running-mean outputs); the "
        "importer covers BatchNormalization for inference",
}


def type_name(t):
    kind = t.WhichOneof("value")
    if kind != "tensor_type":
        return kind or "none"
    return TensorProto.DataType.Name(t.tensor_type.elem_type)


def classify(path):
    """-> (ops, reason): the test's op types, and why it is not on the list
    (None when it is)."""
    model = onnx.load(os.path.join(path, "model.onnx"))
    g = model.graph
    ops = sorted({n.op_type for n in g.node})
    for v in g.output:
        t = v.type
        if t.WhichOneof("value") != "tensor_type" or \
                t.tensor_type.elem_type != TensorProto.FLOAT:
            return ops, f"output {v.name} is {type_name(t)}, not FLOAT"
    for v in g.input:
        t = v.type
        if t.WhichOneof("value") != "tensor_type":
            return ops, f"input {v.name} is a {type_name(t)}"
        if t.tensor_type.elem_type not in (TensorProto.FLOAT,) + FOLDABLE:
            return ops, f"input {v.name} is {type_name(t)}"
    return ops, None


def scan(data):
    listed, excluded = [], []
    for name in sorted(os.listdir(data)):
        path = os.path.join(data, name)
        if not name.startswith("test_") or name.endswith("_expanded") or \
                not os.path.isfile(os.path.join(path, "model.onnx")):
            continue
        ops, reason = classify(path)
        if not ops or any(op not in OPS for op in ops):
            continue
        op = "+".join(ops)
        if reason is None and name in EXCLUDED:
            reason = EXCLUDED[name]
        (listed if reason is None else excluded).append((op, name, reason))
    return sorted(listed), sorted(excluded)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--data", default=DEFAULT_DATA)
    p.add_argument("--out", default="-")
    p.add_argument("--excluded", action="store_true")
    a = p.parse_args()
    if not os.path.isdir(a.data):
        p.error(f"--data: {a.data} is not a folder (Debian: libonnx-testdata)")
    listed, excluded = scan(a.data)
    if a.excluded:
        lines = ["| op | test | reason |", "|---|---|---|"]
        lines += [f"| {op} | `{name}` | {reason} |"
                  for op, name, reason in excluded]
    else:
        lines = [
            "# ONNX backend node tests of the ops fuel imports, f32 data "
            "after",
            "# folding (scripts/onnx-node-test-list.py writes this file; the",
            "# conformance runner scripts/onnx-node-tests.py reads it).",
            "# OP TEST",
        ] + [f"{op} {name}" for op, name, _ in listed]
    text = "\n".join(lines) + "\n"
    if a.out == "-":
        sys.stdout.write(text)
    else:
        with open(a.out, "w") as f:
            f.write(text)
        print(f"onnx-node-test-list: {len(listed)} tests, "
              f"{len(excluded)} excluded", file=sys.stderr)


if __name__ == "__main__":
    main()
