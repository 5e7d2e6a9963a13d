"""What the measuring scripts (fit-registry.py, report-predicted.py) share:
the error they report, the build's tools, and running a command."""

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
