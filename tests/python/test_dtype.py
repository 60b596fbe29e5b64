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
