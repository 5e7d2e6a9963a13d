#!/usr/bin/python3
"""Writes the three examples (examples/{mlp,convnet,transformer}.mlir) as ONNX
models, and the weights and inputs both fuel and ONNX Runtime run on.

  write_models.py --out DIR [--examples mlp,convnet,transformer] [--seed N]

For each example NAME it writes into DIR:

  NAME.arg<I>.npy     the example function's argument I (the input, then the
                      weights, in the function's order): what fuel-run reads
                      with --input=@…
  NAME.onnx           the model with the weights as initializers (the input
                      is the only graph input): how a model is deployed, and
                      what lets ONNX Runtime fold constants and prepack its
                      GEMM weights at session creation
  NAME.inputs.onnx    the same graph with every weight a graph input, fed
                      per run like fuel's arguments (the like-for-like
                      variant: nothing can be prepacked)
  NAME.ref.npy        the float64 numpy reference of the example
                      (test/Integration/reference.py) on the same values

The values come from numpy's default_rng(seed) (default 2026), drawn in
argument order: the input uniform in [-1, 1); matmul and conv weights uniform
in ±1/sqrt(fan-in) (so activations stay of order one through the layers);
biases and layer-norm shifts uniform in [-0.1, 0.1); layer-norm scales
1 + uniform [-0.1, 0.1). The same seed gives the same bytes.

The graphs are what an exporter writes for the same computation, at opset
17 (the newest that Debian's onnx 1.12 checks): MatMul + Add for a dense
layer, Conv with its bias input, Relu, MaxPool, Flatten, Softmax,
LayerNormalization (epsilon 1e-5, biased variance, as the example's
generics), Reshape + Transpose for the heads, and the tanh form of gelu
spelled out as the example does. Each model passes onnx.checker with full
shape inference.
"""

import argparse
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "test", "Integration"))
import reference  # noqa: E402

OPSET = 17
F32 = TensorProto.FLOAT


def uniform(rng, shape, bound):
    return rng.uniform(-bound, bound, size=shape).astype(np.float32)


def weight(rng, shape, fan_in):
    return uniform(rng, shape, 1.0 / np.sqrt(fan_in))


def scale(rng, shape):
    return (1.0 + uniform(rng, shape, 0.1)).astype(np.float32)


# Each example: the function's arguments in order as (name, array), drawn in
# that order from one generator.
def mlp_args(rng):
    return [
        ("x", uniform(rng, (64, 784), 1.0)),
        ("w1", weight(rng, (784, 1024), 784)),
        ("b1", uniform(rng, (1024,), 0.1)),
        ("w2", weight(rng, (1024, 1024), 1024)),
        ("b2", uniform(rng, (1024,), 0.1)),
        ("w3", weight(rng, (1024, 10), 1024)),
        ("b3", uniform(rng, (10,), 0.1)),
    ]


def convnet_args(rng):
    return [
        ("x", uniform(rng, (8, 3, 32, 32), 1.0)),
        ("w1", weight(rng, (16, 3, 5, 5), 3 * 5 * 5)),
        ("b1", uniform(rng, (16,), 0.1)),
        ("w2", weight(rng, (32, 16, 3, 3), 16 * 3 * 3)),
        ("b2", uniform(rng, (32,), 0.1)),
        ("wd", weight(rng, (1152, 10), 1152)),
        ("bd", uniform(rng, (10,), 0.1)),
    ]


def transformer_args(rng):
    return [
        ("x", uniform(rng, (128, 256), 1.0)),
        ("g1", scale(rng, (256,))),
        ("be1", uniform(rng, (256,), 0.1)),
        ("wq", weight(rng, (256, 256), 256)),
        ("wk", weight(rng, (256, 256), 256)),
        ("wv", weight(rng, (256, 256), 256)),
        ("wo", weight(rng, (256, 256), 256)),
        ("g2", scale(rng, (256,))),
        ("be2", uniform(rng, (256,), 0.1)),
        ("w1", weight(rng, (256, 1024), 256)),
        ("b1", uniform(rng, (1024,), 0.1)),
        ("w2", weight(rng, (1024, 256), 1024)),
        ("b2", uniform(rng, (256,), 0.1)),
    ]


def const(name, values):
    return numpy_helper.from_array(np.asarray(values), name)


def mlp_graph():
    n = helper.make_node
    nodes = [
        n("MatMul", ["x", "w1"], ["h1"]),
        n("Add", ["h1", "b1"], ["s1"]),
        n("Relu", ["s1"], ["a1"]),
        n("MatMul", ["a1", "w2"], ["h2"]),
        n("Add", ["h2", "b2"], ["s2"]),
        n("Relu", ["s2"], ["a2"]),
        n("MatMul", ["a2", "w3"], ["h3"]),
        n("Add", ["h3", "b3"], ["logits"]),
        n("Softmax", ["logits"], ["y"], axis=1),
    ]
    return nodes, [], ("y", [64, 10])


def convnet_graph():
    n = helper.make_node
    pool = dict(kernel_shape=[2, 2], strides=[2, 2])
    nodes = [
        n("Conv", ["x", "w1", "b1"], ["c1"], kernel_shape=[5, 5],
          strides=[1, 1], dilations=[1, 1], pads=[0, 0, 0, 0]),
        n("Relu", ["c1"], ["r1"]),
        n("MaxPool", ["r1"], ["p1"], **pool),
        n("Conv", ["p1", "w2", "b2"], ["c2"], kernel_shape=[3, 3],
          strides=[1, 1], dilations=[1, 1], pads=[0, 0, 0, 0]),
        n("Relu", ["c2"], ["r2"]),
        n("MaxPool", ["r2"], ["p2"], **pool),
        n("Flatten", ["p2"], ["flat"], axis=1),
        n("MatMul", ["flat", "wd"], ["d"]),
        n("Add", ["d", "bd"], ["y"]),
    ]
    return nodes, [], ("y", [8, 10])


