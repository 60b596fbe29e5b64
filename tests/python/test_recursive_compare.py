"""ffi.RecursiveEq/Lt/Le/Gt/Ge/Hash from Python: content comparison of values,
containers and reflected objects (testing.* types of libtvm_ffi_testing)."""
import math

import pytest

import tvm_ffi
import tvm_ffi.testing as t

eq = tvm_ffi.get_global_func("ffi.RecursiveEq")
lt = tvm_ffi.get_global_func("ffi.RecursiveLt")
le = tvm_ffi.get_global_func("ffi.RecursiveLe")
gt = tvm_ffi.get_global_func("ffi.RecursiveGt")
ge = tvm_ffi.get_global_func("ffi.RecursiveGe")
rhash = tvm_ffi.get_global_func("ffi.RecursiveHash")


def order(a, b):
    """The three-way result the four orderings agree on."""
    results = (lt(a, b), le(a, b), gt(a, b), ge(a, b))
    expected = {(True, True, False, False): -1, (False, True, False, True): 0,
                (False, False, True, True): 1}
    assert results in expected, results
    return expected[results]


def base(i, f, s):
    return t.make_test_object_base(i, f, s)


def test_plain_values():
    assert eq(1, 1) and not eq(1, 2)
    assert order(-5, 2) == -1
    assert order(2.5, 2.5) == 0
    assert order(False, True) == -1
    assert order("abc", "abd") == -1
    assert order("ab", "abc") == -1
    assert order(b"\x01", b"\xff") == -1
    assert order(tvm_ffi.dtype("int8"), tvm_ffi.dtype("int32")) == -1
    assert order(tvm_ffi.dtype("float32"), tvm_ffi.dtype("int32")) == 1  # code first
    assert order(tvm_ffi.Device("cpu", 0), tvm_ffi.Device("cpu", 1)) == -1
    assert eq(tvm_ffi.Device("cpu", 0), tvm_ffi.Device("cpu", 0))
    assert order(2**70, 2**71) == -1 and order(-(2**70), 5) == -1
    big = 2**69
    assert eq(2**70, big * 2) and rhash(tvm_ffi.convert(2**70)) == rhash(tvm_ffi.convert(big * 2))
    long_a = "x" * 100
    assert eq(long_a, "x" * 100) and rhash(long_a) == rhash(tvm_ffi.convert("x" * 100))


def test_different_kinds():
    assert not eq(1, 1.0)
    assert not eq(1, True)
    assert not eq("a", b"a")
    assert not eq(tvm_ffi.Array([1]), tvm_ffi.List([1]))
    assert not eq(tvm_ffi.Shape((1, 2)), tvm_ffi.Array([1, 2]))
    with pytest.raises(TypeError) as e:
        lt(1, 2.5)
    assert str(e.value) == "Cannot compare values of different types: int vs float"
    with pytest.raises(TypeError) as e:
        ge(True, 2)
    assert str(e.value) == "Cannot compare values of different types: bool vs int"
    with pytest.raises(TypeError) as e:
        le(1, "a")
    assert str(e.value) == "Cannot compare values of different types: int vs str"
    with pytest.raises(TypeError) as e:
        lt(tvm_ffi.Array([1]), tvm_ffi.List([1]))
    assert str(e.value) == "Cannot compare values of different types: ffi.Array vs ffi.List"


def test_none_sorts_first():
    assert eq(None, None) and not eq(None, 0)
    assert order(None, 0) == -1
    assert order(None, "x") == -1
    assert order(None, base(1, 1.0, "a")) == -1
    assert order(None, None) == 0


def test_nan_and_signed_zero():
    nan = float("nan")
    assert eq(nan, nan) and rhash(nan) == rhash(-nan)
    assert eq(-0.0, 0.0) and rhash(-0.0) == rhash(0.0)
    assert order(-math.inf, 0.0) == -1
    for f in (lt, le, gt, ge):
        with pytest.raises(TypeError, match="^Cannot order NaN values$"):
            f(nan, 1.0)
    assert eq([nan], [nan]) and rhash([nan]) == rhash([nan])
    with pytest.raises(TypeError, match="^Cannot order NaN values$"):
        lt([nan], [nan])
    assert lt([1.0, nan], [2.0, nan])  # decided before the NaN


def test_sequences():
    assert eq([1, 2, 3], (1, 2, 3))  # both convert to ffi.Array
    assert rhash([1, 2, 3]) == rhash(tvm_ffi.Array([1, 2, 3]))
    assert rhash([1, 2, 3]) != rhash([3, 2, 1])
    assert order([1, 2], [1, 2, 3]) == -1
    assert order([1, 3], [1, 2, 3]) == 1
    assert order([], []) == 0 and order([], [0]) == -1
    assert eq(tvm_ffi.List([1, "x"]), tvm_ffi.List([1, "x"]))
    assert lt([1, "a"], [2, 2])
    with pytest.raises(TypeError, match="^Cannot compare values of different types: str vs int$"):
        lt([1, "a"], [1, 2])
    assert order(tvm_ffi.Shape((1, 2)), tvm_ffi.Shape((1, 3))) == -1
    assert rhash(tvm_ffi.Shape((1, 2))) == rhash(tvm_ffi.Shape((1, 2)))


