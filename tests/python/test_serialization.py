"""JSON graphs (tvm_ffi.serialization), ffi.json.*, and pickle of FFI values."""
import math
import pickle

import pytest

import tvm_ffi
import tvm_ffi.testing as t
from tvm_ffi.serialization import from_json_graph_str, to_json_graph_str


@tvm_ffi.register_object("testing.CPoint")
class CPoint(tvm_ffi.Object):
    """Registered in C (testing/serialization_types.cc) through c_api.h only."""


def node(type_key, data=None):
    return {"type": type_key} if data is None and type_key == "None" else {"type": type_key, "data": data}


@pytest.mark.parametrize(
    "value, text",
    [
        (None, '{"root_index":0,"nodes":[{"type":"None"}]}'),
        (True, '{"root_index":0,"nodes":[{"type":"bool","data":true}]}'),
        (-3, '{"root_index":0,"nodes":[{"type":"int","data":-3}]}'),
        (2**70, '{"root_index":0,"nodes":[{"type":"ffi.BigInt","data":"1180591620717411303424"}]}'),
        (-(2**70), '{"root_index":0,"nodes":[{"type":"ffi.BigInt","data":"-1180591620717411303424"}]}'),
        (1.5, '{"root_index":0,"nodes":[{"type":"float","data":1.5}]}'),
        (-0.0, '{"root_index":0,"nodes":[{"type":"float","data":-0.0}]}'),
        (float("inf"), '{"root_index":0,"nodes":[{"type":"float","data":Infinity}]}'),
        ("ab", '{"root_index":0,"nodes":[{"type":"ffi.String","data":"ab"}]}'),
        ("é\n\"", '{"root_index":0,"nodes":[{"type":"ffi.String","data":"é\\n\\""}]}'),
        (b"x\x00y", '{"root_index":0,"nodes":[{"type":"ffi.Bytes","data":"eAB5"}]}'),
        (tvm_ffi.dtype("float32"), '{"root_index":0,"nodes":[{"type":"DataType","data":"float32"}]}'),
        (tvm_ffi.Device("cuda", 1), '{"root_index":0,"nodes":[{"type":"Device","data":[2,1]}]}'),
        (tvm_ffi.Shape((1, 2)), '{"root_index":0,"nodes":[{"type":"ffi.Shape","data":[1,2]}]}'),
    ],
)
def test_leaf_values_have_upstreams_text_and_round_trip(value, text):
    assert to_json_graph_str(value) == text
    back = from_json_graph_str(text)
    assert type(back) is type(tvm_ffi.convert(value)) or back == value
    assert back == value
    assert to_json_graph_str(back) == text


def test_nan_round_trips():
    assert math.isnan(from_json_graph_str(to_json_graph_str(float("nan"))))


def test_containers_keep_their_kind_and_sharing():
    inner = tvm_ffi.convert([1, "x"])
    outer = tvm_ffi.convert([inner, inner, {"k": inner}])
    text = to_json_graph_str(outer)
    assert text == (
        '{"root_index":5,"nodes":[{"type":"int","data":1},{"type":"ffi.String","data":"x"},'
        '{"type":"ffi.Array","data":[0,1]},{"type":"ffi.String","data":"k"},'
        '{"type":"ffi.Map","data":[3,2]},{"type":"ffi.Array","data":[2,2,4]}]}'
    )
    back = from_json_graph_str(text)
    assert isinstance(back, tvm_ffi.Array)
    assert back[0].same_as(back[1]) and back[2]["k"].same_as(back[0])
    assert not back[0].same_as(inner)
    assert list(back[0]) == [1, "x"]
    lst = from_json_graph_str(to_json_graph_str(tvm_ffi.List([1, [2.5]])))
    assert isinstance(lst, tvm_ffi.List) and lst[0] == 1 and list(lst[1]) == [2.5]
    d = from_json_graph_str(to_json_graph_str(tvm_ffi.Dict({"a": None})))
    assert isinstance(d, tvm_ffi.Dict) and dict(d) == {"a": None}


