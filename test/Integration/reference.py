"""numpy references for the CPU integration tests.

Each reference takes a test program's inputs (numpy arrays, in argument
order) and keyword parameters, and returns the expected outputs as a tuple,
in result order. They are written from the ops' definitions with numpy alone
(explicit loops, einsum, broadcasting) and computed in float64, so they share
no code and no rounding with the kernels they check.

REFERENCES maps the name a test passes to run-and-check.py (--ref) to its
function; parameters come from --param KEY=VALUE (Python literals).
"""

import math

import numpy as np


def _f64(*arrays):
    return [np.asarray(a, dtype=np.float64) for a in arrays]


# --- Building blocks (one per op kind or common layer) -----------------------


def matmul(a, b, trans_a=False, trans_b=False):
    """C = op(A) · op(B), A and B 2-D."""
    a, b = _f64(a, b)
    if trans_a:
        a = a.T
    if trans_b:
        b = b.T
    return (np.einsum("mk,kn->mn", a, b),)


def batch_matmul(a, b):
    """C[b] = A[b] · B[b]."""
    a, b = _f64(a, b)
    return (np.einsum("bmk,bkn->bmn", a, b),)


def conv2d_nchw(x, w, stride=1, dilation=1, pad=0):
    """linalg.conv_2d_nchw_fchw: out[n,f,h,w] = sum over c, kh, kw of
    x[n, c, h*stride + kh*dilation, w*stride + kw*dilation] * w[f, c, kh, kw]
    (x zero-padded by `pad` on both sides of H and W first)."""
    x, w = _f64(x, w)
    if pad:
        x = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    n, c, hi, wi = x.shape
    f, c2, kh, kw = w.shape
    assert c == c2, "channel mismatch"
    ho = (hi - dilation * (kh - 1) - 1) // stride + 1
    wo = (wi - dilation * (kw - 1) - 1) // stride + 1
    out = np.zeros((n, f, ho, wo))
    for i in range(kh):
        for j in range(kw):
            hs = i * dilation
            ws = j * dilation
            patch = x[:, :, hs:hs + stride * (ho - 1) + 1:stride,
                      ws:ws + stride * (wo - 1) + 1:stride]
            out += np.einsum("nchw,fc->nfhw", patch, w[:, :, i, j])
    return out


def conv2d_nhwc_hwcf(x, w, stride=1, dilation=1):
    """linalg.conv_2d_nhwc_hwcf, through the NCHW loops."""
    x, w = _f64(x, w)
    out = conv2d_nchw(x.transpose(0, 3, 1, 2), w.transpose(3, 2, 0, 1),
                      stride=stride, dilation=dilation)
    return out.transpose(0, 2, 3, 1)


def pool_nchw(x, window, stride=1, dilation=1, kind="max"):
    """linalg.pooling_nchw_{max,sum} with a square `window`."""
    (x,) = _f64(x)
    n, c, hi, wi = x.shape
    ho = (hi - dilation * (window - 1) - 1) // stride + 1
    wo = (wi - dilation * (window - 1) - 1) // stride + 1
    out = np.full((n, c, ho, wo), -np.inf if kind == "max" else 0.0)
    for h in range(ho):
        for w in range(wo):
            for i in range(window):
                for j in range(window):
                    v = x[:, :, h * stride + i * dilation,
                          w * stride + j * dilation]
                    out[:, :, h, w] = (np.maximum(out[:, :, h, w], v)
                                       if kind == "max" else out[:, :, h, w] + v)
    return out


def softmax(x, axis=-1):
    (x,) = _f64(x)
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-5):
    """Over the last axis, with the biased variance."""
    x, gamma, beta = _f64(x, gamma, beta)
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


def gelu_tanh(x):
    (x,) = _f64(x)
    return 0.5 * x * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) *
                                    (x + 0.044715 * x ** 3)))


def gelu_erf(x):
    (x,) = _f64(x)
    erf = np.vectorize(math.erf)
    return 0.5 * x * (1.0 + erf(x / math.sqrt(2.0)))


def relu(x):
    (x,) = _f64(x)
    return np.maximum(x, 0.0)


# --- Whole programs: the examples --------------------------------------------


