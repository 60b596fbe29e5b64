"""Array, Map and Shape against the Python protocols."""
import collections.abc

import pytest

import tvm_ffi
import tvm_ffi.testing as t


def test_array_sequence_protocol():
    a = tvm_ffi.Array([1, 2, 3, 2])
    assert isinstance(a, collections.abc.Sequence)
    assert len(a) == 4
    assert a[0] == 1 and a[-1] == 2
    assert a[1:3] == [2, 3]
    assert a[::-1] == [2, 3, 2, 1]
    assert list(a) == [1, 2, 3, 2]
    assert 3 in a and 7 not in a
    assert a.index(3) == 2
    assert a.count(2) == 2
    assert list(reversed(a)) == [2, 3, 2, 1]
    assert bool(a) and not bool(tvm_ffi.Array([]))


def test_array_index_errors():
    a = tvm_ffi.Array([1, 2, 3])
    with pytest.raises(IndexError) as info:
        a[5]
    assert str(info.value) == "index 5 out of range for Array of size 3"
    with pytest.raises(IndexError) as info:
        a[-4]
    assert str(info.value) == "index -4 out of range for Array of size 3"
    with pytest.raises(TypeError, match="^Array indices must be integers or slices, not str$"):
        a["x"]


def test_array_equality_concat_hash_repr():
    a = tvm_ffi.Array([1, "x"])
    assert a == [1, "x"] and a == (1, "x") and a == tvm_ffi.Array([1, "x"])
    assert a != [1, "y"] and a != "1x"
    assert hash(a) == hash((1, "x"))
    assert list(a + [2]) == [1, "x", 2]
    assert list([0] + a) == [0, 1, "x"]
    assert repr(a) == '(1, "x")'


def test_array_not_iterable_argument():
    with pytest.raises(TypeError):
        tvm_ffi.Array(5)


def test_array_nested_and_returned():
    a = t.echo([[1, 2], {"k": "v"}])
    assert isinstance(a[0], tvm_ffi.Array)
    assert isinstance(a[1], tvm_ffi.Map)
    assert a[1]["k"] == "v"


def test_array_builder_mixed_elements_and_ownership():
    obj = t.make_test_object_base(1, 2.0, "s")
    before = t.object_use_count(obj)
    items = [1, 2.5, True, None, "short", "a string longer than seven", b"xy", obj]
    a = tvm_ffi.Array(items + [[1, 2], {"k": 1}])
    assert list(a[:7]) == items[:7]
    assert a[7].same_as(obj)
    assert list(a[8]) == [1, 2] and a[9]["k"] == 1
    assert t.object_use_count(obj) == before + 1
    del a
    assert t.object_use_count(obj) == before


def test_array_builder_keyword_generator_and_subclass():
    assert list(tvm_ffi.Array(input_list=(1, 2))) == [1, 2]
    assert list(tvm_ffi.Array(x * x for x in range(4))) == [0, 1, 4, 9]

    class Mine(tvm_ffi.Array):
        def __init__(self, n):
            super().__init__(range(n))

    assert list(Mine(3)) == [0, 1, 2]


def test_array_builder_list_shrinking_during_conversion():
    victim = [1, 2, 3]

    class Shrinks:
        def __tvm_ffi_object__(self):
            victim.clear()
            return tvm_ffi.Array([])

    victim.insert(1, Shrinks())
    with pytest.raises(IndexError):
        tvm_ffi.Array(victim)


def test_array_holds_ints_of_any_size():
    a = tvm_ffi.Array([1, 2**64, -(2**100), 2**63 - 1])
    assert list(a) == [1, 2**64, -(2**100), 2**63 - 1]
    assert a[1] == 2**64


