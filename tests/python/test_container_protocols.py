"""The container protocols of the C bases (core.SeqBase, ListBase, MapBase,
DictBase): indexing, slices, iteration, containment, views, equality, hash,
repr, pickle, mutation with Python's error types, and subclassing."""
import collections.abc
import pickle

import pytest

import tvm_ffi
from tvm_ffi import core
import tvm_ffi.testing as t


# ---- Array and List reads -------------------------------------------------------------


@pytest.mark.parametrize("make", [tvm_ffi.Array, tvm_ffi.List])
def test_sequence_reads_match_a_list(make):
    items = [0, -1, 2.5, True, None, "short", "a string longer than seven", b"xy"]
    s = make(items)
    assert len(s) == len(items)
    for i in range(-len(items), len(items)):
        assert s[i] == items[i]
        assert type(s[i]) is type(items[i])
    for sl in [slice(None), slice(1, 5), slice(None, None, -1), slice(-3, None), slice(1, 7, 2),
               slice(100, 200), slice(5, 1), slice(None, None, -3)]:
        assert s[sl] == items[sl]
        assert type(s[sl]) is list
    assert list(s) == items
    assert list(reversed(s)) == items[::-1]
    assert [x for x in s] == items


@pytest.mark.parametrize("make,name", [(tvm_ffi.Array, "Array"), (tvm_ffi.List, "List")])
def test_sequence_index_errors(make, name):
    s = make([1, 2, 3])
    with pytest.raises(IndexError, match=f"^index 3 out of range for {name} of size 3$"):
        s[3]
    with pytest.raises(IndexError, match=f"^index -4 out of range for {name} of size 3$"):
        s[-4]
    with pytest.raises(IndexError, match=f"^index {2**70} out of range for {name} of size 3$"):
        s[2**70]
    with pytest.raises(TypeError, match=f"^{name} indices must be integers or slices, not float$"):
        s[1.0]
    with pytest.raises(ValueError, match="slice step cannot be zero"):
        s[::0]


def test_sequence_index_accepts_index_protocol():
    class Two:
        def __index__(self):
            return 2

    a = tvm_ffi.Array([10, 20, 30])
    assert a[Two()] == 30
    assert a[True] == 20
    np = pytest.importorskip("numpy")
    assert a[np.int64(-1)] == 30


def test_sequence_contains_by_value():
    a = tvm_ffi.Array([1, "abc", 2.5, None, [1, 2], "a string longer than seven"])
    assert 1 in a and True in a and 1.0 in a
    assert "abc" in a and "abd" not in a
    assert 2.5 in a and None in a
    assert [1, 2] in a and (1, 2) in a
    assert "a string longer than seven" in a
    assert 7 not in a and 2**80 not in a
    assert ("BLOCK_SIZE", 128) in tvm_ffi.Array([("BLOCK_SIZE", 128)])


def test_sequence_iterator_is_a_c_iterator():
    a = tvm_ffi.Array([1, 2, 3])
    it = iter(a)
    assert type(it) is core.SeqIterator
    assert it.__length_hint__() == 3
    assert next(it) == 1
    assert list(it) == [2, 3]
    assert it.__length_hint__() == 0
    with pytest.raises(StopIteration):
        next(it)


def test_list_iterator_sees_appends():
    lst = tvm_ffi.List([1])
    seen = []
    for x in lst:
        seen.append(x)
        if x < 4:
            lst.append(x + 1)
    assert seen == [1, 2, 3, 4]


def test_sequence_equality_and_hash():
    a = tvm_ffi.Array([1, "x", [2, 3]])
    assert a == [1, "x", [2, 3]] and a == (1, "x", (2, 3))
    assert a == tvm_ffi.Array([1, "x", [2, 3]])
    assert a == tvm_ffi.List([1, "x", [2, 3]])
    assert a != [1, "x"] and a != [1, "y", [2, 3]]
    assert (a == "1x") is False and (a != "1x") is True
    assert a.__eq__("1x") is NotImplemented
    assert a.__eq__({1: 2}) is NotImplemented
    assert a.__lt__(a) is NotImplemented
    assert hash(tvm_ffi.Array([1, "x"])) == hash((1, "x"))
    assert hash(tvm_ffi.List([1, 2])) == hash(tvm_ffi.Array([1, 2]))
    assert {tvm_ffi.Array([1, 2]): "v"}[tvm_ffi.Array([1, 2])] == "v"