def test_metadata_is_stored():
    assert to_json_graph_str(1, {"m": [1, "v"]}) == (
        '{"root_index":0,"nodes":[{"type":"int","data":1}],"metadata":{"m":[1,"v"]}}'
    )


def test_reflected_objects_round_trip():
    obj = t.make_test_object_base(3, 2.5, "hi")
    text = to_json_graph_str(obj)
    assert text == (
        '{"root_index":1,"nodes":[{"type":"ffi.String","data":"hi"},'
        '{"type":"testing.TestObjectBase","data":{"v_i64":3,"v_f64":2.5,"v_str":0}}]}'
    )
    back = from_json_graph_str(text)
    assert back.__tvm_ffi_type_key__ == "testing.TestObjectBase"
    assert not back.same_as(obj)
    assert to_json_graph_str(back) == text


def test_type_registered_in_c_round_trips_and_pickles():
    label = tvm_ffi.convert(["l"])
    p = t.make_c_point(3, 1.5, label)
    assert type(p) is CPoint
    text = to_json_graph_str(p)
    assert text == (
        '{"root_index":2,"nodes":[{"type":"ffi.String","data":"l"},{"type":"ffi.Array","data":[0]},'
        '{"type":"testing.CPoint","data":{"x":3,"y":1.5,"label":1}}]}'
    )
    q = from_json_graph_str(text)
    assert type(q) is CPoint and (q.x, q.y, list(q.label)) == (3, 1.5, ["l"])
    r = pickle.loads(pickle.dumps(p))
    assert type(r) is CPoint and (r.x, r.y, list(r.label)) == (3, 1.5, ["l"])
    assert not r.same_as(p)


def test_pickle_of_containers_and_objects():
    for value in [tvm_ffi.convert([1, "a", None]), tvm_ffi.List([1, 2]),
                  tvm_ffi.convert({"a": 1}), tvm_ffi.Dict({"b": 2.5})]:
        back = pickle.loads(pickle.dumps(value))
        assert type(back) is type(value)
        assert to_json_graph_str(back) == to_json_graph_str(value)
    shape = pickle.loads(pickle.dumps(tvm_ffi.Shape((3, 4))))
    assert isinstance(shape, tvm_ffi.Shape) and tuple(shape) == (3, 4)
    obj = pickle.loads(pickle.dumps(t.make_test_object_base(7, 0.5, "s")))
    assert obj.__tvm_ffi_type_key__ == "testing.TestObjectBase"
    assert '"v_i64":7' in to_json_graph_str(obj)


def test_deep_nesting_round_trips():
    v = 7
    for _ in range(3000):
        v = tvm_ffi.convert([v])
    back = from_json_graph_str(to_json_graph_str(v))
    for _ in range(3000):
        back = back[0]
    assert back == 7


def test_cycles_and_unserializable_values_are_errors():
    lst = tvm_ffi.List([1])
    lst.append(lst)
    with pytest.raises(ValueError, match=r"^ffi.ToJSONGraph: the value contains a reference cycle \(a ffi.List contains itself\)$"):
        to_json_graph_str(lst)
    lst[1] = None
    f = tvm_ffi.get_global_func("testing.make_c_point")
    with pytest.raises(TypeError, match=r"^ffi.ToJSONGraph: a value of type ffi.Function cannot be serialized$"):
        to_json_graph_str([f])


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "Expecting value: line 1 column 1 (char 0)"),
        ("{", "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"),
        ('{"root_index":0,"nodes":[{"type":"int","data":1}]} x', "Extra data: line 1 column 52 (char 51)"),
        ("[1,2]", "ffi.FromJSONGraph: expected a JSON object with `root_index` and `nodes`, got ffi.Array"),
        ('{"root_index":0}', "ffi.FromJSONGraph: expected a `nodes` array in the graph"),
        ('{"root_index":3,"nodes":[]}', "ffi.FromJSONGraph: root_index 3 is out of range for 0 nodes"),
        ('{"root_index":0,"nodes":[{"type":"nosuch.T","data":1}]}', "ffi.FromJSONGraph: node 0: unknown type `nosuch.T`"),
        ('{"root_index":0,"nodes":[{"type":"ffi.Array","data":[0]}]}',
         "ffi.FromJSONGraph: node 0: the graph has a reference cycle through node 0"),
        ('{"root_index":0,"nodes":[{"type":"testing.CPoint","data":{"x":"s"}}]}',
         "ffi.FromJSONGraph: node 0: field `x` of `testing.CPoint`: testing.CPoint.x: expected int"),
        ("[" * 2000, "JSON nests deeper than 1000 levels at char 1000"),
    ],
)
def test_bad_json_is_a_value_error_naming_the_problem(text, message):
    with pytest.raises(ValueError) as info:
        from_json_graph_str(text)
    assert str(info.value) == message