def transformer_graph():
    n = helper.make_node
    consts = [
        const("heads_shape", np.array([128, 4, 64], np.int64)),
        const("flat_shape", np.array([128, 256], np.int64)),
        const("scale", np.array(0.125, np.float32)),
        const("half", np.array(0.5, np.float32)),
        const("one", np.array(1.0, np.float32)),
        const("gelu_c", np.array(0.7978845608, np.float32)),
        const("gelu_a", np.array(0.044715, np.float32)),
    ]
    ln = dict(axis=-1, epsilon=1e-5)
    nodes = [
        n("LayerNormalization", ["x", "g1", "be1"], ["n1"], **ln),
        n("MatMul", ["n1", "wq"], ["q"]),
        n("MatMul", ["n1", "wk"], ["k"]),
        n("MatMul", ["n1", "wv"], ["v"]),
        n("Reshape", ["q", "heads_shape"], ["qs"]),
        n("Reshape", ["k", "heads_shape"], ["ks"]),
        n("Reshape", ["v", "heads_shape"], ["vs"]),
        n("Transpose", ["qs"], ["qh"], perm=[1, 0, 2]),
        n("Transpose", ["ks"], ["kt"], perm=[1, 2, 0]),
        n("Transpose", ["vs"], ["vh"], perm=[1, 0, 2]),
        n("MatMul", ["qh", "kt"], ["scores"]),
        n("Mul", ["scores", "scale"], ["scaled"]),
        n("Softmax", ["scaled"], ["probs"], axis=2),
        n("MatMul", ["probs", "vh"], ["ctx"]),
        n("Transpose", ["ctx"], ["ctxs"], perm=[1, 0, 2]),
        n("Reshape", ["ctxs", "flat_shape"], ["ctxf"]),
        n("MatMul", ["ctxf", "wo"], ["att"]),
        n("Add", ["x", "att"], ["h"]),
        n("LayerNormalization", ["h", "g2", "be2"], ["n2"], **ln),
        n("MatMul", ["n2", "w1"], ["f1"]),
        # gelu, tanh form, in the example's order of operations.
        n("Add", ["f1", "b1"], ["u"]),
        n("Mul", ["u", "u"], ["u2"]),
        n("Mul", ["u2", "u"], ["u3"]),
        n("Mul", ["u3", "gelu_a"], ["t0"]),
        n("Add", ["u", "t0"], ["t1"]),
        n("Mul", ["t1", "gelu_c"], ["t2"]),
        n("Tanh", ["t2"], ["t"]),
        n("Add", ["t", "one"], ["p"]),
        n("Mul", ["u", "half"], ["hu"]),
        n("Mul", ["hu", "p"], ["gl"]),
        n("MatMul", ["gl", "w2"], ["f2"]),
        n("Add", ["f2", "b2"], ["s"]),
        n("Add", ["s", "h"], ["y"]),
    ]
    return nodes, consts, ("y", [128, 256])


EXAMPLES = {
    "mlp": (mlp_args, mlp_graph),
    "convnet": (convnet_args, convnet_graph),
    "transformer": (transformer_args, transformer_graph),
}


def make_model(name, args, graph, weights_as_inputs):
    nodes, consts, (out_name, out_shape) = graph()
    data, weights = args[0], args[1:]
    inputs = [helper.make_tensor_value_info(data[0], F32, list(data[1].shape))]
    initializers = list(consts)
    for wname, value in weights:
        if weights_as_inputs:
            inputs.append(helper.make_tensor_value_info(
                wname, F32, list(value.shape)))
        else:
            initializers.append(numpy_helper.from_array(value, wname))
    outputs = [helper.make_tensor_value_info(out_name, F32, out_shape)]
    g = helper.make_graph(nodes, name, inputs, outputs, initializers)
    model = helper.make_model(
        g, producer_name="fuel-bench-ort",
        opset_imports=[helper.make_opsetid("", OPSET)])
    model.ir_version = 8
    onnx.checker.check_model(model, full_check=True)
    inferred = onnx.shape_inference.infer_shapes(model, strict_mode=True)
    got = [d.dim_value for d in
           inferred.graph.output[0].type.tensor_type.shape.dim]
    if got != out_shape:
        raise SystemExit(f"write_models: {name}: inferred output {got}, "
                         f"expected {out_shape}")
    return model


def write(out, name, seed):
    make_args, graph = EXAMPLES[name]
    args = make_args(np.random.default_rng(seed))
    for i, (_, value) in enumerate(args):
        np.save(os.path.join(out, f"{name}.arg{i}.npy"), value)
    for suffix, as_inputs in (("", False), (".inputs", True)):
        model = make_model(name, args, graph, as_inputs)
        with open(os.path.join(out, f"{name}{suffix}.onnx"), "wb") as f:
            f.write(model.SerializeToString())
    ref = reference.REFERENCES[name](*[v for _, v in args])
    np.save(os.path.join(out, f"{name}.ref.npy"), np.asarray(ref[0]))
    return len(args)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--out", required=True)
    p.add_argument("--examples", default="mlp,convnet,transformer")
    p.add_argument("--seed", type=int, default=2026)
    a = p.parse_args()
    os.makedirs(a.out, exist_ok=True)
    for name in a.examples.split(","):
        if name not in EXAMPLES:
            p.error(f"unknown example '{name}' (known: "
                    f"{', '.join(EXAMPLES)})")
        count = write(a.out, name, a.seed)
        print(f"write_models: {name}: {count} arguments, {name}.onnx, "
              f"{name}.inputs.onnx (opset {OPSET})")


if __name__ == "__main__":
    main()
