#!/usr/bin/python3
"""Writes the .npy files NpyTest reads, with numpy's own writer.

Run from this directory with /usr/bin/python3 and numpy installed; the files
are checked in so that the tests need neither. Element i (flat, C order) of
the dtype files is, with k = (7 * i) % 11:
  floats    k / 3 computed in the dtype (f16 through float, as numpy does)
  signed    (k - 5) * 2**(bits - 5)
  unsigned  k * 2**(bits - 4)
  bool      i % 3 == 0
NpyTest.cpp computes the same values.
"""

import numpy as np

DTYPES = ["f2", "f4", "f8", "i1", "i2", "i4", "i8",
          "u1", "u2", "u4", "u8", "b1"]


def values(code, shape):
    n = int(np.prod(shape))
    dt = np.dtype(code)
    out = np.zeros(n, dtype=dt)
    for i in range(n):
        k = (7 * i) % 11
        if dt.kind == "f":
            out[i] = dt.type(k) / dt.type(3)
        elif dt.kind == "i":
            out[i] = (k - 5) * 2 ** (dt.itemsize * 8 - 5)
        elif dt.kind == "u":
            out[i] = k * 2 ** (dt.itemsize * 8 - 4)
        else:
            out[i] = i % 3 == 0
    return out.reshape(shape)


def save(name, arr, version=None):
    with open(name, "wb") as f:
        np.lib.format.write_array(f, arr, version=version,
                                  allow_pickle=True)


for code in DTYPES:
    save(code + ".npy", values(code, (2, 3)))
save("f4_v2.npy", values("f4", (2, 3)), (2, 0))
save("f4_v3.npy", values("f4", (2, 3)), (3, 0))
save("i8_v2.npy", values("i8", (4,)), (2, 0))
save("f8_v3.npy", values("f8", (3, 1, 2)), (3, 0))
save("i2_scalar.npy", values("i2", ()))
save("u1_1d.npy", values("u1", (5,)))
save("f8_empty.npy", values("f8", (0, 3)))
save("f4_3d.npy", values("f4", (2, 2, 2)))
save("f4_long_dim.npy", values("f4", (1234567, 0)))
# Files fuel refuses.
save("bad_fortran.npy", np.asfortranarray(values("f4", (2, 3))))
save("bad_bigendian.npy", values("f4", (2, 3)).astype(">f4"))
save("bad_object.npy", np.array([1, "a"], dtype=object))
save("bad_structured.npy", np.zeros(2, dtype=[("a", "<f4"), ("b", "<i4")]))
save("bad_complex.npy", np.zeros(2, dtype="<c8"))
save("bad_unicode.npy", np.array(["ab", "c"]))
