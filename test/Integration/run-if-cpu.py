#!/usr/bin/python3
"""Runs a command only where this CPU can run an executable's code.

  run-if-cpu.py EXE COMMAND [ARG ...]

`fuel-run --check-cpu EXE` (the loader's own check of the CPU features EXE
records) decides: exit 0 runs COMMAND and exits with its status; 77 says
what the CPU lacks and exits 0 without running it; anything else fails.
For lit tests that run code compiled for a pinned cpu target
(test/topologies/cpu-target.json, cpu-avx512.json). fuel-run is looked up in
$FUEL_TOOLS_DIR, else on PATH.
"""

import os
import shutil
import subprocess
import sys


def main(argv):
    if len(argv) < 3:
        sys.stderr.write("usage: run-if-cpu.py EXE COMMAND [ARG ...]\n")
        return 2
    exe, command = argv[1], argv[2:]
    directory = os.environ.get("FUEL_TOOLS_DIR", "")
    fuel_run = os.path.join(directory, "fuel-run")
    if not directory or not os.path.exists(fuel_run):
        fuel_run = shutil.which("fuel-run") or "fuel-run"
    check = subprocess.run([fuel_run, "--check-cpu", exe],
                           capture_output=True, text=True)
    if check.returncode == 77:
        print("not run, compiled for another CPU: " + check.stdout.strip())
        return 0
    if check.returncode != 0:
        sys.stderr.write(f"fuel-run --check-cpu {exe} failed "
                         f"(exit {check.returncode}):\n"
                         + check.stdout + check.stderr)
        return 1
    return subprocess.run(command).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv))
