#!/usr/bin/python3
"""exit-code.py N COMMAND [ARG ...]: runs COMMAND, passes its output
through, and exits 0 when it exited with N, 1 otherwise."""

import subprocess
import sys

want = int(sys.argv[1])
got = subprocess.run(sys.argv[2:]).returncode
if got != want:
    sys.stderr.write(f"exit-code.py: expected exit {want}, got {got}\n")
    sys.exit(1)
