#!/usr/bin/python3
"""Row reductions and softmax on the first Vulkan device (lavapipe) through
the real pipeline: the subgroup row schedule against the per-element one,
in the same run, each result checked against numpy.

  bench/vulkan-schedules/rows.py [--build DIR] [--topology FILE]
      [--repeat N] [--rounds N] [--kinds sum,max,softmax]
      [--shapes RxC,RxC,...]

For each kind one program holds a node per shape (rows x cols, reduced
over the columns), every node pinned to vulkan:0. It is lowered twice with
fuel-opt, `fuel-apply-schedules{vulkan-row-schedule=subgroup}` and
`=per-element`, serialized with fuel-serialize-executable, and run with
fuel-run (libfuelrt's Vulkan device) on the same numpy inputs: the outputs
must match numpy (float64), and the report's measured time of each
dispatch (the median of --repeat runs after two warm-up runs; timestamp
queries on the device; the least such median of --rounds runs that
alternate the two schedules) is printed for both schedules with the ratio
per-element / subgroup (> 1: the subgroup schedule wins) and what
`vulkan-row-schedule=auto` (fuel::target::chooseRowSchedule) picks.
Without a Vulkan device it exits 77 (skipped) with the reason, except under
CI=true, where that is a failure."""

import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

DEFAULT_SHAPES = ("256x1024,256x32,256x8,4096x16,16x1024,4x4096,"
                  "1024x128,64x256,1x65536")

COMBINER = {"sum": ("arith.addf", "0.0"),
            "max": ("arith.maximumf", "0xFF800000"),
            "min": ("arith.minimumf", "0x7F800000")}


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        sys.exit("failed: %s\n%s" % (" ".join(cmd), r.stderr[-4000:]))
    return r.stdout


def program(kind, shapes):
    """One node per shape: the row reduction or softmax of input i."""
    args = ", ".join("%%x%d: tensor<%dx%dxf32>" % (i, r, c)
                     for i, (r, c) in enumerate(shapes))
    outs = [("tensor<%dx%dxf32>" % (r, c)) if kind == "softmax"
            else ("tensor<%dxf32>" % r) for r, c in shapes]
    body = []
    for i, (r, c) in enumerate(shapes):
        if kind == "softmax":
            body.append("  %%e%d = tensor.empty() : tensor<%dx%dxf32>" % (i, r, c))
            body.append("  %%r%d = linalg.softmax dimension(1) ins(%%x%d : tensor<%dx%dxf32>) "
                        "outs(%%e%d : tensor<%dx%dxf32>) -> tensor<%dx%dxf32>"
                        % (i, i, r, c, i, r, c, r, c))
            continue
        op, ident = COMBINER[kind]
        body.append("  %%i%d = arith.constant %s : f32" % (i, ident))
        body.append("  %%e%d = tensor.empty() : tensor<%dxf32>" % (i, r))
        body.append("  %%f%d = linalg.fill ins(%%i%d : f32) outs(%%e%d : tensor<%dxf32>) -> tensor<%dxf32>"
                    % (i, i, i, r, r))
        body.append("  %%r%d = linalg.reduce ins(%%x%d : tensor<%dx%dxf32>) outs(%%f%d : tensor<%dxf32>) "
                    "dimensions = [1]\n    (%%in: f32, %%acc: f32) {\n      %%s = %s %%in, %%acc : f32\n"
                    "      linalg.yield %%s : f32\n    }" % (i, i, r, c, i, r, op))
    rets = ", ".join("%%r%d" % i for i in range(len(shapes)))
    return ("func.func @rows(%s) -> (%s) {\n%s\n  return %s : %s\n}\n"
            % (args, ", ".join(outs), "\n".join(body), rets, ", ".join(outs)))


def reference(kind, x):
    x = x.astype(np.float64)
    if kind == "sum":
        return x.sum(axis=-1)
    if kind == "max":
        return x.max(axis=-1)
    if kind == "min":
        return x.min(axis=-1)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def compile_program(tools, topology, source, schedule, out):
    plan = ("topology=%s pinned-device=vulkan:0 allow-cost-placement=false "
            "kernel-sources=generated" % topology)
    run([tools["fuel-opt"], source, "--fuel-plan=" + plan, "--fuel-outline-kernels",
         "--fuel-apply-schedules=vulkan-row-schedule=" + schedule,
         "--fuel-bufferize-kernels", "--fuel-plan-buffers", "--convert-fuel-to-llvm",
         "--convert-fuel-to-spirv", "--fuel-serialize-executable=output=" + out,
         "-o", os.devnull])