def test_json_globals():
    parse = tvm_ffi.get_global_func("ffi.json.Parse")
    stringify = tvm_ffi.get_global_func("ffi.json.Stringify")
    v = parse('{"a": [1, 2.5, null, true, "x"]}')
    assert isinstance(v, tvm_ffi.Map) and list(v["a"]) == [1, 2.5, None, True, "x"]
    assert stringify(v, None) == '{"a":[1,2.5,null,true,"x"]}'
    assert stringify(tvm_ffi.convert([1, {"b": 2}]), 2) == '[\n  1,\n  {\n    "b": 2\n  }\n]'
    with pytest.raises(TypeError, match=r"^ffi.json.Stringify: object keys must be str, got int$"):
        stringify(tvm_ffi.convert({1: 2}), None)
    graph = tvm_ffi.get_global_func("ffi.ToJSONGraph")(tvm_ffi.convert([1]), None)
    assert isinstance(graph, tvm_ffi.Map) and graph["root_index"] == 1
    assert list(tvm_ffi.get_global_func("ffi.FromJSONGraph")(graph)) == [1]


# ---- untrusted graphs and text (docs/reliability.md) ----------------------------------

from_json_graph = tvm_ffi.get_global_func("ffi.FromJSONGraph")


def test_python_code_that_changes_the_graph_while_it_is_decoded():
    # A default factory runs while the graph is decoded; it rewrites the data
    # Lists of every node (so the root's items would name node 0) and then
    # empties the nodes List.  The decoder reads its own copy, so the result
    # is the graph as it was when the call began (it read the changed Lists,
    # or freed memory, before).
    from tvm_ffi.dataclasses import field, py_class

    nodes = tvm_ffi.List()
    calls = []

    def factory():
        calls.append(1)
        for n in list(nodes):
            if isinstance(n["data"], tvm_ffi.List):
                n["data"][:] = [0] * len(n["data"])
        nodes.clear()
        return "made"

    @py_class("testing.ser.Mutating")
    class Mutating(tvm_ffi.Object):
        items: tvm_ffi.Array
        tag: str = field(default_factory=factory)

    def ffi_node(type_key, data):
        d = tvm_ffi.Dict()
        d["type"] = type_key
        d["data"] = data
        return d

    for i in range(40):
        nodes.append(ffi_node("int", i))
    nodes.append(ffi_node("ffi.Array", tvm_ffi.List(range(40))))  # 40
    fields = tvm_ffi.Dict()
    fields["items"] = 40
    nodes.append(ffi_node("testing.ser.Mutating", fields))  # 41
    nodes.append(ffi_node("ffi.Array", tvm_ffi.List([41, 40])))  # 42, the root
    keep = list(nodes)  # the node Dicts and data Lists stay alive
    graph = tvm_ffi.Dict()
    graph["root_index"] = 42
    graph["nodes"] = nodes
    out = from_json_graph(graph)
    assert calls == [1]
    assert len(out) == 2 and isinstance(out[0], Mutating)
    assert out[0].tag == "made" and list(out[0].items) == list(range(40))
    assert out[1].same_as(out[0].items)
    assert len(nodes) == 0 and list(keep[42]["data"]) == [0, 0]  # the factory did run


