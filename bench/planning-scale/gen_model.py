#!/usr/bin/python3
"""Generate ingress MLIR shaped like a real model, with a given number of
kernel-bearing ops.

    gen_model.py --shape transformer|convnet --ops N [--seed S] [--funcs K] -o out.mlir

The output is a module of `func.func`s with static shapes, one block each and no
control flow, using upstream linalg/tensor/arith/math ops on tensors (see
SEMANTICS.md section 4 for which ops are kernel-bearing, which are views and which
are init chains).

Counted as kernel-bearing: every linalg op except `linalg.fill` (the fills here only
initialise accumulators / destinations, together with `tensor.empty`).  Views
(`tensor.extract_slice`, `tensor.expand_shape`, `tensor.collapse_shape`) and
constants are not counted.  Whole blocks are emitted while they fit; the remainder is
filled with single elementwise ops, so the count is exactly N.  The exact count is
printed on stderr.

Weights are function arguments; some of them carry
`{fuel.residency = #fuel.device<cpu>}` (weights kept in host memory).
Output is deterministic for a given (shape, ops, seed, funcs).
"""

import argparse
import random
import sys
import time

F32 = "f32"


def ty(shape):
    return "tensor<" + "x".join(str(d) for d in shape) + "xf32>"


def amap(rank, dims):
    ds = ", ".join("d%d" % i for i in range(rank))
    rs = ", ".join("d%d" % i for i in dims)
    return "affine_map<(%s) -> (%s)>" % (ds, rs)


# Affine map aliases emitted at the top of the module.
MAP_ALIASES = [
    ("#id2", amap(2, [0, 1])),
    ("#row2", amap(2, [0])),
    ("#col2", amap(2, [1])),
    ("#id3", amap(3, [0, 1, 2])),
    ("#id4", amap(4, [0, 1, 2, 3])),
    ("#ch4", amap(4, [3])),
]
IDMAP = {2: "#id2", 3: "#id3", 4: "#id4"}


