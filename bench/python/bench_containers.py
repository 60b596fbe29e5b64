"""Reading FFI containers and calling FFI functions, against list, dict and
builtins measured in the same process.

Each case pairs an FFI statement with the same operation on a Python list or
dict (or a builtin of the same shape).  The two are timed in alternation,
several rounds, and the best round of each is kept, so that load on the
machine hits both alike.  Rounds are timed in CPU time of this process
(time.process_time) by default, which time spent waiting for a core on a
busy machine does not inflate; --wall uses the wall clock instead.  Results
are nanoseconds per statement.

    python bench_containers.py --label tvm_ffi --json out.json
    python bench_containers.py --report ours.json [apache.json] [--markdown out.md]
"""
import argparse
import copy
import json
import platform
import sys
import time
import timeit

N_ARRAY = 100
N_MAP = 20

# (case, FFI statement, Python statement, what the Python side is)
CASES = [
    ("a[37]", "a[37]", "l[37]", "list"),
    ("a[-1]", "a[-1]", "l[-1]", "list"),
    ("a[10:20]", "a[10:20]", "l[10:20]", "list"),
    ("len(a)", "len(a)", "len(l)", "list"),
    ("for x in a (per item)", "for x in a: pass", "for x in l: pass", "list"),
    ("37 in a", "37 in a", "37 in l", "list"),
    ("list(a)", "list(a)", "list(l)", "list"),
    ("a == a2", "a == a2", "l == l2", "list"),
    ("lst[37] (List)", "lst[37]", "l[37]", "list"),
    ("m['k7']", "m['k7']", "d['k7']", "dict"),
    ("len(m)", "len(m)", "len(d)", "dict"),
    ("'k7' in m", "'k7' in m", "'k7' in d", "dict"),
    ("m.get('k7')", "m.get('k7')", "d.get('k7')", "dict"),
    ("for k in m (per item)", "for k in m: pass", "for k in d: pass", "dict"),
    ("for k, v in m.items() (per item)", "for k, v in m.items(): pass",
     "for k, v in d.items(): pass", "dict"),
    ("list(m.values())", "list(m.values())", "list(d.values())", "dict"),
    ("ffi.ArraySize(a)", "array_size(a)", "len(l)", "len(list)"),
    ("f(1)", "add_one(1)", "abs(1)", "abs(1)"),
    # deepcopy: ours and apache-tvm-ffi's both go through ffi.DeepCopy
    ("copy.deepcopy(a)", "deepcopy(a)", "deepcopy(l)", "list"),
    ("copy.deepcopy(m)", "deepcopy(m)", "deepcopy(d)", "dict"),
    # names added for apache-tvm-ffi 0.1.15 parity (issue 20)
    ("StructuralKey(a)", "skey(a)", "tuple(l)", "tuple(list)"),
    ("hash(StructuralKey(a))", "hash(skey(a))", "hash(tuple(l))", "hash(tuple(list))"),
    ("structural_walk(a)", "walk(a)", "list(l)", "list(list)"),
    ("structural_map(m)", "smap(m)", "dict(d)", "dict(dict)"),
    ("echo(tvm_ffi.float32)", "echo(f32)", "abs(1)", "abs(1)"),
    ("echo(numpy.dtype('float32'))", "echo(np_f32)", "abs(1)", "abs(1)"),
]
PER_ITEM = {"for x in a (per item)": N_ARRAY, "for k in m (per item)": N_MAP,
            "for k, v in m.items() (per item)": N_MAP}


def make_env():
    import tvm_ffi

    try:
        import tvm_ffi.testing  # noqa: F401  (ours: loads the testing library)
    except Exception:  # noqa: BLE001  (apache-tvm-ffi links it into its core)
        pass
    l = list(range(N_ARRAY))
    d = {f"k{i}": i for i in range(N_MAP)}
    return {
        "a": tvm_ffi.Array(l), "a2": tvm_ffi.Array(l), "l": l, "l2": list(l),
        "lst": tvm_ffi.List(l), "m": tvm_ffi.Map(d), "d": d,
        "array_size": tvm_ffi.get_global_func("ffi.ArraySize"),
        "add_one": tvm_ffi.get_global_func("testing.add_one"),
        "deepcopy": copy.deepcopy,
        "skey": tvm_ffi.StructuralKey, "walk": tvm_ffi.structural_walk,
        "smap": tvm_ffi.structural_map, "f32": tvm_ffi.float32,
        "echo": tvm_ffi.get_global_func("testing.echo"),
        "np_f32": _numpy_float32(),
    }


def _numpy_float32():
    try:
        import numpy
    except ImportError:  # the row then reads n/a
        return None
    return numpy.dtype("float32")


TIMER = time.process_time


def number_for(stmt, env, target_s=0.02):
    """Loops per round so that one round takes about target_s."""
    n = 1
    while True:
        t = timeit.timeit(stmt, globals=env, number=n, timer=TIMER)
        if t > target_s / 10 or n > 10**7:
            return max(1, int(n * target_s / max(t, 1e-9)))
        n *= 10


def measure(ffi_stmt, py_stmt, env, rounds):
    n_ffi, n_py = number_for(ffi_stmt, env), number_for(py_stmt, env)
    best_ffi = best_py = float("inf")
    for _ in range(rounds):
        best_ffi = min(best_ffi, timeit.timeit(ffi_stmt, globals=env, number=n_ffi, timer=TIMER) / n_ffi)
        best_py = min(best_py, timeit.timeit(py_stmt, globals=env, number=n_py, timer=TIMER) / n_py)
    return best_ffi * 1e9, best_py * 1e9


def run(args):
    env = make_env()
    results = {}
    for case, ffi_stmt, py_stmt, _ in CASES:
        try:
            ffi_ns, py_ns = measure(ffi_stmt, py_stmt, env, args.rounds)
        except Exception as err:  # noqa: BLE001  (a peer without this operation)
            print(f"{case:34s} n/a ({type(err).__name__}: {err})", flush=True)
            continue
        per = PER_ITEM.get(case, 1)
        results[case] = {"ffi": ffi_ns / per, "python": py_ns / per}
        print(f"{case:34s} {ffi_ns / per:8.1f} ns  python {py_ns / per:7.1f} ns  "
              f"{ffi_ns / py_ns:5.1f}x", flush=True)
    with open(args.json, "w") as f:
        json.dump({"label": args.label, "python": sys.version.split()[0],
                   "timer": TIMER.__name__,
                   "machine": f"{platform.machine()} {platform.processor() or ''}".strip(),
                   "date": time.strftime("%Y-%m-%d"), "results": results}, f, indent=1)


def report(args):
    runs = [json.load(open(p)) for p in args.report]
    header = ["operation", "Python side"]
    for r in runs:
        header += [f"{r['label']} (ns)", "python (ns)", "ratio"]
    rows = []
    for case, _, _, py_name in CASES:
        row = [f"`{case}`", py_name]
        for r in runs:
            v = r["results"].get(case)
            row += ([f"{v['ffi']:.1f}", f"{v['python']:.1f}", f"{v['ffi'] / v['python']:.1f}x"]
                    if v else ["n/a", "n/a", "n/a"])
        rows.append(row)
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    text = "\n".join(lines)
    print(text)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text + "\n")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--label", default="tvm_ffi")
    parser.add_argument("--json")
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--report", nargs="+")
    parser.add_argument("--markdown")
    parser.add_argument("--wall", action="store_true", help="time with the wall clock")
    args = parser.parse_args()
    if args.wall:
        global TIMER
        TIMER = time.perf_counter
    if args.report:
        report(args)
    else:
        run(args)


if __name__ == "__main__":
    main()