def mlp(x, w1, b1, w2, b2, w3, b3):
    """examples/mlp.mlir."""
    x, w1, b1, w2, b2, w3, b3 = _f64(x, w1, b1, w2, b2, w3, b3)
    a1 = relu(x @ w1 + b1)
    a2 = relu(a1 @ w2 + b2)
    return (softmax(a2 @ w3 + b3, axis=1),)


def convnet(x, w1, b1, w2, b2, wd, bd):
    """examples/convnet.mlir."""
    x, w1, b1, w2, b2, wd, bd = _f64(x, w1, b1, w2, b2, wd, bd)
    r1 = relu(conv2d_nchw(x, w1) + b1[None, :, None, None])
    p1 = pool_nchw(r1, 2, stride=2)
    r2 = relu(conv2d_nchw(p1, w2) + b2[None, :, None, None])
    p2 = pool_nchw(r2, 2, stride=2)
    flat = p2.reshape(p2.shape[0], -1)
    return (flat @ wd + bd,)


def _attention(n, wq, wk, wv, wo, heads):
    s, d = n.shape
    hd = d // heads
    q = (n @ wq).reshape(s, heads, hd).transpose(1, 0, 2)
    k = (n @ wk).reshape(s, heads, hd).transpose(1, 0, 2)
    v = (n @ wv).reshape(s, heads, hd).transpose(1, 0, 2)
    scores = np.einsum("hqd,hkd->hqk", q, k) / math.sqrt(hd)
    ctx = np.einsum("hqk,hkd->hqd", softmax(scores, axis=2), v)
    return ctx.transpose(1, 0, 2).reshape(s, d) @ wo


def transformer(x, g1, be1, wq, wk, wv, wo, g2, be2, w1, b1, w2, b2):
    """examples/transformer.mlir: one pre-norm block, 4 heads."""
    x, g1, be1, wq, wk, wv, wo, g2, be2, w1, b1, w2, b2 = _f64(
        x, g1, be1, wq, wk, wv, wo, g2, be2, w1, b1, w2, b2)
    h = x + _attention(layer_norm(x, g1, be1), wq, wk, wv, wo, heads=4)
    f = gelu_tanh(layer_norm(h, g2, be2) @ w1 + b1) @ w2 + b2
    return (h + f,)


# --- Op-kind and view tests ---------------------------------------------------


def _one(value):
    return (value,)


