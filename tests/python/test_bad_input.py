"""Every public function and method of tvm_ffi against a matrix of bad inputs.

Each target (a public function, all methods of a public class, or a batch of
global functions) runs in its own interpreter, so a crash is reported as the
call that caused it instead of ending the suite.  Every call must return or
raise an ordinary exception; SystemError (a C function that failed without
setting an exception, or set one and returned a value) and unraisable
exceptions printed to stderr are failures, as is any exit other than 0.
"""
import os
import subprocess
import sys
import textwrap

import pytest

import tvm_ffi

# Globals left out: they take raw pointers by contract (ffi.FunctionFromExternC),
# load files, or change the global table (as in fuzz/fuzz_globals.cc).
DENIED = ("ExternC", "Remove", "SetGlobal", "Load", "Unsafe", "System")

# The child: builds the edge values, resolves the target, calls it with each
# argument pattern, and prints one line per disallowed outcome.
CHILD = textwrap.dedent(r'''
    import datetime, math, os, sys
    import numpy as np
    import tvm_ffi

    if "asan" not in os.environ.get("LD_PRELOAD", ""):
        import resource  # a runaway allocation becomes MemoryError, not swapping
        resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))

    class Raises:
        """Every protocol method raises ZeroDivisionError."""
        def _boom(self, *a, **k):
            raise ZeroDivisionError("boom")
        __index__ = __float__ = __int__ = __len__ = __iter__ = __hash__ = _boom
        __eq__ = __str__ = __bool__ = __getitem__ = __fspath__ = __dlpack__ = _boom
        __dlpack_device__ = __tvm_ffi_object__ = _boom
        def __repr__(self):
            return "Raises()"

    class BadIndexOnly:
        def __index__(self):
            raise OverflowError("index boom")

    def consumed_capsule():
        cap = np.arange(4, dtype="int32").__dlpack__()
        tvm_ffi.from_dlpack(cap)
        return cap

    def edge_values():
        arr = np.arange(12, dtype="float32").reshape(3, 4)
        ro = np.arange(4, dtype="int64")
        ro.setflags(write=False)
        selfref = [1]
        selfref.append(selfref)
        deep = 0
        for _ in range(3000):
            deep = [deep]
        return [
            2**63, -(2**63) - 1, 2**64, 2**1000, -(2**1000), 2**31, -(2**31) - 1, -1, 0,
            float("nan"), float("inf"), float("-inf"), -0.0, 1e308,
            None, True, object(), "", "x" * 40, "\0", "\udcff", b"", b"\xff" * 9, bytearray(b"x"),
            [], {}, (), {1, 2}, lambda *a: None, type, 1j, Raises(), BadIndexOnly(),
            consumed_capsule(), np.arange(3).__dlpack__(), datetime.datetime_CAPI,
            arr[:, ::2], arr.T, ro, np.float64(3.5), np.int64(-5), np.zeros((0, 3)),
            np.zeros((), dtype="int8"), np.arange(3, dtype=">i4"), np.array([None, 1]),
            np.array([1 + 2j]), np.lib.stride_tricks.as_strided(np.zeros(1), (2**20, 2**20), (0, 0)),
            tvm_ffi.Array([1, "a"]), tvm_ffi.List([1]), tvm_ffi.Map({"a": 1}), tvm_ffi.Dict({1: 2}),
            tvm_ffi.Shape((2, 3)), tvm_ffi.device("cpu"), tvm_ffi.dtype("int8"),
            tvm_ffi.from_dlpack(np.arange(6, dtype="float32")), tvm_ffi.get_global_func("ffi.Array"),
            selfref, deep,
        ]

    DENIED = __DENIED__

    def captured(walk, kind):
        """The visitor or mutator a walk hands its callback (kept past the walk)."""
        box = []
        walk(tvm_ffi.Array([1]), (int, lambda v, m: box.append(m)))
        assert isinstance(box[0], kind)
        return box[0]

    def samples():
        """A fresh instance of each public class (methods may mutate it)."""
        return {
            "DefRegionKind": lambda: tvm_ffi.DefRegionKind.DEF_SIMPLE,
            "InplaceMode": lambda: tvm_ffi.InplaceMode.ALLOW,
            "StructuralKey": lambda: tvm_ffi.StructuralKey([1, {"k": 2}]),
            "VisitInterrupt": lambda: tvm_ffi.VisitInterrupt("payload"),
            "StructuralVisitor": lambda: captured(tvm_ffi.structural_visit,
                                                  tvm_ffi.StructuralVisitor),
            "StructuralMutator": lambda: captured(tvm_ffi.structural_mutate,
                                                  tvm_ffi.StructuralMutator),
            "CAny": lambda: tvm_ffi.CAny(5),
            "Array": lambda: tvm_ffi.Array([1, 2.5, "s"]),
            "List": lambda: tvm_ffi.List([1, 2, 3]),
            "Map": lambda: tvm_ffi.Map({"a": 1, 2: "b"}),
            "Dict": lambda: tvm_ffi.Dict({"a": 1, 2: "b"}),
            "Shape": lambda: tvm_ffi.Shape((2, 3)),
            "Device": lambda: tvm_ffi.device("cpu", 0),
            "Function": lambda: tvm_ffi.get_global_func("ffi.Array"),
            "Object": lambda: tvm_ffi.Array([]),
            "Tensor": lambda: tvm_ffi.from_dlpack(np.arange(6, dtype="float32").reshape(2, 3)),
            "dtype": lambda: tvm_ffi.dtype("float32x4"),
            "DLDeviceType": lambda: tvm_ffi.DLDeviceType.kDLCPU,
            "WalkOrder": lambda: tvm_ffi.WalkOrder.PREORDER,
            "WalkResult": lambda: tvm_ffi.WalkResult.SKIP,
            "Module": lambda: tvm_ffi.system_lib(),
            "ModulePropertyMask": lambda: tvm_ffi.ModulePropertyMask.RUNNABLE,
            "VirtualDevice": lambda: tvm_ffi.VirtualDevice(tvm_ffi.device("cuda", 0), None, "g"),
            "StreamContext": lambda: tvm_ffi.StreamContext(tvm_ffi.device("cuda:0"), 0x10),
            "ObjectConvertible": lambda: type(
                "Conv", (tvm_ffi.ObjectConvertible,), {"asobject": lambda self: tvm_ffi.Array([])}
            )(),
        }

    def own_methods(cls):
        """Methods defined by tvm_ffi classes (not inherited from builtins)."""
        names = set()
        for klass in cls.__mro__:
            if not (klass.__module__ or "").startswith("tvm_ffi"):
                continue
            for name, member in vars(klass).items():
                if name.startswith("_") and name not in (
                        "__getitem__", "__setitem__", "__delitem__", "__contains__", "__len__",
                        "__iter__", "__reversed__", "__eq__", "__ne__", "__hash__", "__add__",
                        "__mul__", "__call__", "__dlpack__", "__dlpack_device__", "__repr__",
                        "__str__", "__bool__", "__init__", "__reduce__", "__getattr__",
                        "__setattr__"):
                    continue
                if callable(member) or isinstance(member, (classmethod, staticmethod, property)):
                    names.add(name)
        return sorted(names)

    def targets(name):
        """(label, callable-factory) pairs of one target."""
        if name.startswith("globals:"):
            first, count = map(int, name.split(":")[1:])
            fns = sorted(n for n in tvm_ffi.list_global_func_names()
                         if n.startswith("ffi.") and not any(d in n for d in DENIED))
            return [(g, (lambda g=g: tvm_ffi.get_global_func(g))) for g in fns[first:first + count]]
        if name.startswith("libinfo."):
            return [(name, lambda: getattr(tvm_ffi.libinfo, name.split(".", 1)[1]))]
        obj = getattr(tvm_ffi, name)
        if isinstance(obj, type):
            make = samples()[name]
            out = [(name + "()", lambda: obj)]  # the constructor
            for m in own_methods(obj):
                if isinstance(getattr(type(make()), m, None), property):
                    out.append((name + "." + m, (lambda m=m: (lambda *a: getattr(make(), m)))))
                else:
                    out.append((name + "." + m, (lambda m=m: getattr(make(), m))))
            return out
        return [(name, lambda: obj)]

    def main(target):
        values = edge_values()
        bad = 0
        calls = 0
        for label, factory in targets(target):
            patterns = [()] + [(v,) for v in values] + [(0, v) for v in values] + \
                       [(v, v) for v in values] + [(v, 1, v) for v in values[:20]]
            for args in patterns:
                calls += 1
                shown = ", ".join(type(a).__name__ for a in args)
                print(f"CALL {label}({shown})", file=sys.stderr, flush=True)
                try:
                    f = factory()
                    f(*args)
                except SystemError as e:
                    bad += 1
                    print(f"BAD {label}({shown}): SystemError: {e}")
                except BaseException as e:  # noqa: B036  every other exception is clean
                    if not isinstance(e, Exception):
                        bad += 1
                        print(f"BAD {label}({shown}): {type(e).__name__} is not an Exception")
        print(f"DONE {target} {calls} calls {bad} bad")
        return 1 if bad else 0

    sys.exit(main(sys.argv[1]))
''').replace("__DENIED__", repr(DENIED))


