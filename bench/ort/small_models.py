#!/usr/bin/python3
"""Small models: fuel against ONNX Runtime under the whole-run protocol.

  small_models.py --build BUILD --ort-dir DIR [--work DIR]
      [--models kws,mlp30] [--threads 1,2] [--processes 20] [--repeat 50]
      [--warmup 5] [--seed 2026] [--topology probe] [--json FILE]
      [--check-only] [--skip-if-missing]

Small models are where a runtime's own time shows: their kernels take
microseconds, so waking a thread per command, not arithmetic, decides the
run. Two, written here with python3-onnx from random weights (numpy
default_rng(seed); nothing is downloaded):

  kws    a keyword-spotter-like stack over a 49x10 MFCC window, batch 1:
         Flatten, 9 x (Gemm 144 + LayerNormalization + Relu), Gemm 12,
         Softmax -- 30 nodes (the first Gemm 490 -> 144)
  mlp30  15 x (Gemm 256 + Relu) on a 1x256 input -- 30 nodes

and, by name, the three examples as write_models.py writes them (mlp,
convnet, transformer: the weights initializers, the data the one input),
run the same way so that the examples are measured under this protocol
too.

Gemm weights are uniform in +-1/sqrt(fan-in), biases and layer-norm shifts
in +-0.1, scales 1 +- 0.1; opset 17; each model passes onnx.checker with
full shape inference. fuel imports each (fuel-import-onnx) and compiles it
for this machine with every node on the host (fuel-compile
--topology=probe --plan=allow-cost-placement=false); fuel-run's result must
match ONNX Runtime's and the float64 numpy reference (allclose rtol 1e-3,
atol 1e-4) before any timing.

Timing: per thread count, --processes rounds; each round runs fuel-run and
run_ort.js once each, in fresh processes, alternating which goes first;
each process does --warmup untimed and --repeat timed runs (fuel-run's
run_ns, ORT's runs_ns: the wall time of one Session::run / session.run).
Per model, thread count and contender: the median and p90 of every timed
run, p90/p50, and the spread of the per-process medians (largest /
smallest); fuel / ORT of the medians, and the worst of the per-process
ratios (each fuel process against the ORT process run beside it). Target:
fuel <= 0.8 x ORT's median on one thread in every process (printed as met
or missed; never the exit code). A missing
prerequisite or a mismatch is exit 1; with --skip-if-missing a missing
onnxruntime-node or node is a skip (exit 77, a SKIP line) instead, except
under CI=true, where scripts/test.sh installs them. --check-only stops
after the check (the ctest fuel-bench-small-models-check).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)),
                                "scripts"))
from fueltools import Fail, loadavg, percentile, run, tool  # noqa: E402
OPSET = 17


def uniform(rng, shape, bound):
    return rng.uniform(-bound, bound, size=shape).astype(np.float32)


def kws(rng):
    """The keyword-spotter-like stack; returns (model, input, reference)."""
    nodes, inits = [], []
    x = uniform(rng, (1, 49, 10), 1.0)
    nodes.append(helper.make_node("Flatten", ["x"], ["h0"], axis=1))
    ref = x.reshape(1, 490).astype(np.float64)
    prev, width = "h0", 490
    for i in range(9):
        w = uniform(rng, (width, 144), 1 / np.sqrt(width))
        b = uniform(rng, (144,), 0.1)
        g = (1 + uniform(rng, (144,), 0.1)).astype(np.float32)
        s = uniform(rng, (144,), 0.1)
        inits += [numpy_helper.from_array(w, f"w{i}"),
                  numpy_helper.from_array(b, f"b{i}"),
                  numpy_helper.from_array(g, f"g{i}"),
                  numpy_helper.from_array(s, f"s{i}")]
        nodes += [helper.make_node("Gemm", [prev, f"w{i}", f"b{i}"],
                                   [f"d{i}"]),
                  helper.make_node("LayerNormalization",
                                   [f"d{i}", f"g{i}", f"s{i}"], [f"n{i}"],
                                   axis=-1, epsilon=1e-5),
                  helper.make_node("Relu", [f"n{i}"], [f"h{i + 1}"])]
        d = ref @ w.astype(np.float64) + b
        mean = d.mean(-1, keepdims=True)
        var = ((d - mean) ** 2).mean(-1, keepdims=True)
        ref = np.maximum((d - mean) / np.sqrt(var + 1e-5) * g + s, 0)
        prev, width = f"h{i + 1}", 144
    w = uniform(rng, (144, 12), 1 / 12.0)
    b = uniform(rng, (12,), 0.1)
    inits += [numpy_helper.from_array(w, "wo"), numpy_helper.from_array(b, "bo")]
    nodes += [helper.make_node("Gemm", [prev, "wo", "bo"], ["logits"]),
              helper.make_node("Softmax", ["logits"], ["y"], axis=-1)]
    z = ref @ w.astype(np.float64) + b
    z = np.exp(z - z.max(-1, keepdims=True))
    ref = z / z.sum(-1, keepdims=True)
    graph = helper.make_graph(
        nodes, "kws",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 49, 10])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 12])],
        inits)
    return graph, x, ref


def mlp30(rng):
    nodes, inits = [], []
    x = uniform(rng, (1, 256), 1.0)
    ref = x.astype(np.float64)
    prev = "x"
    for i in range(15):
        w = uniform(rng, (256, 256), 1 / 16.0)
        b = uniform(rng, (256,), 0.1)
        inits += [numpy_helper.from_array(w, f"w{i}"),
                  numpy_helper.from_array(b, f"b{i}")]
        out = "y" if i == 14 else f"h{i + 1}"
        nodes += [helper.make_node("Gemm", [prev, f"w{i}", f"b{i}"],
                                   [f"d{i}"]),
                  helper.make_node("Relu", [f"d{i}"], [out])]
        ref = np.maximum(ref @ w.astype(np.float64) + b, 0)
        prev = out
    graph = helper.make_graph(
        nodes, "mlp30",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 256])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 256])],
        inits)
    return graph, x, ref


MODELS = {"kws": kws, "mlp30": mlp30}
EXAMPLES = ("mlp", "convnet", "transformer")


def write_example(work, name, seed):
    """An example's model, input and float64 reference, from
    write_models.py; returns (onnx path, input path, reference, nodes)."""
    sys.path.insert(0, HERE)
    import write_models  # noqa: E402
    write_models.write(work, name, seed)
    path = os.path.join(work, f"{name}.onnx")
    return (path, os.path.join(work, f"{name}.arg0.npy"),
            np.load(os.path.join(work, f"{name}.ref.npy")),
            len(onnx.load(path).graph.node))


def stats(per_process):
    runs = [v for p in per_process for v in p]
    med = statistics.median(runs)
    medians = [statistics.median(p) for p in per_process]
    return {"median_ns": med, "p90_ns": percentile(runs, 0.9),
            "p90_p50": percentile(runs, 0.9) / max(med, 1.0),
            "process_spread": max(medians) / max(min(medians), 1.0)}


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", required=True)
    ap.add_argument("--ort-dir", required=True)
    ap.add_argument("--work")
    ap.add_argument("--models", default="kws,mlp30")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--processes", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=50)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--topology", default="probe")
    ap.add_argument("--json")
    ap.add_argument("--check-only", action="store_true")
    ap.add_argument("--skip-if-missing", action="store_true")
    a = ap.parse_args(argv[1:])
    work = a.work or tempfile.mkdtemp(prefix="fuel-small-models-")
    os.makedirs(work, exist_ok=True)
    import_onnx, compile_, fuel_run = (
        tool(a.build, t) for t in ("fuel-import-onnx", "fuel-compile",
                                   "fuel-run"))
    missing = None
    if not os.path.isdir(os.path.join(a.ort_dir, "node_modules",
                                      "onnxruntime-node")):
        missing = f"no onnxruntime-node in {a.ort_dir} (bench/ort/install.sh)"
    elif subprocess.run(["sh", "-c", "command -v node"],
                        capture_output=True).returncode != 0:
        missing = "no node (Debian: nodejs)"
    if missing:
        if a.skip_if_missing and os.environ.get("CI") != "true":
            print(f"small_models: SKIP: {missing}")
            return 77
        raise Fail(missing + (" (CI=true: scripts/test.sh installs it)"
                                 if os.environ.get("CI") == "true" else ""))
    threads = [int(t) for t in a.threads.split(",")]
    summary = []
    print(f"models against ONNX Runtime: {a.processes} processes x "
          f"{a.repeat} runs (after {a.warmup}) per contender, "
          f"{os.cpu_count()} cores, load before: {loadavg()}")
    for name in a.models.split(","):
        if name in EXAMPLES:
            path, xin, ref, nodes = write_example(work, name, a.seed)
        elif name in MODELS:
            rng = np.random.default_rng(a.seed)
            graph, x, ref = MODELS[name](rng)
            model = helper.make_model(
                graph, opset_imports=[helper.make_opsetid("", OPSET)])
            model.ir_version = 8
            onnx.checker.check_model(model, full_check=True)
            path = os.path.join(work, f"{name}.onnx")
            onnx.save(model, path)
            xin = os.path.join(work, f"{name}.x.npy")
            np.save(xin, x)
            nodes = len(graph.node)
        else:
            raise Fail(f"unknown model {name} "
                          f"({', '.join(list(MODELS) + list(EXAMPLES))})")
        mlir = os.path.join(work, f"{name}.mlir")
        exe = os.path.join(work, f"{name}.fuelx")
        run([import_onnx, path, "-o", mlir])
        run([compile_, mlir, "-o", exe,
             f"--topology={a.topology}", "--plan=allow-cost-placement=false"])

        def fuel(t, warmup, repeat, output=None):
            cmd = [fuel_run, exe, f"--input=@{xin}",
                   f"--threads={t}", f"--warmup={warmup}",
                   f"--repeat={repeat}", "--report=json"]
            if output:
                cmd.append(f"--output=@{output}")
            return json.loads(run(cmd))

        def ort(t, warmup, repeat, output=None):
            cmd = ["node", os.path.join(HERE, "run_ort.js"), "--ort-dir",
                   a.ort_dir, "--model", path, "--inputs", xin, "--threads",
                   str(t), "--warmup", str(warmup), "--repeat", str(repeat)]
            if output:
                cmd += ["--output", output]
            return json.loads(run(cmd))

        fo, oo = (os.path.join(work, f"{name}.{w}.npy")
                  for w in ("fuel", "ort"))
        rep = fuel(1, 0, 1, fo)
        ort(1, 0, 1, oo)
        got, want = np.load(fo), np.load(oo)
        for what, other in (("ONNX Runtime", want), ("float64", ref)):
            if not np.allclose(got, other, rtol=1e-3, atol=1e-4):
                raise Fail(f"{name}: fuel's result differs from "
                              f"{what}'s by {np.abs(got - other).max():.3g}")
        print(f"{name}: {nodes} ONNX nodes, {len(rep['commands'])} fuel "
              f"commands, run on {rep['run_on']}; fuel = ORT = float64 "
              f"reference (max |fuel - ORT| "
              f"{np.abs(got - want).max():.2g})")
        if a.check_only:
            continue
        for t in threads:
            runs = {"fuel": [], "ort": []}
            for p in range(a.processes):
                order = ("fuel", "ort") if p % 2 == 0 else ("ort", "fuel")
                for who in order:
                    if who == "fuel":
                        runs["fuel"].append(
                            fuel(t, a.warmup, a.repeat)["run_ns"])
                    else:
                        runs["ort"].append(
                            ort(t, a.warmup, a.repeat)["runs_ns"])
            f, o = stats(runs["fuel"]), stats(runs["ort"])
            # Process by process: fuel's median against the ORT process run
            # beside it; the target holds in every process or not at all.
            worst = max(statistics.median(fp) / max(statistics.median(op), 1)
                        for fp, op in zip(runs["fuel"], runs["ort"]))
            summary.append({"model": name, "threads": t, "fuel": f,
                            "ort": o,
                            "ratio": f["median_ns"] / max(o["median_ns"], 1),
                            "worst_process_ratio": worst})
    if a.check_only:
        return 0
    print(f"load after: {loadavg()}")
    print()
    print("| model | threads | fuel median us | fuel p90 us | fuel p90/p50 "
          "| fuel spread | ORT median us | ORT p90 us | ORT spread "
          "| fuel / ORT | worst process |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for s in summary:
        f, o = s["fuel"], s["ort"]
        print(f"| {s['model']} | {s['threads']} | {f['median_ns'] / 1e3:.1f} "
              f"| {f['p90_ns'] / 1e3:.1f} | {f['p90_p50']:.2f} "
              f"| {f['process_spread']:.2f} | {o['median_ns'] / 1e3:.1f} "
              f"| {o['p90_ns'] / 1e3:.1f} | {o['process_spread']:.2f} "
              f"| {s['ratio']:.2f} | {s['worst_process_ratio']:.2f} |")
    print()
    for s in summary:
        if s["threads"] == 1:
            ok = s["worst_process_ratio"] <= 0.8
            print(f"{s['model']}, one thread: fuel <= 0.8 x ORT in every "
                  f"process {'met' if ok else 'MISSED'} (median "
                  f"{s['ratio']:.2f}, worst process "
                  f"{s['worst_process_ratio']:.2f})")
    if a.json:
        with open(a.json, "w", encoding="utf-8") as fh:
            json.dump(summary, fh, indent=1)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except Fail as e:
        print(f"small_models: {e}", file=sys.stderr)
        sys.exit(1)
