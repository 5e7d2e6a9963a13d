"""fuel-run on library-kernel executables: the shims found beside libfuelrt.

Usage: fuel_run_shims_test.py FUEL_RUN EXECUTABLES_DIR WORK_DIR

For each library (openblas, blis) runs matmul, matmul with a transposed B and
a batched matmul (written by FuelRtWriteShimExecutables) on numpy inputs and
compares with numpy's product in float64, computed here; checks --dump names
the shim entry; checks that a library the shim cannot open fails the run
with init's message.
"""

import os
import subprocess
import sys

import numpy as np

FUEL_RUN, EXES, WORK = sys.argv[1:4]
os.makedirs(WORK, exist_ok=True)
failures = []


def run(args, env=None):
    p = subprocess.run([FUEL_RUN, *args], capture_output=True, text=True,
                       env=env)
    return p.returncode, p.stdout, p.stderr


def check(cond, what):
    if not cond:
        failures.append(what)


rng = np.random.default_rng(12)
cases = {
    "matmul": ((37, 29), (29, 53), lambda a, b: a @ b, 29),
    "matmul-tb": ((37, 29), (53, 29), lambda a, b: a @ b.T, 29),
    "bmm": ((3, 17, 23), (3, 23, 19), lambda a, b: np.matmul(a, b), 23),
}
for lib in ("openblas", "blis"):
    for name, (sa, sb, ref, k) in cases.items():
        exe = os.path.join(EXES, "%s-%s.fuel" % (name, lib))
        a = rng.uniform(-1, 1, sa).astype(np.float32)
        b = rng.uniform(-1, 1, sb).astype(np.float32)
        pa, pb = (os.path.join(WORK, "%s-%s-%s.npy" % (name, lib, x))
                  for x in "ab")
        pc = os.path.join(WORK, "%s-%s-c.npy" % (name, lib))
        np.save(pa, a)
        np.save(pb, b)
        rc, out, err = run([exe, "--input=@" + pa, "--input=@" + pb,
                            "--output=@" + pc, "--threads=2"])
        if rc != 0:
            failures.append("%s %s: rc %d: %s" % (lib, name, rc, err))
            continue
        c = np.load(pc)
        want = ref(a.astype(np.float64), b.astype(np.float64))
        # A sum of k float32 products: 1e-5 relative, scaled by k.
        check(c.shape == want.shape, "%s %s: shape %s" % (lib, name, c.shape))
        check(np.allclose(c, want, rtol=1e-5, atol=1e-5 * k),
              "%s %s: max error %g" % (lib, name,
                                       float(np.max(np.abs(c - want)))))
    # At a model's size the libraries pack through work buffers: fresh
    # processes (the first concurrent calls) on two threads must give the
    # one-thread result bit for bit, run after run.
    exe = os.path.join(EXES, "large-%s.fuel" % lib)
    outs = []
    for threads in ["1"] + ["2"] * 48:
        po = os.path.join(WORK, "large-%s-%d.npy" % (lib, len(outs)))
        rc, out, err = run([exe, "--input=random:5", "--output=@" + po,
                            "--threads=" + threads])
        if rc != 0:
            failures.append("%s large: rc %d: %s" % (lib, rc, err))
            break
        outs.append(np.load(po))
    differ = sum(1 for o in outs[1:] if not np.array_equal(o, outs[0]))
    check(differ == 0, "%s large: %d of %d two-thread runs differ from one "
          "thread" % (lib, differ, len(outs) - 1))
    exe = os.path.join(EXES, "matmul-%s.fuel" % lib)
    rc, out, err = run([exe, "--dump"])
    check(rc == 0 and "fuel_shim_%s_sgemm" % lib in out
          and "libfuel-shim-%s.so" % lib in out,
          "%s --dump: %s%s" % (lib, out, err))
    var = "FUEL_%s_LIBRARY" % lib.upper()
    env = dict(os.environ, **{var: "/nonexistent"})
    rc, out, err = run([exe, "--input=random:1"], env=env)
    check(rc == 1 and var + "=/nonexistent" in err
          and "libfuel-shim-%s.so" % lib in err,
          "%s with %s=/nonexistent: rc %d: %s" % (lib, var, rc, err))

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("fuel-run shims: all checks passed")