def test_sequence_repr():
    # ffi.ReprPrint's text, as upstream: an Array as a tuple, a List as a list.
    assert repr(tvm_ffi.Array([1, "x", None])) == '(1, "x", None)'
    assert repr(tvm_ffi.Array([1])) == str(tvm_ffi.Array([1])) == "(1,)"
    assert repr(tvm_ffi.List([1, "x"])) == '[1, "x"]'
    assert repr(tvm_ffi.Array([])) == "()"
    assert repr(tvm_ffi.Array([tvm_ffi.List([1.5])])) == "([1.5],)"
    assert repr(tvm_ffi.Array.__new__(tvm_ffi.Array)) == "Array(chandle=None)"


def test_uninitialised_container_raises_clearly():
    a = tvm_ffi.Array.__new__(tvm_ffi.Array)
    with pytest.raises(ValueError, match="holds no FFI object"):
        len(a)
    m = tvm_ffi.Map.__new__(tvm_ffi.Map)
    with pytest.raises(ValueError, match="holds no FFI object"):
        m["k"]


def test_sequences_are_abc_sequences():
    assert isinstance(tvm_ffi.Array([]), collections.abc.Sequence)
    assert isinstance(tvm_ffi.List([]), collections.abc.MutableSequence)
    assert tvm_ffi.Array([1, 2, 1]).count(1) == 2
    assert tvm_ffi.List([1, 2, 1]).index(2) == 1


# ---- List mutations ------------------------------------------------------------------------


def test_list_mutations_follow_list():
    lst, ref = tvm_ffi.List([1, 2, 3]), [1, 2, 3]
    for op in [lambda x: x.append(4), lambda x: x.insert(1, 9), lambda x: x.insert(-1, 8),
               lambda x: x.insert(100, 7), lambda x: x.insert(-100, 6),
               lambda x: x.extend([5, 5]), lambda x: x.__setitem__(0, "a"),
               lambda x: x.__setitem__(-1, "z"), lambda x: x.__delitem__(2),
               lambda x: x.__delitem__(slice(1, 3)), lambda x: x.__setitem__(slice(0, 2), [0]),
               lambda x: x.__setitem__(slice(None, None, 2), ["e"] * len(x[::2])),
               lambda x: x.__delitem__(slice(None, None, 2)), lambda x: x.reverse(),
               lambda x: x.__iadd__([1, 2]), lambda x: x.remove(1)]:
        op(lst)
        op(ref)
        assert list(lst) == ref
    assert lst.pop() == ref.pop()
    assert lst.pop(0) == ref.pop(0)
    lst.clear()
    assert len(lst) == 0


def test_list_slice_assignment_aliases_safely():
    lst = tvm_ffi.List([1, 2, 3, 4])
    lst[1:3] = lst
    assert list(lst) == [1, 1, 2, 3, 4, 4]
    lst.extend(lst)
    assert len(lst) == 12


def test_list_errors_match_list():
    lst = tvm_ffi.List([1, 2])
    with pytest.raises(TypeError, match="^'float' object cannot be interpreted as an integer$"):
        lst.insert(1.5, 0)
    with pytest.raises(TypeError, match=r"^insert\(\) takes 2 arguments \(1 given\)$"):
        lst.insert(1)
    with pytest.raises(IndexError, match="^pop index out of range$"):
        lst.pop(5)
    with pytest.raises(IndexError, match="^index 2 out of range for List of size 2$"):
        lst[2] = 0
    with pytest.raises(IndexError, match="^index -3 out of range for List of size 2$"):
        del lst[-3]
    with pytest.raises(ValueError,
                       match="^attempt to assign sequence of size 3 to extended slice of size 1$"):
        lst[::2] = [1, 2, 3]
    with pytest.raises(TypeError):
        lst[0:1] = 5  # not iterable
    assert list(lst) == [1, 2]
    lst.clear()
    with pytest.raises(IndexError, match="^pop from empty List$"):
        lst.pop()


def test_array_is_immutable():
    a = tvm_ffi.Array([1, 2])
    with pytest.raises(TypeError):
        a[0] = 5
    with pytest.raises(AttributeError):
        a.append(3)


def test_list_shared_with_cpp_side():
    lst = tvm_ffi.List([1, 2])
    same = t.echo(lst)
    same[0] = 10
    del same[1]
    assert list(lst) == [10]


