#!/usr/bin/python3
"""fuel against ONNX Runtime on the three examples, same models, same values.

  bench_ort.py [--build BUILD] [--ort-dir DIR] [--work DIR]
      [--examples mlp,convnet,transformer] [--threads 1,all]
      [--rounds 7] [--repeat 20] [--warmup 5] [--cooldown 0.3]
      [--topology probe] [--plan allow-cost-placement=false]
      [--ort-models initializers,inputs] [--source mlir|onnx]
      [--check-only] [--ort-optional] [--json FILE]

1. write_models.py writes each example's arguments (numpy, fixed seed), its
   ONNX models (weights as initializers, and as graph inputs) and its
   float64 reference.
2. fuel-compile compiles examples/NAME.mlir for this machine (--topology,
   --plan: by default probed, every node on the host, as
   scripts/report-example.sh does). With --source=onnx, fuel compiles the
   model instead: fuel-import-onnx NAME.onnx (the weights initializers,
   the data the one graph input) -o NAME.imported.mlir, then fuel-compile
   that, and fuel-run gets the data alone; the rest is the same, so the
   figures compare the import path with ONNX Runtime on the same file.
3. The check, before any timing: fuel-run on the .npy arguments, on one
   thread and on all, and ONNX Runtime on each model; fuel's result must
   match ORT's as numpy.allclose(rtol, atol) (default 1e-3, 1e-4), each must
   match the float64 reference, and fuel's must be the same bytes on one
   thread and on all. Any mismatch exits 1.
4. Timing, per thread count (1 and every core): --rounds rounds, each
   running every contender once in turn (fuel, ORT with initializers, ORT
   with inputs), --cooldown seconds of sleep after each (their thread pools
   differ). A contender's run is one process: --warmup untimed runs, then
   --repeat timed ones, reporting their median and fastest — for fuel
   `fuel-run --report=json`'s run_median_ns and run_min_ns (wall time of
   Session::run; on one thread with --lanes=1, so that no second queue
   thread computes), for ORT run_ort.js's of `await session.run()`. Over the
   rounds: best = the fastest run of any round (what the machine gives when
   nothing else runs), median = the median of the round medians; the ratio
   fuel / ORT of each, per example, and their geometric mean over the
   examples. Targets (fuel ≤ 1.1× ORT's time, geomean of medians) are
   printed as met or missed; they never change the exit code.
5. What node fusion would close: from fuel's per-command medians (the
   median over rounds) and the plan's data flow (fuel-plan's export-dot),
   the time of every elementwise node that reads the result of a matmul,
   batch matmul or conv — the bias, activation, scale and residual
   epilogues ONNX Runtime folds into its GEMM and conv kernels — and fuel's
   ratio with that time taken out (a bound: a fused epilogue still does its
   arithmetic, only its memory traffic and its dispatch go).

--self-test checks the comparison and the DOT reading on known inputs and
needs nothing installed. --check-only stops after step 3 (the ctest fuel-bench-ort-check). Output
is Markdown tables; --json writes every figure.

A missing prerequisite (Debian's python3-onnx, onnxruntime-node in
--ort-dir, node) is an error, exit 1. With --skip-if-missing it is a skip
instead, exit 77 with a line saying what is missing — except under CI=true,
where every prerequisite is installed by scripts/test.sh and a missing one
is still an error. With --ort-optional (only with --check-only), a missing
node or onnxruntime-node is neither: fuel is checked against the float64
reference alone, and the output says so (still an error under CI=true).
"""

import argparse
import json
import math
import os
import re
import statistics
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

SKIP = 77
TARGET_RATIO = 1.1
ABSORBING_KINDS = ("matmul", "batch_matmul", "conv2d")


class BenchError(Exception):
    """A failure the benchmark reports in one line and exits 1 for."""


class Missing(Exception):
    """A prerequisite that is not installed."""


def prerequisites(a):
    """Imports write_models (which needs python3-onnx); raises Missing
    naming it when it is not there."""
    try:
        import onnx  # noqa: F401
    except ImportError:
        raise Missing("the Python module onnx is missing (Debian: "
                      "python3-onnx, scripts/install-deps.sh installs it)")
    global write_models
    import write_models