def test_maps():
    m1 = tvm_ffi.Map({"a": 1, "b": [2]})
    m2 = tvm_ffi.Map({"b": [2], "a": 1})
    assert eq(m1, m2) and rhash(m1) == rhash(m2)
    assert not eq(m1, tvm_ffi.Map({"a": 1}))
    assert not eq(tvm_ffi.Map({"a": 1}), tvm_ffi.Map({"a": 2}))
    assert le(m1, m2) and ge(m1, m2) and not lt(m1, m2) and not gt(m1, m2)
    for f in (lt, le, gt, ge):
        with pytest.raises(TypeError, match="^Cannot order Map/Dict values$"):
            f({"a": 1}, {"a": 2})
    d1, d2 = tvm_ffi.Dict({"a": 1}), tvm_ffi.Dict({"a": 1})
    assert eq(d1, d2) and rhash(d1) == rhash(d2)
    assert not eq(d1, tvm_ffi.Map({"a": 1}))


def test_reflected_objects():
    a = base(1, 2.0, "s")
    assert eq(a, base(1, 2.0, "s")) and rhash(a) == rhash(base(1, 2.0, "s"))
    assert not eq(a, base(1, 2.5, "s"))
    # Fields in declaration order: v_i64, then v_f64, then v_str.
    assert order(a, base(1, 2.5, "a")) == -1
    assert order(base(2, 0.0, "a"), base(1, 9.0, "z")) == 1
    assert order(a, a) == 0
    with pytest.raises(TypeError) as e:
        lt(a, 1)
    assert str(e.value) == "Cannot compare values of different types: testing.TestObjectBase vs int"
    assert not eq(a, 1)


def test_compare_off_and_hash_off():
    a, b = t.make_test_compare(1, "x", 2), t.make_test_compare(1, "x", 3)
    assert eq(a, b) and rhash(a) == rhash(b)  # ignored_field is CompareOff
    assert order(a, b) == 0
    assert order(a, t.make_test_compare(1, "y", 0)) == -1
    assert order(t.make_test_compare(2, "a", 0), t.make_test_compare(1, "z", 0)) == 1
    c, d = t.make_test_hash(1, "x", 2), t.make_test_hash(1, "x", 3)
    assert not eq(c, d)  # hash_ignored is compared ...
    assert rhash(c) == rhash(d)  # ... but not hashed
    assert order(c, d) == -1
    assert not eq(a, c)
    with pytest.raises(TypeError) as e:
        lt(a, c)
    assert str(e.value) == (
        "Cannot compare values of different types: testing.TestCompare vs testing.TestHash")


def test_identity_kinds():
    f = tvm_ffi.get_global_func("testing.echo")
    g = tvm_ffi.get_global_func("testing.nop")
    assert eq(f, f) and not eq(f, g)
    assert rhash(f) == rhash(tvm_ffi.get_global_func("testing.echo"))
    assert not lt(f, f)
    with pytest.raises(TypeError, match=r"^Cannot order ffi.Function values \(they are compared by identity\)$"):
        lt(f, g)


def test_cycles():
    a = tvm_ffi.List([1])
    a.append(a)
    b = tvm_ffi.List([1])
    b.append(b)
    c = tvm_ffi.List([2])
    c.append(c)
    assert eq(a, a) and eq(a, b) and not eq(a, c)
    assert rhash(a) == rhash(b) and rhash(a) != rhash(c)
    assert lt(a, c) and not lt(a, a)
    with pytest.raises(ValueError) as e:
        lt(a, b)
    assert str(e.value) == (
        "ffi.RecursiveLt: cyclic reference detected in ordering (a ffi.List contains itself)")
    for x in (a, b, c):
        x.clear()


def test_cyclic_maps_have_no_order():
    # Equal as values, but ordering them never ends: the same error as lists.
    a, b = tvm_ffi.Dict(), tvm_ffi.Dict()
    a["self"] = a
    b["self"] = b
    assert eq(a, b)
    with pytest.raises(ValueError) as e:
        ge(a, b)
    assert str(e.value) == (
        "ffi.RecursiveGe: cyclic reference detected in ordering (a ffi.Dict contains itself)")
    a.clear()
    b.clear()


def test_depth_limit():
    v = w = 0
    for _ in range(3000):
        v, w = tvm_ffi.Array([v]), tvm_ffi.Array([w])
    with pytest.raises(RecursionError, match="^ffi.RecursiveEq: "):
        eq(v, w)
    with pytest.raises(RecursionError, match="^ffi.RecursiveHash: "):
        rhash(v)


def test_metadata_of_the_globals():
    meta = tvm_ffi.get_global_func_metadata("ffi.RecursiveEq")
    assert "type_schema" in meta
