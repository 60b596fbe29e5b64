"""Raise-and-catch cost of tvm_ffi, from Python, with backtraces on.

Run in a venv holding either this project's wheel or apache-tvm-ffi (both
import as tvm_ffi); prints one JSON object: case -> ns per raise (best of 7).
Times are CPU time of this process (time.process_time), so that other load
on a shared machine does not count.

    python bench_errors.py --label tvm_ffi
"""
import argparse
import json
import time
import timeit


def cases():
    import tvm_ffi

    try:
        import tvm_ffi.testing  # noqa: F401  (ours: loads the testing library)
    except Exception:  # noqa: BLE001  (apache-tvm-ffi: in its core library)
        pass
    g = tvm_ffi.get_global_func
    try:
        raise_error = g("testing.raise_error")
    except Exception:  # noqa: BLE001
        raise_error = None
    if raise_error is None:
        raise_error = g("testing.test_raise_error")
    apply = g("testing.apply")

    def cb():
        raise ValueError("from the callback")

    out = {}
    try:
        clear = g("ffi.BacktraceCacheClear")  # ours only
    except Exception:  # noqa: BLE001
        clear = None
    if clear is not None:
        # Every frame named again on each raise: capture plus symbolization.
        out["C++ raises, Python catches, frame cache emptied first"] = (
            "clear()\ntry:\n    raise_error('ValueError', 'x')\nexcept ValueError:\n    pass",
            {"raise_error": raise_error, "clear": clear})
    return {
        **out,
        "C++ raises, Python catches": (
            "try:\n    raise_error('ValueError', 'x')\nexcept ValueError:\n    pass",
            {"raise_error": raise_error}),
        "Python callback raises through C++": (
            "try:\n    apply(cb)\nexcept ValueError:\n    pass",
            {"apply": apply, "cb": cb}),
        "Python raises, Python catches (floor)": (
            "try:\n    cb()\nexcept ValueError:\n    pass", {"cb": cb}),
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--label", required=True)
    ap.add_argument("--number", type=int, default=2000)
    ap.add_argument("--cold-number", type=int, default=50)
    args = ap.parse_args()
    out = {"label": args.label}
    for name, (stmt, env) in cases().items():
        exec(stmt, dict(env))  # warm up: the first raise names the frames
        number = args.cold_number if "emptied" in name else args.number
        t = min(timeit.repeat(stmt, globals=env, number=number, repeat=7, timer=time.process_time))
        out[name] = t / number * 1e9
    print(json.dumps(out))


if __name__ == "__main__":
    main()
