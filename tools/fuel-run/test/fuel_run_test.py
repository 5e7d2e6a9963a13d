"""Tests of fuel-run on executables the session tests write.

Usage: fuel_run_test.py FUEL_RUN EXECUTABLES_DIR WORK_DIR

Writes inputs with numpy, runs fuel-run on vadd.fuel (c = a + b, then a copy)
and chain.fuel (c = (a + b) + a), and checks the results against numpy's,
computed here independently; then the printed form, --dump, --report,
--report=json (parsed with json), --trace, --expected-output, random inputs,
the cpu + cuda:0 programs (refused without a driver, run through the test
doubles of the driver and cuBLAS where the build made them), and the error
cases (missing device, shape and dtype mismatches, unreadable
files, wrong counts), each with a non-zero exit and a clear message.
"""

import json
import os
import subprocess
import sys

import numpy as np

FUEL_RUN, EXES, WORK = sys.argv[1:4]
os.makedirs(WORK, exist_ok=True)
failures = []


def path(name):
    return os.path.join(WORK, name)


def run(*args):
    p = subprocess.run([FUEL_RUN, *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def check(cond, what, detail=""):
    if not cond:
        failures.append(what + (": " + detail if detail else ""))


def expect_ok(args, what):
    rc, out, err = run(*args)
    check(rc == 0, what, "exit %d, stderr: %s" % (rc, err))
    return out, err


def expect_error(args, text, what):
    rc, out, err = run(*args)
    check(rc != 0, what, "exit 0")
    check(text in err, what, "stderr %r lacks %r" % (err, text))


vadd = os.path.join(EXES, "vadd.fuel")
chain = os.path.join(EXES, "chain.fuel")
rng = np.random.default_rng(7)
a = rng.standard_normal(1000).astype(np.float32)
b = rng.standard_normal(1000).astype(np.float32)
np.save(path("a.npy"), a)
np.save(path("b.npy"), b)

# Results against numpy.
expect_ok([vadd, "--input=@" + path("a.npy"), "--input=@" + path("b.npy"),
           "--output=@" + path("c.npy")], "vadd with --output")
c = np.load(path("c.npy"))
check(c.dtype == np.float32 and c.shape == (1000,), "vadd result type",
      str((c.dtype, c.shape)))
check(np.array_equal(c, a + b), "vadd result equals numpy's a + b")

a2, b2 = a[:512].copy(), b[:512].copy()
np.save(path("a2.npy"), a2)
np.save(path("b2.npy"), b2)
expect_ok([chain, "--input=@" + path("a2.npy"), "--input=@" + path("b2.npy"),
           "--output=@" + path("c2.npy"), "--threads=1"], "chain")
check(np.array_equal(np.load(path("c2.npy")), (a2 + b2) + a2),
      "chain result equals numpy's (a + b) + a")

# Printed results: SHAPExDTYPE=..., exact shortest floats.
small_a = np.arange(1000, dtype=np.float32) * np.float32(0.5)
small_b = np.ones(1000, dtype=np.float32)
np.save(path("sa.npy"), small_a)
np.save(path("sb.npy"), small_b)
out, _ = expect_ok([vadd, "--input=@" + path("sa.npy"),
                    "--input=@" + path("sb.npy")], "vadd printed")
check(out.startswith("1000xf32=1 1.5 2 2.5 "), "printed form",
      out[:60])
values = [float(x) for x in out.strip().split("=", 1)[1].split()]
check(np.array_equal(np.array(values, dtype=np.float32), small_a + small_b),
      "printed values read back to numpy's result")

# --expected-output, matching and not.
np.save(path("ref.npy"), a + b)
out, _ = expect_ok([vadd, "--input=@" + path("a.npy"),
                    "--input=@" + path("b.npy"),
                    "--expected-output=@" + path("ref.npy")],
                   "expected output matches")
check("match" in out, "comparison summary printed", out[-200:])
bad = (a + b).copy()
bad[17] += 1.0
np.save(path("bad.npy"), bad)
rc, out, _ = run(vadd, "--input=@" + path("a.npy"), "--input=@" + path("b.npy"),
                 "--expected-output=@" + path("bad.npy"))
check(rc != 0, "a mismatch exits non-zero")
check("17" in out, "the mismatch report names the index", out[-300:])
expect_ok([vadd, "--input=@" + path("a.npy"), "--input=@" + path("b.npy"),
           "--expected-output=@" + path("bad.npy"), "--tolerance=atol=2"],
          "a wide tolerance accepts it")

# Random inputs: deterministic, and the result is their sum.
out1, _ = expect_ok([vadd, "--input=random:42"], "random inputs")
out2, _ = expect_ok([vadd, "--input=random:42"], "random inputs again")
check(out1 == out2, "random inputs are deterministic")
out3, _ = expect_ok([vadd, "--input=random:43"], "another seed")
check(out1 != out3, "another seed gives other inputs")

# --dump: devices, kernels, buffers, commands, as text.
out, _ = expect_ok([vadd, "--dump"], "--dump")
for text in ("cpu", "fuel_test_vadd", "cpu.gen.vadd_f32", "generated"):
    check(text in out, "--dump shows " + text, out[:400])

# --report (text) and --report=json.
out, _ = expect_ok([vadd, "--input=@" + path("a.npy"),
                    "--input=@" + path("b.npy"), "--repeat=3", "--report"],
                   "--report")
for text in ("cpu.gen.vadd_f32", "fuel.copy", "predicted", "measured",
             "input upload", "4000", "run: median"):
    check(text in out, "--report shows " + text, out)
out, _ = expect_ok([vadd, "--input=@" + path("a.npy"),
                    "--input=@" + path("b.npy"), "--repeat=3",
                    "--report=json", "--threads=2"], "--report=json")
try:
    rep = json.loads(out)
    cmds = rep["commands"]
    check(rep["repeat"] == 3 and rep["threads"] == 2, "json repeat, threads")
    check(len(cmds) == 2, "json has both commands")
    check(cmds[0]["kind"] == "dispatch" and cmds[0]["node"] == 1 and
          cmds[0]["kernel"] == "cpu.gen.vadd_f32" and
          cmds[0]["source"] == "generated" and cmds[0]["device"] == "cpu" and
          cmds[0]["predicted_ns"] == 2000, "json dispatch fields", str(cmds[0]))
    check(cmds[1]["kind"] == "copy" and cmds[1]["bytes"] == 4000,
          "json copy bytes", str(cmds[1]))
    check(all(isinstance(c["measured_ns"], int) for c in cmds),
          "json measured times")
    check(rep["total_predicted_ns"] == 2300, "json predicted total")
    # Whole runs' wall time: every run holds all its commands, so the
    # median run is at least each command's median.
    check(0 < rep["run_min_ns"] <= rep["run_median_ns"], "json run times",
          out)
    check(rep["run_median_ns"] >= max(c["measured_ns"] for c in cmds),
          "json run median covers its commands", out)
except (ValueError, KeyError) as e:
    failures.append("--report=json is not the expected JSON: %s: %s" % (e, out))

# --warmup: untimed runs first; the results and the report are as without.
out, _ = expect_ok([vadd, "--input=@" + path("a.npy"),
                    "--input=@" + path("b.npy"), "--warmup=2", "--repeat=2",
                    "--report=json"], "--warmup")
try:
    check(json.loads(out)["repeat"] == 2, "--warmup does not count as repeat")
except (ValueError, KeyError) as e:
    failures.append("--warmup: not the expected JSON: %s: %s" % (e, out))
expect_error([vadd, "--input=random:1", "--warmup=x"],
             "--warmup expects a number", "a bad --warmup")

# --trace: a Chrome trace with one complete event per command and run.
expect_ok([vadd, "--input=random:1", "--repeat=2",
           "--trace=" + path("trace.json")], "--trace")
try:
    with open(path("trace.json")) as f:
        trace = json.load(f)
    events = [e for e in trace["traceEvents"] if e["ph"] == "X"]
    check(len(events) == 4, "trace has 2 commands x 2 runs", str(len(events)))
    check(all(e["dur"] >= 0 and e["ts"] >= 0 for e in events), "trace times")
except (OSError, ValueError, KeyError) as e:
    failures.append("--trace output: %s" % e)

# Other dtypes and ranks, through a copy-only executable.
copy_i32 = os.path.join(EXES, "copy-i32.fuel")
copy_f64 = os.path.join(EXES, "copy-f64.fuel")
np.save(path("i32.npy"), np.array([[1, -2, 3], [4, 5, -6]], dtype=np.int32))
out, _ = expect_ok([copy_i32, "--input=@" + path("i32.npy")], "copy i32")
check(out.strip() == "2x3xi32=[1 -2 3][4 5 -6]", "i32 printed", out)
f64 = np.array([0.1, -2.5, 1e300, 5e-324, -0.0], dtype=np.float64)
np.save(path("f64.npy"), f64)
expect_ok([copy_f64, "--input=@" + path("f64.npy"),
           "--output=@" + path("f64-out.npy")], "copy f64")
got = np.load(path("f64-out.npy"))
check(got.dtype == np.float64 and got.tobytes() == f64.tobytes(),
      "f64 copied bit for bit")
out, _ = expect_ok([copy_i32, "--input=random:5"], "random i32")
vals = [int(v) for v in out.strip().split("=", 1)[1].replace("[", " ")
        .replace("]", " ").split()]
check(len(vals) == 6 and all(-64 <= v < 64 for v in vals),
      "random i32 in [-64, 64)", out)
expect_error([copy_i32, "--input=@" + path("f64.npy")], "f64.npy",
             "an f64 file for an i32 argument")

# Errors: non-zero exit, a message naming what is wrong.
expect_error([os.path.join(EXES, "needs-vulkan.fuel"), "--input=random:1"],
             "executable needs device vulkan:31", "a missing device")
np.save(path("wrong-shape.npy"), np.zeros((10, 100), dtype=np.float32))
expect_error([vadd, "--input=@" + path("wrong-shape.npy"),
              "--input=@" + path("b.npy")], "wrong-shape.npy",
             "a shape mismatch names the file")
np.save(path("wrong-dtype.npy"), np.zeros(1000, dtype=np.float64))
expect_error([vadd, "--input=@" + path("a.npy"),
              "--input=@" + path("wrong-dtype.npy")], "f64",
             "a dtype mismatch names the dtypes")
expect_error([vadd, "--input=@" + path("missing.npy"),
              "--input=@" + path("b.npy")], "missing.npy",
             "an unreadable input names the file")
with open(path("garbage.fuel"), "wb") as f:
    f.write(b"not an executable at all" * 10)
expect_error([path("garbage.fuel"), "--input=random:1"], "garbage.fuel",
             "a foreign executable is refused")
expect_error([path("no-such.fuel"), "--dump"], "no-such.fuel",
             "a missing executable")
expect_error([vadd, "--input=@" + path("a.npy")], "takes 2 arguments",
             "too few inputs")
expect_error([vadd, "--input=random:1", "--input=@" + path("a.npy")],
             "only --input", "random with files")
expect_error([vadd, "--input=random:1", "--function=main"],
             "this one's is 'vadd'", "an unknown function")
expect_error([vadd, "--input=random:x"], "random:x", "a bad seed")
expect_error([vadd, "--input=random:1", "--output=@" + path("x.npy"),
              "--output=@" + path("y.npy")], "2 --output given",
             "too many outputs")
expect_error([vadd, "--bogus"], "unknown option", "an unknown option")
expect_error([vadd, "--input=random:1", "--threads=0"], "at least 1",
             "zero threads")
expect_ok([vadd, "--input=random:1", "--function=vadd"],
          "the one function by name")

# --lanes: two independent adds go to lanes 0 and 1 with two lanes (the
# default), both to lane 0 with one; the outputs are the same bytes.
two_adds = os.path.join(EXES, "two-adds.fuel")
lanes_out = {}
for lanes, expected in ((None, [0, 1]), (2, [0, 1]), (1, [0, 0])):
    # Two threads: with one, a cpu-only program defaults to one lane.
    args = [two_adds, "--input=random:3", "--report=json", "--threads=2",
            "--output=@" + path("adds-c-%s.npy" % lanes),
            "--output=@" + path("adds-d-%s.npy" % lanes),
            "--trace=" + path("adds-%s.json" % lanes)]
    if lanes:
        args.append("--lanes=%d" % lanes)
    out, _ = expect_ok(args, "--lanes=%s" % lanes)
    try:
        rep = json.loads(out)
        check(rep["lanes"] == (lanes or 2), "json lanes", out)
        check([c["lane"] for c in rep["commands"]] == expected,
              "--lanes=%s assignment" % lanes, out)
        with open(path("adds-%s.json" % lanes)) as f:
            tracks = [e for e in json.load(f)["traceEvents"]
                      if e["ph"] == "M"]
        check(len(tracks) == len(set(expected)),
              "--lanes=%s: one trace track per lane used" % lanes, str(tracks))
    except (OSError, ValueError, KeyError) as e:
        failures.append("--lanes=%s report: %s: %s" % (lanes, e, out))
    lanes_out[lanes] = (np.load(path("adds-c-%s.npy" % lanes)).tobytes(),
                        np.load(path("adds-d-%s.npy" % lanes)).tobytes())
check(lanes_out[1] == lanes_out[2] == lanes_out[None],
      "outputs identical with 1 and 2 lanes")
# --run-on: run() of a cpu-only program on the calling thread by default,
# on the queue threads with --run-on=queues; the same bytes either way.
# One thread: one lane by default.
for run_on in ("caller", "queues"):
    out, _ = expect_ok([two_adds, "--input=random:3", "--report=json",
                        "--threads=1", "--run-on=" + run_on,
                        "--output=@" + path("adds-c-%s.npy" % run_on),
                        "--output=@" + path("adds-d-%s.npy" % run_on)],
                       "--run-on=" + run_on)
    try:
        rep = json.loads(out)
        check(rep["run_on"] == run_on, "json run_on " + run_on, out)
        check(rep["lanes"] == 1, "--threads=1: one lane by default", out)
    except (ValueError, KeyError) as e:
        failures.append("--run-on=%s report: %s: %s" % (run_on, e, out))
    check((np.load(path("adds-c-%s.npy" % run_on)).tobytes(),
           np.load(path("adds-d-%s.npy" % run_on)).tobytes()) == lanes_out[1],
          "--run-on=%s: the same bytes" % run_on)
expect_error([two_adds, "--input=random:1", "--run-on=gpu"],
             "expected caller or queues", "--run-on=gpu")
out, _ = expect_ok([two_adds, "--input=random:3", "--report"], "lane column")
check(" lane " in out, "--report shows the lane column", out)
rc, _, err = run(two_adds, "--input=random:1", "--lanes=17")
check(rc == 2 and "at most 16" in err, "--lanes=17 refused", err)
expect_error([two_adds, "--input=random:1", "--lanes=0"], "at least 1",
             "zero lanes")

# --no-pipeline-cache is accepted whatever the devices (a cpu executable
# runs as without it).
out, _ = expect_ok([vadd, "--input=random:5", "--no-pipeline-cache",
                    "--output=@" + path("nocache.npy")], "--no-pipeline-cache")

# cpu + vulkan:0 (mixed-vulkan.fuel, written where spirv-as was found):
# d = a + b[5:] on vulkan:0, c = d + a on the cpu, with copies both ways.
# Without a Vulkan device this part says why and skips; under CI=true it
# fails.
mixed = os.path.join(EXES, "mixed-vulkan.fuel")
ci = os.environ.get("CI") == "true"
if not os.path.exists(mixed):
    (failures.append if ci else print)(
        "SKIP: vulkan: mixed-vulkan.fuel was not written (no spirv-as)")
else:
    out, _ = expect_ok([mixed, "--dump"], "--dump of a Vulkan executable")
    for text in ['vulkan:0 spirv', 'entry points "fuel_vk_vadd"',
                 'workgroup [64, 1, 1] (set 0, binding 0) (set 0, binding 1) '
                 '(set 0, binding 2)']:
        check(text in out, "--dump shows " + text, out)
    rng = np.random.default_rng(15)
    va = rng.standard_normal(1009).astype(np.float32)
    vb = rng.standard_normal(1014).astype(np.float32)
    np.save(path("va.npy"), va)
    np.save(path("vb.npy"), vb)
    rc, out, err = run(mixed, "--input=@" + path("va.npy"),
                       "--input=@" + path("vb.npy"),
                       "--output=@" + path("vc.npy"),
                       "--output=@" + path("vd.npy"), "--report=json",
                       "--no-pipeline-cache")
    if rc != 0 and "executable needs device vulkan:0" in err:
        (failures.append if ci else print)("SKIP: vulkan: " + err.strip())
    else:
        check(rc == 0, "mixed-vulkan.fuel runs", err)
        d_ref = va + vb[5:]
        c_ref = d_ref + va
        if rc == 0:
            check(np.array_equal(np.load(path("vd.npy")), d_ref),
                  "the output returned from vulkan:0 is a + b[5:]")
            check(np.array_equal(np.load(path("vc.npy")), c_ref),
                  "the cpu output is (a + b[5:]) + a")
            try:
                rep = json.loads(out)
                copies = [c for c in rep["commands"] if c["kind"] == "copy"]
                check([(c["from"], c["to"]) for c in copies] ==
                      [("cpu", "vulkan:0"), ("vulkan:0", "cpu")],
                      "--report=json: the copies' devices", out)
                check(all(c["bytes"] == 1009 * 4 for c in copies),
                      "--report=json: the copies' bytes", out)
            except (ValueError, KeyError) as e:
                failures.append("mixed --report=json: %s: %s" % (e, out))
            out, _ = expect_ok([mixed, "--input=@" + path("va.npy"),
                                "--input=@" + path("vb.npy"), "--report",
                                "--output=@" + path("vc2.npy"),
                                "--output=@" + path("vd2.npy")],
                               "mixed --report")
            check("cpu->vulkan:0" in out and "vulkan:0->cpu" in out,
                  "--report shows each copy's from->to", out)

# cpu + cuda:0. mixed-cuda.fuel (c = a + b by a PTX kernel) and
# cublas-cuda.fuel (c = a b by cuBLAS). Without a driver a program needing
# cuda:0 is refused with the reason; the toolkit's stub says so; the test
# doubles of the driver and of cuBLAS (host memory, no kernel launches) run
# the cuBLAS program, checked against numpy, and refuse the PTX launch.
mixed_cuda = os.path.join(EXES, "mixed-cuda.fuel")
gemm_cuda = os.path.join(EXES, "cublas-cuda.fuel")
fake_driver = os.environ.get("FUEL_FAKE_CUDA_DRIVER", "")
fake_cublas = os.environ.get("FUEL_FAKE_CUBLAS_DIR", "")
stub = os.environ.get("FUEL_CUDA_STUB_DRIVER", "")
ga = rng.standard_normal((37, 23)).astype(np.float32)
gb = rng.standard_normal((23, 19)).astype(np.float32)
np.save(path("ga.npy"), ga)
np.save(path("gb.npy"), gb)
gemm_args = [gemm_cuda, "--input=@" + path("ga.npy"),
             "--input=@" + path("gb.npy")]
rc, out, err = run(mixed_cuda, "--input=@" + path("a.npy"),
                   "--input=@" + path("b.npy"),
                   "--output=@" + path("cuda-c.npy"))
if rc == 0:
    # A machine with a CUDA driver and device.
    check(np.array_equal(np.load(path("cuda-c.npy")), a + b),
          "mixed-cuda.fuel on cuda:0 is a + b")
else:
    check("executable needs device cuda:0: cuda:0: " in err,
          "no driver: a cuda:0 program is refused with the reason", err)
    check("no CUDA driver (libcuda.so.1" in err or "cuInit" in err,
          "the refusal names the driver", err)
    if stub:
        # The toolkit's stubs directory has only the unversioned name, so
        # the driver's SONAME is not found there; named directly, the stub
        # answers CUDA_ERROR_STUB_LIBRARY.
        env = dict(os.environ,
                   LD_LIBRARY_PATH=os.path.dirname(stub) + ":" +
                   os.environ.get("LD_LIBRARY_PATH", ""))
        p = subprocess.run([FUEL_RUN, *gemm_args], capture_output=True,
                           text=True, env=env)
        check(p.returncode != 0 and "executable needs device cuda:0" in
              p.stderr, "LD_LIBRARY_PATH at the stubs: refused", p.stderr)
        expect_error(gemm_args + ["--cuda-library=" + stub],
                     "cuInit(0) failed with 34 (CUDA_ERROR_STUB_LIBRARY: "
                     "stub library, no driver)", "the stub says stub library")
    else:
        print("SKIP: cuda: no toolkit stub library was found at configure time")
if fake_driver and fake_cublas:
    double = ["--cuda-library=" + fake_driver, "--cublas-path=" + fake_cublas]
    expect_ok(gemm_args + double + ["--output=@" + path("gc.npy")],
              "cublas-cuda.fuel through the test doubles")
    ref = ga.astype(np.float64) @ gb.astype(np.float64)
    got = np.load(path("gc.npy"))
    check(got.shape == (37, 19) and np.allclose(got, ref, rtol=1e-5,
                                                atol=1e-5),
          "cuBLAS sgemm (row-major by the operand swap) matches numpy")
    out, _ = expect_ok(gemm_args + double + ["--report=json"],
                       "cublas-cuda.fuel --report=json")
    try:
        rep = json.loads(out)
        copies = [c for c in rep["commands"] if c["kind"] == "copy"]
        check([(c["from"], c["to"]) for c in copies] ==
              [("cpu", "cuda:0"), ("cpu", "cuda:0"), ("cuda:0", "cpu")],
              "--report=json: the copies host<->cuda:0", out)
    except (ValueError, KeyError) as e:
        failures.append("cublas --report=json: %s: %s" % (e, out))
    expect_error([mixed_cuda, "--input=@" + path("a.npy"),
                  "--input=@" + path("b.npy")] + double,
                 "cuLaunchKernel failed with 801",
                 "the driver's test double refuses the PTX launch")
    expect_error(gemm_args + ["--cuda-library="], "--cuda-library expects",
                 "an empty --cuda-library")
else:
    print("SKIP: cuda: the test doubles of the driver and cuBLAS are not set")

if failures:
    for f in failures:
        print("FAIL:", f)
    sys.exit(1)
print("fuel-run tests passed")
