"""The rows of the argument-conversion table read off a value's class:
numpy scalars by kind, numpy dtypes and scalar types, and the __tvm_ffi_*__,
__dlpack_device__ and __cuda_stream__ protocols."""
import ctypes

import pytest

import tvm_ffi
import tvm_ffi.testing as t


def test_numpy_scalars_by_kind():
    np = pytest.importorskip("numpy")
    out = t.echo(np.bool_(True))
    assert out is True
    assert t.echo(np.bool_(False)) is False
    for v in [np.int8(-3), np.uint16(7), np.int64(-(2**40))]:
        out = t.echo(v)
        assert type(out) is int and out == int(v)
    for v in [np.float32(0.5), np.float64(2.25), np.float16(1.5)]:
        out = t.echo(v)
        assert type(out) is float and out == float(v)


def test_numpy_dtype_and_scalar_types_become_datatype():
    np = pytest.importorskip("numpy")
    for spec, text in [(np.dtype("float32"), "float32"), (np.dtype("int8"), "int8"),
                       (np.dtype("bool"), "bool"), (np.float16, "float16"),
                       (np.uint64, "uint64")]:
        out = t.echo(spec)
        assert isinstance(out, tvm_ffi.dtype), (spec, out)
        assert out == text


def test_ml_dtypes_types_become_datatype():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    np = pytest.importorskip("numpy")
    assert t.echo(ml_dtypes.bfloat16) == "bfloat16"
    assert t.echo(np.dtype(ml_dtypes.bfloat16)) == "bfloat16"
    assert t.echo(np.dtype(ml_dtypes.float8_e4m3fn)) == "float8_e4m3fn"


def test_unsupported_numpy_dtype_names_the_value():
    np = pytest.importorskip("numpy")
    with pytest.raises(ValueError, match=r"numpy dtype dtype\('<U3'\) has no FFI DataType"):
        t.echo(np.dtype("U3"))


class AsInt:
    def __tvm_ffi_int__(self):
        return 42


class AsFloat:
    def __tvm_ffi_float__(self):
        return 2.5


class AsPtr:
    def __init__(self, p):
        self.p = p

    def __tvm_ffi_opaque_ptr__(self):
        return self.p


class AsStream:
    def __cuda_stream__(self):
        return (0, 0x1234)


class AsDevice:
    def __dlpack_device__(self):
        return (2, 3)


class AsObject:
    def __init__(self, obj):
        self.obj = obj

    def __tvm_ffi_object__(self):
        return self.obj


class AsValue:
    def __init__(self, value):
        self.value = value

    def __tvm_ffi_value__(self):
        return self.value


def test_protocols():
    assert t.echo(AsInt()) == 42 and type(t.echo(AsInt())) is int
    assert t.echo(AsFloat()) == 2.5
    p = t.echo(AsPtr(0x10))
    assert isinstance(p, ctypes.c_void_p) and p.value == 0x10
    assert t.echo(AsPtr(None)).value is None
    assert t.echo(AsStream()).value == 0x1234
    assert t.echo(AsDevice()) == tvm_ffi.device("cuda", 3)
    arr = tvm_ffi.Array([1, 2])
    assert t.echo(AsObject(arr)).same_as(arr)


def test_tvm_ffi_value_converts_again():
    assert t.echo(AsValue(5)) == 5
    assert t.echo(AsValue("a string longer than seven")) == "a string longer than seven"
    assert t.echo(AsValue(AsValue([1, AsInt()]))) == [1, 42]
    assert t.echo(AsValue(None)) is None


def test_tvm_ffi_value_cycles_are_detected():
    a = AsValue(None)
    a.value = a
    with pytest.raises(ValueError, match="leads back to itself"):
        t.echo(a)
    b, c = AsValue(None), AsValue(None)
    b.value, c.value = c, b
    with pytest.raises(ValueError, match="leads back to itself"):
        t.echo(b)
    deep = 1
    for _ in range(100):
        deep = AsValue(deep)
    with pytest.raises(RecursionError, match="nested more than 64 deep"):
        t.echo(deep)


def test_tvm_ffi_value_in_two_threads_is_not_a_cycle():
    # Thread A converts outer -> inner, and inner's __tvm_ffi_value__ sleeps
    # (the GIL goes to thread B, which converts the same outer object).  The
    # chain used to find cycles is per thread: B must not see A's `outer`
    # and report a cycle.
    import threading
    import time

    class Slow:
        def __tvm_ffi_value__(self):
            time.sleep(0.05)
            return 7

    outer = AsValue(Slow())
    results, errors = [], []

    def run():
        try:
            results.append(t.echo(outer))
        except Exception as err:  # noqa: BLE001  (recorded and asserted below)
            errors.append(err)

    threads = [threading.Thread(target=run) for _ in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert errors == [] and results == [7, 7, 7, 7]


def test_protocol_errors_name_the_value():
    class BadInt:
        def __tvm_ffi_int__(self):
            return "x"

    class BigInt:
        def __tvm_ffi_int__(self):
            return 2**70

    class BadStream:
        def __cuda_stream__(self):
            return 5

    class BadObject:
        def __tvm_ffi_object__(self):
            return 5

    with pytest.raises(TypeError, match="__tvm_ffi_int__ of .* returned 'x', not an int"):
        t.echo(BadInt())
    with pytest.raises(OverflowError, match=str(2**70)):
        t.echo(BigInt())
    with pytest.raises(TypeError, match=r"not a \(version, pointer\) tuple"):
        t.echo(BadStream())
    with pytest.raises(TypeError, match="returned 5, not an FFI object"):
        t.echo(BadObject())


def test_protocols_are_read_from_the_class():
    obj = type("Plain", (), {})()
    obj.__tvm_ffi_int__ = lambda: 1  # on the instance only: not a protocol
    out = t.echo(obj)
    assert out is obj  # an opaque Python object, back as itself


def test_plain_classes_still_become_functions():
    class Callable:
        def __call__(self, x):
            return x + 1

    f = tvm_ffi.convert(Callable())
    assert isinstance(f, tvm_ffi.Function) and f(1) == 2
