"""Round trips of every convertible value through an FFI echo."""
import ctypes
import math

import pytest

import tvm_ffi
import tvm_ffi.testing as t


@pytest.mark.parametrize(
    "value",
    [None, True, False, 0, 1, -1, 2**63 - 1, -(2**63), 0.0, -2.5, 1e300, "", "abc", "1234567",
     "12345678", "a longer string with ünïcödé", "embedded\0nul in a long string", b"", b"abc",
     b"\x00\x01\x02\x03\x04\x05\x06\x07\x08", "😀" * 10],
)
def test_echo_plain_values(value):
    out = t.echo(value)
    assert type(out) is type(value)
    assert out == value


def test_echo_float_special_values():
    assert math.isnan(t.echo(float("nan")))
    assert t.echo(float("inf")) == float("inf")


def test_ints_outside_int64_round_trip_as_big_int():
    for value in (2**63, -(2**63) - 1, 2**200, -(2**200), 3**100):
        out = t.echo(value)
        assert type(out) is int
        assert out == value


def test_int_and_float_subclasses_and_protocols():
    import enum

    class Color(enum.IntEnum):
        RED = 3

    assert t.echo(Color.RED) == 3 and type(t.echo(Color.RED)) is int

    class Idx:
        def __index__(self):
            return 11

    class Flt:
        def __float__(self):
            return 1.5

    assert t.echo(Idx()) == 11
    assert t.echo(Flt()) == 1.5


def test_numpy_scalars():
    np = pytest.importorskip("numpy")
    assert t.echo(np.int64(5)) == 5
    assert t.echo(np.int32(-5)) == -5
    assert t.echo(np.float64(2.5)) == 2.5
    assert t.echo(np.float32(0.5)) == 0.5


def test_str_and_bytes_subclasses_and_bytearray():
    class S(str):
        pass

    assert t.echo(S("hello world")) == "hello world"
    assert t.echo(bytearray(b"0123456789")) == b"0123456789"


def test_list_tuple_dict_become_containers():
    a = t.echo([1, "two", 3.0, None])
    assert isinstance(a, tvm_ffi.Array)
    assert list(a) == [1, "two", 3.0, None]
    a = t.echo((1, (2, (3,))))
    assert isinstance(a[1], tvm_ffi.Array)
    assert a[1][1][0] == 3
    m = t.echo({"x": 1, "y": [2]})
    assert isinstance(m, tvm_ffi.Map)
    assert m["x"] == 1 and list(m["y"]) == [2]


def test_device_and_dtype_round_trip():
    d = t.echo(tvm_ffi.Device("cuda:3"))
    assert isinstance(d, tvm_ffi.Device) and d == tvm_ffi.Device("cuda", 3)
    dt = t.echo(tvm_ffi.dtype("float16"))
    assert isinstance(dt, tvm_ffi.dtype) and dt == "float16"
    assert t.echo(tvm_ffi.dtype("int8x4")).lanes == 4


def test_opaque_object_round_trip_is_identity():
    class Thing:
        pass

    obj = Thing()
    assert t.echo(obj) is obj
    assert t.apply(lambda x: x, obj) is obj
    assert t.echo([obj])[0] is obj


def test_c_void_p_becomes_opaque_pointer():
    p = t.echo(ctypes.c_void_p(0x1234))
    assert isinstance(p, ctypes.c_void_p)
    assert p.value == 0x1234
    assert t.echo(ctypes.c_void_p(None)).value is None


def test_ffi_objects_pass_through():
    obj = t.make_test_object_base(1, 2.0, "s")
    out = t.echo(obj)
    assert out.same_as(obj)
    assert out == obj


def test_tvm_ffi_object_protocol():
    obj = t.make_test_object_base(1, 2.0, "s")

    class Holder:
        def __tvm_ffi_object__(self):
            return obj

    assert t.echo(Holder()).same_as(obj)


def test_convert():
    assert tvm_ffi.convert(1) == 1
    assert tvm_ffi.convert("s") == "s"
    assert tvm_ffi.convert(None) is None
    a = tvm_ffi.convert([1, 2])
    assert isinstance(a, tvm_ffi.Array)
    assert isinstance(tvm_ffi.convert({"a": 1}), tvm_ffi.Map)
    assert isinstance(tvm_ffi.convert(lambda: 1), tvm_ffi.Function)
    assert tvm_ffi.convert(a) is a

    class Thing:
        pass

    thing = Thing()
    opaque = tvm_ffi.convert(thing)
    assert isinstance(opaque, tvm_ffi.container.OpaquePyObject)
    assert opaque.pyobject() is thing
    assert t.echo(opaque) is thing


def test_convert_keeps_ints_of_any_size():
    for value in (2**63 - 1, -(2**63), 2**63, -(2**63) - 1, 2**200):
        assert tvm_ffi.convert(value) == value


def test_exception_argument_becomes_error_object():
    err = t.echo(ValueError("as a value"))
    assert isinstance(err, tvm_ffi.container.Error)
    assert err.kind == "ValueError"
    assert err.message == "as a value"


def test_list_changed_during_conversion_does_not_crash():
    obj = t.make_test_object_base(1, 2.0, "s")
    lst = []

    class Shrinker:
        def __tvm_ffi_object__(self):
            lst.clear()
            return obj

    lst.extend([1, Shrinker(), 3, 4])
    with pytest.raises(IndexError):
        t.echo(lst)
    lst2 = []

    class Grower:
        def __tvm_ffi_object__(self):
            lst2.append(99)
            return obj

    lst2.extend([1, Grower()])
    out = t.echo(lst2)
    assert len(out) == 2 and out[1].same_as(obj)
