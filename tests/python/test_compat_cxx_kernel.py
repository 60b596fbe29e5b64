"""A kernel compiled against UPSTREAM apache-tvm-ffi's C++ headers
(tests/compat/cxx_kernel.cc, linked with our libtvm_ffi), driven from our
Python package: containers made on either side are read, iterated and
mutated on the other, errors travel both ways, a reflected type reads back.

The kernel is built by CMake (build/tests/libcompat_cxx_kernel.so, or under
$ASAN_BUILD for the sanitizer run, or $TVM_FFI_COMPAT_CXX_KERNEL).  Without
the upstream headers it is not built and this module is skipped, except in CI
(TVM_FFI_REQUIRE_UPSTREAM=1), where that is a failure.
"""
import ctypes
import os

import numpy as np
import pytest

import tvm_ffi

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_NAME = "libcompat_cxx_kernel.so"


def _find_kernel():
    explicit = os.environ.get("TVM_FFI_COMPAT_CXX_KERNEL")
    if explicit:
        return explicit
    dirs = [os.environ.get("ASAN_BUILD"), os.path.join(_ROOT, "build")]
    for d in dirs:
        if d and os.path.exists(os.path.join(d, "tests", _NAME)):
            return os.path.join(d, "tests", _NAME)
    return None


_KERNEL = _find_kernel()
if _KERNEL is None:
    if os.environ.get("TVM_FFI_REQUIRE_UPSTREAM"):
        raise RuntimeError(f"TVM_FFI_REQUIRE_UPSTREAM is set but {_NAME} was not built")
    pytest.skip(f"{_NAME} not built (needs the upstream headers)", allow_module_level=True)

# Test only: the kernel's static initializer registers its globals into the
# libtvm_ffi already loaded by `import tvm_ffi` (same SONAME, so no second copy).
_LIB = ctypes.CDLL(_KERNEL, mode=os.RTLD_NOW | ctypes.RTLD_GLOBAL)


def f(name):
    return tvm_ffi.get_global_func("compat_cxx." + name)


def pairs(flat):
    return [(flat[i], flat[i + 1]) for i in range(0, len(flat), 2)]


@tvm_ffi.register_object("compat_cxx.Point")
class Point(tvm_ffi.Object):
    pass


def test_array_and_list_both_ways():
    assert f("array_sum")([1, 2, 3, 4]) == 10
    arr = tvm_ffi.Array([1, "a"])
    grown = f("array_append")(arr, 2.5)
    assert list(grown) == [1, "a", 2.5]
    assert list(arr) == [1, "a"]  # copy on write in upstream's code
    assert list(f("make_array")(4)) == [0, 1, 4, 9]
    lst = tvm_ffi.List([1])
    f("list_push")(lst, "x")
    assert list(lst) == [1, "x"]
    made = f("make_list")(3)
    assert isinstance(made, tvm_ffi.List) and list(made) == [0, 1, 2]


@pytest.mark.parametrize("n", [0, 1, 3, 4, 5, 17, 200])
def test_our_map_read_and_iterated_by_upstream_code(n):
    d = {f"key{i}": i * 10 for i in range(n)}
    m = tvm_ffi.Map(d)
    assert f("map_size")(m) == n
    assert pairs(f("map_items")(m)) == list(m.items())
    assert f("map_sum_values")(m) == sum(d.values())
    for k, v in d.items():
        assert f("map_get")(m, k) == v
        assert f("map_count")(m, k) == 1
    assert f("map_count")(m, "absent") == 0
    with pytest.raises(KeyError, match="key is not in Map"):
        f("map_get")(m, "absent")


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6, 7, 8, 9, 16, 17, 64, 300])
def test_our_tables_equal_upstream_tables(n):
    # Mixed key kinds: small and heap strings, ints, floats, bools, bytes.
    keys = []
    for i in range(n):
        keys.append([f"s{i}", f"a longer string key {i}", i * 7919, float(i) + 0.5, b"b%d" % i][i % 5])
    flat = []
    for i, k in enumerate(keys):
        flat += [k, i]
    m = tvm_ffi.get_global_func("ffi.Map")(*flat)
    assert f("map_same_table_as_upstream")(m, flat) == ""


@pytest.mark.parametrize(
    "keys",
    [
        ["a", "a", "a"],  # 3 pairs, 1 distinct key
        ["a", "b", "a"],  # 3 pairs, 2 distinct keys
        ["a", "b", "b", "a"],  # 4 pairs, 2 distinct keys
        ["a", 1, "a", 1, "a", 1],  # 6 pairs, 2 distinct keys
        ["a", "b", "a", "c"],  # 4 pairs, 3 distinct keys
        ["a", "b", "c", "d", "a", "e"],  # a full small map, then dense
    ],
)
def test_our_tables_equal_upstream_tables_with_repeated_keys(keys):
    # ffi.Map starts 3 or more pairs with room for 4; repeats that leave at
    # most 2 distinct keys must still give upstream's 2-slot table.
    flat = []
    for i, k in enumerate(keys):
        flat += [k, i]
    for ctor in ("ffi.Map", "ffi.Dict"):
        m = tvm_ffi.get_global_func(ctor)(*flat)
        assert dict(m.items()) == dict(zip(keys, range(len(keys))))
    m = tvm_ffi.get_global_func("ffi.Map")(*flat)
    assert f("map_same_table_as_upstream")(m, flat) == ""