def ort_prerequisites(a):
    """Checks node and onnxruntime-node; raises Missing naming what is not
    there."""
    module = os.path.join(a.ort_dir, "node_modules", "onnxruntime-node",
                          "package.json")
    if not os.path.exists(module):
        raise Missing(f"onnxruntime-node is not installed in {a.ort_dir} "
                      "(bench/ort/install.sh BUILD-DIR installs it)")
    try:
        subprocess.run(["node", "--version"], capture_output=True,
                       check=True)
    except (OSError, subprocess.CalledProcessError):
        raise Missing("node is missing (Debian: nodejs)")


def run(command, what):
    r = subprocess.run(command, capture_output=True, text=True)
    if r.returncode != 0:
        raise BenchError(f"{what} failed (exit {r.returncode}):\n  $ " +
                         " ".join(command) + "\n" + r.stdout + r.stderr)
    return r.stdout


def cores():
    return len(os.sched_getaffinity(0))


class Example:
    """One example's files in the work directory and its commands."""

    def __init__(self, name, args, a):
        self.name = name
        self.work = a.work
        self.args = [os.path.join(a.work, f"{name}.arg{i}.npy")
                     for i in range(args)]
        self.exe = os.path.join(a.work, f"{name}.fuelx")
        self.dot = os.path.join(a.work, f"{name}.dot")
        self.ref = os.path.join(a.work, f"{name}.ref.npy")
        self.models = {"initializers": os.path.join(a.work, f"{name}.onnx"),
                       "inputs": os.path.join(a.work, f"{name}.inputs.onnx")}
        self.a = a
        # --source=onnx: fuel runs what fuel-import-onnx makes of NAME.onnx,
        # whose only graph input is the data (the weights are initializers,
        # constants in the imported function).
        if a.source == "onnx":
            self.mlir = os.path.join(a.work, f"{name}.imported.mlir")
            self.fuel_args = self.args[:1]
        else:
            self.mlir = os.path.join(ROOT, "examples", f"{name}.mlir")
            self.fuel_args = self.args

    def compile(self):
        if self.a.source == "onnx":
            run([self.a.fuel_import_onnx, self.models["initializers"], "-o",
                 self.mlir], f"fuel-import-onnx {self.name}")
        plan = " ".join(filter(None, [self.a.plan,
                                      f"export-dot={self.dot}"]))
        command = [self.a.fuel_compile, self.mlir, "-o", self.exe,
                   f"--plan={plan}"]
        if self.a.topology:
            command.append(f"--topology={self.a.topology}")
        run(command, f"fuel-compile {self.name}")

    def fuel(self, threads, warmup, repeat, output=None):
        # One thread means one core: one lane, since a second lane's queue
        # thread runs a dispatch itself when the pool is busy (RUNTIME.md,
        # "Overlap"). On more threads, fuel-run's default lanes.
        command = [self.a.fuel_run, self.exe, f"--threads={threads}",
                   f"--warmup={warmup}", f"--repeat={repeat}",
                   "--report=json"]
        if threads == 1:
            command.append("--lanes=1")
        command += [f"--input=@{p}" for p in self.fuel_args]
        if output:
            command.append(f"--output=@{output}")
        return json.loads(run(command, f"fuel-run {self.name}"))

    def ort(self, variant, threads, warmup, repeat, output=None,
            optimized=None):
        model = self.models[variant]
        inputs = self.args if variant == "inputs" else self.args[:1]
        command = ["node", os.path.join(HERE, "run_ort.js"),
                   "--ort-dir", self.a.ort_dir, "--model", model,
                   "--inputs", ",".join(inputs), "--threads", str(threads),
                   "--warmup", str(warmup), "--repeat", str(repeat)]
        if output:
            command += ["--output", output]
        if optimized:
            command += ["--save-optimized", optimized]
        return json.loads(run(command, f"ONNX Runtime {self.name}"))


