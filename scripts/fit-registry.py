#!/usr/bin/python3
"""Fits the CPU records of kernels/registry.json to measured kernel times.

  scripts/fit-registry.py [--write] [--records ID,...] [--repeat N]
      [--threads N] [--topology FILE] [--quick] [--save FILE] [--load FILE]
      [--self-test]

For every CPU record (cpu.generated.*, cpu.openblas.*, cpu.blis.*) it builds
one-node programs at several shapes, the node forced to the record's kernel
(`fuel.kernel`), compiles each with fuel-compile for one topology (probed
once with `fuel-topology probe` unless --topology is given, so every program
is priced with the same peak, bandwidth and dispatch overhead), reads the
node's static cost <flops, bytes> from the planned IR, and runs it with
`fuel-run --input=random:1 --repeat=N --report=json` (every core unless
--threads): the kernel's measured time is the median the runtime reports for
its dispatches.

Layer 1 prices a kernel (docs/SEMANTICS.md §3 step 6) as

  time = max(ceil(flops / (peak * ec)), ceil(bytes / (bw * em))) + dispatch + o

with peak, bw and dispatch from the topology, and ec = efficiency_compute,
em = efficiency_memory, o = overhead_ns from the record. The runtime times a
command from its start on the device's queue, so the device's dispatch
overhead (submission, wake-up) is not in the measurement; it is the same for
every candidate of a device, and the fit leaves it out: it fits the kernel
time, time - dispatch. The fit minimises the sum over shapes of
ln(kernel time / measured)^2 (least squares on the relative error, symmetric
in over- and under-prediction): a grid over ec and em in [0.005, 1] and o in
{0} and [10 ns, 1 ms] (log-spaced, refined around the best point). A weak
pull towards the record's current figures decides between figures the
shapes cannot tell apart (e.g. em for a kernel no shape makes memory-bound). It prints, per record, the figures
before and after and, per shape, the measured time and the predicted/measured
ratio before and after; with --write it replaces the three figures in the
registry file (nothing else in the file changes).

--save FILE keeps the measurements (JSON) and --load FILE fits saved ones
without measuring again. Tools come from $FUEL_BUILD_DIR/bin (default
build/bin). Not a test: figures depend on the machine.
"""

import argparse
import json
import math
import os
import re
import sys
import tempfile

import numpy as np

from fueltools import Fail, run, tool

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def tensor(shape):
    return "tensor<" + "x".join(str(d) for d in shape) + "xf32>"


def fill(name, value, shape):
    t = tensor(shape)
    return (f"  %{name}0 = arith.constant {value} : f32\n"
            f"  %{name}e = tensor.empty() : {t}\n"
            f"  %{name} = linalg.fill ins(%{name}0 : f32) outs(%{name}e : {t}) -> {t}\n")


def func(args, result, body, ret):
    params = ", ".join(f"%{n}: {tensor(s)}" for n, s in args)
    return (f"func.func @fit({params}) -> {tensor(result)} {{\n{body}"
            f"  return %{ret} : {tensor(result)}\n}}\n")


KATTR = '{{fuel.kernel = "{kid}"}}'


def prog_matmul(kid, m, k, n):
    a, b, c = [m, k], [k, n], [m, n]
    body = fill("f", "0.0", c) + (
        f"  %c = linalg.matmul {KATTR.format(kid=kid)} ins(%a, %b : {tensor(a)}, {tensor(b)})"
        f" outs(%f : {tensor(c)}) -> {tensor(c)}\n")
    return func([("a", a), ("b", b)], c, body, "c")


def prog_batch_matmul(kid, bt, m, k, n):
    a, b, c = [bt, m, k], [bt, k, n], [bt, m, n]
    body = fill("f", "0.0", c) + (
        f"  %c = linalg.batch_matmul {KATTR.format(kid=kid)} ins(%a, %b : {tensor(a)}, {tensor(b)})"
        f" outs(%f : {tensor(c)}) -> {tensor(c)}\n")
    return func([("a", a), ("b", b)], c, body, "c")