def access_path_graph(parent_data, step_data, depth=1):
    import tvm_ffi.access_path  # noqa: F401  (the Python class, whose repr is the path)

    # node 0: None, 1: the root path, 2: a step, 3: the path under test.
    return json_text([
        node("None"),
        node("ffi.reflection.AccessPath", {"parent": 0, "step": 0, "depth": 0}),
        node("ffi.reflection.AccessStep", {"kind": 0, "key": 4}),
        node("ffi.reflection.AccessPath", {"parent": parent_data, "step": step_data, "depth": depth}),
        node("ffi.String", "f"),
        node("int", 7),
    ], root=3)


def json_text(nodes, root):
    import json

    return json.dumps({"root_index": root, "nodes": nodes})


def test_access_path_from_a_graph_is_checked_where_fields_are_set():
    good = from_json_graph_str(access_path_graph(1, 2))
    assert repr(good) == "<root>.f"
    # step or parent holding an int, a string or the wrong object type is
    # refused when the field is set, naming the field.
    for parent, step, what in [(1, 5, "step"), (1, 4, "step"), (5, 2, "parent"), (2, 2, "parent")]:
        with pytest.raises(ValueError, match=rf"^ffi.FromJSONGraph: node 3: field `{what}` of "
                                             r"`ffi.reflection.AccessPath`"):
            from_json_graph_str(access_path_graph(parent, step))


@pytest.mark.parametrize(
    "parent, step, depth, problem",
    [
        (1, 0, 1, "a parent without a step"),
        (0, 2, 1, "a step without a parent"),
        (1, 2, 5, "a depth does not match its chain"),
        (1, 2, 2**40, "a depth does not match its chain"),
        (0, 0, 3, "a depth does not match its chain"),
    ],
)
def test_malformed_access_path_is_a_value_error_in_repr_and_walks(parent, step, depth, problem):
    path = from_json_graph_str(access_path_graph(parent, step, depth))
    message = f"malformed ffi.reflection.AccessPath: {problem}"
    with pytest.raises(ValueError, match=f"^{message}$"):
        repr(path)
    with pytest.raises(ValueError, match=f"^{message}$"):
        tvm_ffi.get_global_func("ffi.ReprPrint")(path)
    # And through pickle, which reads the same graph.
    blob = pickle.dumps(path)
    with pytest.raises(ValueError, match=f"^{message}$"):
        repr(pickle.loads(blob))


def test_json_device_out_of_int32_is_an_error_naming_it():
    for data, what in [([2, 2**32 + 1], "device_id 4294967297"), ([2**31, 0], "device_type 2147483648"),
                       ([2, -(2**31) - 1], "device_id -2147483649")]:
        with pytest.raises(ValueError, match=rf"^ffi.FromJSONGraph: node 0: {what} is out of the int32 range$"):
            from_json_graph_str(json_text([node("Device", data)], root=0))
    assert from_json_graph_str(json_text([node("Device", [2, 2**31 - 1])], root=0)) == tvm_ffi.Device("cuda", 2**31 - 1)


@pytest.mark.parametrize("escape", [r"\ud800", r"\udfff", r"a\ud800b", r"\ud800\u0041", r"\udc00\ud800"])
def test_unpaired_surrogate_escape_is_a_value_error(escape):
    parse = tvm_ffi.get_global_func("ffi.json.Parse")
    with pytest.raises(ValueError, match=r"^Unpaired surrogate in \\uXXXX escape: line 1 column \d+ \(char \d+\)$"):
        parse('"' + escape + '"')
    assert parse(r'"\ud83d\ude00"') == "\U0001F600"


