"""A JSON graph round trip (tvm_ffi.serialization.to_json_graph_str, then
from_json_graph_str) of a tree of about 10 000 nodes, with the same code on
tvm_ffi and on apache-tvm-ffi (the API is the same).

The tree: an Array of 100 Maps; each Map has 10 str keys whose values are
Arrays of 8 leaves (distinct ints, floats and strs), so the graph has about
100 * (1 + 10 * (2 + 8)) = 10 100 nodes.  Each statement is timed in
rounds, in CPU time of this process (time.process_time), and the best round
is kept.  Results are microseconds per call.

    python bench_serialization.py [--label NAME] [--json out.json]
"""
import argparse
import json
import time

import tvm_ffi
import tvm_ffi.serialization as ser


def make_tree():
    counter = [0]

    def leaf(k):
        counter[0] += 1
        c = counter[0]
        return (c, c + 0.5, f"s{c}")[k % 3]

    return tvm_ffi.convert(
        [{f"key{i}_{j}": [leaf(k) for k in range(8)] for j in range(10)} for i in range(100)]
    )


def best_us(fn, number, rounds):
    best = float("inf")
    for _ in range(rounds):
        t0 = time.process_time()
        for _ in range(number):
            fn()
        best = min(best, (time.process_time() - t0) / number)
    return best * 1e6


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--label", default="tvm_ffi")
    parser.add_argument("--json")
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    tree = make_tree()
    text = ser.to_json_graph_str(tree)
    nodes = len(json.loads(text)["nodes"])
    back = ser.from_json_graph_str(text)
    assert ser.to_json_graph_str(back) == text
    res = {
        "label": args.label,
        "nodes": nodes,
        "to_json_graph_str_us": best_us(lambda: ser.to_json_graph_str(tree), 5, args.rounds),
        "from_json_graph_str_us": best_us(lambda: ser.from_json_graph_str(text), 5, args.rounds),
    }
    res["round_trip_us"] = res["to_json_graph_str_us"] + res["from_json_graph_str_us"]
    print(json.dumps(res))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(res, f)


if __name__ == "__main__":
    main()
