"""Python call overhead of tvm_ffi against peers, measured in one process.

Each case is timed for every implementation importable here, and for a
CPython builtin of the same shape (the floor) in the same process.  Results
are nanoseconds per call (best of several repeats), written as JSON.

    python bench_calls.py --label tvm_ffi --json out.json [--peers DIR]
"""
import argparse
import ctypes
import json
import os
import sys
import timeit

CASES = [
    ("f()", "no-argument call"),
    ("f(1)", "one int"),
    ("f(1.0, 2.0, 3.0)", "three floats"),
    ('f("a short str")', "one str"),
    ("f(obj)", "an FFI / bound object"),
    ("return str", "returning a str"),
    ("echo str", "a str passed and returned"),
    ("Array(100 ints)", "a list of 100 ints to an array"),
    ("C calls Python", "C calls a Python callback"),
]


def best_ns(stmt, env, number):
    times = timeit.repeat(stmt, globals=env, number=number, repeat=7)
    return min(times) / number * 1e9


def builtin_cases():
    one = [1]
    cb = lambda x: 1  # noqa: E731
    lst = list(range(100))
    return {
        "f()": ("getrecursionlimit()", {"getrecursionlimit": sys.getrecursionlimit}),
        "f(1)": ("abs(1)", {}),
        "f(1.0, 2.0, 3.0)": ("max(1.0, 2.0, 3.0)", {}),
        'f("a short str")': ('len("a short str")', {}),
        "f(obj)": ("id(obj)", {"obj": object()}),
        "return str": ("chr(97)", {}),
        "echo str": ("chr(97)", {}),
        "Array(100 ints)": ("tuple(lst)", {"lst": lst}),
        "C calls Python": ("min(one, key=cb)", {"one": one, "cb": cb}),
    }


def tvm_ffi_cases():
    import tvm_ffi

    try:
        import tvm_ffi.testing  # noqa: F401  (ours: loads the testing library)
    except Exception:  # noqa: BLE001  (apache-tvm-ffi links it into its core)
        pass
    g = tvm_ffi.get_global_func
    nop, echo, add_one, apply = g("testing.nop"), g("testing.echo"), g("testing.add_one"), g(
        "testing.apply"
    )
    try:  # ours: a fixed heap ffi.String (testing/testing_bench.cc); apache has none
        return_str = g("testing.return_str", allow_missing=True)
    except Exception:  # noqa: BLE001
        return_str = None
    arr = tvm_ffi.convert([1, 2])
    lst = list(range(100))
    cb = lambda: 1  # noqa: E731
    fcb = tvm_ffi.convert(cb)
    env = {"nop": nop, "echo": echo, "add_one": add_one, "apply": apply, "arr": arr,
           "lst": lst, "Array": tvm_ffi.Array, "fcb": fcb, "return_str": return_str}
    cases = {
        "f()": ("nop()", env),
        "f(1)": ("add_one(1)", env),
        "f(1.0, 2.0, 3.0)": ("nop(1.0, 2.0, 3.0)", env),
        'f("a short str")': ('nop("a short str")', env),
        "f(obj)": ("nop(arr)", env),
        "return str": ("return_str()", env),
        "echo str": ('echo("a short str")', env),
        "Array(100 ints)": ("Array(lst)", env),
        "C calls Python": ("apply(fcb)", env),
    }
    if return_str is None:
        del cases["return str"]
    return cases


def ctypes_cases(peers_dir):
    lib = ctypes.CDLL(os.path.join(peers_dir, "libpeer_ctypes.so"))
    lib.peer_nop.restype = None
    lib.peer_add_one.argtypes = [ctypes.c_int64]
    lib.peer_add_one.restype = ctypes.c_int64
    lib.peer_f3.argtypes = [ctypes.c_double] * 3
    lib.peer_f3.restype = ctypes.c_double
    lib.peer_take_str.argtypes = [ctypes.c_char_p]
    lib.peer_take_str.restype = ctypes.c_int64
    lib.peer_take_ptr.argtypes = [ctypes.c_void_p]
    lib.peer_take_ptr.restype = ctypes.c_int64
    lib.peer_ret_str.restype = ctypes.c_char_p
    lib.peer_sum_array.argtypes = [ctypes.POINTER(ctypes.c_int64), ctypes.c_int64]
    lib.peer_sum_array.restype = ctypes.c_int64
    cbtype = ctypes.CFUNCTYPE(ctypes.c_int64)
    lib.peer_call_cb.argtypes = [cbtype]
    lib.peer_call_cb.restype = ctypes.c_int64
    env = {"lib": lib, "ptr": ctypes.c_void_p(1), "lst": list(range(100)),
           "arr_t": ctypes.c_int64 * 100, "ccb": cbtype(lambda: 1)}
    return {
        "f()": ("lib.peer_nop()", env),
        "f(1)": ("lib.peer_add_one(1)", env),
        "f(1.0, 2.0, 3.0)": ("lib.peer_f3(1.0, 2.0, 3.0)", env),
        'f("a short str")': ('lib.peer_take_str(b"a short str")', env),
        "f(obj)": ("lib.peer_take_ptr(ptr)", env),
        "return str": ("lib.peer_ret_str()", env),
        "Array(100 ints)": ("lib.peer_sum_array(arr_t(*lst), 100)", env),
        "C calls Python": ("lib.peer_call_cb(ccb)", env),
    }


def binding_cases(mod):
    env = {"m": mod, "obj": mod.Obj(), "lst": list(range(100)), "cb": lambda: 1}
    return {
        "f()": ("m.nop()", env),
        "f(1)": ("m.add_one(1)", env),
        "f(1.0, 2.0, 3.0)": ("m.f3(1.0, 2.0, 3.0)", env),
        'f("a short str")': ('m.take_str("a short str")', env),
        "f(obj)": ("m.take_obj(obj)", env),
        "return str": ("m.ret_str()", env),
        "Array(100 ints)": ("m.make_array(lst)", env),
        "C calls Python": ("m.call_cb(cb)", env),
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--label", default="tvm_ffi", help="name of the tvm_ffi in this venv")
    parser.add_argument("--peers", default=None, help="directory of the built peer modules")
    parser.add_argument("--json", required=True)
    parser.add_argument("--number", type=int, default=100000)
    args = parser.parse_args()

    impls = {"builtin": builtin_cases(), args.label: tvm_ffi_cases()}
    if args.peers:
        sys.path.insert(0, args.peers)
        impls["ctypes"] = ctypes_cases(args.peers)
        import peer_nanobind
        import peer_pybind11

        impls["pybind11"] = binding_cases(peer_pybind11)
        impls["nanobind"] = binding_cases(peer_nanobind)

    results = {}
    for case, _ in CASES:
        results[case] = {}
        for name, cases in impls.items():
            if case not in cases:  # a peer without this case: left out of the table
                continue
            stmt, env = cases[case]
            number = args.number // 10 if case == "Array(100 ints)" else args.number
            results[case][name] = best_ns(stmt, dict(env), number)
        print(f"{case:20s} " + "  ".join(f"{n}={v:.0f}ns" for n, v in results[case].items()),
              flush=True)
    with open(args.json, "w") as f:
        json.dump({"python": sys.version.split()[0], "label": args.label, "results": results}, f,
                  indent=1)


if __name__ == "__main__":
    main()