def test_map_mapping_protocol():
    m = tvm_ffi.Map({"a": 1, "b": 2, 3: "c"})
    assert isinstance(m, collections.abc.Mapping)
    assert len(m) == 3
    assert m["a"] == 1 and m[3] == "c"
    assert "a" in m and "z" not in m
    assert m.get("z") is None and m.get("z", 5) == 5 and m.get("b") == 2
    assert sorted(map(str, m.keys())) == ["3", "a", "b"]
    assert sorted(map(str, m)) == ["3", "a", "b"]
    assert dict(m.items()) == {"a": 1, "b": 2, 3: "c"}
    assert sorted(map(str, m.values())) == ["1", "2", "c"]
    assert m == {"a": 1, "b": 2, 3: "c"}
    assert m != {"a": 1}


def test_map_missing_key():
    m = tvm_ffi.Map({"a": 1})
    with pytest.raises(KeyError):
        m["b"]


def test_map_empty_and_repr():
    assert len(tvm_ffi.Map()) == 0
    assert list(tvm_ffi.Map({})) == []
    assert repr(tvm_ffi.Map({"a": 1})) == '{"a": 1}'


def test_shape_is_a_tuple_backed_by_ffi_shape():
    s = tvm_ffi.Shape((2, 3, 4))
    assert isinstance(s, tuple)
    assert s == (2, 3, 4) and len(s) == 3 and s[1] == 3
    out = t.echo(s)
    assert isinstance(out, tvm_ffi.Shape)
    assert out == (2, 3, 4)
    assert out._tvm_ffi_cached_object.same_as(s._tvm_ffi_cached_object)
    with pytest.raises(ValueError, match="^Shape entries must be integers, got 1.5$"):
        tvm_ffi.Shape((1, 1.5))


def test_containers_of_objects_keep_them_alive():
    obj = t.make_test_object_base(7, 1.0, "x")
    before = t.object_use_count(obj)
    a = tvm_ffi.Array([obj, obj])
    assert t.object_use_count(obj) == before + 2
    assert a[0].same_as(obj)
    del a
    assert t.object_use_count(obj) == before


def test_list_mutable_sequence_protocol():
    lst = tvm_ffi.List([1, 2, 3])
    assert isinstance(lst, collections.abc.MutableSequence)
    lst.append(4)
    lst.insert(0, 0)
    lst.insert(-100, -1)
    assert list(lst) == [-1, 0, 1, 2, 3, 4]
    assert lst.pop() == 4 and lst.pop(0) == -1
    lst[1:3] = [9, 9, 9]
    assert list(lst) == [0, 9, 9, 9, 3]
    del lst[0]
    del lst[1:3]
    assert list(lst) == [9, 3]
    lst.reverse()
    lst.extend([7, 8])
    assert list(lst) == [3, 9, 7, 8]
    lst[::2] = ["a", "b"]
    assert list(lst) == ["a", 9, "b", 8]
    with pytest.raises(ValueError):
        lst[::2] = [1]
    with pytest.raises(IndexError, match="^index 4 out of range for List of size 4$"):
        lst[4]
    lst.clear()
    assert len(lst) == 0
    with pytest.raises(IndexError, match="^pop from empty List$"):
        lst.pop()


def test_list_is_shared_through_calls():
    lst = tvm_ffi.List([1])
    same = t.echo(lst)
    assert isinstance(same, tvm_ffi.List)
    same.append(2)
    assert list(lst) == [1, 2]


def test_dict_mutable_mapping_protocol():
    d = tvm_ffi.Dict({"a": 1})
    assert isinstance(d, collections.abc.MutableMapping)
    d["b"] = 2
    assert len(d) == 2 and "b" in d and d["b"] == 2
    del d["a"]
    assert dict(d.items()) == {"b": 2}
    d.update({"c": 3})
    assert d.pop("b") == 2
    assert d == {"c": 3}
    with pytest.raises(KeyError):
        del d["zz"]
    assert d.setdefault("e", 5) == 5 and d["e"] == 5
    d.clear()
    assert len(d) == 0
    shared = t.echo(d)
    shared["x"] = 1
    assert d["x"] == 1
