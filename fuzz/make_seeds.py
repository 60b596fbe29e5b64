#!/usr/bin/env python3
"""Writes the committed seed corpus of the fuzz targets (fuzz/corpus/<target>/).

Run again after changing a target's input format; libFuzzer grows its own
corpus from these in build-fuzz/ and never writes here.
"""
import pathlib
import struct

ROOT = pathlib.Path(__file__).resolve().parent / "corpus"


def write(target, name, data):
    d = ROOT / target
    d.mkdir(parents=True, exist_ok=True)
    (d / name).write_bytes(data)


# fuzz_dtype: names (the first four bytes also serve as a raw dtype).
for i, text in enumerate([
        "int8", "int32x4", "uint16", "float32", "float16xvscalex8", "bfloat16", "bool",
        "bool1", "handle", "handle32", "handle3", "int0", "i8", "u1", "f64", "bf16",
        "float8_e4m3fn", "fp8_e5m2x2", "f6_e2m3fn", "float4_e2m1fn_x2", "int32xvscalex1",
        "int8x65535", "int8x32768", "void", "", "custom[x]8", "int99999999999",
        "\x00\x20\xff\xff", "\x03\x40\x04\x00"]):
    write("fuzz_dtype", f"seed{i:02d}", text.encode("latin-1"))


# fuzz_dlpack: mode, ndim selector, ndim, 8 shape dims, 8 stride dims (a byte
# < 200 is a small value, else an int64 follows), data, device, dtype,
# byte_offset, alignment, contiguity, then (versioned) version and flags.
def dim_small(v):
    return bytes([v])


def dim_big(v):
    return bytes([255]) + struct.pack("<q", v)


def dlpack(mode, ndim, shape, strides, dtype=(2, 32, 1), offset=0, align=(0, 0), contig=0,
           version=(1, 3), flags=0):
    out = bytes([mode, 0, ndim])
    dims = list(shape) + [dim_small(0)] * (8 - len(shape))
    out += b"".join(dims[:8])
    dims = list(strides) + [dim_small(0)] * (8 - len(strides))
    out += b"".join(dims[:8])
    out += bytes([0, 0, 1, 0])  # data: storage; device kDLCPU id 0
    out += bytes([dtype[0], dtype[1]]) + struct.pack("<H", dtype[2])
    out += bytes([0, offset])
    out += bytes(align)
    out += bytes([contig])
    # major: a byte < 230 means 1, else the next byte is the major
    out += (bytes([0]) if version[0] == 1 else bytes([255, version[0]]))
    out += bytes([version[1]]) + struct.pack("<Q", flags)
    return out


write("fuzz_dlpack", "compact_2x3", dlpack(2, 2, [dim_small(2), dim_small(3)], []))
write("fuzz_dlpack", "strided_2x3", dlpack(0, 2, [dim_small(2), dim_small(3)],
                                           [dim_small(3), dim_small(1)], contig=1))
write("fuzz_dlpack", "versioned_2x3", dlpack(3, 2, [dim_small(2), dim_small(3)], []))
write("fuzz_dlpack", "huge_2_2p62_4",
      dlpack(3, 3, [dim_small(2), dim_big(2**62), dim_small(4)], []))
write("fuzz_dlpack", "zero_dim_with_huge", dlpack(2, 3, [dim_small(0), dim_big(2**62),
                                                        dim_small(4)], []))
write("fuzz_dlpack", "negative_dim", dlpack(2, 1, [dim_big(-5)], []))
write("fuzz_dlpack", "bytes_overflow", dlpack(2, 1, [dim_big(2**61)], [], dtype=(2, 64, 4)))
write("fuzz_dlpack", "scalar", dlpack(1, 0, [], []))
write("fuzz_dlpack", "bad_version", dlpack(1, 1, [dim_small(3)], [], version=(2, 0)))

# fuzz_globals: operations (kind % 4: 0 literal, 1 call a global, 2 call a
# pooled function, 3 release), each followed by its operand bytes.
def lit(dst, kind, *payload):
    return bytes([0, dst, kind]) + bytes(payload)


