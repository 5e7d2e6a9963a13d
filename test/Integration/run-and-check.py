#!/usr/bin/python3
"""Compiles a program with fuel-compile, runs it with fuel-run on seeded
random inputs and compares every result with a numpy reference.

  run-and-check.py PROGRAM.mlir --topology TOPOLOGY.json --ref NAME
      [--param KEY=VALUE ...] [--rtol R] [--atol A] [--plan "OPTIONS"]
      [--seed N] [--check-winners] [--work DIR]

Steps: fuel-compile PROGRAM -o prog.fuelx; `fuel-run prog.fuelx --dump` for
the executable's inputs and outputs (names, shapes, dtypes); inputs drawn
from numpy's default_rng(seed) (floats uniform in [-1, 1), or
--input-range; integers in [-8, 8)) and written as .npy; fuel-run with
--input=@… --output=@…; the reference (test/Integration/reference.py,
computed in float64 from the same inputs) compared elementwise as
|out - ref| <= atol + rtol * |ref|. Prints the largest absolute and
relative error of each output and exits 1 with a message naming the output
and the worst element on a mismatch.

--expect-backend BACKEND requires every dispatch of a plan node to run a
kernel of BACKEND (`vulkan` for nodes pinned to vulkan:0).

--same-with-threads N runs again with --threads=N and requires
bit-identical outputs. --check-winners also exports the plan and checks
that every dispatch that belongs to a plan node runs that node's winner
(kernel id and source), and that every node is dispatched.

Code compiled for a pinned cpu target runs only where this CPU has every
feature the executable records (`fuel-run --check-cpu`, the loader's own
check): elsewhere the harness compiles and checks the plan, then says why
it does not run, and passes.

--executable EXE runs an existing executable instead of compiling (ctest
fuel-integration-harness runs the runtime tests' vadd.fuel so). fuel-compile
and fuel-run are looked up in $FUEL_TOOLS_DIR (lit sets it to the build's
bin/), else on PATH. --self-test checks the comparison itself.
"""

import argparse
import ast
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference  # noqa: E402

DTYPES = {
    "f32": np.float32, "f64": np.float64, "f16": np.float16,
    "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
    "u8": np.uint8, "i1": np.bool_,
}


class HarnessError(Exception):
    """A failure the harness reports in one line and exits 1 for."""


def tool(name):
    directory = os.environ.get("FUEL_TOOLS_DIR")
    if directory:
        path = os.path.join(directory, name)
        if os.path.exists(path):
            return path
    found = shutil.which(name)
    if not found:
        raise HarnessError(f"cannot find {name} (set FUEL_TOOLS_DIR)")
    return found


def run(command, what):
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise HarnessError(
            f"{what} failed (exit {result.returncode}):\n  $ "
            + " ".join(command) + "\n" + result.stdout + result.stderr)
    if result.stderr:
        sys.stderr.write(result.stderr)
    return result.stdout


def cpu_runs(exe):
    """Whether this CPU has every feature `exe`'s code needs (fuel-run
    --check-cpu: exit 0 yes, 77 no, anything else an error); says why not."""
    command = [tool("fuel-run"), "--check-cpu", exe]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode == 77:
        print("not run, compiled for another CPU: " + result.stdout.strip())
        return False
    if result.returncode != 0:
        raise HarnessError(
            f"fuel-run --check-cpu failed (exit {result.returncode}):\n  $ "
            + " ".join(command) + "\n" + result.stdout + result.stderr)
    return True


def parse_tensor_type(text):
    """'64x784xf32' -> ((64, 784), 'f32'); 'f32' -> ((), 'f32')."""
    parts = text.split("x")
    dtype = parts[-1]
    if dtype not in DTYPES:
        raise HarnessError(f"unsupported dtype in '{text}'")
    return tuple(int(p) for p in parts[:-1]), dtype


TENSOR_LINE = re.compile(
    r'^\s*\[(\d+)\] "((?:[^"\\]|\\.)*)" (\S+) on (\S+) buffer')
DISPATCH_LINE = re.compile(
    r'^\s*\[(\d+)\] dispatch .*\| node (-?\d+) "([^"]*)" "([^"]*)" '
    r'"([^"]*)" revision')