def compare(name, what, got, want, rtol, atol):
    """Raises unless got ≈ want; returns (max abs error, max rel error)."""
    got = np.asarray(got, np.float64)
    want = np.asarray(want, np.float64)
    if got.shape != want.shape:
        raise BenchError(f"{name}: {what}: shape {got.shape}, "
                         f"expected {want.shape}")
    err = np.abs(got - want)
    bad = err > atol + rtol * np.abs(want)
    rel = float((err / np.maximum(np.abs(want), 1e-30)).max())
    if bad.any():
        i = np.unravel_index(int(np.argmax(err - rtol * np.abs(want))),
                             got.shape)
        raise BenchError(
            f"{name}: {what}: MISMATCH, {int(bad.sum())} of {bad.size} "
            f"elements outside atol={atol} rtol={rtol}; worst at {i}: "
            f"{got[i]!r} against {want[i]!r}")
    return float(err.max()), rel


def check(ex, a, variants):
    """Step 3: fuel against ORT and the reference, and fuel's determinism."""
    w = a.work
    f1 = os.path.join(w, f"{ex.name}.fuel.t1.npy")
    fn = os.path.join(w, f"{ex.name}.fuel.tn.npy")
    ex.fuel(1, 0, 1, output=f1)
    ex.fuel(cores(), 0, 1, output=fn)
    fuel1, fueln = np.load(f1), np.load(fn)
    if fuel1.tobytes() != fueln.tobytes():
        raise BenchError(f"{ex.name}: fuel's result on 1 thread and on "
                         f"{cores()} differs")
    ref = np.load(ex.ref)
    lines = []
    e = compare(ex.name, "fuel against the float64 reference", fueln, ref,
                a.rtol, a.atol)
    lines.append(f"fuel ~ reference (max abs {e[0]:.2e})")
    for v in variants:
        out = os.path.join(w, f"{ex.name}.ort.{v}.npy")
        opt = os.path.join(w, f"{ex.name}.ort.{v}.optimized.onnx")
        ex.ort(v, cores(), 0, 1, output=out, optimized=opt)
        ort = np.load(out)
        e = compare(ex.name, f"ONNX Runtime ({v}) against the reference",
                    ort, ref, a.rtol, a.atol)
        e = compare(ex.name, f"fuel against ONNX Runtime ({v})", fueln, ort,
                    a.rtol, a.atol)
        lines.append(f"fuel ~ ORT {v} (max abs {e[0]:.2e}, "
                     f"max rel {e[1]:.2e})")
    if not variants:
        lines.append("ONNX Runtime is not installed: compared with the "
                     "float64 reference only")
    source = " (imported from ONNX)" if a.source == "onnx" else ""
    print(f"check {ex.name}{source}: agree: " + "; ".join(lines) +
          f"; fuel 1 thread == {cores()} threads, bit for bit", flush=True)
    import onnx
    for v in variants:
        graph = onnx.load(os.path.join(
            w, f"{ex.name}.ort.{v}.optimized.onnx")).graph
        ops = [n.op_type for n in graph.node]
        print(f"  ONNX Runtime ({v}) runs {len(ops)} nodes: "
              f"{', '.join(ops)}")
    kinds = dot_flow(ex.dot)[0]
    with open(ex.dot) as f:
        sources = re.findall(r'label="node \d+: [^"]*?\\n(\w+), -?\d+ ns"',
                             f.read())
    count = {src: sources.count(src) for src in sorted(set(sources))}
    print(f"  fuel runs {len(kinds)} nodes: " + ", ".join(
        f"{src} {n}" for src, n in count.items()), flush=True)


def dot_flow(path):
    """fuel-plan's DOT graph -> ({node id: kind}, {node id: producer ids})."""
    vertex = re.compile(r'^\s*(\S+) \[.*label="node (\d+): (\w+)')
    edge = re.compile(r'^\s*(\S+) -> (\S+?)[\s;\[]')
    kinds, names, producers = {}, {}, {}
    with open(path) as f:
        text = f.read().splitlines()
    for line in text:
        m = vertex.match(line)
        if m:
            names[m.group(1)] = int(m.group(2))
            kinds[int(m.group(2))] = m.group(3)
    for line in text:
        m = edge.match(line)
        if m and m.group(1) in names and m.group(2) in names:
            producers.setdefault(names[m.group(2)], set()).add(
                names[m.group(1)])
    return kinds, producers


