"""Calls add_one from Python with numpy arrays.

    python run.py <path to libadd_one.so>
"""
import sys

import numpy as np

import tvm_ffi


def main(path: str) -> None:
    mod = tvm_ffi.load_module(path)
    print("run.py: doc:", mod.get_function_doc("add_one"))

    x = np.array([1, 2, 3, 4], dtype="float32")
    y = np.empty_like(x)
    mod.add_one(x, y)  # numpy arrays are passed as tensors, without a copy
    print("run.py: y =", y)
    np.testing.assert_array_equal(y, x + 1)

    try:
        mod.add_one(x, np.empty(2, dtype="float32"))
    except ValueError as e:
        print("run.py: expected error:", e)
    else:
        raise AssertionError("mismatched sizes were accepted")
    print("run.py: ok")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python run.py <path to libadd_one.so>")
    main(sys.argv[1])
