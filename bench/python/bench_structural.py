"""Structural hash and equality of a 10 000-node tree, for one tvm_ffi build.

Run in a venv where `tvm_ffi` is either this project's package or
apache-tvm-ffi; prints one JSON line (see run_structural.sh, which runs both
and prints the table).  The tree is made of FFI containers only (Array, Map,
int, float, str), which both implementations compare structurally:
every node is ``[id, "name<id>", 1.5, {"k": id}, [children...]]`` with fan-out 4.
"""
import argparse
import json
import sys
import time

import tvm_ffi


def build(n_nodes, fanout=4):
    # Breadth-first ids; children lists filled bottom-up so each node is
    # converted once (nested Python lists -> one tvm_ffi.convert call).
    children = [[] for _ in range(n_nodes)]
    for i in range(1, n_nodes):
        children[(i - 1) // fanout].append(i)
    py = [None] * n_nodes
    for i in reversed(range(n_nodes)):
        py[i] = [i, f"name{i}", 1.5, {"k": i}, [py[c] for c in children[i]]]
    return tvm_ffi.convert(py[0])


def best_of(fn, repeat, number):
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - t0) / number)
    return best


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--label", required=True)
    ap.add_argument("--nodes", type=int, default=10000)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--number", type=int, default=5)
    args = ap.parse_args()
    a = build(args.nodes)
    b = build(args.nodes)  # equal but distinct: no pointer shortcut
    sh = tvm_ffi.structural_hash
    se = tvm_ffi.structural_equal
    assert se(a, b) and sh(a) == sh(b)
    out = {
        "label": args.label,
        "nodes": args.nodes,
        "python": sys.version.split()[0],
        "hash_ms": best_of(lambda: sh(a), args.repeat, args.number) * 1e3,
        "equal_ms": best_of(lambda: se(a, b), args.repeat, args.number) * 1e3,
    }
    print(json.dumps(out))


if __name__ == "__main__":
    main()