def fusion_estimate(ex, reports):
    """Step 5, from the per-command medians over the rounds."""
    kinds, producers = dot_flow(ex.dot)
    per_node, by_kind = {}, {}
    for i, c in enumerate(reports[0]["commands"]):
        ns = statistics.median(r["commands"][i]["measured_ns"]
                               for r in reports)
        if c["kind"] != "dispatch":
            key = c["kind"]
        else:
            per_node[c["node"]] = per_node.get(c["node"], 0) + ns
            key = kinds.get(c["node"], c["op"])
        by_kind[key] = by_kind.get(key, 0) + ns
    absorbed = [n for n, k in kinds.items() if k == "elementwise" and any(
        kinds.get(p) in ABSORBING_KINDS for p in producers.get(n, ()))]
    absorbed_ns = sum(per_node.get(n, 0) for n in absorbed)
    return {"absorbed_nodes": sorted(absorbed), "absorbed_ns": absorbed_ns,
            "commands_ns": sum(by_kind.values()), "by_kind_ns": by_kind}


def self_test():
    """The comparison and the data-flow reading on known inputs."""
    want = np.linspace(-1, 1, 100).reshape(10, 10)
    compare("self-test", "equal", want, want, 1e-3, 1e-4)
    try:
        compare("self-test", "off by 1e-3", want + 1e-3, want, 1e-3, 1e-4)
        raise BenchError("self-test: an offset of 1e-3 was accepted")
    except BenchError as e:
        if "MISMATCH" not in str(e):
            raise
    try:
        compare("self-test", "shape", want[:5], want, 1e-3, 1e-4)
        raise BenchError("self-test: a wrong shape was accepted")
    except BenchError as e:
        if "shape" not in str(e) or "accepted" in str(e):
            raise
    import tempfile
    with tempfile.NamedTemporaryFile("w", suffix=".dot") as f:
        f.write('digraph "fuel-plan" {\n'
                '    f0_op0 [shape=box, label="node 0: matmul\\non cpu"];\n'
                '    f0_op1 [shape=box, label="node 1: elementwise\\non '
                'cpu"];\n'
                '    f0_op2 [shape=box, label="node 2: softmax\\non cpu"];\n'
                '    f0_op3 [shape=box, label="node 3: elementwise\\non '
                'cpu"];\n'
                '    f0_arg0 -> f0_op0;\n    f0_op0 -> f0_op1;\n'
                '    f0_op1 -> f0_op2 [label="view"];\n'
                '    f0_op2 -> f0_op3;\n}\n')
        f.flush()
        kinds, producers = dot_flow(f.name)
    if kinds != {0: "matmul", 1: "elementwise", 2: "softmax",
                 3: "elementwise"} or producers != {1: {0}, 2: {1}, 3: {2}}:
        raise BenchError(f"self-test: DOT read as {kinds}, {producers}")
    print("bench_ort: self-test passed")


def summary(medians, fastest):
    """Over the rounds: the fastest single run of any round, and the median
    of the rounds' medians."""
    return {"best": min(fastest), "median": statistics.median(medians)}


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values))


def bench(examples, a, variants, thread_counts):
    results = {}
    for threads in thread_counts:
        for ex in examples:
            rounds = {"fuel": [], **{v: [] for v in variants}}
            fastest = {k: [] for k in rounds}
            reports = []
            for _ in range(a.rounds):
                rep = ex.fuel(threads, a.warmup, a.repeat)
                reports.append(rep)
                rounds["fuel"].append(rep["run_median_ns"])
                fastest["fuel"].append(rep["run_min_ns"])
                time.sleep(a.cooldown)
                for v in variants:
                    o = ex.ort(v, threads, a.warmup, a.repeat)
                    rounds[v].append(o["median_ns"])
                    fastest[v].append(o["min_ns"])
                    time.sleep(a.cooldown)
            r = {k: summary(v, fastest[k]) for k, v in rounds.items()}
            r["fusion"] = fusion_estimate(ex, reports)
            r["rounds_median_ns"] = rounds
            r["rounds_fastest_ns"] = fastest
            results[(ex.name, threads)] = r
            print(f"timed {ex.name} on {threads} thread(s): fuel "
                  f"{r['fuel']['median'] / 1e3:.0f} us median", flush=True)
    return results


