"""Iteration over ffi.Map and ffi.Dict, which core.MapIterator does by reading
the map objects in place (docs/abi.md section 11): the order of the C++
iterator in both storage forms, dict's errors on mutation during iteration,
and the references the iterator holds."""
import gc
import sys

import pytest

import tvm_ffi
from tvm_ffi import core


def cxx_items(m):
    """The (key, value) pairs in the order of the C++ iterator, through the
    iterator functor the library registers (ffi.MapForwardIterFunctor)."""
    name = "ffi.DictForwardIterFunctor" if isinstance(m, tvm_ffi.Dict) else "ffi.MapForwardIterFunctor"
    step = tvm_ffi.get_global_func(name)(m)
    out = []
    for _ in range(len(m)):
        out.append((step(0), step(1)))
        step(2)
    return out


def dict_with_erasures(n):
    """A Dict of n entries grown then thinned, so that the dense table has
    holes and erase has moved entries (the iteration list is not the table
    order)."""
    d = tvm_ffi.Dict()
    for i in range(n + n // 2):
        d[f"key{i}"] = i
    for i in range(0, n + n // 2, 3):
        del d[f"key{i}"]
    return d


SIZES = [0, 1, 2, 4, 5, 17, 3000]


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("make", [tvm_ffi.Map, tvm_ffi.Dict])
def test_iteration_order_is_the_cxx_order(make, n):
    pairs = {f"k{i}": i * 10 for i in range(n)}
    m = make(pairs)
    expected = cxx_items(m)
    assert sorted(expected) == sorted(pairs.items())
    assert list(m.items()) == expected
    assert list(m) == [k for k, _ in expected]
    assert list(m.keys()) == [k for k, _ in expected]
    assert list(m.values()) == [v for _, v in expected]
    assert [(k, v) for k, v in m.items()] == expected


def test_iteration_order_after_erasures_and_reassignment():
    d = dict_with_erasures(2000)
    d["key1"] = "moved"  # a present key set again: the C++ order moves it to the end
    expected = cxx_items(d)
    assert len(expected) == len(d) > 1000
    assert expected[-1] == ("key1", "moved")
    assert list(d.items()) == expected
    small = tvm_ffi.Dict({"a": 1, "b": 2, "c": 3})
    del small["a"]
    small["a"] = 4
    assert list(small.items()) == cxx_items(small) == [("b", 2), ("c", 3), ("a", 4)]


def test_keys_and_values_of_every_kind():
    obj_key = tvm_ffi.Array([1])
    m = tvm_ffi.Map({"a string longer than seven": None, 5: 2.5, obj_key: "x", True: b"y"})
    assert list(m.items()) == cxx_items(m)
    keys = list(m)
    assert any(k is not None and k.same_as(obj_key) for k in keys if isinstance(k, tvm_ffi.Array))
    assert {type(v) for v in m.values()} == {type(None), float, str, bytes}


@pytest.mark.parametrize("make", [tvm_ffi.Map, tvm_ffi.Dict])
def test_empty_map_iteration(make):
    m = make()
    it = iter(m)
    assert type(it) is core.MapIterator and it.__length_hint__() == 0
    with pytest.raises(StopIteration):
        next(it)
    with pytest.raises(StopIteration):
        next(it)
    assert list(m.items()) == [] and list(m.values()) == []


def test_length_hint_counts_down():
    m = tvm_ffi.Map({"a": 1, "b": 2, "c": 3})
    it = iter(m.values())
    assert it.__length_hint__() == 3
    next(it)
    assert it.__length_hint__() == 2
    assert len(list(it)) == 2 and it.__length_hint__() == 0


@pytest.mark.parametrize("n", [3, 4, 40, 3000])
def test_insert_during_iteration_raises_like_dict(n):
    d = tvm_ffi.Dict({f"k{i}": i for i in range(n)})
    it = iter(d)
    next(it)
    d["new"] = 1
    with pytest.raises(RuntimeError, match="^dictionary changed size during iteration$"):
        next(it)
    # Sticky, as for dict.
    with pytest.raises(RuntimeError, match="^dictionary changed size during iteration$"):
        next(it)
    # Python's own dict says the same.
    pd = {"a": 1}
    with pytest.raises(RuntimeError, match="^dictionary changed size during iteration$"):
        for k in pd:
            pd["b"] = 2


@pytest.mark.parametrize("make", [dict, tvm_ffi.Dict])
def test_insert_after_the_last_entry_raises_like_dict(make):
    d = make({"a": 1, "b": 2})
    with pytest.raises(RuntimeError, match="^dictionary changed size during iteration$"):
        for k in d:
            if k == "b":
                d["c"] = 3


@pytest.mark.parametrize("n", [3, 40])
@pytest.mark.parametrize("mutate", ["del", "pop", "clear"])
def test_removal_during_iteration_raises(n, mutate):
    d = tvm_ffi.Dict({f"k{i}": i for i in range(n)})
    with pytest.raises(RuntimeError, match="^dictionary changed size during iteration$"):
        for k, _ in d.items():
            if mutate == "del":
                del d[k]
            elif mutate == "pop":
                d.pop(k)
            else:
                d.clear()


@pytest.mark.parametrize("n", [3, 4, 40, 3000])
def test_setting_present_keys_during_iteration_is_allowed(n):
    # As with dict: every key seen once, with the values set so far.
    d = tvm_ffi.Dict({f"k{i}": i for i in range(n)})
    seen = []
    for k in d:
        seen.append(k)
        d[k] = d[k] + 1000
    assert sorted(seen) == sorted(f"k{i}" for i in range(n))
    assert sorted(d.values()) == [i + 1000 for i in range(n)]


@pytest.mark.parametrize("n", [20, 3000])
@pytest.mark.parametrize("ahead", [1, 5])
def test_setting_a_key_not_yet_visited_raises_instead_of_skipping(n, ahead):
    # In the dense form, setting a present key moves it to the end of the
    # order (as upstream's Dict does).  For a key not yet visited that would
    # visit it late or skip the ones behind; it raises instead.
    d = tvm_ffi.Dict({f"k{i}": i for i in range(n)})
    seen = []
    with pytest.raises(RuntimeError, match="^dictionary keys changed during iteration$"):
        for k in d:
            seen.append(k)
            if k == "k0":
                d[f"k{ahead}"] = 100
    assert seen == ["k0"]
    assert d[f"k{ahead}"] == 100 and len(d) == n


def test_setting_a_visited_key_other_than_the_current_one_raises():
    d = tvm_ffi.Dict({f"k{i}": i for i in range(20)})
    it = iter(d)
    assert [next(it), next(it)] == ["k0", "k1"]
    d["k0"] = -1  # visited, but not the key just returned
    with pytest.raises(RuntimeError, match="^dictionary keys changed during iteration$"):
        next(it)


def test_storage_replaced_at_same_size_is_followed():
    # A full small Dict (4 of 4) turns dense when a present key is set again:
    # the storage moves, the size stays; iteration finds its place again.
    d = tvm_ffi.Dict({"a": 1, "b": 2, "c": 3, "d": 4})
    it = iter(d.items())
    assert next(it) == ("a", 1)
    d["a"] = 10
    rest = list(it)
    assert sorted(rest) == [("b", 2), ("c", 3), ("d", 4)]


def test_same_size_key_swap_raises_keys_changed():
    d = tvm_ffi.Dict({"a": 1, "b": 2, "c": 3})
    it = iter(d)
    assert next(it) == "a"
    del d["b"]  # the next key to return
    d["z"] = 26
    with pytest.raises(RuntimeError, match="^dictionary keys changed during iteration$"):
        next(it)
    # As dict: the iterator is then exhausted.
    with pytest.raises(StopIteration):
        next(it)


def test_iterator_keeps_the_map_alive():
    m = tvm_ffi.Map({f"k{i}": [i] for i in range(10)})
    base = sys.getrefcount(m)
    it = iter(m.items())
    assert sys.getrefcount(m) == base + 1
    view = m.values()
    vit = iter(view)
    del view
    assert sys.getrefcount(m) == base + 2
    first = next(it)
    del m
    gc.collect()
    # The map is still there: the rest of the pairs come out whole.
    got = [first] + list(it)
    assert [(k, list(v)) for k, v in got] == [(f"k{i}", [i]) for i in range(10)]
    assert [list(v) for v in vit] == [[i] for i in range(10)]


def test_exhausted_iterator_releases_the_map():
    m = tvm_ffi.Map({"a": 1})
    base = sys.getrefcount(m)
    it = iter(m)
    assert sys.getrefcount(m) == base + 1
    assert list(it) == ["a"]
    assert sys.getrefcount(m) == base
    del it
    assert sys.getrefcount(m) == base


def test_ffi_refcount_of_the_map_object():
    # The iterator also holds the FFI object itself, so re-initialising the
    # wrapper does not free the storage being read.
    m = tvm_ffi.Dict({"a": 1, "b": 2, "c": 3})
    it = iter(m.items())
    assert next(it) == ("a", 1)
    m.__init__({"x": 9})
    assert list(it) == [("b", 2), ("c", 3)]
    assert list(m.items()) == [("x", 9)]


def test_items_pair_is_reused_only_when_free():
    m = tvm_ffi.Map({"a": 1, "b": 2, "c": 3})
    kept = list(m.items())
    assert kept == [("a", 1), ("b", 2), ("c", 3)]
    assert len({id(p) for p in kept}) == 3
    it = iter(m.items())
    p1 = next(it)
    p2 = next(it)
    assert p1 == ("a", 1) and p2 == ("b", 2)


def test_iterator_in_a_cycle_is_collected():
    import weakref

    class MyDict(tvm_ffi.Dict):  # a subclass has a __dict__
        pass

    d = MyDict({"k": 1})
    it = iter(d.items())
    assert gc.is_tracked(it) and next(it) == ("k", 1)
    d.iterator = it  # d -> it -> d
    ref = weakref.ref(d)
    del d, it
    gc.collect()
    assert ref() is None