# ---- Map and Dict reads ----------------------------------------------------------------------


@pytest.mark.parametrize("make", [tvm_ffi.Map, tvm_ffi.Dict])
def test_mapping_reads_match_a_dict(make):
    # (Object keys such as arrays are looked up by identity in FFI maps, so
    # the keys here are plain values.)
    ref = {"a": 1, 2: "two", "a key longer than seven": [1, 2], None: 2.5, 3.5: "t"}
    m = make(ref)
    assert len(m) == len(ref)
    for k, v in ref.items():
        assert m[k] == v
        assert k in m
        assert m.get(k) == v
    assert "zz" not in m and m.get("zz") is None and m.get("zz", 7) == 7
    assert list(m) == list(ref)
    assert list(m.keys()) == list(ref.keys())
    assert list(m.values()) == list(ref.values())
    assert list(m.items()) == list(ref.items())
    assert len(m.keys()) == len(m.values()) == len(m.items()) == len(ref)
    assert "a" in m.keys() and "zz" not in m.keys()
    assert ("a", 1) in m.items() and ("a", 2) not in m.items() and "a" not in m.items()
    assert "two" in m.values() and "three" not in m.values()
    assert dict(m) == ref


def test_mapping_missing_key_error_is_python_keyerror():
    m = tvm_ffi.Map({"a": 1})
    with pytest.raises(KeyError) as info:
        m["b"]
    assert info.value.args == ("b",)
    with pytest.raises(KeyError) as info:
        m[(1, 2)]
    assert info.value.args == ((1, 2),)


def test_mapping_views_and_iterator_types():
    m = tvm_ffi.Map({"a": 1})
    assert type(m.keys()) is core.MapView
    assert isinstance(m.keys(), collections.abc.KeysView)
    assert isinstance(m.items(), collections.abc.ItemsView)
    assert isinstance(m.values(), collections.abc.ValuesView)
    assert repr(m.keys()) == "keys(['a'])"
    assert repr(m.values()) == "values([1])"
    assert repr(m.items()) == "items([('a', 1)])"
    it = iter(m)
    assert type(it) is core.MapIterator and it.__length_hint__() == 1
    assert next(it) == "a"
    with pytest.raises(StopIteration):
        next(it)
    assert list(tvm_ffi.Map()) == [] and list(tvm_ffi.Map().items()) == []


def test_dict_views_are_live():
    d = tvm_ffi.Dict({"a": 1})
    keys = d.keys()
    d["b"] = 2
    assert list(keys) == ["a", "b"] and len(keys) == 2


def test_mapping_equality_and_hash():
    m = tvm_ffi.Map({"a": 1, "b": [1, 2]})
    assert m == {"b": [1, 2], "a": 1}
    assert m == tvm_ffi.Map({"b": [1, 2], "a": 1})
    assert m == tvm_ffi.Dict({"a": 1, "b": (1, 2)})
    assert m != {"a": 1} and m != {"a": 2, "b": [1, 2]} and m != {"a": 1, "c": [1, 2]}
    assert m.__eq__([("a", 1)]) is NotImplemented
    assert hash(tvm_ffi.Map({"a": 1, "b": 2})) == hash(tvm_ffi.Map({"b": 2, "a": 1}))
    assert hash(tvm_ffi.Dict({"a": 1})) == hash(tvm_ffi.Map({"a": 1}))
    # Values hash structurally too: a nested array hashes as a tuple.
    assert hash(tvm_ffi.Map({"a": [1, 2]})) == hash(frozenset({("a", (1, 2))}))


def test_mapping_repr():
    assert repr(tvm_ffi.Map({"a": 1})) == '{"a": 1}'
    assert repr(tvm_ffi.Dict({"a": [1, 2]})) == '{"a": (1, 2)}'
    assert repr(tvm_ffi.Map.__new__(tvm_ffi.Map)) == "Map(chandle=None)"


def test_map_constructor_inputs():
    assert dict(tvm_ffi.Map(input_dict={"a": 1})) == {"a": 1}
    assert dict(tvm_ffi.Map(collections.OrderedDict([("x", 1)]))) == {"x": 1}
    assert dict(tvm_ffi.Map(tvm_ffi.Map({"y": 2}))) == {"y": 2}
    with pytest.raises(AttributeError):
        tvm_ffi.Map([("a", 1)])


# ---- Dict mutations -------------------------------------------------------------------------


