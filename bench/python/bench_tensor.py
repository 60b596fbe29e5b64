"""Tensor passing cost of tvm_ffi, with numpy's np.add on tiny arrays as the
yardstick timed in the same process.

Runs against whichever tvm_ffi the interpreter imports: this project's (its
testing library has typed no-ops testing.tensor_noop / tensor_noop3) or
apache-tvm-ffi (whose testing.nop is a packed no-op taking any arguments).

    python bench_tensor.py [--label NAME] [--json out.json]
    python bench_tensor.py --report ours.json apache.json     # side by side

Every figure is nanoseconds per call, the best of 7 timeit runs, and its
ratio to np.add(a, b) on float32[4] arrays measured in the same run.
"""
import argparse
import json
import platform
import sys

from bench_calls import best_ns  # the one timing rule of the Python benchmarks

# (key, what is timed); the statement per implementation is chosen below.
CASES = [
    ("np.add", "np.add(a, b), float32[4] (the yardstick)"),
    ("nop(a)", "1 numpy array into a packed no-op C function"),
    ("nop(a,b,c)", "3 numpy arrays into a packed no-op C function"),
    ("tensor_noop(a)", "1 numpy array into a typed f(Tensor) no-op"),
    ("tensor_noop3(a,b,c)", "3 numpy arrays into a typed f(Tensor, Tensor, Tensor) no-op"),
    ("nop(x,y,z)", "3 tvm_ffi.Tensor into the packed no-op"),
    ("from_dlpack(a)", "tvm_ffi.from_dlpack(numpy array)"),
    ("a.__dlpack__()", "numpy's own capsule export (max_version=(1, 0))"),
    ("x.__dlpack__()", "tvm_ffi.Tensor capsule export (max_version=(1, 0))"),
    ("np.from_dlpack(x)", "numpy.from_dlpack(tvm_ffi.Tensor)"),
    # torch rows (when torch imports): torch.float32[4] tensors
    ("nop(ta)", "1 torch tensor into the packed no-op"),
    ("nop(ta,tb,tc)", "3 torch tensors into the packed no-op"),
    ("tensor_noop(ta)", "1 torch tensor into the typed f(Tensor) no-op"),
    ("tensor_noop3(ta,tb,tc)", "3 torch tensors into the typed 3-Tensor no-op"),
    ("echo(ta)", "torch in, torch out: testing.echo(torch tensor)"),
    ("from_dlpack(ta)", "tvm_ffi.from_dlpack(torch tensor)"),
    ("ta.__dlpack__()", "torch's own capsule export (max_version=(1, 0))"),
]