REFERENCES = {
    # Op kinds.
    "matmul": matmul,
    "batch_matmul": batch_matmul,
    "conv2d_nchw": lambda x, w, **p: _one(conv2d_nchw(x, w, **p)),
    "conv2d_nhwc_hwcf": lambda x, w, **p: _one(conv2d_nhwc_hwcf(x, w, **p)),
    "pool_max_nchw": lambda x, **p: _one(pool_nchw(x, kind="max", **p)),
    "pool_sum_nchw": lambda x, **p: _one(pool_nchw(x, kind="sum", **p)),
    "reduce_sum": lambda x, axis=-1: _one(_f64(x)[0].sum(axis=axis)),
    "reduce_max": lambda x, axis=-1: _one(_f64(x)[0].max(axis=axis)),
    "softmax": lambda x, axis=-1: _one(softmax(x, axis=axis)),
    # The same reduction of the last dimension of each input.
    "row_sums": lambda *xs: tuple(_f64(x)[0].sum(axis=-1) for x in xs),
    "row_maxes": lambda *xs: tuple(_f64(x)[0].max(axis=-1) for x in xs),
    "row_mins": lambda *xs: tuple(_f64(x)[0].min(axis=-1) for x in xs),
    "row_means": lambda *xs: tuple(_f64(x)[0].mean(axis=-1) for x in xs),
    "row_softmaxes": lambda *xs: tuple(softmax(x, axis=-1) for x in xs),
    "transpose": lambda x, perm: _one(_f64(x)[0].transpose(perm)),
    # Elementwise: out = max(a + b, 0) with b broadcast along rows.
    "bias_relu": lambda a, b: _one(relu(_f64(a)[0] + _f64(b)[0])),
    "bias_relu_mm": lambda a, b, c: _one(relu(matmul(a, b)[0] + _f64(c)[0])),
    "relu": lambda a: _one(relu(_f64(a)[0])),
    "exp_mul": lambda a, b: _one(np.exp(_f64(a)[0]) * _f64(b)[0]),
    "exp": lambda a: _one(np.exp(_f64(a)[0])),
    "gelu_tanh": lambda x: _one(gelu_tanh(x)),
    "gelu_erf": lambda x: _one(gelu_erf(x)),
    "layer_norm": lambda x, g, b, eps=1e-5: _one(layer_norm(x, g, b, eps)),
    # Generic: out[i, j] = a[j, i] + b[i, j].
    "transpose_add": lambda a, b: _one(_f64(a)[0].T + _f64(b)[0]),
    # Rank 0: (a * s + 2, sum of a) with s a rank-0 argument.
    "scale_add_sum": lambda a, s: (_f64(a)[0] * _f64(s)[0] + 2.0,
                                   _f64(a)[0].sum()),
    # a * s + a with s a rank-0 argument.
    "scale_add_self": lambda a, s: _one(_f64(a)[0] * _f64(s)[0] + _f64(a)[0]),
    # Views, fan-out and returns.
    # matmul of the rows [r0, r0 + rows) of a with b.
    "row_slice_matmul": lambda a, b, r0, rows: matmul(a[r0:r0 + rows], b),
    # matmul of a strided slice a[r0::rs, c0::cs] (its first `shape`).
    "strided_slice_matmul": lambda a, b, offsets, shape, strides: matmul(
        _strided(a, offsets, shape, strides), b),
    "strided_slice": lambda a, offsets, shape, strides: _one(
        _strided(a, offsets, shape, strides)),
    # (a · b) reshaped to `shape`, then relu.
    "matmul_reshape_relu": lambda a, b, shape: _one(
        relu(matmul(a, b)[0].reshape(shape))),
    # t = a · b; (relu(t), exp(t)).
    "fanout": lambda a, b: (relu(matmul(a, b)[0]),
                            np.exp(matmul(a, b)[0])),
    # t = relu(a); (t, t).
    "returned_twice": lambda a: (relu(a), relu(a)),
    # (a, relu(a)).
    "input_returned": lambda a: (_f64(a)[0], relu(a)),
    # Host ops, each followed or preceded by a kernel.
    "pad_relu": lambda a, low, high, value: _one(
        relu(np.pad(_f64(a)[0], list(zip(low, high)), constant_values=value))),
    "concat_relu": lambda a, b, axis: _one(
        relu(np.concatenate(_f64(a, b), axis=axis))),
    "insert_slice_relu": lambda dst, src, offsets: _one(
        relu(_insert(dst, src, offsets))),
    # tensor.generate: g[i, j] = i * cols + j, plus a.
    "generate_add": lambda a: _one(
        _f64(a)[0] + np.arange(a.size, dtype=np.float64).reshape(a.shape)),
    # tensor.from_elements of the constants `values`, added to a.
    "from_elements_add": lambda a, values: _one(
        _f64(a)[0] + np.asarray(values, dtype=np.float64).reshape(a.shape)),
    # Examples.
    "mlp": mlp,
    "convnet": convnet,
    "transformer": transformer,
    # c = a + b: the runtime's test executable vadd.fuel.
    "add": lambda a, b: (_f64(a)[0] + _f64(b)[0],),
    # Deliberately wrong references (matmul + 1, a + b + 1e-3), to prove
    # the harness fails.
    "wrong_matmul": lambda a, b: (matmul(a, b)[0] + 1.0,),
    "wrong_add": lambda a, b: (_f64(a)[0] + _f64(b)[0] + 1e-3,),
}


def _strided(a, offsets, shape, strides):
    (a,) = _f64(a)
    index = tuple(slice(o, o + (n - 1) * s + 1, s)
                  for o, n, s in zip(offsets, shape, strides))
    return a[index]


def _insert(dst, src, offsets):
    dst, src = _f64(dst, src)
    out = dst.copy()
    index = tuple(slice(o, o + n) for o, n in zip(offsets, src.shape))
    out[index] = src
    return out


def lookup(name):
    """The reference called `name`, or None."""
    return REFERENCES.get(name)
