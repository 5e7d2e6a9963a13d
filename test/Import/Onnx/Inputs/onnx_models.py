#!/usr/bin/python3
"""ONNX models for the importer's tests, built with onnx.helper, and numpy
references computed independently of fuel (plain numpy, loops for
convolutions and pools).

  onnx_models.py make NAME OUT.onnx     write model NAME
  onnx_models.py e2e NAME --work DIR    import, compile (fuel-compile takes
                                        the .onnx), run with fuel-run on
                                        seeded inputs, compare with numpy
  onnx_models.py seeds DIR              a few small models (fuzz seeds)
  onnx_models.py list                   the model names

fuel-compile and fuel-run are looked up in $FUEL_TOOLS_DIR, else on PATH.
"""

import argparse
import math
import os
import shutil
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

RNG_SEED = 7
MODELS = {}


def model(name):
    def register(fn):
        MODELS[name] = fn
        return fn
    return register


def rng():
    return np.random.default_rng(RNG_SEED)


def f32(a):
    return np.asarray(a, dtype=np.float32)


def init(name, array):
    return nh.from_array(np.asarray(array), name)


def vi(name, dims, elem=T.FLOAT):
    return h.make_tensor_value_info(name, elem, dims)


def finish(nodes, inputs, outputs, inits, opset=17, name="g"):
    g = h.make_graph(nodes, name, inputs, outputs, inits)
    m = h.make_model(g, opset_imports=[h.make_opsetid("", opset)],
                     producer_name="fuel-tests")
    m.ir_version = 8
    if any(not o.type.tensor_type.HasField("shape") for o in g.output):
        # Outputs written without a shape get ONNX's inferred one (the
        # checker requires a shape).
        inferred = onnx.shape_inference.infer_shapes(m)
        del m.graph.output[:]
        m.graph.output.extend(inferred.graph.output)
    return m


# --- numpy references -------------------------------------------------------

def erf(x):
    return np.vectorize(math.erf)(x.astype(np.float64))


def softmax(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def conv2d(x, w, b, strides, pads, dilations, group):
    n, c, hh, ww = x.shape
    m, cg, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pads[0], pads[2]), (pads[1], pads[3])))
    oh = (hh + pads[0] + pads[2] - ((kh - 1) * dilations[0] + 1)) // strides[0] + 1
    ow = (ww + pads[1] + pads[3] - ((kw - 1) * dilations[1] + 1)) // strides[1] + 1
    out = np.zeros((n, m, oh, ow))
    mg = m // group
    for oc in range(m):
        g = oc // mg
        for i in range(oh):
            for j in range(ow):
                for ky in range(kh):
                    for kx in range(kw):
                        y = i * strides[0] + ky * dilations[0]
                        xx = j * strides[1] + kx * dilations[1]
                        out[:, oc, i, j] += (xp[:, g * cg:(g + 1) * cg, y, xx]
                                             * w[oc, :, ky, kx]).sum(axis=1)
    if b is not None:
        out += b.reshape(1, m, 1, 1)
    return out