def prog_conv2d(kid, n, c, h, w, f, kh, kw):
    x, wt, o = [n, c, h, w], [f, c, kh, kw], [n, f, h - kh + 1, w - kw + 1]
    body = fill("f", "0.0", o) + (
        f"  %c = linalg.conv_2d_nchw_fchw {{dilations = dense<1> : tensor<2xi64>, "
        f"strides = dense<1> : tensor<2xi64>, fuel.kernel = \"{kid}\"}}"
        f" ins(%x, %w : {tensor(x)}, {tensor(wt)}) outs(%f : {tensor(o)}) -> {tensor(o)}\n")
    return func([("x", x), ("w", wt)], o, body, "c")


def prog_pool(kid, n, c, h, w, k, s):
    x, o = [n, c, h, w], [n, c, (h - k) // s + 1, (w - k) // s + 1]
    body = ("  %win = tensor.empty() : " + tensor([k, k]) + "\n" +
            fill("f", "0xFF800000", o) +
            f"  %p = linalg.pooling_nchw_max {{dilations = dense<1> : tensor<2xi64>, "
            f"strides = dense<{s}> : tensor<2xi64>, fuel.kernel = \"{kid}\"}}"
            f" ins(%x, %win : {tensor(x)}, {tensor([k, k])}) outs(%f : {tensor(o)}) -> {tensor(o)}\n")
    return func([("x", x)], o, body, "p")


def prog_reduce(kid, rows, cols):
    x, o = [rows, cols], [rows]
    body = fill("f", "0.0", o) + (
        f"  %r = linalg.reduce ins(%x : {tensor(x)}) outs(%f : {tensor(o)}) dimensions = [1]"
        f" {KATTR.format(kid=kid)}\n"
        "    (%in: f32, %acc: f32) {\n"
        "      %s = arith.addf %in, %acc : f32\n"
        "      linalg.yield %s : f32\n"
        "    }\n")
    return func([("x", x)], o, body, "r")


def prog_softmax(kid, rows, cols):
    x = [rows, cols]
    body = (f"  %e = tensor.empty() : {tensor(x)}\n"
            f"  %s = linalg.softmax {KATTR.format(kid=kid)} dimension(1) ins(%x : {tensor(x)})"
            f" outs(%e : {tensor(x)}) -> {tensor(x)}\n")
    return func([("x", x)], x, body, "s")


def prog_transpose(kid, rows, cols):
    x, o = [rows, cols], [cols, rows]
    body = (f"  %e = tensor.empty() : {tensor(o)}\n"
            f"  %t = linalg.transpose {KATTR.format(kid=kid)} ins(%x : {tensor(x)})"
            f" outs(%e : {tensor(o)}) permutation = [1, 0]\n")
    return func([("x", x)], o, body, "t")


def generic(kid, maps, ins, out, payload):
    names = ["a", "b"][:len(ins)]
    body = (f"  %zero = arith.constant 0.0 : f32\n"
            f"  %e = tensor.empty() : {tensor(out)}\n"
            f"  %r = linalg.generic {{fuel.kernel = \"{kid}\", indexing_maps = [{', '.join(maps)}],"
            f" iterator_types = [\"parallel\", \"parallel\"]}}\n"
            f"      ins({', '.join('%' + n for n in names)} : {', '.join(tensor(s) for s in ins)})"
            f" outs(%e : {tensor(out)}) {{\n"
            f"  ^bb0({', '.join('%' + n + 'v: f32' for n in names)}, %o: f32):\n"
            f"{payload}"
            f"  }} -> {tensor(out)}\n")
    return func(list(zip(names, ins)), out, body, "r")


ID = "affine_map<(i, j) -> (i, j)>"


def prog_elementwise(kid, rows, cols):
    # out = max(a + bias, 0): the MLP's bias + ReLU.
    return generic(kid, [ID, "affine_map<(i, j) -> (j)>", ID], [[rows, cols], [cols]],
                   [rows, cols],
                   "    %s = arith.addf %av, %bv : f32\n"
                   "    %m = arith.maximumf %s, %zero : f32\n"
                   "    linalg.yield %m : f32\n")


def prog_generic(kid, rows, cols):
    # out[i, j] = a[j, i] + b[i, j]: not elementwise (one operand transposed).
    return generic(kid, ["affine_map<(i, j) -> (j, i)>", ID, ID], [[cols, rows], [rows, cols]],
                   [rows, cols],
                   "    %s = arith.addf %av, %bv : f32\n"
                   "    linalg.yield %s : f32\n")


# Per cost function: the program builder and the shapes (full, quick).
# Shapes span small (overhead-bound), memory-bound and compute-bound cases
# and include the examples' layers.
SHAPES = {
    "matmul": (prog_matmul, [
        (64, 784, 1024), (64, 1024, 1024), (128, 256, 1024), (128, 1024, 256),
        (128, 256, 256), (256, 256, 256), (512, 512, 512), (64, 1024, 10),
        (8, 128, 128), (32, 64, 64)], 5),
    "batch_matmul": (prog_batch_matmul, [
        (4, 128, 64, 128), (4, 128, 128, 64), (16, 64, 64, 64),
        (2, 256, 256, 256), (8, 32, 32, 32), (4, 16, 64, 16)], 4),
    "conv2d": (prog_conv2d, [
        (8, 3, 32, 32, 16, 5, 5), (8, 16, 14, 14, 32, 3, 3),
        (1, 16, 32, 32, 16, 3, 3), (4, 32, 16, 16, 64, 3, 3),
        (1, 3, 8, 8, 4, 3, 3)], 3),
    "pool": (prog_pool, [
        (8, 16, 28, 28, 2, 2), (8, 32, 12, 12, 2, 2), (8, 32, 64, 64, 2, 2),
        (4, 64, 64, 64, 3, 2), (1, 4, 8, 8, 2, 2)], 3),
    "reduce": (prog_reduce, [
        (512, 256), (1024, 1024), (4096, 1024), (16384, 1024), (16, 64)], 3),
    "softmax": (prog_softmax, [
        (64, 10), (512, 128), (1024, 1024), (4096, 1024), (16, 16)], 3),
    "elementwise": (prog_elementwise, [
        (64, 1024), (1024, 1024), (4096, 1024), (16384, 1024), (16, 16)], 3),
    "transpose": (prog_transpose, [
        (256, 1024), (1024, 1024), (2048, 2048), (4096, 1024), (16, 16)], 3),
    "generic": (prog_generic, [
        (256, 1024), (1024, 1024), (2048, 2048), (16, 16)], 3),
}


def cpu_device(topology):
    for d in topology["devices"]:
        if d["device"] == "cpu":
            return d
    raise Fail("the topology has no cpu device")


CAND = re.compile(r'#fuel\.candidate<"([^"]+)".*?cost = <flops = (\d+), bytes = (\d+), '
                  r'overhead_ns = (\d+)>')


def measure(build, topo_path, rec, shape, args, work):
    kid = rec["id"]
    builder = SHAPES[rec["cost"]][0]
    name = kid.replace(".", "_") + "_" + "x".join(map(str, shape))
    src = os.path.join(work, name + ".mlir")
    with open(src, "w") as f:
        f.write(builder(kid, *shape))
    compile_args = [tool(build, "fuel-compile"), src, "--topology=" + topo_path,
                    "--plan=allow-cost-placement=false"]
    planned = run(compile_args + ["--emit=planned", "-o", "-"])
    cost = None
    for m in CAND.finditer(planned):
        if m.group(1) == kid:
            cost = (int(m.group(2)), int(m.group(3)))
    if cost is None:
        raise Fail(f"{kid}: no candidate of that id in the planned IR of {src}")
    exe = os.path.join(work, name + ".fuelx")
    run(compile_args + ["-o", exe])
    cmd = [tool(build, "fuel-run"), exe, "--input=random:1",
           f"--repeat={args.repeat}", "--report=json"]
    if args.threads:
        cmd.append(f"--threads={args.threads}")
    best = None
    # The smaller of two medians: a burst of load from elsewhere rarely
    # spans both.
    for _ in range(2):
        report = json.loads(run(cmd))
        dispatches = [c for c in report["commands"] if c["kind"] == "dispatch"
                      and c["kernel"] == kid]
        if not dispatches:
            raise Fail(f"{kid}: {exe} runs no dispatch of that kernel")
        ns = sum(c["measured_ns"] for c in dispatches)
        pred = sum(c["predicted_ns"] for c in dispatches)
        best = ns if best is None else min(best, ns)
    return {"shape": list(shape), "flops": cost[0], "bytes": cost[1],
            "measured_ns": best, "report_predicted_ns": pred}


def predict(flops, nbytes, peak, bw, dispatch, ec, em, o):
    """Layer 1's time (SEMANTICS §3 step 6), vectorised over shapes."""
    return (np.maximum(np.ceil(flops / (peak * ec)), np.ceil(nbytes / (bw * em)))
            + dispatch + o)


# Cost functions whose flops grow in proportion to their bytes at every
# shape: their time is memory-bound (or, with an unrealistically small ec,
# compute-bound in the same proportion), so measurements cannot separate ec
# from em. Their ec keeps the record's value (it matters only for functions
# heavier than the measured one, e.g. an elementwise exp) and em and o are
# fitted.
FIXED_EC = {"elementwise", "reduce", "pool", "softmax", "transpose", "generic"}


def fit(points, peak, bw, ec0, em0, o0, fix_ec=False):
    """The (ec, em, o) minimising sum ln(kernel time / measured)^2, where the
    kernel time is Layer 1's time without the device's dispatch overhead
    (the runtime times a command from its start on the queue, so submission
    is not in the measurement; the topology's dispatch figure is the same for
    every candidate of the device and is left as it is)."""
    f = np.array([p["flops"] for p in points], dtype=np.float64)
    b = np.array([p["bytes"] for p in points], dtype=np.float64)
    m = np.array([p["measured_ns"] for p in points], dtype=np.float64)
    m = np.maximum(m, 1.0)
    lo, hi = math.log(0.005), 0.0
    # Overheads: 0, then log-spaced from 10 ns to 1 ms.
    o_grid = np.concatenate([[0.0], np.exp(np.linspace(math.log(10), math.log(1e6), 57))])

    def search(log_ec, log_em, os_):
        ec = np.exp(log_ec)[:, None, None, None]
        em = np.exp(log_em)[None, :, None, None]
        o = os_[None, None, :, None]
        t = np.maximum(f / (peak * ec), b / (bw * em)) + o
        r = np.log(t / m)
        # The weak pull towards the current figures (decides ties only,
        # e.g. em when no shape is memory-bound).
        pull = 1e-4 * ((log_ec[:, None, None] - math.log(ec0)) ** 2
                       + (log_em[None, :, None] - math.log(em0)) ** 2
                       + (np.log1p(os_)[None, None, :] - math.log1p(o0)) ** 2 * 0.01)
        val = np.sum(r * r, axis=3) + pull
        i, j, k = np.unravel_index(np.argmin(val), val.shape)
        return float(val[i, j, k]), float(log_ec[i]), float(log_em[j]), float(os_[k])

    def ec_grid(lec, span, n):
        if fix_ec:
            return np.array([math.log(ec0)])
        return np.linspace(max(lo, lec - span), min(hi, lec + span), n)

    best = search(ec_grid(0, 10, 81), np.linspace(lo, hi, 81), o_grid)
    span, ospan = (hi - lo) / 40, 0.3
    for _ in range(4):  # refine around the best point
        _, lec, lem, o = best
        os_ = np.unique(np.concatenate([[0.0], o * np.exp(np.linspace(-ospan, ospan, 21))]))
        best = min(best, search(
            ec_grid(lec, span, 21),
            np.linspace(max(lo, lem - span), min(hi, lem + span), 21), os_))
        span /= 5
        ospan /= 5
    _, lec, lem, o = best
    # Two significant digits: the measurements do not support more, and
    # round figures keep hand-computed prices (lit tests, docs) readable.
    return (sig2(min(1.0, math.exp(lec))), sig2(min(1.0, math.exp(lem))),
            int(sig2(o)) if o >= 1 else 0)


def sig2(x):
    """x rounded to two significant digits (x > 0)."""
    if x <= 0:
        return 0.0
    digits = 1 - int(math.floor(math.log10(x)))
    return round(x, digits)


def write_registry(path, fitted):
    text = open(path).read()
    for kid, (ec, em, o) in fitted.items():
        start = text.find(f'"id": "{kid}"')
        if start < 0:
            raise Fail(f"{path}: no record {kid}")
        end = text.find('"id": "', start + 1)
        end = len(text) if end < 0 else end
        block = text[start:end]
        block = re.sub(r'"efficiency_compute": [0-9.eE+-]+', f'"efficiency_compute": {ec}', block, 1)
        block = re.sub(r'"efficiency_memory": [0-9.eE+-]+', f'"efficiency_memory": {em}', block, 1)
        block = re.sub(r'"overhead_ns": [0-9]+', f'"overhead_ns": {o}', block, 1)
        text = text[:start] + block + text[end:]
    with open(path, "w") as f:
        f.write(text)


def self_test():
    """Recovers known figures from synthetic times, and --write changes only
    the three figures of the records it fits."""
    peak, bw = 160.0, 20.0
    rng = np.random.default_rng(7)
    for ec, em, o in [(0.3, 0.5, 5000), (0.9, 0.05, 0), (0.02, 0.8, 300)]:
        pts = []
        for _ in range(12):
            f = float(10 ** rng.uniform(4, 9))
            b = float(10 ** rng.uniform(3, 8))
            t = predict(np.array([f]), np.array([b]), peak, bw, 0, ec, em, o)[0]
            pts.append({"flops": f, "bytes": b, "measured_ns": float(t)})
        got = fit(pts, peak, bw, 0.5, 0.5, 1000)
        for want, have, what in zip((ec, em), got[:2], ("ec", "em")):
            if abs(have - want) > 0.05 * want:
                raise Fail(f"self-test: {what} {want} fitted as {have} ({got})")
        if abs(got[2] - o) > 0.06 * o + 50:
            raise Fail(f"self-test: overhead {o} fitted as {got[2]} ({got})")
    with tempfile.TemporaryDirectory(prefix="fuel-fit-") as work:
        path = os.path.join(work, "registry.json")
        original = open(os.path.join(ROOT, "kernels", "registry.json")).read()
        with open(path, "w") as f:
            f.write(original)
        write_registry(path, {"cpu.generated.softmax_f32": (0.123, 0.456, 789)})
        before, after = json.loads(original), json.load(open(path))
        for r0, r1 in zip(before["kernels"], after["kernels"]):
            if r0["id"] == "cpu.generated.softmax_f32":
                r0.update(efficiency_compute=0.123, efficiency_memory=0.456, overhead_ns=789)
            if r0 != r1:
                raise Fail(f"self-test: --write changed {r0['id']} wrongly")
        if len(open(path).read().splitlines()) != len(original.splitlines()):
            raise Fail("self-test: --write changed the file's layout")
    print("fit-registry self-test: ok")


def geomean_abs_log(ratios):
    return math.exp(sum(abs(math.log(r)) for r in ratios) / len(ratios))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--registry", default=os.path.join(ROOT, "kernels", "registry.json"))
    ap.add_argument("--write", action="store_true", help="write the fitted figures into the registry")
    ap.add_argument("--records", default="", help="comma list of record ids (default: every CPU record)")
    ap.add_argument("--repeat", type=int, default=30, help="fuel-run --repeat (median)")
    ap.add_argument("--threads", type=int, default=0, help="fuel-run --threads (default: every core)")
    ap.add_argument("--topology", default="", help="topology file (default: fuel-topology probe, once)")
    ap.add_argument("--quick", action="store_true", help="fewer shapes and repeats")
    ap.add_argument("--save", default="", help="write the measurements to this JSON file")
    ap.add_argument("--load", default="", help="fit measurements saved by --save, measuring nothing")
    ap.add_argument("--self-test", action="store_true", help="check the fit and --write, measure nothing")
    args = ap.parse_args()
    if args.self_test:
        self_test()
        return
    build = os.environ.get("FUEL_BUILD_DIR", os.path.join(ROOT, "build"))
    if args.quick:
        args.repeat = min(args.repeat, 10)

    failed = []
    registry = json.load(open(args.registry))
    records = [r for r in registry["kernels"] if r["backend"] == "cpu"]
    if args.records:
        wanted = args.records.split(",")
        unknown = [w for w in wanted if w not in {r["id"] for r in records}]
        if unknown:
            raise Fail("no CPU record " + ", ".join(unknown))
        records = [r for r in records if r["id"] in wanted]

    with tempfile.TemporaryDirectory(prefix="fuel-fit-") as work:
        if args.load:
            saved = json.load(open(args.load))
            topology = saved["topology"]
            data = saved["records"]
        else:
            if args.topology:
                topology = json.load(open(args.topology))
            else:
                topology = json.loads(run([tool(build, "fuel-topology"), "probe"]))
            topo_path = os.path.join(work, "topology.json")
            with open(topo_path, "w") as f:
                json.dump(topology, f, indent=2)
            data = {}
            for rec in records:
                if rec["cost"] not in SHAPES:
                    failed.append(f"{rec['id']}: no programs for cost function {rec['cost']}")
                    continue
                _, shapes, nquick = SHAPES[rec["cost"]]
                pts = []
                try:
                    for shape in shapes[:nquick] if args.quick else shapes:
                        pts.append(measure(build, topo_path, rec, shape, args, work))
                        sys.stderr.write(f"{rec['id']} {pts[-1]['shape']}: "
                                         f"{pts[-1]['measured_ns']} ns\n")
                except Fail as e:
                    # The other records are still worth fitting; the exit
                    # status says that one failed.
                    failed.append(f"{rec['id']}: {e}")
                    continue
                data[rec["id"]] = pts
            if args.save:
                with open(args.save, "w") as f:
                    json.dump({"topology": topology, "records": data}, f, indent=1)

    cpu = cpu_device(topology)
    peak = float(cpu["peak_flops_per_ns"]["f32"])
    bw = float(cpu["bytes_per_ns"])
    dispatch = float(cpu["dispatch_overhead_ns"])
    print(f"topology cpu: {cpu.get('name', '?')}, peak f32 {peak:.1f} flop/ns, "
          f"{bw:.1f} B/ns, dispatch {dispatch:.0f} ns; fuel-run --repeat={args.repeat}"
          f"{' --threads=' + str(args.threads) if args.threads else ' (every core)'}\n")
    print("Kernel time = Layer 1's time less the device's dispatch overhead "
          "(not part of a command's measured time); error factor = "
          "geomean of max(r, 1/r), r = kernel time / measured.\n")
    print("| record | efficiency_compute | efficiency_memory | overhead_ns | "
          "error factor before → after |")
    print("|---|---|---|---|---|")
    fitted = {}
    details = []
    by_id = {r["id"]: r for r in registry["kernels"]}
    for kid, pts in data.items():
        rec = by_id[kid]
        ec0, em0, o0 = rec["efficiency_compute"], rec["efficiency_memory"], rec["overhead_ns"]
        ec, em, o = fit(pts, peak, bw, ec0, em0, o0, rec["cost"] in FIXED_EC)
        fitted[kid] = (ec, em, o)
        f = np.array([p["flops"] for p in pts], dtype=np.float64)
        b = np.array([p["bytes"] for p in pts], dtype=np.float64)
        m = np.array([p["measured_ns"] for p in pts], dtype=np.float64)
        before = predict(f, b, peak, bw, 0, ec0, em0, o0)
        after = predict(f, b, peak, bw, 0, ec, em, o)
        for p, pb in zip(pts, before):
            if "report_predicted_ns" in p and abs(p["report_predicted_ns"] - pb - dispatch) > 1:
                print(f"# note: {kid} {p['shape']}: fuel-run's prediction "
                      f"({p['report_predicted_ns']} ns) is not this script's ({pb + dispatch:.0f} ns): "
                      "the tools embed another registry than the file's")
                break
        print(f"| {kid} | {ec0} → {ec} | {em0} → {em} | {o0} → {o} | "
              f"{geomean_abs_log(before / m):.2f}× → {geomean_abs_log(after / m):.2f}× |")
        for p, pb, pa in zip(pts, before, after):
            details.append((kid, p, pb, pa))
    print("\n| record | shape | flops | bytes | measured µs | kernel time / measured, before | after |")
    print("|---|---|---|---|---|---|---|")
    for kid, p, pb, pa in details:
        mm = p["measured_ns"]
        print(f"| {kid} | {'x'.join(map(str, p['shape']))} | {p['flops']} | {p['bytes']} | "
              f"{mm / 1000:.1f} | {pb / mm:.2f} | {pa / mm:.2f} |")
    if args.write:
        write_registry(args.registry, fitted)
        print(f"\nwrote {len(fitted)} records into {args.registry}")
    if failed:
        raise Fail("not fitted:\n  " + "\n  ".join(failed))


if __name__ == "__main__":
    try:
        main()
    except Fail as e:
        sys.stderr.write(f"fit-registry: {e}\n")
        sys.exit(1)
