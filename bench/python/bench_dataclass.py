"""A @py_class instance against a plain Python dataclass: construction and
field reads, for one tvm_ffi build.

Run in a venv whose `tvm_ffi` is this project's package or apache-tvm-ffi
(the same script serves both: only tvm_ffi.dataclasses.py_class is used);
prints one JSON line with nanoseconds per operation (best of 7) for the FFI
type and for ``@dataclasses.dataclass`` / ``@dataclasses.dataclass(slots=True)``
classes with the same fields, measured in the same process.  run_dataclass.sh
runs both builds and prints the table.
"""
import argparse
import dataclasses
import json
import sys
import timeit

import tvm_ffi
from tvm_ffi.dataclasses import py_class


@py_class("bench.DCPoint")
class FFIPoint(tvm_ffi.Object):
    x: int
    y: float
    name: str


@dataclasses.dataclass
class PyPoint:
    x: int
    y: float
    name: str


@dataclasses.dataclass(slots=True)
class SlotPoint:
    x: int
    y: float
    name: str


def best_ns(stmt, env, number):
    return min(timeit.repeat(stmt, globals=env, number=number, repeat=7)) / number * 1e9


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--label", required=True)
    ap.add_argument("--number", type=int, default=1_000_000)
    args = ap.parse_args()
    n = args.number
    out = {"label": args.label, "python": sys.version.split()[0]}
    for tag, cls in (("ffi", FFIPoint), ("dataclass", PyPoint), ("slots", SlotPoint)):
        p = cls(1, 2.0, "a name")
        env = {"p": p, "C": cls}
        out[f"{tag}_new_ns"] = best_ns("C(1, 2.0, 'a name')", env, n // 4)
        out[f"{tag}_new_kw_ns"] = best_ns("C(x=1, y=2.0, name='a name')", env, n // 4)
        for attr in ("x", "y", "name"):
            out[f"{tag}_get_{attr}_ns"] = best_ns(f"p.{attr}", env, n)
        out[f"{tag}_set_x_ns"] = best_ns("p.x = 5", env, n)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
