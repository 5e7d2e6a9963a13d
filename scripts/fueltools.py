"""What the measuring scripts (fit-registry.py, report-predicted.py,
bench-run-overhead.py, bench/ort/small_models.py) share: the error they
report, the build's tools, running a command, percentiles and the machine's
load."""

import os
import subprocess


class Fail(Exception):
    """A failure the script reports as one message and exit status 1."""


def tool(build, name):
    """The path of a tool of the build tree `build`; Fail if it is not built."""
    path = os.path.join(build, "bin", name)
    if not os.path.exists(path):
        raise Fail(f"{path} is missing; build it first (scripts/build.sh)")
    return path


def run(cmd):
    """Runs `cmd` and returns its standard output; Fail with both outputs if
    it exits non-zero."""
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise Fail("failed: " + " ".join(cmd) + "\n" + r.stdout + r.stderr)
    return r.stdout


def percentile(values, q):
    """The q-quantile (0..1) of `values`, linearly interpolated; 0 for none."""
    values = sorted(values)
    if not values:
        return 0.0
    k = (len(values) - 1) * q
    lo = int(k)
    hi = min(lo + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


def loadavg():
    """The 1, 5 and 15 minute load averages, as /proc/loadavg gives them."""
    try:
        with open("/proc/loadavg", encoding="ascii") as f:
            return " ".join(f.read().split()[:3])
    except OSError:
        return "unknown"
