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