def _public_targets():
    # LIB is libtvm_ffi as a raw ctypes.CDLL (as upstream's): its symbols take
    # C pointers, so garbage arguments are undefined behaviour by design.
    names = [n for n in tvm_ffi.__all__ if not n.startswith("__") and n not in ("libinfo", "LIB")]
    names += ["libinfo." + n for n in ("find_libtvm_ffi", "find_include_path", "find_cmake_path")
              if hasattr(tvm_ffi.libinfo, n)]
    count = len([n for n in tvm_ffi.list_global_func_names()
                 if n.startswith("ffi.") and not any(d in n for d in DENIED)])
    names += [f"globals:{i}:12" for i in range(0, count, 12)]
    return names


@pytest.mark.parametrize("target", _public_targets())
def test_bad_input(target):
    # Some edge values make numpy itself ask for a terabyte (comparisons that
    # broadcast the 2**40-element view): under ASan that must be MemoryError
    # too, not an abort.
    asan = os.environ.get("ASAN_OPTIONS", "")
    env = dict(os.environ, PYTHONFAULTHANDLER="1",
               ASAN_OPTIONS=(asan + ":" if asan else "") + "allocator_may_return_null=1")
    proc = subprocess.run([sys.executable, "-c", CHILD, target], capture_output=True, text=True,
                          timeout=300, env=env)
    last_call = [l for l in proc.stderr.splitlines() if l.startswith("CALL ")][-1:]
    unraisable = [l for l in proc.stderr.splitlines() if "Exception ignored" in l]
    assert proc.returncode == 0, (
        f"{target}: exit {proc.returncode} during {last_call}\n{proc.stdout[-3000:]}\n"
        f"{proc.stderr[-3000:]}")
    assert not unraisable, (target, unraisable[:5])
    assert f"DONE {target}" in proc.stdout and " 0 bad" in proc.stdout, proc.stdout[-3000:]