def auto_choices(tools, topology, source):
    """Which nodes `auto` gives the subgroup schedule, in kernel order."""
    plan = ("topology=%s pinned-device=vulkan:0 allow-cost-placement=false "
            "kernel-sources=generated" % topology)
    text = run([tools["fuel-opt"], source, "--fuel-plan=" + plan,
                "--fuel-outline-kernels", "--fuel-apply-schedules"])
    return ["fuel.row_kernel" in line for line in text.splitlines()
            if "func.func @" in line and "vulkan.generated" in line]


def run_program(tools, exe, inputs, outputs, repeat):
    report = run([tools["fuel-run"], exe] + ["--input=@" + p for p in inputs]
                 + ["--output=@" + p for p in outputs]
                 + ["--warmup=2", "--repeat=%d" % repeat, "--report=json"])
    rows = json.loads(report)["commands"]
    return [r["measured_ns"] for r in sorted(
        (r for r in rows if r["kind"] == "dispatch" and r["device"] == "vulkan:0"),
        key=lambda r: r["node"])]


def check(kind, shape, x, path, schedule):
    got = np.load(path).astype(np.float64)
    want = reference(kind, x)
    err = np.abs(got - want)
    bound = 1e-6 + 1e-5 * np.abs(want)
    if kind == "sum":
        # Any order of f32 additions: within (n - 1) u sum |x| (u = 2^-24).
        bound = bound + (shape[1] - 1) * 2.0**-24 * np.abs(x.astype(np.float64)).sum(axis=-1)
    if not np.all(err <= bound):
        i = np.unravel_index(np.argmax(err - bound), err.shape)
        sys.exit("%s %dx%d (%s): element %s is %r, numpy gives %r"
                 % (kind, shape[0], shape[1], schedule, i, got[i], want[i]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--topology",
                        default=os.path.join(ROOT, "test", "topologies", "cpu-lavapipe.json"))
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--kinds", default="sum,max,softmax")
    parser.add_argument("--shapes", default=DEFAULT_SHAPES)
    args = parser.parse_args()

    tools = {t: os.path.join(args.build, "bin", t) for t in ("fuel-opt", "fuel-run", "fuel-probe")}
    for t, path in tools.items():
        if not os.path.exists(path):
            sys.exit("rows.py: %s is not built (ninja -C %s %s)" % (path, args.build, t))
    probe = subprocess.run([tools["fuel-probe"]], capture_output=True, text=True)
    if "vulkan:0" not in probe.stdout:
        reason = "fuel-probe reports no vulkan:0"
        if os.environ.get("CI") == "true":
            sys.exit("rows.py: no Vulkan device under CI=true: " + reason)
        print("rows.py: skipped, " + reason)
        sys.exit(77)

    shapes = [tuple(int(v) for v in s.split("x")) for s in args.shapes.split(",")]
    rng = np.random.default_rng(7)
    print("%-8s %-11s %14s %14s %8s  %s" % ("kind", "shape", "per-element us",
                                           "subgroup us", "ratio", "auto"))
    with tempfile.TemporaryDirectory() as work:
        inputs = []
        xs = []
        for i, (r, c) in enumerate(shapes):
            x = rng.uniform(-1, 1, size=(r, c)).astype(np.float32)
            xs.append(x)
            inputs.append(os.path.join(work, "x%d.npy" % i))
            np.save(inputs[-1], x)
        for kind in args.kinds.split(","):
            source = os.path.join(work, kind + ".mlir")
            with open(source, "w") as f:
                f.write(program(kind, shapes))
            times = {}
            exes = {}
            for schedule in ("per-element", "subgroup"):
                exes[schedule] = os.path.join(work, "%s-%s.fuelx" % (kind, schedule))
                compile_program(tools, args.topology, source, schedule, exes[schedule])
            # The schedules alternate, --rounds times; each dispatch's time
            # is the least of its medians (the machine's load only adds).
            for _ in range(args.rounds):
                for schedule, exe in exes.items():
                    outputs = [os.path.join(work, "%s-%s-%d.npy" % (kind, schedule, i))
                               for i in range(len(shapes))]
                    t = run_program(tools, exe, inputs, outputs, args.repeat)
                    if len(t) != len(shapes):
                        sys.exit("rows.py: %d vulkan dispatches for %d shapes"
                                 % (len(t), len(shapes)))
                    for shape, x, out in zip(shapes, xs, outputs):
                        check(kind, shape, x, out, schedule)
                    times[schedule] = [min(a, b) for a, b in zip(times.get(schedule, t), t)]
            auto = auto_choices(tools, args.topology, source)
            for i, (r, c) in enumerate(shapes):
                per, sub = times["per-element"][i], times["subgroup"][i]
                print("%-8s %-11s %14.1f %14.1f %8.2f  %s" % (
                    kind, "%dx%d" % (r, c), per / 1e3, sub / 1e3,
                    per / sub if sub else float("nan"),
                    "subgroup" if i < len(auto) and auto[i] else "per-element"))
            sys.stdout.flush()


if __name__ == "__main__":
    main()
