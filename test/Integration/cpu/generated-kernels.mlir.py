"""Checks generated-kernels.mlir's results against numpy.

The matmul within rtol 1e-4 (atol 1e-5: the kernel's summation order is not
numpy's); the bias + relu chains exactly (one rounding per add, as numpy).
"""
import sys

import numpy as np

t = sys.argv[1]
a, b, x, c = (np.load(f"{t}.{n}.npy") for n in "abxc")
m = a.astype(np.float64) @ b.astype(np.float64)
y = np.maximum(x + c, np.float32(0))
z = np.maximum(np.maximum(y + c, np.float32(0)) + c, np.float32(0))
got = {n: np.load(f"{t}.{n}.npy") for n in "myz"}
if got["m"].shape != m.shape or not np.allclose(got["m"], m, rtol=1e-4,
                                                atol=1e-5):
    sys.exit(f"matmul: max error {np.abs(got['m'] - m).max()}")
for name, ref in [("y", y), ("z", z)]:
    if got[name].shape != ref.shape or not np.array_equal(got[name], ref):
        sys.exit(f"{name}: max error {np.abs(got[name] - ref).max()}")
print("ok")
