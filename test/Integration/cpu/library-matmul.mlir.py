"""Checks library-matmul.mlir's results against numpy (rtol 1e-5, atol 1e-6).

The reference is computed here, from the same input and constants, never by
the code under test.
"""
import sys

import numpy as np

t = sys.argv[1]
a = np.load(t + ".a.npy")
b = np.arange(21, dtype=np.float32).reshape(3, 7) / 4 - 2
e = np.arange(14, dtype=np.float32).reshape(7, 2) % 5 - 2
c1 = a.astype(np.float64) @ b
c2 = c1 @ e
got = {name: np.load(t + "." + name + ".npy")
       for name in ["c1", "c1b", "c1flat", "c2"]}
want = {"c1": c1, "c1b": c1, "c1flat": c1.reshape(35), "c2": c2}
for name, ref in want.items():
    if got[name].shape != ref.shape or not np.allclose(
            got[name], ref, rtol=1e-5, atol=1e-6):
        sys.exit(f"{name}: got {got[name]}, want {ref}")
print("ok")
