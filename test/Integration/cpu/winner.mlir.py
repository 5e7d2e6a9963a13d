"""Checks winner.mlir's results against numpy (rtol 1e-4, atol 1e-5)."""
import sys

import numpy as np

t = sys.argv[1]
a, b, c, d = (np.load(f"{t}.{n}.npy").astype(np.float64) for n in "abcd")
for name, ref in [("m", a @ b), ("n", np.matmul(c, d))]:
    got = np.load(f"{t}.{name}.npy")
    if got.shape != ref.shape or not np.allclose(got, ref, rtol=1e-4,
                                                 atol=1e-5):
        sys.exit(f"{name}: max error {np.abs(got - ref).max()}")
print("ok")
