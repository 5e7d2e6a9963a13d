"""Writes and compares .npy files for the cpu integration tests.

  npy.py write FILE SHAPE SEED    random float32 data in [-1, 1), e.g. 5x3
  npy.py compare GOT WANT RTOL ATOL
"""
import sys

import numpy as np


def main():
    if sys.argv[1] == "write":
        shape = [int(d) for d in sys.argv[3].split("x")]
        rng = np.random.default_rng(int(sys.argv[4]))
        np.save(sys.argv[2], rng.uniform(-1, 1, shape).astype(np.float32))
    else:
        sys.exit("unknown command " + sys.argv[1])


if __name__ == "__main__":
    main()