def call(global_index, args, dst):
    return bytes([1, global_index, len(args)]) + bytes(args) + bytes([dst])


seeds = {
    "arrays": lit(0, 1, 11) + lit(1, 3, 3) + call(0, [0, 1], 2) + call(1, [2, 0], 3)
    + call(2, [2, 1], 4),
    "strings": lit(0, 5, 12) + b"hello, world" + lit(1, 6, 3) + b"abc" + call(5, [0, 1, 0], 2),
    "extremes": lit(0, 1, 10) + lit(1, 1, 11) + lit(2, 3, 3) + lit(3, 7, 255, 255, 255, 255)
    + b"".join(call(i, [0, 1, 2, 3], i % 8) for i in range(0, 60, 3)),
    "views": lit(0, 1, 0) + call(7, [192, 193, 194, 195], 1) + call(9, [194, 0], 2),
    "functors": b"".join(call(i, [], 0) + bytes([2, 0, 1, 0, 0]) for i in range(0, 60, 2)),
}
for name, data in seeds.items():
    write("fuzz_globals", name, data)


# fuzz_json_graph: JSON graphs (the custom mutator changes their structure).
def graph(nodes, root=None, **extra):
    import json
    g = {"root_index": len(nodes) - 1 if root is None else root, "nodes": nodes}
    g.update(extra)
    return json.dumps(g, separators=(",", ":")).encode()


def node(type_key, data=None):
    return {"type": type_key} if data is None else {"type": type_key, "data": data}


def dag(levels):
    # Each Array holds the one below twice: 2**levels paths over levels + 1 nodes.
    nodes = [node("int", 7)]
    for i in range(levels):
        nodes.append(node("ffi.Array", [i, i]))
    return nodes


def access_path(steps):
    nodes = [node("None"), node("ffi.reflection.AccessPath", {"parent": 0, "step": 0, "depth": 0})]
    for i, name in enumerate(steps):
        nodes.append(node("ffi.String", name))
        nodes.append(node("ffi.reflection.AccessStep", {"kind": 0, "key": len(nodes) - 1}))
        parent = 1 if i == 0 else len(nodes) - 3
        nodes.append(node("ffi.reflection.AccessPath",
                          {"parent": parent, "step": len(nodes) - 1, "depth": i + 1}))
    return nodes


json_graph_seeds = {
    "scalars": graph([node("None"), node("bool", True), node("int", -3), node("float", 2.5),
                      node("ffi.String", "text"), node("ffi.Bytes", "AAEC"),
                      node("ffi.BigInt", "123456789012345678901234567890"),
                      node("DataType", "float32x4"), node("Device", [2, 1]),
                      node("ffi.Shape", [2, 3]),
                      node("ffi.Array", [0, 1, 2, 3, 4, 5, 6, 7, 8, 9])]),
    "containers": graph([node("int", 1), node("ffi.String", "k"), node("ffi.List", [0, 0]),
                         node("ffi.Map", [1, 2]), node("ffi.Dict", [1, 3]),
                         node("ffi.Array", [2, 3, 4])], metadata={"v": 1}),
    "access_path": graph(access_path(["a", "b"])),
    "access_path_bad_step": graph([node("None"), node("int", 5),
                                   node("ffi.reflection.AccessPath",
                                        {"parent": 0, "step": 0, "depth": 0}),
                                   node("ffi.reflection.AccessPath",
                                        {"parent": 2, "step": 1, "depth": 1})]),
    "dag40": graph(dag(40)),
    "device_overflow": graph([node("Device", [2, 4294967297])]),
    "bigint_long": graph([node("ffi.BigInt", "9" * 5000)]),
    "surrogate": b'{"root_index":0,"nodes":[{"type":"ffi.String","data":"\\ud800"}]}',
}
for name, data in json_graph_seeds.items():
    write("fuzz_json_graph", name, data)