def test_dict_mutations_follow_dict():
    d, ref = tvm_ffi.Dict({"a": 1}), {"a": 1}
    for op in [lambda x: x.__setitem__("b", 2), lambda x: x.update({"c": 3}),
               lambda x: x.update([("d", 4)], e=5), lambda x: x.update(f=6),
               lambda x: x.update(tvm_ffi.Map({"g": 7})), lambda x: x.__delitem__("a"),
               lambda x: x.setdefault("b", 99), lambda x: x.setdefault("h"),
               lambda x: x.pop("c"), lambda x: x.pop("zz", None)]:
        r1, r2 = op(d), op(ref)
        assert r1 == r2
        assert dict(d) == ref
    k, v = d.popitem()
    assert ref.pop(k) == v and dict(d) == ref
    d.clear()
    assert len(d) == 0


def test_dict_errors_match_dict():
    d = tvm_ffi.Dict({"a": 1})
    with pytest.raises(KeyError) as info:
        del d["zz"]
    assert info.value.args == ("zz",)
    with pytest.raises(KeyError) as info:
        d.pop("zz")
    assert info.value.args == ("zz",)
    with pytest.raises(ValueError, match="^dictionary update sequence element has length 3; 2 is required$"):
        d.update([(1, 2, 3)])
    with pytest.raises(TypeError, match=r"^pop\(\) takes 1 to 2 arguments \(0 given\)$"):
        d.pop()
    with pytest.raises(TypeError, match=r"^update expected at most 1 argument, got 2$"):
        d.update({}, {})
    assert dict(d) == {"a": 1}


def test_map_is_immutable():
    m = tvm_ffi.Map({"a": 1})
    with pytest.raises(TypeError):
        m["b"] = 2
    with pytest.raises(AttributeError):
        m.pop("a")


# ---- pickle ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "value",
    [
        tvm_ffi.Array([1, "x", 2.5, None, True]),
        tvm_ffi.List([1, [2, 3]]),
        tvm_ffi.Map({"a": 1, 2: [3, 4]}),
        tvm_ffi.Dict({"a": {"b": 1}}),
        tvm_ffi.Array([]),
    ],
)
def test_containers_of_plain_values_pickle(value):
    for proto in range(pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(value, protocol=proto))
        assert type(back) is type(value)
        assert back == value
        assert not back.same_as(value)


# ---- subclassing ---------------------------------------------------------------------------------


def test_containers_subclass_from_python():
    class MyArray(tvm_ffi.Array):
        def total(self):
            return sum(self)

    class MyDict(tvm_ffi.Dict):
        pass

    a = MyArray([1, 2, 3])
    assert a.total() == 6 and a[-1] == 3 and list(a) == [1, 2, 3]
    assert t.echo(a).same_as(a)  # passed as the FFI object it holds
    d = MyDict({"k": 1})
    d["j"] = 2
    assert dict(d) == {"k": 1, "j": 2}


def test_function_subclass_from_python():
    class Named(core.Function):
        pass

    echo = tvm_ffi.get_global_func("testing.echo")
    f = Named(echo)
    assert type(f) is Named and f.same_as(echo)
    assert f(5) == 5
    f.tag = "x"
    assert f.tag == "x"
    g = Named(lambda x: x + 1)
    assert g(1) == 2
    assert core.Function(echo) is echo


def test_device_subclass_from_python():
    class MyDevice(tvm_ffi.Device):
        def describe(self):
            return f"on {self}"

    d = MyDevice("cuda", 1)
    assert d.describe() == "on cuda:1"
    assert d == tvm_ffi.device("cuda", 1) and tvm_ffi.device("cuda", 1) == d
    assert hash(d) == hash(tvm_ffi.device("cuda", 1))
    assert t.echo(d) == d


def test_self_containing_containers():
    # hash() raises; repr() names the cycle "..." (ffi.ReprPrint).
    lst = tvm_ffi.List([1])
    lst.append(lst)
    assert lst == lst and len(lst) == 2 and lst[1].same_as(lst)
    with pytest.raises(RecursionError):
        hash(lst)
    assert repr(lst) == "[1, ...]"
    d = tvm_ffi.Dict({"a": 1})
    d["self"] = d
    with pytest.raises(RecursionError):
        hash(d)
    assert repr(d) == '{"a": 1, "self": ...}'
    lst.clear()  # break the cycle: the FFI objects would otherwise leak
    d.clear()