def test_bigint_text_has_a_digit_limit():
    get_limit = tvm_ffi.get_global_func("ffi.BigIntGetMaxStrDigits")
    set_limit = tvm_ffi.get_global_func("ffi.BigIntSetMaxStrDigits")
    assert get_limit() == 4300

    def graph(digits):
        return json_text([node("ffi.BigInt", digits)], root=0)

    assert from_json_graph_str(graph("9" * 4300)) == int("9" * 4300)
    for digits in ["9" * 4301, "-" + "1" * 4301, "7" * 1_000_000]:
        n = len(digits.lstrip("-"))
        with pytest.raises(ValueError, match=rf"^ffi.FromJSONGraph: an integer of {n} decimal digits exceeds "
                                             r"the limit \(4300 digits\)"):
            from_json_graph_str(graph(digits))
    big = 10**5000
    with pytest.raises(ValueError, match=r"^ffi.ToJSONGraph: an integer of \d+ decimal digits exceeds the limit"):
        to_json_graph_str(tvm_ffi.convert([big]))
    with pytest.raises(ValueError, match=r"^ffi.ReprPrint: an integer of \d+ decimal digits exceeds the limit"):
        tvm_ffi.get_global_func("ffi.ReprPrint")(tvm_ffi.convert([big]))
    with pytest.raises(ValueError, match=r"^ffi.BigIntSetMaxStrDigits: the limit must be 0 \(none\) or at least 640, got 5$"):
        set_limit(5)
    try:
        set_limit(0)
        assert from_json_graph_str(to_json_graph_str(big)) == big
        set_limit(6000)
        assert from_json_graph_str(graph("9" * 5999)) == 10**5999 - 1
    finally:
        set_limit(4300)


def dag_graph(levels):
    # Each Array holds the one below twice: 2**levels paths over levels + 1 nodes.
    nodes = [node("int", 7)] + [node("ffi.Array", [i, i]) for i in range(levels)]
    return json_text(nodes, root=levels)


def test_shared_nodes_do_not_make_walks_exponential():
    a = from_json_graph_str(dag_graph(40))
    b = from_json_graph_str(dag_graph(40))
    assert a is not b
    assert tvm_ffi.get_global_func("ffi.RecursiveEq")(a, b)
    assert tvm_ffi.get_global_func("ffi.RecursiveHash")(a) == tvm_ffi.get_global_func("ffi.RecursiveHash")(b)
    assert not tvm_ffi.get_global_func("ffi.RecursiveLt")(a, b)
    assert tvm_ffi.get_global_func("ffi.RecursiveLe")(a, b)
    # py_class ==, < and hash() are these walks.
    from tvm_ffi.dataclasses import py_class

    @py_class("testing.ser.DagBox", eq=True, order=True, unsafe_hash=True)
    class DagBox(tvm_ffi.Object):
        v: tvm_ffi.Array

    x, y = DagBox(a), DagBox(b)
    assert x == y and not x < y and hash(x) == hash(y)
    assert tvm_ffi.get_global_func("ffi.StructuralEqual")(a, b, False, False)
    assert tvm_ffi.structural_hash(a) == tvm_ffi.structural_hash(b)
    text = tvm_ffi.get_global_func("ffi.ReprPrint")(a)
    assert text.startswith("((((") and text.endswith(", ...)") and len(text) < 64 * 1024 * 1024
    with pytest.raises(ValueError, match=r"^ffi.json.Stringify: the value would be written as more than 268435456 items"):
        tvm_ffi.get_global_func("ffi.json.Stringify")(a, None)
    # A small DAG is written in full, once per reference.
    small = from_json_graph_str(dag_graph(3))
    assert tvm_ffi.get_global_func("ffi.json.Stringify")(small, None) == "[[[7,7],[7,7]],[[7,7],[7,7]]]"
    assert to_json_graph_str(a).count('"ffi.Array"') == 40


def test_json_readers_take_a_key_budget():
    parse = tvm_ffi.get_global_func("ffi.json.Parse")
    from_graph = tvm_ffi.get_global_func("ffi.FromJSONGraphString")
    text = "{" + ",".join(f'"k{i}":{i}' for i in range(10)) + "}"
    assert len(parse(text)) == 10 and len(parse(text, 10)) == 10 and len(parse(text, None)) == 10
    with pytest.raises(ValueError, match=r"^JSON object has more than 9 keys \(max_object_keys\) at char \d+$"):
        parse(text, 9)
    with pytest.raises(ValueError, match=r"^JSON object has more than 1 keys"):
        from_graph('{"root_index":0,"nodes":[{"type":"int","data":1}]}', 1)
    assert from_graph('{"root_index":0,"nodes":[{"type":"int","data":1}]}', 2) == 1
    with pytest.raises(TypeError, match=r"^ffi.json.Parse takes 1 or 2 arguments"):
        parse(text, 1, 2)