def us(ns):
    return f"{ns / 1e3:,.0f}" if ns >= 1e4 else f"{ns / 1e3:,.1f}"


def report(examples, results, variants, thread_counts):
    print()
    print("Times in µs per inference: best = the fastest run of all rounds, "
          "median = the median of the rounds' medians; ratio = fuel / ORT" +
          ("; fuel runs the models imported by fuel-import-onnx."
           if examples and examples[0].a.source == "onnx" else "."))
    print()
    head = "| example | threads | fuel best / median |"
    rule = "|---|---|---|"
    for v in variants:
        head += f" ORT ({v}) best / median | fuel/ORT ({v}) best / median |"
        rule += "---|---|"
    print(head)
    print(rule)
    geo = {}
    for threads in thread_counts:
        for ex in examples:
            r = results[(ex.name, threads)]
            row = (f"| {ex.name} | {threads} | {us(r['fuel']['best'])} / "
                   f"{us(r['fuel']['median'])} |")
            for v in variants:
                best = r["fuel"]["best"] / r[v]["best"]
                med = r["fuel"]["median"] / r[v]["median"]
                geo.setdefault((threads, v), []).append((best, med))
                row += (f" {us(r[v]['best'])} / {us(r[v]['median'])} | "
                        f"{best:.2f} / {med:.2f} |")
            print(row)
        row = f"| **geomean** | {threads} | |"
        for v in variants:
            g = geo[(threads, v)]
            row += (f" | **{geomean([b for b, _ in g]):.2f} / "
                    f"{geomean([m for _, m in g]):.2f}** |")
        print(row)
    print()
    for threads in thread_counts:
        for v in variants:
            g = geomean([m for _, m in geo[(threads, v)]])
            verdict = "met" if g <= TARGET_RATIO else "MISSED"
            print(f"target fuel/ORT ({v}) <= {TARGET_RATIO} (geomean of "
                  f"medians), {threads} thread(s): {g:.2f}, {verdict}")
    print()
    print("What fusing epilogues into matmul/conv would close (fuel's "
          "per-command medians; 'absorbed' = elementwise nodes reading a "
          "matmul, batch matmul or conv result):")
    print()
    v0 = variants[0]
    print(f"| example | threads | absorbed nodes | absorbed µs | of fuel's "
          f"commands | fuel/ORT ({v0}) median | without them |")
    print("|---|---|---|---|---|---|---|")
    for threads in thread_counts:
        for ex in examples:
            r = results[(ex.name, threads)]
            f = r["fusion"]
            med = r["fuel"]["median"] / r[v0]["median"]
            rest = (r["fuel"]["median"] - f["absorbed_ns"]) / r[v0]["median"]
            share = f["absorbed_ns"] / max(f["commands_ns"], 1)
            print(f"| {ex.name} | {threads} | "
                  f"{', '.join(map(str, f['absorbed_nodes']))} | "
                  f"{us(f['absorbed_ns'])} | {share:.0%} | {med:.2f} | "
                  f"{rest:.2f} |")
    print()
    print("fuel's command time by node kind (µs, per-command medians):")
    print()
    for threads in thread_counts:
        for ex in examples:
            k = results[(ex.name, threads)]["fusion"]["by_kind_ns"]
            parts = ", ".join(f"{kind} {us(ns)}" for kind, ns in
                              sorted(k.items(), key=lambda kv: -kv[1]))
            print(f"- {ex.name}, {threads} thread(s): {parts}")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--build", default=os.path.join(ROOT, "build"))
    p.add_argument("--ort-dir", default="")
    p.add_argument("--work", default="")
    p.add_argument("--examples", default="mlp,convnet,transformer")
    p.add_argument("--threads", default="1,all")
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--repeat", type=int, default=20)
    p.add_argument("--warmup", type=int, default=5)
    p.add_argument("--cooldown", type=float, default=0.3)
    p.add_argument("--topology", default="probe")
    p.add_argument("--plan", default="allow-cost-placement=false")
    p.add_argument("--ort-models", default="initializers,inputs")
    p.add_argument("--source", default="mlir", choices=("mlir", "onnx"))
    p.add_argument("--ort-optional", action="store_true")
    p.add_argument("--rtol", type=float, default=1e-3)
    p.add_argument("--atol", type=float, default=1e-4)
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--check-only", action="store_true")
    p.add_argument("--skip-if-missing", action="store_true")
    p.add_argument("--self-test", action="store_true")
    p.add_argument("--json", default="")
    a = p.parse_args()
    if a.self_test:
        try:
            self_test()
        except BenchError as e:
            print(f"bench_ort: {e}", file=sys.stderr)
            return 1
        return 0
    a.work = a.work or os.path.join(a.build, "bench-ort")
    a.ort_dir = a.ort_dir or os.path.join(a.build, "ort-node")
    a.fuel_compile = os.path.join(a.build, "bin", "fuel-compile")
    a.fuel_run = os.path.join(a.build, "bin", "fuel-run")
    a.fuel_import_onnx = os.path.join(a.build, "bin", "fuel-import-onnx")
    if a.ort_optional and not a.check_only:
        p.error("--ort-optional needs --check-only (timing needs ONNX "
                "Runtime)")
    variants = a.ort_models.split(",")
    if not variants or any(v not in ("initializers", "inputs")
                           for v in variants):
        p.error("--ort-models: a list of initializers, inputs")
    thread_counts = sorted({cores() if t == "all" else int(t)
                            for t in a.threads.split(",")})
    if a.rounds < 1 or a.repeat < 1 or a.warmup < 0:
        p.error("--rounds and --repeat must be at least 1, --warmup 0")
    os.makedirs(a.work, exist_ok=True)
    try:
        prerequisites(a)
        try:
            ort_prerequisites(a)
        except Missing as e:
            if not a.ort_optional or os.environ.get("CI") == "true":
                raise
            print(f"bench_ort: {e}: fuel is compared with the float64 "
                  "reference only", flush=True)
            variants = []
    except Missing as e:
        if a.skip_if_missing and os.environ.get("CI") != "true":
            print(f"bench_ort: SKIP: {e}")
            return SKIP
        print(f"bench_ort: error: {e}" + (
            " (CI=true: the prerequisites are required)"
            if a.skip_if_missing else ""), file=sys.stderr)
        return 1
    try:
        tools = [a.fuel_compile, a.fuel_run]
        if a.source == "onnx":
            tools.append(a.fuel_import_onnx)
        for tool in tools:
            if not os.access(tool, os.X_OK):
                raise BenchError(f"{tool} is missing; build fuel-compile, "
                                 "fuel-run (and for --source=onnx "
                                 "fuel-import-onnx) first")
        examples = []
        for name in a.examples.split(","):
            if name not in write_models.EXAMPLES:
                p.error(f"unknown example '{name}'")
            examples.append(Example(
                name, write_models.write(a.work, name, a.seed), a))
            examples[-1].compile()
            check(examples[-1], a, variants)
        if a.check_only:
            print("bench_ort: every example agrees with " +
                  ("ONNX Runtime" if variants else "the float64 reference"))
            return 0
        print(f"timing: {a.rounds} rounds x {a.repeat} runs after "
              f"{a.warmup} warm-up, cool-down {a.cooldown} s, threads "
              f"{thread_counts}", flush=True)
        results = bench(examples, a, variants, thread_counts)
        report(examples, results, variants, thread_counts)
        if a.json:
            with open(a.json, "w") as f:
                json.dump({f"{n}@{t}": r for (n, t), r in results.items()},
                          f, indent=1, sort_keys=True)
    except BenchError as e:
        print(f"bench_ort: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