class Func:
    """Builds one func.func body as a list of lines."""

    def __init__(self, name, rng):
        self.name = name
        self.rng = rng
        self.args = []  # (name, type, attr or None)
        self.lines = []
        self.nval = 0
        self.kernels = 0
        self.consts = {}  # (value literal) -> ssa name, emitted at top
        self.const_lines = []

    # -- helpers -------------------------------------------------------------
    def fresh(self):
        self.nval += 1
        return "%%v%d" % self.nval

    def arg(self, shape, cpu_resident=False):
        name = "%%arg%d" % len(self.args)
        attr = "{fuel.residency = #fuel.device<cpu>}" if cpu_resident else None
        self.args.append((name, ty(shape), attr))
        return name

    def const(self, lit):
        if lit not in self.consts:
            name = "%%c%d" % len(self.consts)
            self.consts[lit] = name
            self.const_lines.append("  %s = arith.constant %s : f32" % (name, lit))
        return self.consts[lit]

    def emit(self, s):
        self.lines.append(s)

    def empty(self, shape):
        v = self.fresh()
        self.emit("  %s = tensor.empty() : %s" % (v, ty(shape)))
        return v

    def filled(self, shape, lit="0.000000e+00"):
        """tensor.empty + linalg.fill init chain (not kernel-bearing)."""
        e = self.empty(shape)
        v = self.fresh()
        self.emit("  %s = linalg.fill ins(%s : f32) outs(%s : %s) -> %s"
                  % (v, self.const(lit), e, ty(shape), ty(shape)))
        return v

    # -- kernel-bearing ops --------------------------------------------------
    def matmul(self, a, ash, b, bsh):
        out = [ash[0], bsh[1]]
        init = self.filled(out)
        v = self.fresh()
        self.emit("  %s = linalg.matmul ins(%s, %s : %s, %s) outs(%s : %s) -> %s"
                  % (v, a, b, ty(ash), ty(bsh), init, ty(out), ty(out)))
        self.kernels += 1
        return v, out

    def batch_matmul(self, a, ash, b, bsh):
        out = [ash[0], ash[1], bsh[2]]
        init = self.filled(out)
        v = self.fresh()
        self.emit("  %s = linalg.batch_matmul ins(%s, %s : %s, %s) outs(%s : %s) -> %s"
                  % (v, a, b, ty(ash), ty(bsh), init, ty(out), ty(out)))
        self.kernels += 1
        return v, out

    def generic(self, ins, out_shape, maps, iters, body, init=None):
        """ins: list of (value, shape); maps: one per input plus the output;
        body: lines using block args %in0.. and %out, ending with the yielded
        value in the last line as `yield X`."""
        if init is None:
            init = self.empty(out_shape)
        v = self.fresh()
        ins_v = ", ".join(x for x, _ in ins)
        ins_t = ", ".join(ty(s) for _, s in ins)
        bargs = ", ".join(["%%in%d: f32" % i for i in range(len(ins))] + ["%out: f32"])
        self.emit('  %s = linalg.generic {indexing_maps = [%s], iterator_types = [%s]} '
                  'ins(%s : %s) outs(%s : %s) {'
                  % (v, ", ".join(maps), ", ".join('"%s"' % t for t in iters),
                     ins_v, ins_t, init, ty(out_shape)))
        self.emit("  ^bb0(%s):" % bargs)
        for ln in body:
            self.emit("    " + ln)
        self.emit("  } -> %s" % ty(out_shape))
        self.kernels += 1
        return v

    def eltwise(self, ins, out_shape, maps, body):
        rank = len(out_shape)
        return self.generic(ins, out_shape, maps + [IDMAP[rank]],
                            ["parallel"] * rank, body)

    def reduce_sum(self, x, shape, dims):
        out = [d for i, d in enumerate(shape) if i not in dims]
        init = self.filled(out)
        v = self.fresh()
        self.emit("  %s = linalg.reduce ins(%s : %s) outs(%s : %s) dimensions = [%s]"
                  % (v, x, ty(shape), init, ty(out), ", ".join(str(d) for d in dims)))
        self.emit("    (%in: f32, %acc: f32) {")
        self.emit("      %r = arith.addf %in, %acc : f32")
        self.emit("      linalg.yield %r : f32")
        self.emit("    }")
        self.kernels += 1
        return v, out

    def softmax(self, x, shape, dim):
        init = self.empty(shape)
        v = self.fresh()
        self.emit("  %s = linalg.softmax dimension(%d) ins(%s : %s) outs(%s : %s) -> %s"
                  % (v, dim, x, ty(shape), init, ty(shape), ty(shape)))
        self.kernels += 1
        return v

    def transpose(self, x, shape, perm):
        out = [shape[p] for p in perm]
        init = self.empty(out)
        v = self.fresh()
        self.emit("  %s = linalg.transpose ins(%s : %s) outs(%s : %s) permutation = [%s]"
                  % (v, x, ty(shape), init, ty(out), ", ".join(str(p) for p in perm)))
        self.kernels += 1
        return v, out

    def conv(self, x, xsh, w, wsh, stride=1, dilation=1):
        n, h, wd, _ = xsh
        kh, kw, _, oc = wsh
        oh = (h - dilation * (kh - 1) - 1) // stride + 1
        ow = (wd - dilation * (kw - 1) - 1) // stride + 1
        out = [n, oh, ow, oc]
        init = self.filled(out)
        v = self.fresh()
        self.emit("  %s = linalg.conv_2d_nhwc_hwcf {dilations = dense<%d> : tensor<2xi64>, "
                  "strides = dense<%d> : tensor<2xi64>} ins(%s, %s : %s, %s) outs(%s : %s) -> %s"
                  % (v, dilation, stride, x, w, ty(xsh), ty(wsh), init, ty(out), ty(out)))
        self.kernels += 1
        return v, out

    def maxpool(self, x, xsh, k, stride):
        n, h, wd, c = xsh
        out = [n, (h - k) // stride + 1, (wd - k) // stride + 1, c]
        win = self.empty([k, k])
        init = self.filled(out, "0xFF800000")
        v = self.fresh()
        self.emit("  %s = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, "
                  "strides = dense<%d> : tensor<2xi64>} ins(%s, %s : %s, %s) outs(%s : %s) -> %s"
                  % (v, stride, x, win, ty(xsh), ty([k, k]), init, ty(out), ty(out)))
        self.kernels += 1
        return v, out

    # -- views ---------------------------------------------------------------
    def extract_slice(self, x, shape, offsets, sizes):
        v = self.fresh()
        self.emit("  %s = tensor.extract_slice %s[%s] [%s] [%s] : %s to %s"
                  % (v, x, ", ".join(map(str, offsets)), ", ".join(map(str, sizes)),
                     ", ".join("1" for _ in sizes), ty(shape), ty(sizes)))
        return v

    def expand(self, x, shape, reassoc, out):
        v = self.fresh()
        ra = ", ".join("[" + ", ".join(map(str, g)) + "]" for g in reassoc)
        self.emit("  %s = tensor.expand_shape %s [%s] output_shape [%s] : %s into %s"
                  % (v, x, ra, ", ".join(map(str, out)), ty(shape), ty(out)))
        return v

    def collapse(self, x, shape, reassoc, out):
        v = self.fresh()
        ra = ", ".join("[" + ", ".join(map(str, g)) + "]" for g in reassoc)
        self.emit("  %s = tensor.collapse_shape %s [%s] : %s into %s"
                  % (v, x, ra, ty(shape), ty(out)))
        return v

    # -- output ----------------------------------------------------------------
    def render(self, results):
        sig = []
        for name, t, attr in self.args:
            sig.append("%s: %s%s" % (name, t, (" " + attr) if attr else ""))
        rtys = ", ".join(ty(s) for _, s in results)
        out = ["func.func @%s(%s) -> (%s) {" % (self.name, ", ".join(sig), rtys)]
        out.extend(self.const_lines)
        out.extend(self.lines)
        out.append("  return %s : %s" % (", ".join(v for v, _ in results), rtys))
        out.append("}")
        return out


# ---------------------------------------------------------------------------
# Transformer
# ---------------------------------------------------------------------------

def relu_body(f):
    z = f.const("0.000000e+00")
    return ["%%r = arith.maximumf %%in0, %s : f32" % z, "linalg.yield %r : f32"]


def layernorm(f, x, sh):
    """reduce(sum) + centre + variance reduction + normalise = 4 kernels."""
    s, d = sh
    invd = f.const("%e" % (1.0 / d))
    ssum, rsh = f.reduce_sum(x, sh, [1])
    cen = f.eltwise([(x, sh), (ssum, rsh)], sh, ["#id2", "#row2"], [
        "%%m = arith.mulf %%in1, %s : f32" % invd,
        "%r = arith.subf %in0, %m : f32",
        "linalg.yield %r : f32"])
    vinit = f.filled([s])
    var = f.generic([(cen, sh)], [s], ["#id2", "#row2"], ["parallel", "reduction"], [
        "%sq = arith.mulf %in0, %in0 : f32",
        "%r = arith.addf %sq, %out : f32",
        "linalg.yield %r : f32"], init=vinit)
    gamma = f.arg([d])
    beta = f.arg([d])
    return f.eltwise([(cen, sh), (var, [s]), (gamma, [d]), (beta, [d])], sh,
                     ["#id2", "#row2", "#col2", "#col2"], [
        "%%vm = arith.mulf %%in1, %s : f32" % invd,
        "%%ve = arith.addf %%vm, %s : f32" % f.const("9.99999974E-6"),
        "%rs = math.rsqrt %ve : f32",
        "%n = arith.mulf %in0, %rs : f32",
        "%g = arith.mulf %n, %in2 : f32",
        "%r = arith.addf %g, %in3 : f32",
        "linalg.yield %r : f32"])


def residual_bias_add(f, a, b, bias, sh):
    return f.eltwise([(a, sh), (b, sh), (bias, [sh[1]])], sh, ["#id2", "#id2", "#col2"], [
        "%s = arith.addf %in0, %in1 : f32",
        "%r = arith.addf %s, %in2 : f32",
        "linalg.yield %r : f32"])


TRANSFORMER_BLOCK_KERNELS = 24


def transformer_block(f, x, sh, heads, mlp_ratio, cpu_weights):
    s, d = sh
    dh = d // heads
    # attention
    n1 = layernorm(f, x, sh)
    wqkv = f.arg([d, 3 * d], cpu_weights)
    qkv, qsh = f.matmul(n1, sh, wqkv, [d, 3 * d])
    hs = [s, heads, dh]
    q = f.expand(f.extract_slice(qkv, qsh, [0, 0], [s, d]), sh, [[0], [1, 2]], hs)
    k = f.expand(f.extract_slice(qkv, qsh, [0, d], [s, d]), sh, [[0], [1, 2]], hs)
    v = f.expand(f.extract_slice(qkv, qsh, [0, 2 * d], [s, d]), sh, [[0], [1, 2]], hs)
    qt, qtsh = f.transpose(q, hs, [1, 0, 2])      # H x S x dh
    kt, ktsh = f.transpose(k, hs, [1, 2, 0])      # H x dh x S
    vt, vtsh = f.transpose(v, hs, [1, 0, 2])      # H x S x dh
    sc, scsh = f.batch_matmul(qt, qtsh, kt, ktsh)  # H x S x S
    scale = f.const("%e" % (1.0 / (dh ** 0.5)))
    scs = f.eltwise([(sc, scsh)], scsh, ["#id3"], [
        "%%r = arith.mulf %%in0, %s : f32" % scale, "linalg.yield %r : f32"])
    p = f.softmax(scs, scsh, 2)
    at, atsh = f.batch_matmul(p, scsh, vt, vtsh)   # H x S x dh
    ab, absh = f.transpose(at, atsh, [1, 0, 2])    # S x H x dh
    a2 = f.collapse(ab, absh, [[0], [1, 2]], sh)
    wo = f.arg([d, d], cpu_weights)
    bo = f.arg([d])
    o, _ = f.matmul(a2, sh, wo, [d, d])
    x1 = residual_bias_add(f, o, x, bo, sh)
    # MLP
    n2 = layernorm(f, x1, sh)
    hid = d * mlp_ratio
    w1 = f.arg([d, hid], cpu_weights)
    b1 = f.arg([hid])
    h1, h1sh = f.matmul(n2, sh, w1, [d, hid])
    # tanh-approximated GELU with bias
    g = f.eltwise([(h1, h1sh), (b1, [hid])], h1sh, ["#id2", "#col2"], [
        "%x = arith.addf %in0, %in1 : f32",
        "%x3 = arith.mulf %x, %x : f32",
        "%x4 = arith.mulf %x3, %x : f32",
        "%%t0 = arith.mulf %%x4, %s : f32" % f.const("4.471500e-02"),
        "%t1 = arith.addf %x, %t0 : f32",
        "%%t2 = arith.mulf %%t1, %s : f32" % f.const("7.978846e-01"),
        "%t3 = math.tanh %t2 : f32",
        "%%t4 = arith.addf %%t3, %s : f32" % f.const("1.000000e+00"),
        "%%t5 = arith.mulf %%x, %s : f32" % f.const("5.000000e-01"),
        "%r = arith.mulf %t5, %t4 : f32",
        "linalg.yield %r : f32"])
    w2 = f.arg([hid, d], cpu_weights)
    b2 = f.arg([d])
    h2, _ = f.matmul(g, h1sh, w2, [hid, d])
    return residual_bias_add(f, h2, x1, b2, sh)


TRANSFORMER_CONFIGS = [  # (hidden, heads, mlp ratio)
    (256, 4, 4), (384, 6, 4), (512, 8, 4), (768, 12, 4), (1024, 16, 2)]


def gen_transformer(f, n, rng, seq):
    x_sh = [seq, TRANSFORMER_CONFIGS[rng.randrange(3)][0]]
    x = f.arg(x_sh)
    blocks = 0
    while True:
        # A segment: a few blocks at one hidden size, then a projection to the next.
        d, heads, ratio = rng.choice(TRANSFORMER_CONFIGS)
        if x_sh[1] != d:
            if n - f.kernels < TRANSFORMER_BLOCK_KERNELS + 1:
                break
            w = f.arg([x_sh[1], d])
            x, x_sh = f.matmul(x, x_sh, w, [x_sh[1], d])
        seg = rng.randint(2, 12)
        for _ in range(seg):
            if n - f.kernels < TRANSFORMER_BLOCK_KERNELS:
                break
            cpu = (blocks % 5 == 4)  # every fifth block's weights live on the host
            x = transformer_block(f, x, x_sh, heads, ratio, cpu)
            blocks += 1
        else:
            continue
        break
    # Pad to exactly n with elementwise ops (ReLU / exp-scaled).
    i = 0
    while f.kernels < n:
        if i % 2 == 0:
            x = f.eltwise([(x, x_sh)], x_sh, ["#id2"], relu_body(f))
        else:
            x = f.eltwise([(x, x_sh)], x_sh, ["#id2"], [
                "%e = math.exp %in0 : f32",
                "%r = arith.mulf %e, %in0 : f32",
                "linalg.yield %r : f32"])
        i += 1
    return [(x, x_sh)]


# ---------------------------------------------------------------------------
# Conv net
# ---------------------------------------------------------------------------

def bias_add4(f, x, sh, bias):
    return f.eltwise([(x, sh), (bias, [sh[3]])], sh, ["#id4", "#ch4"], [
        "%r = arith.addf %in0, %in1 : f32", "linalg.yield %r : f32"])


def relu4(f, x, sh):
    return f.eltwise([(x, sh)], sh, ["#id4"], relu_body(f))


def conv_bias_relu(f, x, sh, oc, k, stride, cpu):
    w = f.arg([k, k, sh[3], oc], cpu)
    b = f.arg([oc])
    c, csh = f.conv(x, sh, w, [k, k, sh[3], oc], stride=stride)
    c = bias_add4(f, c, csh, b)
    return relu4(f, c, csh), csh


def res_block(f, x, sh, cpu):
    """conv3x3-bias-relu-conv3x3-bias + cropped residual + relu = 7 kernels.
    Convs are unpadded, so the residual is the centre crop (an extract_slice)."""
    n, h, w, c = sh
    y, ysh = conv_bias_relu(f, x, sh, c, 3, 1, cpu)
    w2 = f.arg([3, 3, c, c], cpu)
    b2 = f.arg([c])
    z, zsh = f.conv(y, ysh, w2, [3, 3, c, c])
    crop = f.extract_slice(x, sh, [0, 2, 2, 0], zsh)
    s = f.eltwise([(z, zsh), (crop, zsh), (b2, [c])], zsh, ["#id4", "#id4", "#ch4"], [
        "%s = arith.addf %in0, %in1 : f32",
        "%r = arith.addf %s, %in2 : f32",
        "linalg.yield %r : f32"])
    return relu4(f, s, zsh), zsh


RES_BLOCK_KERNELS = 7


def convnet(f, img, img_sh, rng, budget, net_idx):
    """One ResNet-ish network on `img`; returns (logits, shape) or None if it
    does not fit in `budget` kernels.  Emits nothing when it does not fit."""
    width = rng.choice([32, 48, 64])
    classes = 16
    stages = []
    h = img_sh[1] - 2  # after the stem conv
    c = width
    for st in range(3):
        blocks = rng.randint(1, 3)
        # keep spatial >= 6 after the blocks
        while blocks > 0 and h - 4 * blocks < 6:
            blocks -= 1
        stages.append((c, blocks))
        h -= 4 * blocks
        if st < 2:
            h = (h - 2) // 2 + 1  # 2x2/2 max pool
            c *= 2
    cost = 3 + sum(RES_BLOCK_KERNELS * b for _, b in stages) + 2 * (1 + 3) + 2
    if cost > budget:
        return None, 0
    cpu = (net_idx % 4 == 3)
    x, sh = conv_bias_relu(f, img, img_sh, width, 3, 1, cpu)  # stem: 3 kernels
    for st, (c, blocks) in enumerate(stages):
        for _ in range(blocks):
            x, sh = res_block(f, x, sh, cpu)
        if st < 2:
            x, sh = f.maxpool(x, sh, 2, 2)
            x, sh = conv_bias_relu(f, x, sh, c * 2, 1, 1, cpu)  # 1x1 widen
    # head: global sum pool (reduce over H, W) + classifier matmul
    pooled, psh = f.reduce_sum(x, sh, [1, 2])   # N x C
    wfc = f.arg([psh[1], classes], cpu)
    logits, lsh = f.matmul(pooled, psh, wfc, [psh[1], classes])
    return (logits, lsh), cost


def gen_convnet(f, n, rng, batch):
    sizes = [32, 40, 48]
    imgs = {}
    acc = None
    net = 0
    while True:
        hw = rng.choice(sizes)
        if hw not in imgs:
            isz = [batch, hw, hw, 3]
            imgs[hw] = (f.arg(isz), isz)
        img, isz = imgs[hw]
        budget = n - f.kernels - (1 if acc is not None else 0)
        saved = rng.getstate()
        res, cost = convnet(f, img, isz, rng, budget, net)
        if res is None:
            rng.setstate(saved)
            break
        net += 1
        if acc is None:
            acc = res
        else:  # ensemble: accumulate logits
            acc = (f.eltwise([acc, res], acc[1], ["#id2", "#id2"], [
                "%r = arith.addf %in0, %in1 : f32", "linalg.yield %r : f32"]), acc[1])
    if acc is None:
        hw = sizes[0]
        isz = [batch, hw, hw, 3]
        if hw not in imgs:
            imgs[hw] = (f.arg(isz), isz)
        acc = imgs[hw]
    x, sh = acc
    i = 0
    while f.kernels < n:
        if i % 2 == 0:
            x = f.eltwise([(x, sh)], sh, [IDMAP[len(sh)]], relu_body(f))
        else:
            x = f.eltwise([(x, sh)], sh, [IDMAP[len(sh)]], [
                "%e = math.exp %in0 : f32",
                "%r = arith.mulf %e, %in0 : f32",
                "linalg.yield %r : f32"])
        i += 1
    return [(x, sh)]


# ---------------------------------------------------------------------------

def generate(shape, n, seed, funcs):
    rng = random.Random("%s:%d" % (shape, seed))
    per = [n // funcs + (1 if i < n % funcs else 0) for i in range(funcs)]
    out = ["// Generated by bench/planning-scale/gen_model.py --shape %s --ops %d --seed %d --funcs %d"
           % (shape, n, seed, funcs)]
    for alias, m in MAP_ALIASES:
        out.append("%s = %s" % (alias, m))
    out.append("module {")
    total = 0
    for i, k in enumerate(per):
        f = Func("%s_%d" % (shape, i), rng)
        if shape == "transformer":
            res = gen_transformer(f, k, rng, seq=128)
        else:
            res = gen_convnet(f, k, rng, batch=1)
        assert f.kernels == k, (f.kernels, k)
        total += f.kernels
        out.extend(f.render(res))
    out.append("}")
    return "\n".join(out) + "\n", total


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--shape", choices=["transformer", "convnet"], required=True)
    ap.add_argument("--ops", type=int, required=True, help="kernel-bearing ops to emit")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--funcs", type=int, default=1,
                    help="split the ops across this many functions (default 1)")
    ap.add_argument("-o", "--output", required=True)
    a = ap.parse_args()
    if a.ops < 1 or a.funcs < 1 or a.funcs > a.ops:
        ap.error("need 1 <= --funcs <= --ops")
    t0 = time.perf_counter()
    text, total = generate(a.shape, a.ops, a.seed, a.funcs)
    with open(a.output, "w") as fh:
        fh.write(text)
    print("%s: %d kernel-bearing ops (%s, seed %d) in %.2f s"
          % (a.output, total, a.shape, a.seed, time.perf_counter() - t0), file=sys.stderr)


if __name__ == "__main__":
    main()