def measure(number):
    import numpy as np
    import tvm_ffi

    try:
        import tvm_ffi.testing  # noqa: F401  (this project: loads libtvm_ffi_testing)
    except ImportError:  # apache-tvm-ffi registers its testing functions in core
        pass
    get = tvm_ffi.get_global_func
    a, b, c = (np.ones(4, dtype="float32") for _ in range(3))
    env = {
        "np": np,
        "tvm_ffi": tvm_ffi,
        "a": a,
        "b": b,
        "c": c,
        "nop": get("testing.nop"),
        "from_dlpack": tvm_ffi.from_dlpack,
    }
    env["x"], env["y"], env["z"] = (tvm_ffi.from_dlpack(v) for v in (a, b, c))
    stmts = {
        "np.add": "np.add(a, b)",
        "nop(a)": "nop(a)",
        "nop(a,b,c)": "nop(a, b, c)",
        "nop(x,y,z)": "nop(x, y, z)",
        "from_dlpack(a)": "from_dlpack(a)",
        "a.__dlpack__()": "a.__dlpack__(max_version=(1, 0))",
        "x.__dlpack__()": "x.__dlpack__(max_version=(1, 0))",
        "np.from_dlpack(x)": "np.from_dlpack(x)",
    }
    noop = get("testing.tensor_noop", allow_missing=True) if _has_allow_missing(get) else None
    if noop is not None:
        env["tensor_noop"] = noop
        env["tensor_noop3"] = get("testing.tensor_noop3")
        stmts["tensor_noop(a)"] = "tensor_noop(a)"
        stmts["tensor_noop3(a,b,c)"] = "tensor_noop3(a, b, c)"
    try:
        import torch
    except ImportError:
        torch = None
    if torch is not None:
        env["torch"] = torch
        env["ta"], env["tb"], env["tc"] = (torch.ones(4, dtype=torch.float32) for _ in range(3))
        env["echo"] = get("testing.echo")
        stmts["nop(ta)"] = "nop(ta)"
        stmts["nop(ta,tb,tc)"] = "nop(ta, tb, tc)"
        stmts["echo(ta)"] = "echo(ta)"
        stmts["from_dlpack(ta)"] = "from_dlpack(ta)"
        stmts["ta.__dlpack__()"] = "ta.__dlpack__(max_version=(1, 0))"
        if noop is not None:
            stmts["tensor_noop(ta)"] = "tensor_noop(ta)"
            stmts["tensor_noop3(ta,tb,tc)"] = "tensor_noop3(ta, tb, tc)"
        # Sanity: torch in, torch out, same memory.
        back = env["echo"](env["ta"])
        assert isinstance(back, torch.Tensor) and back.data_ptr() == env["ta"].data_ptr(), type(back)
    # Sanity: the no-ops really take the arrays as tensors, without copies.
    env["nop"](a, b, c)
    assert np.from_dlpack(env["x"]).__array_interface__["data"][0] == a.ctypes.data

    results = {}
    for key, _ in CASES:
        if key in stmts:
            results[key] = best_ns(stmts[key], dict(env), number)
    return results


def _has_allow_missing(get):
    try:
        get("testing.nop", allow_missing=True)
        return True
    except TypeError:
        return False


def print_table(runs):
    """runs: list of (label, results); one column per run, each figure with
    its ratio to that run's np.add."""
    header = ["case"] + [f"{label} ns (x np.add)" for label, _ in runs]
    if len(runs) == 2:
        header.append(f"{runs[0][0]} / {runs[1][0]}")
    rows = []
    for key, desc in CASES:
        if not any(key in r for _, r in runs):
            continue
        row = [key]
        for _, r in runs:
            row.append(f"{r[key]:.0f} ({r[key] / r['np.add']:.2f}x)" if key in r else "-")
        if len(runs) == 2:
            r0, r1 = runs[0][1], runs[1][1]
            # The same work in the other run: typed no-ops exist only here,
            # so they are compared with the other run's packed no-op.
            other = {"tensor_noop(a)": "nop(a)", "tensor_noop3(a,b,c)": "nop(a,b,c)",
                     "tensor_noop(ta)": "nop(ta)",
                     "tensor_noop3(ta,tb,tc)": "nop(ta,tb,tc)"}.get(key, key)
            if key in r0 and other in r1:
                row.append(f"{r0[key] / r1[other]:.2f}")
            else:
                row.append("-")
        rows.append(row)
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)]
    for cells in [header] + rows:
        print("  ".join(str(v).ljust(w) for v, w in zip(cells, widths)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--label", default=None)
    parser.add_argument("--json", default=None)
    parser.add_argument("--number", type=int, default=200000)
    parser.add_argument("--report", nargs="+", default=None, help="print JSON results side by side")
    args = parser.parse_args()
    if args.report:
        runs = []
        for path in args.report:
            with open(path) as f:
                data = json.load(f)
            runs.append((data["label"], data["results"]))
        print_table(runs)
        return
    import numpy
    import tvm_ffi

    label = args.label or getattr(tvm_ffi, "__name__", "tvm_ffi")
    results = measure(args.number)
    try:
        import torch

        torch_version = torch.__version__
    except ImportError:
        torch_version = "absent"
    print(f"# {label} {getattr(tvm_ffi, '__version__', '?')}, numpy {numpy.__version__}, "
          f"torch {torch_version}, Python {sys.version.split()[0]}, {platform.machine()}")
    print_table([(label, results)])
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"label": label, "python": sys.version.split()[0],
                       "numpy": numpy.__version__, "results": results}, f, indent=1)


if __name__ == "__main__":
    main()