def parse_dump(text):
    """The inputs and outputs (name, shape, dtype) and the dispatches
    (command, node, op, kernel, source) of `fuel-run --dump` output."""
    sections = {"inputs": [], "outputs": []}
    dispatches = []
    current = None
    for line in text.splitlines():
        head = line.split(" ")[0]
        if not line.startswith(" "):
            current = head if head in sections else None
            continue
        if current:
            m = TENSOR_LINE.match(line)
            if m:
                shape, dtype = parse_tensor_type(m.group(3))
                sections[current].append((m.group(2), shape, dtype))
        m = DISPATCH_LINE.match(line)
        if m:
            dispatches.append({"command": int(m.group(1)),
                               "node": int(m.group(2)), "op": m.group(3),
                               "kernel": m.group(4), "source": m.group(5)})
    return sections["inputs"], sections["outputs"], dispatches


def make_input(rng, shape, dtype, low_high):
    np_type = DTYPES[dtype]
    if np_type == np.bool_:
        return rng.integers(0, 2, size=shape).astype(np.bool_)
    if np.issubdtype(np_type, np.integer):
        low = 0 if dtype == "u8" else -8
        return rng.integers(low, 8, size=shape).astype(np_type)
    return rng.uniform(low_high[0], low_high[1], size=shape).astype(np_type)


def compare(name, out, ref, rtol, atol):
    """Prints the errors of one output; returns a mismatch message or None."""
    ref = np.asarray(ref)
    if out.shape != ref.shape:
        return (f"{name}: shape {out.shape} but the reference has "
                f"{ref.shape}")
    if out.dtype == np.bool_ or np.issubdtype(out.dtype, np.integer):
        bad = out != ref.astype(out.dtype)
        count = int(bad.sum())
        print(f"{name}: {out.size} elements, {count} differ (exact)")
        if count:
            index = tuple(int(i) for i in np.argwhere(bad)[0])
            return (f"{name}: {count} of {out.size} elements differ; first "
                    f"at {index}: got {out[index]}, expected {ref[index]}")
        return None
    got = out.astype(np.float64)
    # The reference rounded to the output's type first: an exact result of
    # the output's precision then compares equal.
    want = ref.astype(out.dtype).astype(np.float64)
    if out.size == 0:
        print(f"{name}: empty")
        return None
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        diff = np.abs(got - want)
        diff = np.where(np.isnan(got) != np.isnan(want), np.inf, diff)
        diff = np.where(np.isnan(got) & np.isnan(want), 0.0, diff)
        bound = atol + rtol * np.nan_to_num(np.abs(want))
        bad = ~(diff <= bound)
        abs_err = float(np.max(diff))
        rel_err = float(np.max(diff / np.maximum(np.abs(want), 1e-30)))
    print(f"{name}: {out.size} elements, max abs error {abs_err:.3e}, "
          f"max rel error {rel_err:.3e} (rtol {rtol:g}, atol {atol:g})")
    count = int(bad.sum())
    if count:
        worst = np.unravel_index(np.argmax(np.where(bad, diff - bound, -1)),
                                 out.shape)
        worst = tuple(int(i) for i in worst)
        return (f"{name}: {count} of {out.size} elements outside tolerance; "
                f"worst at {worst}: got {got[worst]!r}, expected "
                f"{want[worst]!r} (|diff| {diff[worst]:.3e} > "
                f"{bound[worst]:.3e})")
    return None


def check_winners(plan_path, dispatches):
    """Every node's dispatches run its winner; every node is dispatched."""
    with open(plan_path) as f:
        plan = json.load(f)
    problems = []
    winners = {}
    for function in plan["functions"]:
        for node in function["nodes"]:
            winners[node["id"]] = node["winner"]
    seen = set()
    for d in dispatches:
        if d["node"] < 0:
            continue
        winner = winners.get(d["node"])
        if winner is None:
            problems.append(f"command {d['command']} names node {d['node']}, "
                            "which the plan does not have")
            continue
        seen.add(d["node"])
        if (d["kernel"], d["source"]) != (winner["kernel"], winner["source"]):
            problems.append(
                f"command {d['command']} (node {d['node']}) runs "
                f"{d['kernel']} ({d['source']}) but the plan's winner is "
                f"{winner['kernel']} ({winner['source']})")
    for node in sorted(set(winners) - seen):
        problems.append(f"node {node} has no dispatch")
    if problems:
        raise HarnessError("the executable does not run the plan's winners:\n"
                           + "\n".join("  " + p for p in problems))
    print(f"winners: {len(seen)} nodes, every dispatch runs its node's winner")


