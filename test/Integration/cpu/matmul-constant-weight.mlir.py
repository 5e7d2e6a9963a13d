"""Checks matmul-constant-weight.mlir's result against numpy (rtol 1e-5)."""
import sys

import numpy as np

x = np.load(sys.argv[1]).astype(np.float64)
k, n = np.meshgrid(np.arange(48), np.arange(64), indexing="ij")
w = ((7 * k + 3 * n) % 11 - 5) / 8.0
ref = x @ w
got = np.load(sys.argv[2])
if got.shape != ref.shape or not np.allclose(got, ref, rtol=1e-5, atol=1e-5):
    sys.exit(f"max error {np.abs(got - ref).max()}")
print("ok")
