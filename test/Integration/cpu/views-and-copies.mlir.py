"""Checks views-and-copies.mlir's results against numpy (exact: copies)."""
import sys

import numpy as np

t = sys.argv[1]
x = np.load(t + ".x.npy")
want = [x, x.reshape(6), x.reshape(6), x.reshape(6)[3:],
        np.array([1, 2, 3, 4], dtype=np.float32)]
for i, ref in enumerate(want):
    got = np.load(f"{t}.o{i}.npy")
    if got.shape != ref.shape or not np.array_equal(got, ref):
        sys.exit(f"result {i}: got {got}, want {ref}")
print("ok")
