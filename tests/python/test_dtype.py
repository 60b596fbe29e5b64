"""dtype: a str subclass with the parsed DLPack data type."""
import pickle

import pytest

from tvm_ffi import dtype


@pytest.mark.parametrize(
    "text, code, bits, lanes, itemsize",
    [("float32", 2, 32, 1, 4), ("int8", 0, 8, 1, 1), ("uint16", 1, 16, 1, 2),
     ("bfloat16", 4, 16, 1, 2), ("bool", 6, 8, 1, 1), ("int8x4", 0, 8, 4, 4),
     ("float8_e4m3fn", 10, 8, 1, 1), ("float64", 2, 64, 1, 8)],
)
def test_dtype_fields(text, code, bits, lanes, itemsize):
    d = dtype(text)
    assert isinstance(d, str)
    assert d == text
    assert (d.type_code, d.bits, d.lanes, d.itemsize) == (code, bits, lanes, itemsize)


def test_dtype_repr_eq_hash_pickle():
    d = dtype("float32")
    assert repr(d) == "dtype('float32')"
    assert hash(d) == hash("float32")
    assert pickle.loads(pickle.dumps(d)) == d
    assert type(pickle.loads(pickle.dumps(d))) is dtype


def test_dtype_flags_and_with_lanes():
    assert dtype("float16").is_float and not dtype("float16").is_integer
    assert dtype("int32").is_integer and dtype("uint8").is_integer
    assert dtype("bool").is_bool
    v = dtype("float32").with_lanes(4)
    assert v == "float32x4" and v.lanes == 4
    assert dtype.from_dlpack_data_type((0, 32, 1)) == "int32"


def test_dtype_bad_name():
    with pytest.raises(ValueError) as info:
        dtype("floaty")
    assert "floaty" in str(info.value)


def test_dtype_round_trip_and_numpy():
    import tvm_ffi.testing as t

    out = t.echo(dtype("bfloat16"))
    assert type(out) is dtype and out == "bfloat16"
    np = pytest.importorskip("numpy")
    assert np.zeros(2, dtype=dtype("float32")).dtype == np.float32


# More distinct data types than the extension remembers (16), so that entries
# are replaced while the loop runs: every answer must still be the right one.
_MANY = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
         "float16", "float32", "float64", "bool", "int8x4", "float32x2", "bfloat16",
         "float8_e4m3fn", "float8_e5m2", "int32x8", "uint8x16", "float64x2"]


def test_returned_dtypes_stay_right_past_the_memo():
    import tvm_ffi.testing as t

    for _ in range(3):
        for text in _MANY:
            out = t.echo(dtype(text))
            assert type(out) is dtype and out == text
            assert (out.bits, out.lanes) == (dtype(text).bits, dtype(text).lanes)


def test_numpy_dtypes_and_scalar_types_convert_past_the_memo():
    import sys

    import tvm_ffi.testing as t

    np = pytest.importorskip("numpy")
    names = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
             "float16", "float32", "float64", "bool", "complex64"]
    wanted = {"bool": "bool", "complex64": None}
    for _ in range(3):
        for name in names:
            d = np.dtype(name)
            if name == "complex64":
                # No FFI data type: refused every time, never remembered as one.
                with pytest.raises(ValueError, match="numpy dtype dtype\\('complex64'\\) has no FFI"):
                    t.echo(d)
                continue
            assert t.echo(d) == wanted.get(name, name)
            assert t.echo(d.type) == wanted.get(name, name)  # np.int8 ... as a type
    # The memo holds one reference per remembered dtype, not one per call.
    d = np.dtype([("a", "i4")])  # a fresh, non-singleton dtype object
    before = sys.getrefcount(d)
    with pytest.raises(ValueError):
        t.echo(d)
    assert sys.getrefcount(d) == before
    d = np.dtype(np.int16).newbyteorder("=")
    before = sys.getrefcount(d)
    for _ in range(100):
        assert t.echo(d) == "int16"
    assert sys.getrefcount(d) <= before + 1
