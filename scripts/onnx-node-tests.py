#!/usr/bin/python3
"""The ONNX backend node tests as fuel's conformance suite, on the CPU.

  onnx-node-tests.py [--tools-dir DIR] [--data DIR] [--list FILE]
      [--topology FILE] [-j N] [--work DIR] [--filter REGEX]
      [--min-pass-rate FILE] [--json FILE] [--verbose] [--self-test]

For every test on the list (test/onnx/node-tests.txt, written by
scripts/onnx-node-test-list.py; `OP TEST` per line) in Debian's
libonnx-testdata (--data, default /usr/share/libonnx-testdata/data/node):

1. the test's `test_data_set_0/input_N.pb` (one TensorProto each, for graph
   input N) are read with onnx.numpy_helper: a float32 input becomes a .npy
   file; an int64, int32 or bool input (shape, axes, indices, split sizes, a
   condition) is folded into the model by
   `fuel-import-onnx --fold-input=NAME=input_N.pb`. A float input whose
   declared shape is not static gets `--shape=NAME=D0xD1...` from its data;
2. `fuel-import-onnx model.onnx -o model.mlir [--fold-input=...]...`;
3. `fuel-compile model.mlir -o model.fuelx --topology=FILE` (default
   test/topologies/cpu-only.json: every node on the host CPU);
4. `fuel-run model.fuelx --input=@I.npy... --output=@O.npy...`;
5. each result against `output_N.pb`: same shape, float32, and
   |got - want| <= atol + rtol * |want| elementwise with NaN equal to NaN,
   rtol 1e-3 and atol 1e-7 as ONNX's own backend runner (TOLERANCE holds
   the ops that need more, with the reason).

A test is `pass`; `unsupported` when fuel-import-onnx refuses the model
with a diagnostic saying something is unsupported (or not supported);
`fail` otherwise: another import error, a crash or timeout of any tool, a
compile or run error, or a mismatch (the worst element is named). The
tools come from --tools-dir (default: $FUEL_TOOLS_DIR, else the build's
bin/ beside this checkout). Tests run in parallel (-j, default: the cores
this process may use); the report is in list order whatever -j is.

Prints one line per failing or unsupported test (every test with
--verbose), a table per op (tests, pass, fail, unsupported), and
`pass rate: P/N = X%`. With --min-pass-rate FILE (test/onnx/pass-rate.txt,
a percentage with one decimal), exits 1 when the pass rate is below the
figure in FILE, and says so when it is above (time to raise the figure).
--json writes every test's result. --self-test checks the comparison, the
.pb reading, the classification and the pass-rate gate on known inputs;
it needs no fuel tool and no test data. Exit: 0, or 1 (an error, or the
pass rate below the figure).
"""

import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DEFAULT_DATA = "/usr/share/libonnx-testdata/data/node"
DEFAULT_LIST = os.path.join(ROOT, "test", "onnx", "node-tests.txt")
DEFAULT_TOPOLOGY = os.path.join(ROOT, "test", "topologies", "cpu-only.json")

RTOL = 1e-3
ATOL = 1e-7
# Ops whose node tests need a looser tolerance than ONNX's defaults, with
# the reason: op -> (rtol, atol, reason).
TOLERANCE = {}

# A tool that runs longer than this (seconds) is a failure.
STEP_TIMEOUT = 300

UNSUPPORTED = re.compile(r"unsupported|not supported", re.IGNORECASE)


class RunnerError(Exception):
    """A failure of the runner itself (missing tool, list or data)."""