def test_upstream_map_read_by_our_library():
    m = f("make_map")(50)
    assert isinstance(m, tvm_ffi.Map)
    assert len(m) == 50
    assert m["k7"] == 7
    assert "k49" in m and "k50" not in m
    assert list(m.keys()) == [f"k{i}" for i in range(50)]
    with pytest.raises(KeyError):
        m["nope"]


def test_map_copy_on_write_in_upstream_code():
    m = tvm_ffi.Map({"a": 1, "b": 2, "c": 3, "d": 4})
    m2 = f("map_set")(m, "e", 5)  # 4 -> 5 pairs: upstream makes it dense
    assert dict(m) == {"a": 1, "b": 2, "c": 3, "d": 4}
    assert dict(m2) == {"a": 1, "b": 2, "c": 3, "d": 4, "e": 5}
    m3 = f("map_erase")(m2, "b")
    assert list(m3.keys()) == ["a", "c", "d", "e"]
    assert len(m2) == 5


def test_our_dict_mutated_in_place_by_upstream_code():
    d = tvm_ffi.Dict({"x": 1})
    # Grows 2 -> 4 slots, then switches to the dense form and rehashes, all
    # in upstream's code and in place on our object.
    for i in range(40):
        f("dict_set")(d, i, i * i)
    assert len(d) == 41
    assert d[39] == 1521 and d["x"] == 1
    f("dict_erase")(d, "x")
    f("dict_erase")(d, 5)
    assert "x" not in d and 5 not in d and len(d) == 39
    assert list(d.keys()) == [i for i in range(40) if i != 5]
    d[100] = "ours"  # our library inserts into the table upstream grew
    assert f("dict_get")(d, 100) == "ours"
    assert pairs(f("dict_items")(d)) == list(d.items())
    f("dict_clear")(d)
    assert len(d) == 0
    d["again"] = 1
    assert dict(d) == {"again": 1}


def test_upstream_dict_mutated_by_our_library():
    d = f("make_dict")(3)
    assert isinstance(d, tvm_ffi.Dict)
    # Our library grows the kernel's object: small (foreign storage) -> dense.
    for i in range(30):
        d[f"n{i}"] = i
    del d["k1"]
    assert len(d) == 32
    assert f("dict_get")(d, "n29") == 29
    assert f("dict_get")(d, "k2") == 2
    assert list(d.keys())[:2] == ["k0", "k2"]
    with pytest.raises(KeyError, match="key is not in Map"):
        f("dict_get")(d, "k1")


def test_object_keys_hash_by_identity_on_both_sides():
    a = tvm_ffi.Shape([1])
    b = tvm_ffi.Shape([1])
    # Built flat: a Python dict would merge the two (Shape compares by value).
    m = tvm_ffi.get_global_func("ffi.Map")(a, "a", b, "b")
    assert len(m) == 2
    assert f("map_get")(m, a) == "a"
    assert f("map_get")(m, b) == "b"


def test_string_shape_tensor():
    assert f("concat")("ab", "c" * 20) == "ab" + "c" * 20
    assert f("shape_prod")(tvm_ffi.Shape([2, 3, 4])) == 24
    assert tuple(f("make_shape")(5, 6, 7)) == (5, 6, 7)
    x = np.arange(6, dtype="float32").reshape(2, 3)
    assert f("tensor_sum_f32")(tvm_ffi.from_dlpack(x)) == 15.0
    t = f("make_tensor_f32")(2, 3)
    assert t.shape == (2, 3)
    np.testing.assert_array_equal(np.from_dlpack(t), np.arange(6, dtype="float32").reshape(2, 3) * 0.5)


def test_errors_both_ways():
    with pytest.raises(ValueError, match="kernel says: boom"):
        f("raise_value_error")("boom")

    def ours(x):
        raise KeyError(f"python says {x}")

    assert f("call_and_catch")(ours, 3) == "KeyError: 'python says 3'"
    assert f("call_and_catch")(lambda x: x, 3) == "no error"
    with pytest.raises(TypeError):
        f("tensor_sum_f32")(tvm_ffi.from_dlpack(np.zeros(2, dtype="int32")))


def test_reflected_object():
    p = f("make_point")(3, 4)
    assert isinstance(p, Point)
    assert (p.x, p.y) == (3, 4)
    assert f("point_sum")(p) == 7