def check_backend(backend, dispatches):
    """Every dispatch of a plan node runs a kernel of `backend`, and there
    is at least one."""
    nodes = [d for d in dispatches if d["node"] >= 0]
    if not nodes:
        raise HarnessError("the executable dispatches no plan node")
    wrong = [d for d in nodes if not d["kernel"].startswith(backend + ".")]
    if wrong:
        raise HarnessError(
            f"dispatches not on {backend}:\n" + "\n".join(
                f"  command {d['command']} (node {d['node']}) runs "
                f"{d['kernel']}" for d in wrong))
    print(f"backend: {len(nodes)} node dispatches, every one a {backend} "
          "kernel")


def parse_params(items):
    params = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep:
            raise HarnessError(f"--param '{item}' is not KEY=VALUE")
        try:
            params[key] = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            params[key] = value
    return params


def self_test():
    """The comparison accepts what is within tolerance and nothing else."""
    a = np.array([1.0, 2.0, 3.0], dtype=np.float32)
    assert compare("t", a, a.astype(np.float64), 0, 0) is None
    assert compare("t", a, a + 1e-7, 1e-6, 0) is None
    assert compare("t", a, a + 1e-3, 1e-6, 1e-6) is not None
    assert compare("t", a, np.ones(4), 1, 1) is not None, "shape"
    nan = np.array([np.nan], dtype=np.float32)
    assert compare("t", nan, np.array([0.0]), 1, 1) is not None, "nan"
    assert compare("t", np.array([0.0], dtype=np.float32), np.array([np.nan]),
                   1, 1) is not None, "expected nan"
    i = np.array([1, 2], dtype=np.int32)
    assert compare("t", i, np.array([1, 2]), 0, 0) is None
    assert compare("t", i, np.array([1, 3]), 1, 1) is not None, "ints exact"
    dump = ('inputs 2\n  [0] "a" 3x5xf32 on cpu buffer 0\n'
            '  [1] "b \\"q\\" c" f32 on cpu buffer 1\noutputs 1\n'
            '  [0] "r" 3x5xi32 on cpu buffer 2\ncommands 1\n'
            '  [0] dispatch module 0 kernel 0 on cpu grid 1x1x1 b0[0,60) '
            '| node 4 "matmul" "cpu.generated.matmul_f32" "generated" '
            'revision 0x1 predicted 10 ns\n')
    ins, outs, ds = parse_dump(dump)
    # A name as --dump escapes it (quotes, spaces) stays one entry.
    assert ins == [("a", (3, 5), "f32"), ('b \\"q\\" c', (), "f32")], ins
    assert outs == [("r", (3, 5), "i32")], outs
    assert ds == [{"command": 0, "node": 4, "op": "matmul",
                   "kernel": "cpu.generated.matmul_f32",
                   "source": "generated"}], ds
    for name, fn in reference.REFERENCES.items():
        assert callable(fn), name
    # The references themselves, on small cases with known answers.
    eye = np.eye(3)
    assert np.allclose(reference.matmul(eye, 2 * eye)[0], 2 * eye)
    s = reference.softmax(np.zeros((2, 4)), axis=1)
    assert np.allclose(s, 0.25)
    x = np.arange(16, dtype=np.float64).reshape(1, 1, 4, 4)
    assert np.array_equal(reference.pool_nchw(x, 2, stride=2),
                          [[[[5, 7], [13, 15]]]])
    w = np.ones((1, 1, 3, 3))
    assert reference.conv2d_nchw(x, w)[0, 0, 0, 0] == x[0, 0, :3, :3].sum()
    print("self-test passed")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("program", nargs="?")
    parser.add_argument("--topology", help="topology file for fuel-compile")
    parser.add_argument("--plan", default="", help="fuel-plan options")
    parser.add_argument("--ref", help="reference name (reference.py)")
    parser.add_argument("--param", action="append", default=[],
                        help="KEY=VALUE passed to the reference")
    parser.add_argument("--rtol", type=float, default=1e-5)
    parser.add_argument("--atol", type=float, default=1e-6)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--input-range", default="-1,1",
                        help="LOW,HIGH of the uniform float inputs")
    parser.add_argument("--threads", type=int, default=0,
                        help="fuel-run --threads (0: its default)")
    parser.add_argument("--check-winners", action="store_true")
    parser.add_argument("--expect-backend", metavar="BACKEND",
                        help="require every dispatch of a plan node to run "
                             "a kernel of BACKEND (its id starts with "
                             "'BACKEND.'), e.g. vulkan for nodes pinned to "
                             "vulkan:0")
    parser.add_argument("--same-with-threads", type=int, default=0,
                        metavar="N",
                        help="also run with --threads=N and require "
                             "bit-identical outputs (the grid is fixed at "
                             "compile time, so the pool size must not "
                             "change a result)")
    parser.add_argument("--work", help="directory for the files it writes")
    parser.add_argument("--executable",
                        help="run this executable instead of compiling "
                             "PROGRAM (tests of the harness itself)")
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args()

    if args.self_test:
        self_test()
        return 0
    if not (args.program or args.executable) or not args.ref:
        parser.error("PROGRAM (or --executable) and --ref are required")
    if args.executable and args.check_winners:
        parser.error("--check-winners needs a PROGRAM to plan")
    ref = reference.lookup(args.ref)
    if ref is None:
        raise HarnessError(f"no reference named '{args.ref}' (known: "
                           + ", ".join(sorted(reference.REFERENCES)) + ")")
    params = parse_params(args.param)
    try:
        low_high = tuple(float(v) for v in args.input_range.split(","))
        if len(low_high) != 2 or not low_high[0] < low_high[1]:
            raise ValueError
    except ValueError:
        raise HarnessError(f"--input-range '{args.input_range}' is not LOW,HIGH")

    work = args.work or tempfile.mkdtemp(prefix="fuel-check-")
    os.makedirs(work, exist_ok=True)
    exe = args.executable or os.path.join(work, "prog.fuelx")
    plan_path = os.path.join(work, "plan.json")
    plan = args.plan
    if args.check_winners:
        plan = (plan + " " if plan else "") + f"export-plan={plan_path}"

    if not args.executable:
        compile_cmd = [tool("fuel-compile"), args.program, "-o", exe]
        if args.topology:
            compile_cmd.append(f"--topology={args.topology}")
        if plan:
            compile_cmd.append(f"--plan={plan}")
        run(compile_cmd, "fuel-compile")

    inputs, outputs, dispatches = parse_dump(
        run([tool("fuel-run"), exe, "--dump"], "fuel-run --dump"))
    if args.check_winners:
        check_winners(plan_path, dispatches)
    if args.expect_backend:
        check_backend(args.expect_backend, dispatches)

    if not cpu_runs(exe):
        return 0

    rng = np.random.default_rng(args.seed)
    arrays = []
    run_cmd = [tool("fuel-run"), exe]
    if args.threads:
        run_cmd.append(f"--threads={args.threads}")
    for i, (name, shape, dtype) in enumerate(inputs):
        array = make_input(rng, shape, dtype, low_high)
        path = os.path.join(work, f"in{i}.npy")
        np.save(path, array)
        arrays.append(array)
        run_cmd.append(f"--input=@{path}")
    out_paths = [os.path.join(work, f"out{i}.npy") for i in range(len(outputs))]
    run(run_cmd + [f"--output=@{p}" for p in out_paths], "fuel-run")
    if args.same_with_threads:
        other = [os.path.join(work, f"out{i}.threads.npy")
                 for i in range(len(outputs))]
        run([a for a in run_cmd if not a.startswith("--threads=")]
            + [f"--threads={args.same_with_threads}"]
            + [f"--output=@{p}" for p in other], "fuel-run --threads")
        for i, (a, b) in enumerate(zip(out_paths, other)):
            if np.load(a).tobytes() != np.load(b).tobytes():
                raise HarnessError(
                    f"output {i} differs between the default thread count "
                    f"and --threads={args.same_with_threads}")
        print(f"threads: outputs bit-identical with "
              f"--threads={args.same_with_threads}")

    expected = ref(*arrays, **params)
    if len(expected) != len(outputs):
        raise HarnessError(f"the executable has {len(outputs)} outputs but "
                           f"reference '{args.ref}' gives {len(expected)}")
    failures = []
    for i, ((name, shape, dtype), path) in enumerate(zip(outputs, out_paths)):
        out = np.load(path)
        label = f"output {i} ({name}, {'x'.join(map(str, shape + (dtype,)))})"
        message = compare(label, out, expected[i], args.rtol, args.atol)
        if message:
            failures.append(message)
    if failures:
        for message in failures:
            print("run-and-check: MISMATCH " + message, file=sys.stderr)
        print(f"run-and-check: inputs, outputs and the executable kept in "
              f"{work}", file=sys.stderr)
        return 1
    print(f"run-and-check: {len(outputs)} outputs match '{args.ref}'")
    if not args.work:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except HarnessError as error:
        print(f"run-and-check: error: {error}", file=sys.stderr)
        sys.exit(1)