def read_list(path):
    """test/onnx/node-tests.txt -> [(op, test)]; `#` starts a comment."""
    tests = []
    try:
        with open(path) as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise RunnerError(f"cannot read the list {path}: {e.strerror}")
    for number, line in enumerate(lines, 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        parts = line.split()
        if len(parts) != 2 or not parts[1].startswith("test_"):
            raise RunnerError(f"{path}:{number}: expected `OP test_NAME`, "
                              f"got '{line}'")
        tests.append((parts[0], parts[1]))
    if not tests:
        raise RunnerError(f"{path}: the list is empty")
    return tests


def read_tensor(path):
    """One TensorProto file -> numpy array."""
    import onnx
    from onnx import numpy_helper
    try:
        return numpy_helper.to_array(onnx.load_tensor(path))
    except Exception as e:  # a malformed file is the test data's fault
        raise RunnerError(f"{path}: not a readable TensorProto ({e})")


def compare(got, want, rtol, atol):
    """None when got matches want, else a one-line reason."""
    if got.shape != want.shape:
        return f"shape {list(got.shape)}, expected {list(want.shape)}"
    if got.dtype != want.dtype:
        return f"dtype {got.dtype}, expected {want.dtype}"
    g = got.astype(np.float64)
    w = want.astype(np.float64)
    nan = np.isnan(g) | np.isnan(w)
    both_nan = np.isnan(g) & np.isnan(w)
    with np.errstate(invalid="ignore"):
        err = np.abs(g - w)
        # inf == inf of the same sign matches; any other inf does not.
        infinite = np.isinf(g) | np.isinf(w)
        same_inf = np.isinf(g) & np.isinf(w) & (g == w)
        bad = (~nan & ~same_inf &
               (infinite | ~(err <= atol + rtol * np.abs(w)))) | \
            (nan & ~both_nan)
    if not bad.any():
        return None
    with np.errstate(invalid="ignore"):
        score = np.where(bad, np.nan_to_num(err - rtol * np.abs(w),
                                            nan=np.inf), -np.inf)
    i = np.unravel_index(int(np.argmax(score)), got.shape)
    return (f"{int(bad.sum())} of {bad.size} elements outside rtol={rtol} "
            f"atol={atol}; worst at {list(map(int, i))}: {g[i]!r} against "
            f"{w[i]!r}")


def first_line(text):
    for line in text.splitlines():
        if line.strip():
            return line.strip()[:300]
    return ""


def diagnostic(text, lines=1):
    """The first `error:` line of a tool's output and the lines after it
    (`lines` in all, joined: a diagnostic's list of unsupported nodes), else
    its first line."""
    all_lines = [line.strip() for line in text.splitlines() if line.strip()]
    for i, line in enumerate(all_lines):
        if "error:" in line:
            return " ".join(all_lines[i:i + lines])[:400]
    return first_line(text)


def classify_import(rc, output):
    """fuel-import-onnx's exit status and output -> (status, detail)."""
    if rc < 0:
        return "fail", f"fuel-import-onnx crashed (signal {-rc})"
    if rc != 0 and UNSUPPORTED.search(output):
        return "unsupported", diagnostic(output, lines=3)
    return "fail", f"fuel-import-onnx failed (exit {rc}): {diagnostic(output)}"


def step(command, timeout):
    """-> (exit status, stdout + stderr); a timeout is exit status None."""
    try:
        r = subprocess.run(command, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True,
                           errors="replace", timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, f"timed out after {timeout} s"
    return r.returncode, r.stdout


def static_dims(value_info):
    t = value_info.type.tensor_type
    if not t.HasField("shape"):
        return None
    dims = []
    for d in t.shape.dim:
        if not d.HasField("dim_value"):
            return None
        dims.append(d.dim_value)
    return dims


def run_test(op, name, a):
    """One node test -> dict(op, test, status, detail)."""
    import onnx
    from onnx import TensorProto
    result = {"op": op, "test": name}
    folder = os.path.join(a.data, name)
    work = os.path.join(a.work, name)
    os.makedirs(work, exist_ok=True)
    data = os.path.join(folder, "test_data_set_0")
    try:
        model = onnx.load(os.path.join(folder, "model.onnx"))
    except Exception as e:
        raise RunnerError(f"{folder}/model.onnx: cannot be read ({e})")
    graph = model.graph
    initializers = {t.name for t in graph.initializer}
    inputs = [v for v in graph.input if v.name not in initializers]
    import_args, run_inputs = [], []
    for i, v in enumerate(inputs):
        pb = os.path.join(data, f"input_{i}.pb")
        if not os.path.exists(pb):
            raise RunnerError(f"{name}: {pb} is missing")
        if v.type.tensor_type.elem_type != TensorProto.FLOAT:
            import_args.append(f"--fold-input={v.name}={pb}")
            continue
        array = read_tensor(pb)
        npy = os.path.join(work, f"input_{i}.npy")
        np.save(npy, array)
        run_inputs.append(f"--input=@{npy}")
        if static_dims(v) is None:
            import_args.append(f"--shape={v.name}=" +
                               "x".join(map(str, array.shape)))
    outputs = []
    for i in range(len(graph.output)):
        pb = os.path.join(data, f"output_{i}.pb")
        if not os.path.exists(pb):
            raise RunnerError(f"{name}: {pb} is missing")
        outputs.append((pb, os.path.join(work, f"output_{i}.npy")))

    mlir = os.path.join(work, "model.mlir")
    exe = os.path.join(work, "model.fuelx")
    rc, out = step([a.tools["fuel-import-onnx"],
                    os.path.join(folder, "model.onnx"), "-o", mlir] +
                   import_args, STEP_TIMEOUT)
    if rc is None:
        return dict(result, status="fail", detail=f"fuel-import-onnx {out}")
    if rc != 0:
        status, detail = classify_import(rc, out)
        return dict(result, status=status, detail=detail)
    rc, out = step([a.tools["fuel-compile"], mlir, "-o", exe,
                    f"--topology={a.topology}"], STEP_TIMEOUT)
    if rc != 0:
        why = out if rc is None else f"exit {rc}: {diagnostic(out)}"
        return dict(result, status="fail", detail=f"fuel-compile {why}")
    rc, out = step([a.tools["fuel-run"], exe] + run_inputs +
                   [f"--output=@{npy}" for _, npy in outputs], STEP_TIMEOUT)
    if rc != 0:
        why = out if rc is None else f"exit {rc}: {diagnostic(out)}"
        return dict(result, status="fail", detail=f"fuel-run {why}")
    rtol, atol, _ = TOLERANCE.get(op, (RTOL, ATOL, ""))
    for i, (pb, npy) in enumerate(outputs):
        try:
            got = np.load(npy)
        except Exception as e:
            return dict(result, status="fail",
                        detail=f"output {i}: fuel-run's {npy} unreadable "
                        f"({e})")
        why = compare(got, read_tensor(pb), rtol, atol)
        if why:
            return dict(result, status="fail",
                        detail=f"output {i} ({graph.output[i].name}): "
                        f"mismatch, {why}")
    return dict(result, status="pass", detail="")


def summarize(results):
    """-> ({op: {status: count}}, passed, total)."""
    per_op = {}
    for r in results:
        counts = per_op.setdefault(r["op"], {"pass": 0, "fail": 0,
                                             "unsupported": 0})
        counts[r["status"]] += 1
    passed = sum(1 for r in results if r["status"] == "pass")
    return per_op, passed, len(results)


def rate_percent(passed, total):
    """The pass rate as a percentage rounded down to one decimal, so that a
    recorded figure is never above what was measured."""
    return (passed * 1000 // total) / 10 if total else 0.0


def read_min_rate(path):
    try:
        with open(path) as f:
            text = f.read()
    except OSError as e:
        raise RunnerError(f"--min-pass-rate: cannot read {path}: "
                          f"{e.strerror}")
    numbers = [line.split("#", 1)[0].strip() for line in text.splitlines()]
    numbers = [n for n in numbers if n]
    try:
        if len(numbers) != 1:
            raise ValueError
        value = float(numbers[0])
        if not 0 <= value <= 100:
            raise ValueError
    except ValueError:
        raise RunnerError(f"{path}: expected one percentage between 0 and "
                          f"100, got {numbers!r}")
    return value


def gate(rate, minimum, path):
    """-> (exit status, message) for the measured rate against the figure."""
    if rate < minimum:
        return 1, (f"FAIL: pass rate {rate:.1f}% is below the recorded "
                   f"{minimum:.1f}% ({path})")
    if rate > minimum:
        return 0, (f"pass rate {rate:.1f}% is above the recorded "
                   f"{minimum:.1f}%: raise the figure in {path}")
    return 0, f"pass rate {rate:.1f}% meets the recorded {minimum:.1f}%"


def report(results, verbose):
    for r in results:
        if verbose or r["status"] != "pass":
            detail = f": {r['detail']}" if r["detail"] else ""
            print(f"{r['status'].upper()} {r['test']} ({r['op']}){detail}")
    per_op, passed, total = summarize(results)
    print()
    print("| op | tests | pass | fail | unsupported |")
    print("|---|---|---|---|---|")
    for op in sorted(per_op):
        c = per_op[op]
        print(f"| {op} | {sum(c.values())} | {c['pass']} | {c['fail']} | "
              f"{c['unsupported']} |")
    fails = sum(c["fail"] for c in per_op.values())
    unsupported = sum(c["unsupported"] for c in per_op.values())
    print(f"| **all** | {total} | {passed} | {fails} | {unsupported} |")
    print()
    print(f"pass rate: {passed}/{total} = {rate_percent(passed, total):.1f}%")
    return rate_percent(passed, total)


def self_test():
    w = np.array([[1.0, -2.0], [np.nan, 1e-9]], np.float32)
    checks = [
        (compare(w.copy(), w, RTOL, ATOL) is None, "equal arrays match"),
        (compare(w * (1 + 5e-4), w, RTOL, ATOL) is None,
         "an error of 5e-4 relative matches at rtol 1e-3"),
        (compare(w * (1 + 2e-3), w, RTOL, ATOL) is not None,
         "an error of 2e-3 relative is a mismatch"),
        (compare(np.zeros_like(w), w, RTOL, ATOL) is not None,
         "NaN against 0 is a mismatch"),
        ("shape" in (compare(w[:1], w, RTOL, ATOL) or ""),
         "a wrong shape is a mismatch naming the shape"),
        ("dtype" in (compare(w.astype(np.float64), w, RTOL, ATOL) or ""),
         "a wrong dtype is a mismatch naming the dtype"),
        (compare(np.array([np.inf], np.float32),
                 np.array([np.inf], np.float32), RTOL, ATOL) is None,
         "inf matches inf"),
        (compare(np.array([-np.inf], np.float32),
                 np.array([np.inf], np.float32), RTOL, ATOL) is not None,
         "-inf is a mismatch against inf"),
        ("worst at [1, 0]" in (compare(
            np.array([[1, 1], [9, 1]], np.float32),
            np.ones((2, 2), np.float32), RTOL, ATOL) or ""),
         "the worst element is named"),
        (classify_import(1, "model.onnx: error: unsupported op 'Foo' "
                         "(node n0)")[0] == "unsupported",
         "an importer diagnostic naming an unsupported op is unsupported"),
        (classify_import(1, "error: opset 9 is not supported")[0] ==
         "unsupported", "'not supported' is unsupported"),
        (classify_import(1, "error: shape mismatch")[0] == "fail",
         "another import error is a failure"),
        (classify_import(-11, "unsupported")[0] == "fail",
         "an importer crash is a failure"),
        (rate_percent(205, 216) == 94.9, "205/216 rounds down to 94.9%"),
        (rate_percent(216, 216) == 100.0, "216/216 is 100.0%"),
        (gate(94.9, 95.0, "f")[0] == 1, "a rate below the figure fails"),
        (gate(95.0, 95.0, "f")[0] == 0, "a rate at the figure passes"),
        ("raise" in gate(96.0, 95.0, "f")[1],
         "a rate above the figure asks to raise it"),
        (summarize([{"op": "Add", "status": "pass"},
                    {"op": "Add", "status": "fail"},
                    {"op": "Abs", "status": "unsupported"}]) ==
         ({"Add": {"pass": 1, "fail": 1, "unsupported": 0},
           "Abs": {"pass": 0, "fail": 0, "unsupported": 1}}, 1, 3),
         "the summary counts per op"),
    ]
    with tempfile.TemporaryDirectory() as d:
        from onnx import numpy_helper
        value = np.arange(6, dtype=np.float32).reshape(2, 3)
        pb = os.path.join(d, "t.pb")
        with open(pb, "wb") as f:
            f.write(numpy_helper.from_array(value, "x").SerializeToString())
        back = read_tensor(pb)
        checks.append((back.dtype == np.float32 and
                       np.array_equal(back, value), ".pb reads back"))
        def write(name, data):
            path = os.path.join(d, name)
            with open(path, "wb" if isinstance(data, bytes) else "w") as f:
                f.write(data)
            return path

        def error(call, path, needle=""):
            """True when call(path) raises a RunnerError containing
            needle."""
            try:
                call(path)
            except RunnerError as e:
                return needle in str(e)
            return False

        checks.append((error(read_tensor, write("bad.pb", b"\xff\xff\xff")),
                       "a malformed .pb is an error"))
        checks.append((read_min_rate(write("rate.txt", "# c\n96.3\n")) ==
                       96.3, "the figure reads"))
        checks.append((error(read_min_rate, write("rate.txt", "96.3 97\n")),
                       "a bad figure is an error"))
        listing = write("list.txt", "# c\nAdd test_add\n\nAbs test_abs  # x\n")
        checks.append((read_list(listing) == [("Add", "test_add"),
                                              ("Abs", "test_abs")],
                       "the list reads"))
        checks.append((error(read_list, write("list.txt", "Add\n"), ":1:"),
                       "a malformed list line is an error naming its line"))
    failed = [what for ok, what in checks if not ok]
    for what in failed:
        print(f"onnx-node-tests: self-test FAILED: {what}", file=sys.stderr)
    if failed:
        return 1
    print(f"onnx-node-tests: self-test passed ({len(checks)} checks)")
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--tools-dir", default="")
    p.add_argument("--data", default=DEFAULT_DATA)
    p.add_argument("--list", default=DEFAULT_LIST)
    p.add_argument("--topology", default=DEFAULT_TOPOLOGY)
    p.add_argument("-j", "--jobs", type=int,
                   default=len(os.sched_getaffinity(0)))
    p.add_argument("--work", default="")
    p.add_argument("--filter", default="")
    p.add_argument("--min-pass-rate", default="")
    p.add_argument("--json", default="")
    p.add_argument("--verbose", action="store_true")
    p.add_argument("--self-test", action="store_true")
    a = p.parse_args()
    if a.self_test:
        return self_test()
    if a.jobs < 1:
        p.error("-j expects at least 1")
    try:
        tools_dir = a.tools_dir or os.environ.get("FUEL_TOOLS_DIR") or \
            os.path.join(ROOT, "build", "bin")
        a.tools = {}
        for t in ("fuel-import-onnx", "fuel-compile", "fuel-run"):
            path = os.path.join(tools_dir, t)
            if not os.access(path, os.X_OK):
                raise RunnerError(f"--tools-dir: {path} is missing or not "
                                  "executable")
            a.tools[t] = path
        if not os.path.isdir(a.data):
            raise RunnerError(f"--data: {a.data} is not a folder (Debian: "
                              "libonnx-testdata)")
        if not os.path.isfile(a.topology):
            raise RunnerError(f"--topology: {a.topology} is not a file")
        minimum = read_min_rate(a.min_pass_rate) if a.min_pass_rate else None
        tests = read_list(a.list)
        if a.filter:
            tests = [t for t in tests if re.search(a.filter, t[1])]
            if not tests:
                raise RunnerError(f"--filter '{a.filter}' matches no test")
        for _, name in tests:
            if not os.path.isfile(os.path.join(a.data, name, "model.onnx")):
                raise RunnerError(f"{a.list}: {name} is not in {a.data}")
        own_work = not a.work
        a.work = a.work or tempfile.mkdtemp(prefix="fuel-onnx-node-tests-")
        start = time.monotonic()
        with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
            results = list(pool.map(lambda t: run_test(t[0], t[1], a),
                                    tests))
        rate = report(results, a.verbose)
        print(f"{len(tests)} tests in {time.monotonic() - start:.0f} s "
              f"(-j {a.jobs})")
        if a.json:
            with open(a.json, "w") as f:
                json.dump(results, f, indent=1)
        if own_work:
            import shutil
            shutil.rmtree(a.work, ignore_errors=True)
        if minimum is not None:
            code, message = gate(rate, minimum, a.min_pass_rate)
            print(message)
            return code
    except RunnerError as e:
        print(f"onnx-node-tests: error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