def pool2d(x, kind, kernel, strides, pads, ceil_mode, include_pad):
    n, c, hh, ww = x.shape
    def out_size(i, k, s, pb, pe):
        span = i + pb + pe - k
        o = (-(-span // s) if ceil_mode else span // s) + 1
        if ceil_mode and (o - 1) * s >= i + pb:
            o -= 1
        return o
    oh = out_size(hh, kernel[0], strides[0], pads[0], pads[2])
    ow = out_size(ww, kernel[1], strides[1], pads[1], pads[3])
    out = np.zeros((n, c, oh, ow))
    for i in range(oh):
        for j in range(ow):
            y0, x0 = i * strides[0] - pads[0], j * strides[1] - pads[1]
            y1, x1 = y0 + kernel[0], x0 + kernel[1]
            ys, xs = max(y0, 0), max(x0, 0)
            ye, xe = min(y1, hh), min(x1, ww)
            win = x[:, :, ys:ye, xs:xe]
            if kind == "max":
                out[:, :, i, j] = win.max(axis=(2, 3))
            else:
                if include_pad:
                    cnt = ((min(y1, hh + pads[2]) - y0) *
                           (min(x1, ww + pads[3]) - x0))
                else:
                    cnt = (ye - ys) * (xe - xs)
                out[:, :, i, j] = win.sum(axis=(2, 3)) / cnt
    return out


def layernorm(x, g, b, axis, eps):
    axes = tuple(range(axis, x.ndim))
    mean = x.mean(axis=axes, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=axes, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * g + b


# --- models -----------------------------------------------------------------
# Each returns (model, inputs: list of arrays, reference: fn(*inputs) -> list).

@model("mlp")
def mlp():
    r = rng()
    w1 = f32(r.standard_normal((8, 16)) * 0.3)
    b1 = f32(r.standard_normal(16))
    w2 = f32(r.standard_normal((4, 16)) * 0.3)
    b2 = f32(r.standard_normal(4))
    nodes = [h.make_node("MatMul", ["x", "w1"], ["h"], name="fc1"),
             h.make_node("Add", ["h", "b1"], ["hb"], name="bias1"),
             h.make_node("Relu", ["hb"], ["a"], name="relu1"),
             h.make_node("Gemm", ["a", "w2", "b2"], ["g"], name="fc2",
                         transB=1, alpha=0.5, beta=2.0),
             h.make_node("Softmax", ["g"], ["y"], name="head", axis=-1)]
    m = finish(nodes, [vi("x", [2, 8])], [vi("y", [2, 4])],
               [init("w1", w1), init("b1", b1), init("w2", w2), init("b2", b2)],
               opset=13)
    def ref(x):
        a = np.maximum(x @ w1 + b1, 0)
        return [softmax(0.5 * (a @ w2.T) + 2.0 * b2, -1)]
    return m, [f32(r.standard_normal((2, 8)))], ref


@model("gemm")
def gemm():
    r = rng()
    b = f32(r.standard_normal((5, 3)))
    c = f32(r.standard_normal((1, 5)))
    nodes = [h.make_node("Gemm", ["a", "b", "c"], ["y"], name="gemm_ta",
                         transA=1, alpha=2.0, beta=-1.0),
             h.make_node("Gemm", ["a", "bt"], ["z"], name="gemm_plain",
                         transA=1, transB=1)]
    m = finish(nodes, [vi("a", [3, 4]), vi("bt", [6, 3])],
               [vi("y", [4, 5]), vi("z", [4, 6])],
               [init("b", b.T.copy()), init("c", c)])
    def ref(a, bt):
        return [2.0 * (a.T @ b.T) - c, a.T @ bt.T]
    return (m, [f32(r.standard_normal((3, 4))), f32(r.standard_normal((6, 3)))],
            ref)


UNARY = ["Neg", "Abs", "Relu", "LeakyRelu", "Sigmoid", "Tanh", "Exp", "Log",
         "Sqrt", "Reciprocal", "Erf"]


@model("elementwise")
def elementwise():
    r = rng()
    nodes, outs = [], []
    shape = [2, 3, 4]
    # Log and Sqrt read |x| + 0.5, Reciprocal reads it too.
    nodes.append(h.make_node("Abs", ["x"], ["ax"], name="abs_x"))
    nodes.append(h.make_node("Add", ["ax", "half"], ["pos"], name="pos"))
    for op in UNARY:
        src = "pos" if op in ("Log", "Sqrt", "Reciprocal") else "x"
        attrs = {"alpha": 0.2} if op == "LeakyRelu" else {}
        nodes.append(h.make_node(op, [src], [op.lower()], name="n_" + op.lower(),
                                 **attrs))
        outs.append(vi(op.lower(), shape))
    for op, other in [("Add", "row"), ("Sub", "col"), ("Mul", "y"),
                      ("Div", "col"), ("Pow", "two")]:
        src = "pos" if op == "Pow" else "x"
        nodes.append(h.make_node(op, [src, other], [op.lower()],
                                 name="n_" + op.lower()))
        outs.append(vi(op.lower(), shape))
    nodes.append(h.make_node("Where", ["cond", "x", "y"], ["where"],
                             name="n_where"))
    outs.append(vi("where", shape))
    cond = r.random((3, 4)) > 0.5
    inits = [init("half", f32(0.5)), init("row", f32(r.standard_normal(4))),
             init("col", f32(r.standard_normal((3, 1)) + 3.0)),
             init("two", f32([2.0, 0.5, 3.0, 1.0])), init("cond", cond)]
    m = finish(nodes, [vi("x", shape), vi("y", shape)], outs, inits)
    row, col, two = (nh.to_array(inits[1]), nh.to_array(inits[2]),
                     nh.to_array(inits[3]))
    def ref(x, y):
        pos = np.abs(x) + 0.5
        u = {"Neg": -x, "Abs": np.abs(x), "Relu": np.maximum(x, 0),
             "LeakyRelu": np.where(x < 0, 0.2 * x, x),
             "Sigmoid": 1 / (1 + np.exp(-x)), "Tanh": np.tanh(x),
             "Exp": np.exp(x), "Log": np.log(pos), "Sqrt": np.sqrt(pos),
             "Reciprocal": 1 / pos, "Erf": erf(x)}
        out = [u[op] for op in UNARY]
        out += [x + row, x - col, x * y, x / col, np.power(pos, two)]
        out.append(np.where(cond, x, y))
        return out
    return m, [f32(r.standard_normal(shape)), f32(r.standard_normal(shape))], ref


@model("convnet")
def convnet():
    r = rng()
    w1 = f32(r.standard_normal((4, 3, 3, 3)) * 0.3)
    b1 = f32(r.standard_normal(4))
    w2 = f32(r.standard_normal((6, 2, 3, 3)) * 0.3)
    wd = f32(r.standard_normal((6, 5)) * 0.3)
    bd = f32(r.standard_normal(5))
    scale, bias = f32(r.random(4) + 0.5), f32(r.standard_normal(4))
    mean, var = f32(r.standard_normal(4)), f32(r.random(4) + 0.5)
    nodes = [
        h.make_node("Conv", ["x", "w1", "b1"], ["c1"], name="conv1",
                    pads=[1, 1, 1, 1]),
        h.make_node("BatchNormalization", ["c1", "s", "bb", "mu", "var"],
                    ["bn"], name="bn1", epsilon=1e-3),
        h.make_node("Relu", ["bn"], ["r1"], name="relu1"),
        h.make_node("MaxPool", ["r1"], ["p1"], name="pool1",
                    kernel_shape=[2, 2], strides=[2, 2]),
        h.make_node("Conv", ["p1", "w2"], ["c2"], name="conv2_grouped",
                    group=2, strides=[1, 1], dilations=[1, 1],
                    pads=[1, 0, 1, 0]),
        h.make_node("AveragePool", ["c2"], ["p2"], name="pool2",
                    kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1],
                    ceil_mode=1, count_include_pad=0),
        h.make_node("AveragePool", ["c2"], ["p3"], name="pool3",
                    kernel_shape=[2, 2], strides=[1, 1], pads=[0, 0, 1, 1],
                    count_include_pad=1),
        h.make_node("MaxPool", ["c2"], ["p4"], name="pool4",
                    kernel_shape=[2, 2], strides=[2, 2], ceil_mode=1),
        h.make_node("GlobalAveragePool", ["p2"], ["gap"], name="gap"),
        h.make_node("Flatten", ["gap"], ["flat"], name="flatten"),
        h.make_node("Gemm", ["flat", "wd", "bd"], ["y"], name="dense"),
    ]
    m = finish(nodes, [vi("x", [2, 3, 8, 8])],
               [vi("y", [2, 5]), vi("p3", None), vi("p4", None)],
               [init("w1", w1), init("b1", b1), init("w2", w2),
                init("wd", wd), init("bd", bd), init("s", scale),
                init("bb", bias), init("mu", mean), init("var", var)],
               opset=11)
    def ref(x):
        c1 = conv2d(x, w1, b1, [1, 1], [1, 1, 1, 1], [1, 1], 1)
        bn = ((c1 - mean.reshape(1, 4, 1, 1)) /
              np.sqrt(var.reshape(1, 4, 1, 1) + 1e-3) *
              scale.reshape(1, 4, 1, 1) + bias.reshape(1, 4, 1, 1))
        p1 = pool2d(np.maximum(bn, 0), "max", [2, 2], [2, 2], [0] * 4, 0, 0)
        c2 = conv2d(p1, w2, None, [1, 1], [1, 0, 1, 0], [1, 1], 2)
        p2 = pool2d(c2, "avg", [3, 3], [2, 2], [1, 1, 1, 1], 1, 0)
        p3 = pool2d(c2, "avg", [2, 2], [1, 1], [0, 0, 1, 1], 0, 1)
        p4 = pool2d(c2, "max", [2, 2], [2, 2], [0] * 4, 1, 0)
        gap = p2.mean(axis=(2, 3))
        return [gap @ wd + bd, p3, p4]
    return m, [f32(r.standard_normal((2, 3, 8, 8)))], ref


@model("transformer")
def transformer():
    r = rng()
    s, d, heads = 4, 8, 2
    g1, be1 = f32(r.random(d) + 0.5), f32(r.standard_normal(d))
    wq, wk, wv, wo = (f32(r.standard_normal((d, d)) * 0.3) for _ in range(4))
    w1, b1 = f32(r.standard_normal((d, 16)) * 0.3), f32(r.standard_normal(16))
    w2 = f32(r.standard_normal((16, d)) * 0.3)
    nodes = [
        h.make_node("LayerNormalization", ["x", "g1", "be1"], ["n1"],
                    name="ln1", axis=-1, epsilon=1e-5),
        h.make_node("MatMul", ["n1", "wq"], ["q"], name="q_proj"),
        h.make_node("MatMul", ["n1", "wk"], ["k"], name="k_proj"),
        h.make_node("MatMul", ["n1", "wv"], ["v"], name="v_proj"),
        # Head split through shape arithmetic: Shape -> Gather -> Unsqueeze
        # -> Concat -> Reshape, all folded at import time.
        h.make_node("Shape", ["q"], ["qs"], name="shape_q"),
        h.make_node("Gather", ["qs", "zero"], ["seq"], name="seq_len", axis=0),
        h.make_node("Unsqueeze", ["seq", "axes0"], ["seq1"], name="seq_1d"),
        h.make_node("Concat", ["seq1", "heads_hd"], ["hshape"], name="hshape",
                    axis=0),
        h.make_node("Reshape", ["q", "hshape"], ["qh"], name="q_heads"),
        h.make_node("Reshape", ["k", "hshape"], ["kh"], name="k_heads"),
        h.make_node("Reshape", ["v", "hshape"], ["vh"], name="v_heads"),
        h.make_node("Transpose", ["qh"], ["qt"], name="q_t", perm=[1, 0, 2]),
        h.make_node("Transpose", ["kh"], ["kt"], name="k_t", perm=[1, 2, 0]),
        h.make_node("Transpose", ["vh"], ["vt"], name="v_t", perm=[1, 0, 2]),
        h.make_node("MatMul", ["qt", "kt"], ["sc"], name="scores"),
        h.make_node("Mul", ["sc", "scale"], ["scs"], name="scale"),
        h.make_node("Softmax", ["scs"], ["p"], name="probs", axis=-1),
        h.make_node("MatMul", ["p", "vt"], ["ctx"], name="context"),
        h.make_node("Transpose", ["ctx"], ["ctt"], name="ctx_t",
                    perm=[1, 0, 2]),
        h.make_node("Reshape", ["ctt", "flat_shape"], ["ctf"], name="merge"),
        h.make_node("MatMul", ["ctf", "wo"], ["att"], name="o_proj"),
        h.make_node("Add", ["x", "att"], ["h"], name="residual1"),
        h.make_node("MatMul", ["h", "w1"], ["f1"], name="ff1"),
        h.make_node("Add", ["f1", "b1"], ["f1b"], name="ff1_bias"),
        # GELU as exporters write it.
        h.make_node("Div", ["f1b", "sqrt2"], ["gd"], name="gelu_div"),
        h.make_node("Erf", ["gd"], ["ge"], name="gelu_erf"),
        h.make_node("Add", ["ge", "one"], ["ga"], name="gelu_add"),
        h.make_node("Mul", ["f1b", "ga"], ["gm"], name="gelu_mul"),
        h.make_node("Mul", ["gm", "halfc"], ["gelu"], name="gelu_half"),
        h.make_node("MatMul", ["gelu", "w2"], ["f2"], name="ff2"),
        h.make_node("Add", ["h", "f2"], ["y"], name="residual2"),
    ]
    inits = [init("g1", g1), init("be1", be1), init("wq", wq), init("wk", wk),
             init("wv", wv), init("wo", wo), init("w1", w1), init("b1", b1),
             init("w2", w2), init("zero", np.int64(0)),
             init("axes0", np.array([0], np.int64)),
             init("heads_hd", np.array([heads, d // heads], np.int64)),
             init("flat_shape", np.array([s, d], np.int64)),
             init("scale", f32(1 / math.sqrt(d // heads))),
             init("sqrt2", f32(math.sqrt(2))), init("one", f32(1.0)),
             init("halfc", f32(0.5))]
    m = finish(nodes, [vi("x", [s, d])], [vi("y", [s, d])], inits)
    def ref(x):
        n1 = layernorm(x, g1, be1, 1, 1e-5)
        q, k, v = n1 @ wq, n1 @ wk, n1 @ wv
        qh = q.reshape(s, heads, -1).transpose(1, 0, 2)
        kt = k.reshape(s, heads, -1).transpose(1, 2, 0)
        vh = v.reshape(s, heads, -1).transpose(1, 0, 2)
        p = softmax(qh @ kt / math.sqrt(d // heads), -1)
        ctx = (p @ vh).transpose(1, 0, 2).reshape(s, d)
        hh = x + ctx @ wo
        f = hh @ w1 + b1
        g = f * 0.5 * (1 + erf(f / math.sqrt(2)))
        return [hh + g @ w2]
    return m, [f32(r.standard_normal((s, d)))], ref


@model("shape")
def shape_ops():
    r = rng()
    x_shape = [2, 3, 4]
    nodes = [
        h.make_node("Slice", ["x", "st", "en", "ax", "sp"], ["sl"], name="slice"),
        h.make_node("Split", ["x", "split"], ["s0", "s1"], name="split", axis=2),
        h.make_node("Concat", ["s1", "s0"], ["cat"], name="concat", axis=2),
        h.make_node("Gather", ["x", "idx"], ["ga"], name="gather", axis=1),
        h.make_node("Unsqueeze", ["x", "uax"], ["un"], name="unsqueeze"),
        h.make_node("Squeeze", ["un", "uax"], ["sq"], name="squeeze"),
        h.make_node("Transpose", ["sq"], ["tr"], name="transpose",
                    perm=[2, 0, 1]),
        h.make_node("Expand", ["row", "eshape"], ["ex"], name="expand"),
        h.make_node("Add", ["x", "ex"], ["xe"], name="add_expanded"),
        h.make_node("ReduceSum", ["x", "rax"], ["rs"], name="rsum",
                    keepdims=0),
        h.make_node("ReduceMean", ["x"], ["rm"], name="rmean", axes=[0, 2]),
        h.make_node("ReduceMax", ["x"], ["rx"], name="rmax", axes=[-1],
                    keepdims=0),
        h.make_node("LogSoftmax", ["x"], ["ls"], name="logsoftmax", axis=0),
        h.make_node("Cast", ["ishape"], ["fshape"], name="cast", to=T.FLOAT),
        h.make_node("Mul", ["rm", "fshape"], ["rmf"], name="mul_cast"),
        h.make_node("Identity", ["rmf"], ["idn"], name="identity"),
        h.make_node("Constant", [], ["k"], name="constant",
                    value=h.make_tensor("kv", T.FLOAT, [4], [1, 2, 3, 4])),
        h.make_node("Mul", ["x", "k"], ["xk"], name="mul_constant"),
    ]
    inits = [init("st", np.array([0, -3], np.int64)),
             init("en", np.array([2, 100], np.int64)),
             init("ax", np.array([0, 2], np.int64)),
             init("sp", np.array([1, 2], np.int64)),
             init("split", np.array([1, 3], np.int64)),
             init("idx", np.array([[2, 0], [1, 1]], np.int64)),
             init("uax", np.array([0, 3], np.int64)),
             init("row", f32(r.standard_normal((3, 1)))),
             init("eshape", np.array([2, 1, 4], np.int64)),
             init("rax", np.array([1], np.int64)),
             init("ishape", np.array([[[1, 2, 3, 4]]], np.int64))]
    outs = [vi(n, None) for n in
            ["sl", "cat", "ga", "tr", "xe", "rs", "rx", "ls", "idn", "xk"]]
    m = finish(nodes, [vi("x", x_shape)], outs, inits)
    row = nh.to_array(inits[7])
    def ref(x):
        e = np.exp(x - x.max(axis=0, keepdims=True))
        ls = x - x.max(axis=0, keepdims=True) - np.log(e.sum(axis=0, keepdims=True))
        rm = x.mean(axis=(0, 2), keepdims=True)
        return [x[0:2, :, 1::2], np.concatenate([x[:, :, 1:], x[:, :, :1]], 2),
                x[:, [[2, 0], [1, 1]], :], x.transpose(2, 0, 1),
                x + np.broadcast_to(row, (2, 3, 4)), x.sum(axis=1),
                x.max(axis=-1), ls, rm * np.array([1, 2, 3, 4]),
                x * np.array([1, 2, 3, 4])]
    return m, [f32(r.standard_normal(x_shape))], ref


@model("matmul-batched")
def matmul_batched():
    r = rng()
    nodes = [h.make_node("MatMul", ["a", "b"], ["y"], name="bmm"),
             h.make_node("MatMul", ["v", "b"], ["z"], name="vec_mm")]
    m = finish(nodes, [vi("a", [2, 1, 3, 4]), vi("b", [3, 4, 5]),
                       vi("v", [4])],
               [vi("y", [2, 3, 3, 5]), vi("z", [3, 5])], [])
    def ref(a, b, v):
        return [a @ b, v @ b]
    return m, [f32(r.standard_normal(s)) for s in ([2, 1, 3, 4], [3, 4, 5], [4])], ref


@model("edge")
def edge():
    r = rng()
    nodes = [
        h.make_node("Slice", ["x", "st", "en", "ax", "sp"], ["rev"],
                    name="reverse"),
        h.make_node("ReduceMean", ["x"], ["mean"], name="mean_all",
                    keepdims=0),
        h.make_node("Slice", ["x", "st", "st", "ax", "sp"], ["none"],
                    name="empty_slice"),
    ]
    inits = [init("st", np.array([-1, 0], np.int64)),
             init("en", np.array([-100, 3], np.int64)),
             init("ax", np.array([1, 0], np.int64)),
             init("sp", np.array([-2, 2], np.int64))]
    m = finish(nodes, [vi("x", [3, 5])],
               [vi("rev", None), vi("mean", None)], inits)
    return (m, [f32(r.standard_normal((3, 5)))],
            lambda x: [x[0:3:2, ::-2], x.mean()])


@model("fold-input")
def fold_input():
    r = rng()
    nodes = [h.make_node("Reshape", ["x", "shape"], ["y"], name="reshape")]
    m = finish(nodes, [vi("x", [2, 6]), vi("shape", [2], T.INT64)],
               [vi("y", [3, 4])], [])
    return m, [f32(r.standard_normal((2, 6)))], lambda x: [x.reshape(3, 4)]


@model("dynamic")
def dynamic():
    nodes = [h.make_node("Relu", ["x"], ["y"], name="relu")]
    m = finish(nodes, [vi("x", ["batch", 4])], [vi("y", ["batch", 4])], [])
    return m, [], None


@model("unsupported")
def unsupported():
    nodes = [
        h.make_node("Relu", ["x"], ["a"], name="ok_relu"),
        h.make_node("TopK", ["a", "kk"], ["tv", "ti"], name="topk_1"),
        h.make_node("MaxPool", ["x4"], ["mp", "mpi"], name="pool_with_indices",
                    kernel_shape=[2, 2]),
        h.make_node("Conv", ["x5", "w5"], ["c5"], name="conv_3d",
                    kernel_shape=[1, 1, 1]),
        h.make_node("Hardmax", ["a"], ["hm"], name="hardmax_2"),
        h.make_node("BatchNormalization", ["x4", "s", "s", "s", "s"],
                    ["bn", "rm", "rv"], name="bn_training", training_mode=1),
    ]
    m = finish(nodes, [vi("x", [2, 4]), vi("x4", [1, 2, 4, 4]),
                       vi("x5", [1, 1, 2, 2, 2])],
               [vi("tv", [2, 1]), vi("ti", [2, 1], T.INT64),
                vi("mp", [1, 2, 3, 3]), vi("mpi", [1, 2, 3, 3], T.INT64),
                vi("c5", [1, 1, 2, 2, 2]), vi("hm", [2, 4]),
                vi("bn", [1, 2, 4, 4]), vi("rm", [2]), vi("rv", [2])],
               [init("kk", np.array([1], np.int64)),
                init("w5", f32(np.ones((1, 1, 1, 1, 1)))),
                init("s", f32(np.ones(2)))])
    return m, [], None


@model("opset18")
def opset18():
    nodes = [h.make_node("Relu", ["x"], ["y"], name="relu")]
    return finish(nodes, [vi("x", [4])], [vi("y", [4])], [], opset=18), [], None


@model("bad-split")
def bad_split():
    # Split sizes whose sum overflows int64 (the onnx-import fuzz target's
    # finding); each must be refused as outside the dimension.
    nodes = [h.make_node("Split", ["x", "split"], ["a", "b"], name="split",
                         axis=0)]
    return finish(nodes, [vi("x", [4])], [vi("a", [2]), vi("b", [2])],
                  [init("split", np.array([2**62 + 3, 2**62 + 5],
                                          dtype=np.int64))]), [], None


@model("missing-initializer")
def missing_initializer():
    # The checker refuses a graph reading a name nothing defines; write the
    # model without it.
    nodes = [h.make_node("MatMul", ["x", "w"], ["y"], name="mm")]
    return finish(nodes, [vi("x", [2, 2])], [vi("y", [2, 2])], []), [], None


def external(location, data_name="w.bin"):
    nodes = [h.make_node("Add", ["x", "w"], ["y"], name="add_external")]
    t = h.make_tensor("w", T.FLOAT, [4], [0.0] * 4)
    t.ClearField("float_data")
    t.data_location = T.EXTERNAL
    for k, v in [("location", location), ("offset", "0"), ("length", "16")]:
        e = t.external_data.add()
        e.key, e.value = k, v
    return finish(nodes, [vi("x", [4])], [vi("y", [4])], [t])


@model("external-inside")
def external_inside():
    return external("w.bin"), [], None


@model("external-outside")
def external_outside():
    return external("../outside.bin"), [], None


@model("external-absolute")
def external_absolute():
    return external("/etc/hostname"), [], None


def save(m, path):
    onnx.save(m, path)
    name = os.path.basename(path)
    d = os.path.dirname(os.path.abspath(path))
    if name.startswith("external"):
        np.arange(4, dtype=np.float32).tofile(os.path.join(d, "w.bin"))


def tool(name):
    d = os.environ.get("FUEL_TOOLS_DIR")
    if d and os.path.exists(os.path.join(d, name)):
        return os.path.join(d, name)
    found = shutil.which(name)
    if not found:
        sys.exit(f"onnx_models.py: {name} not found")
    return found


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"onnx_models.py: {' '.join(cmd)} failed ({p.returncode}):\n"
                 f"{p.stdout}{p.stderr}")
    return p.stdout


def e2e(name, work, rtol, atol, threads):
    os.makedirs(work, exist_ok=True)
    m, inputs, ref = MODELS[name]()
    path = os.path.join(work, name + ".onnx")
    save(m, path)
    exe = os.path.join(work, name + ".fuelx")
    extra = []
    if name == "fold-input":
        pb = os.path.join(work, "shape.pb")
        with open(pb, "wb") as f:
            f.write(nh.from_array(np.array([3, 4], np.int64), "shape")
                    .SerializeToString())
        extra = [f"--fold-input=shape={pb}"]
    run([tool("fuel-compile"), path, "-o", exe,
         "--topology=" + os.environ["FUEL_TOPOLOGY"]] + extra)
    cmd = [tool("fuel-run"), exe]
    for k, a in enumerate(inputs):
        p = os.path.join(work, f"in{k}.npy")
        np.save(p, a)
        cmd.append("--input=@" + p)
    expected = ref(*[a.astype(np.float64) for a in inputs])
    outs = []
    for k in range(len(expected)):
        p = os.path.join(work, f"out{k}.npy")
        outs.append(p)
        cmd.append("--output=@" + p)
    if threads:
        cmd.append(f"--threads={threads}")
    run(cmd)
    ok = True
    for k, (p, want) in enumerate(zip(outs, expected)):
        got = np.load(p).astype(np.float64)
        want = np.asarray(want, np.float64)
        if got.shape != want.shape:
            print(f"{name} output {k}: shape {got.shape}, expected {want.shape}")
            ok = False
            continue
        err = np.abs(got - want)
        bad = err > atol + rtol * np.abs(want)
        print(f"{name} output {k} {list(got.shape)}: max abs error "
              f"{err.max() if err.size else 0:.3g}")
        if bad.any():
            i = np.unravel_index(np.argmax(bad), bad.shape)
            print(f"  MISMATCH at {list(i)}: {got[i]} vs {want[i]}")
            ok = False
    print(f"{name}: {'PASS' if ok else 'FAIL'}")
    return ok


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    mk = sub.add_parser("make")
    mk.add_argument("name")
    mk.add_argument("out")
    ee = sub.add_parser("e2e")
    ee.add_argument("name")
    ee.add_argument("--work", required=True)
    ee.add_argument("--rtol", type=float, default=1e-4)
    ee.add_argument("--atol", type=float, default=1e-5)
    ee.add_argument("--threads", type=int, default=0)
    sd = sub.add_parser("seeds")
    sd.add_argument("dir")
    sub.add_parser("list")
    a = ap.parse_args()
    if a.cmd == "list":
        print("\n".join(sorted(MODELS)))
    elif a.cmd == "make":
        save(MODELS[a.name]()[0], a.out)
    elif a.cmd == "seeds":
        os.makedirs(a.dir, exist_ok=True)
        for n in ["mlp", "gemm", "shape", "unsupported", "matmul-batched"]:
            onnx.save(MODELS[n]()[0], os.path.join(a.dir, n + ".onnx"))
    else:
        sys.exit(0 if e2e(a.name, a.work, a.rtol, a.atol, a.threads) else 1)


if __name__ == "__main__":
    main()
