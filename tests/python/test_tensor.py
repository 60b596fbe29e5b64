"""Tensors: DLPack in and out of numpy, zero copy, lifetimes, errors."""
import gc
import sys

import pytest

import tvm_ffi
import tvm_ffi.testing as t

np = pytest.importorskip("numpy")


def test_from_dlpack_numpy_zero_copy():
    a = np.arange(6, dtype="float32").reshape(2, 3)
    x = tvm_ffi.from_dlpack(a)
    assert isinstance(x, tvm_ffi.Tensor)
    assert x.shape == (2, 3) and x.ndim == 2 and x.strides == (3, 1)
    assert x.dtype == "float32" and isinstance(x.dtype, tvm_ffi.dtype)
    assert x.device == tvm_ffi.Device("cpu", 0)
    assert x.data_ptr() == a.ctypes.data
    assert x.numel() == 6 and x.size(-1) == 3 and x.is_contiguous()
    assert x.__dlpack_device__() == (1, 0)
    with pytest.raises(IndexError):
        x.size(2)


def test_round_trip_numpy_ffi_numpy_same_memory():
    a = np.arange(12, dtype="int32")
    b = np.from_dlpack(tvm_ffi.from_dlpack(a))
    assert b.ctypes.data == a.ctypes.data
    b[0] = 100
    assert a[0] == 100


def test_numpy_arrays_as_call_arguments():
    a = np.ones((3, 4), dtype="float32")
    assert t.tensor_sum_f32(a) == 12.0
    assert t.tensor_data_ptr(a) == a.ctypes.data
    t.tensor_add_one_f32(a)
    assert (a == 2).all()
    assert t.tensor_shape(a) == (3, 4)


def test_non_contiguous_and_negative_strides():
    a = np.arange(12, dtype="float32").reshape(3, 4)
    view = a[:, ::-2]
    x = tvm_ffi.from_dlpack(view)
    assert x.strides == (4, -2)
    assert not x.is_contiguous()
    assert t.tensor_sum_f32(view) == float(view.sum())
    with pytest.raises(Exception):
        tvm_ffi.from_dlpack(view, require_contiguous=True)


def test_zero_dim_and_empty():
    s = tvm_ffi.from_dlpack(np.array(5.0, dtype="float64"))
    assert s.shape == () and s.numel() == 1
    e = tvm_ffi.from_dlpack(np.zeros((0, 3), dtype="int8"))
    assert e.shape == (0, 3) and e.numel() == 0 and e.is_contiguous()


@pytest.mark.parametrize("dt", ["bool", "float16", "int8", "uint64", "float64"])
def test_dtypes(dt):
    a = np.zeros(4, dtype=dt)
    x = tvm_ffi.from_dlpack(a)
    assert x.dtype == dt
    assert np.from_dlpack(x).dtype == np.dtype(dt)


def test_tensor_outlives_numpy_array():
    a = np.arange(5, dtype="float32")
    x = tvm_ffi.from_dlpack(a)
    ptr = a.ctypes.data
    del a
    gc.collect()
    assert x.data_ptr() == ptr
    assert t.tensor_sum_f32(x) == 10.0


def test_ffi_made_tensor_to_numpy_and_freed_once():
    before_alloc, before_free = t.tensor_alloc_count(), t.tensor_free_count()
    x = t.make_tensor_f32(2, 3)
    assert isinstance(x, tvm_ffi.Tensor) and x.shape == (2, 3)
    b = np.from_dlpack(x)
    assert b.shape == (2, 3) and b.ctypes.data == x.data_ptr()
    del x
    assert t.tensor_free_count() == before_free
    b[0, 0] = 1.0
    del b
    gc.collect()
    assert t.tensor_alloc_count() == before_alloc + 1
    assert t.tensor_free_count() == before_free + 1


def test_capsule_rules():
    x = t.make_tensor_f32(2)
    cap = x.__dlpack__()
    y = tvm_ffi.from_dlpack(cap)
    assert y.same_as(y) and y.data_ptr() == x.data_ptr()
    with pytest.raises(ValueError, match="already consumed"):
        tvm_ffi.from_dlpack(cap)
    # An unconsumed capsule frees its tensor when collected.
    before = t.object_use_count(x)
    cap2 = x.__dlpack__(max_version=(1, 0))
    assert t.object_use_count(x) == before + 1
    del cap2
    gc.collect()
    assert t.object_use_count(x) == before


def test_dlpack_export_options():
    x = t.make_tensor_f32(2)
    with pytest.raises(BufferError):
        x.__dlpack__(copy=True)
    with pytest.raises(BufferError):
        x.__dlpack__(dl_device=(2, 0))
    assert np.from_dlpack(x).shape == (2,)


def test_read_only_numpy_array_keeps_flag():
    a = np.arange(3, dtype="float32")
    a.flags.writeable = False
    x = tvm_ffi.from_dlpack(a)
    assert t.tensor_is_read_only(x) is True
    assert t.tensor_is_read_only(np.arange(3, dtype="float32")) is False


def test_from_dlpack_type_error():
    with pytest.raises(TypeError, match="^from_dlpack needs an object with __dlpack__"):
        tvm_ffi.from_dlpack(3)


def test_argument_refcount_unchanged():
    a = np.ones(4, dtype="float32")
    before = sys.getrefcount(a)
    for _ in range(10000):
        t.tensor_noop(a)
    assert sys.getrefcount(a) == before


# ---- numpy arguments: zero copy, every layout, every dtype ----------------------------------

ml_dtypes = None
try:
    import ml_dtypes  # noqa: F811
except ImportError:
    pass


def addr(a):
    return a.__array_interface__["data"][0]


def check_same_tensor(a, x):
    """x (a Tensor) describes exactly the memory and layout of numpy array a."""
    assert x.shape == a.shape
    assert x.strides == tuple(s // a.itemsize for s in a.strides)
    assert x.data_ptr() == addr(a)
    assert x.device == tvm_ffi.Device("cpu", 0)


LAYOUTS = {
    "contiguous": lambda a: a,
    "transposed": lambda a: a.T,
    "every_other_column": lambda a: a[:, ::2],
    "negative_strides": lambda a: a[::-1, ::-3],
    "broadcast": lambda a: np.broadcast_to(a[:1], a.shape),
    "row": lambda a: a[1],
    "zero_dim": lambda a: a[1, 2, ...],
    "empty": lambda a: a[:0],
}


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_layouts_as_arguments_and_from_dlpack(layout):
    base = np.arange(24, dtype="float32").reshape(4, 6)
    a = LAYOUTS[layout](base)
    x = tvm_ffi.from_dlpack(a)
    check_same_tensor(a, x)
    assert t.tensor_data_ptr(a) == addr(a)
    assert t.tensor_shape(a) == a.shape
    assert t.tensor_strides(a) == x.strides
    assert t.tensor_sum_f32(a) == float(a.sum())
    b = np.from_dlpack(x)
    assert addr(b) == addr(a) and b.strides == a.strides and b.shape == a.shape
    assert x.is_contiguous() == (a.flags.c_contiguous or a.size == 0)


def test_write_through_argument():
    a = np.zeros((3, 4), dtype="float32")
    view = a[::2, 1::2]
    t.tensor_add_one_f32(view)
    expected = np.zeros((3, 4), dtype="float32")
    expected[::2, 1::2] = 1
    assert (a == expected).all()


DTYPES = [
    ("bool", "bool"),
    ("int8", "int8"),
    ("int16", "int16"),
    ("int32", "int32"),
    ("int64", "int64"),
    ("uint8", "uint8"),
    ("uint16", "uint16"),
    ("uint32", "uint32"),
    ("uint64", "uint64"),
    ("float16", "float16"),
    ("float32", "float32"),
    ("float64", "float64"),
    ("intc", "int32"),
    ("longlong", "int64"),
    ("uintp", "uint64"),
]


@pytest.mark.parametrize("np_dtype,ffi_dtype", DTYPES)
def test_numpy_dtypes(np_dtype, ffi_dtype):
    a = np.ones((2, 3), dtype=np_dtype)[:, ::2]
    for _ in range(2):  # the first sight of a dtype takes another path than the next ones
        x = tvm_ffi.from_dlpack(a)
        assert x.dtype == ffi_dtype
        assert t.tensor_dtype(a) == ffi_dtype
        check_same_tensor(a, x)
        assert np.from_dlpack(x).dtype == a.dtype


@pytest.mark.skipif(ml_dtypes is None, reason="ml_dtypes is not installed")
@pytest.mark.parametrize("name", ["bfloat16", "float8_e4m3fn", "float8_e5m2"])
def test_ml_dtypes(name):
    a = np.arange(12, dtype="float32").reshape(3, 4).astype(getattr(ml_dtypes, name))[::-1, 1:]
    for _ in range(2):
        x = tvm_ffi.from_dlpack(a)
        assert x.dtype == name
        assert t.tensor_dtype(a) == name
        check_same_tensor(a, x)
    a.flags.writeable = False
    assert tvm_ffi.get_global_func("ffi.TensorIsReadOnly")(tvm_ffi.from_dlpack(a)) is True


def test_unsupported_numpy_arrays_raise_numpy_errors():
    for a in (
        np.zeros(3, dtype=">f4"),  # byte-swapped
        np.array(["x", "y"]),  # strings
        np.zeros(2, dtype="datetime64[s]"),
        np.zeros(3, dtype=object),
    ):
        with pytest.raises(BufferError):
            t.tensor_noop(a)
        with pytest.raises(BufferError):
            tvm_ffi.from_dlpack(a)


def test_strides_not_a_multiple_of_the_item_size():
    raw = np.zeros(16, dtype="uint8")
    a = np.lib.stride_tricks.as_strided(raw.view("int32"), shape=(3,), strides=(2,))
    with pytest.raises(BufferError):
        t.tensor_noop(a)


def test_lanes_tensor_from_ffi():
    x = t.make_tensor("int8x4", 2, 3)
    assert x.dtype == "int8x4" and x.dtype.lanes == 4 and x.dtype.bits == 8
    assert x.shape == (2, 3) and x.strides == (3, 1) and x.ndim == 2
    assert t.tensor_dtype(x) == "int8x4"
    assert t.tensor_numel(x) == 6 and x.numel() == 6
    # numpy has no vector element types: it refuses rather than misreads.
    with pytest.raises(BufferError):
        np.from_dlpack(x)


def test_ffi_tensor_to_numpy_zero_copy_and_writable():
    x = t.make_tensor_f32(2, 3)
    b = np.from_dlpack(x)
    assert addr(b) == x.data_ptr() and b.flags.writeable
    b[1, 2] = 5.0
    assert t.tensor_sum_f32(x) == 5.0


def test_read_only_numpy_array_refused_for_writing():
    a = np.arange(4, dtype="float32")
    a.flags.writeable = False
    is_read_only = tvm_ffi.get_global_func("ffi.TensorIsReadOnly")
    assert is_read_only(a) is True
    assert is_read_only(a[::2]) is True
    assert t.tensor_sum_f32(a) == 6.0  # reading is fine
    with pytest.raises(ValueError) as e:
        t.tensor_add_one_f32(a)
    assert str(e.value) == "testing.tensor_add_one_f32: the tensor is read-only"
    assert (a == np.arange(4)).all()
    x = tvm_ffi.from_dlpack(a)
    b = np.from_dlpack(x)  # numpy asks for a versioned capsule: the flag travels
    assert not b.flags.writeable and addr(b) == addr(a)
    with pytest.raises(BufferError):
        x.__dlpack__()  # a legacy capsule could not say read-only


def test_tensor_keeps_array_alive_and_releases_it_once():
    a = np.arange(5, dtype="float32")
    base = sys.getrefcount(a)
    x = tvm_ffi.from_dlpack(a)
    assert sys.getrefcount(a) == base + 1
    y = tvm_ffi.from_dlpack(a)
    assert sys.getrefcount(a) == base + 2
    del x
    assert sys.getrefcount(a) == base + 1
    del y
    assert sys.getrefcount(a) == base


def test_tensor_outlives_array_data_still_valid():
    x = tvm_ffi.from_dlpack(np.arange(1000, dtype="float32")[::-1])
    gc.collect()
    np.ones(10000)  # reuse freed memory, if any was freed
    assert t.tensor_sum_f32(x) == float(sum(range(1000)))
    assert np.from_dlpack(x)[0] == 999.0


class Sub(np.ndarray):
    pass


@pytest.mark.parametrize("kind", ["ndarray", "read_only", "subclass", "bool", "bfloat16"])
def test_refcounts_unchanged_after_many_calls(kind):
    if kind == "bfloat16" and ml_dtypes is None:
        pytest.skip("ml_dtypes is not installed")
    a = {
        "ndarray": lambda: np.ones(4, dtype="float32"),
        "read_only": lambda: np.ones(4, dtype="float32"),
        "subclass": lambda: np.ones(4, dtype="float32").view(Sub),
        "bool": lambda: np.ones(4, dtype="bool"),
        "bfloat16": lambda: np.ones(4, dtype=getattr(ml_dtypes, "bfloat16", None)),
    }[kind]()
    if kind == "read_only":
        a.flags.writeable = False
    before = sys.getrefcount(a)
    for _ in range(2000):
        t.tensor_noop(a)
        t.tensor_noop3(a, a, a)
        tvm_ffi.from_dlpack(a)
    assert sys.getrefcount(a) == before


def test_argument_conversion_allocates_nothing_lasting():
    a, b, c = (np.ones(4, dtype="float32") for _ in range(3))
    counts = [sys.getrefcount(a), sys.getrefcount(b), sys.getrefcount(c)]
    alloc0, free0 = t.tensor_alloc_count(), t.tensor_free_count()
    for _ in range(1000):
        t.tensor_noop3(a, b, c)
    assert (t.tensor_alloc_count(), t.tensor_free_count()) == (alloc0, free0)
    assert [sys.getrefcount(a), sys.getrefcount(b), sys.getrefcount(c)] == counts


@pytest.mark.parametrize("np_dtype,bits", [("complex64", 64), ("complex128", 128)])
def test_complex_arrays_pass_through(np_dtype, bits):
    # DLPack has complex types (code 5) but the library's dtype text does not,
    # so the tensor travels and round-trips while its dtype cannot be named.
    a = (np.arange(6) + 1j).astype(np_dtype).reshape(2, 3)[:, ::-1]
    x = tvm_ffi.from_dlpack(a)
    assert t.tensor_data_ptr(a) == addr(a) and x.strides == (3, -1)
    b = np.from_dlpack(x)
    assert b.dtype == a.dtype and addr(b) == addr(a) and (b == a).all()
    with pytest.raises(ValueError) as e:
        x.dtype
    assert str(e.value) == (
        f"cannot format dtype {{code 5, bits {bits}, lanes 1}}: unknown type code 5"
    )


def test_tensor_properties():
    a = np.zeros((2, 3, 4), dtype="float64")[:, 1:, ::2]
    x = tvm_ffi.from_dlpack(a)
    assert x.ndim == 3 and x.numel() == a.size and x.byte_offset == 0
    assert x.size(0) == 2 and x.size(-1) == 2 and x.size(-3) == 2
    with pytest.raises(IndexError) as e:
        x.size(3)
    assert str(e.value) == "dimension 3 out of range for a tensor of 3 dimensions"
    assert isinstance(x.dtype, tvm_ffi.dtype) and isinstance(x.device, tvm_ffi.Device)
    assert repr(x) == str(x) == "float64[2, 2, 2]@cpu:0"
    assert isinstance(x, tvm_ffi.Object) and type(x) is tvm_ffi.Tensor
    with pytest.raises(TypeError):
        tvm_ffi.Tensor()
    # Subclasses are allowed (as upstream): test_a_tensor_subclass_can_wrap_every_tensor.


def test_python_callback_receives_tensor():
    seen = []

    def callback(x):
        seen.append((type(x), x.shape, x.data_ptr()))
        return x

    f = tvm_ffi.convert(callback)
    a = np.ones((2, 2), dtype="float32")
    out = f(a)
    assert seen == [(tvm_ffi.Tensor, (2, 2), addr(a))]
    assert isinstance(out, tvm_ffi.Tensor) and out.data_ptr() == addr(a)


def test_tensors_alive_at_interpreter_exit():
    # Deleters that run while Python finalizes must neither crash nor hang.
    import subprocess
    import textwrap

    code = textwrap.dedent(
        """
        import numpy as np, tvm_ffi, tvm_ffi.testing as t
        a = np.arange(6, dtype="float32").reshape(2, 3)
        x = tvm_ffi.from_dlpack(a[:, ::2])
        held = tvm_ffi.convert([x, tvm_ffi.from_dlpack(np.ones(3))])
        cap = x.__dlpack__(max_version=(1, 0))
        b = np.from_dlpack(t.make_tensor_f32(4))
        cycle = [held]
        cycle.append(cycle)
        print("ok")
        """
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert (res.returncode, res.stdout, res.stderr) == (0, "ok\n", "")


def test_alignment_and_contiguity_refusals():
    base = np.zeros(64, dtype="float32")
    a = base[(-addr(base) % 64) // 4 + 1 :][:8]  # 4 bytes past a 64-byte boundary
    assert addr(a) % 64 == 4
    with pytest.raises(RuntimeError) as e:
        tvm_ffi.from_dlpack(a, require_alignment=64)
    assert str(e.value) == (
        f"DLPack tensor data is not aligned to 64 bytes: data + byte_offset = {addr(a):#x}"
    )
    assert tvm_ffi.from_dlpack(a, require_alignment=4).data_ptr() == addr(a)
    b = np.zeros((3, 4), dtype="float32")[:, ::-2]
    with pytest.raises(RuntimeError) as e:
        tvm_ffi.from_dlpack(b, require_contiguous=True)
    assert str(e.value) == "DLPack tensor is not contiguous: shape [3, 2], strides [4, -2]"
    assert tvm_ffi.from_dlpack(np.zeros((3, 4))[1:], require_contiguous=True).shape == (2, 4)
    before = sys.getrefcount(b)
    for _ in range(100):
        with pytest.raises(RuntimeError):
            tvm_ffi.from_dlpack(b, require_contiguous=True)
    assert sys.getrefcount(b) == before  # refused tensors release the array


def test_optional_tensor_argument():
    has_value = tvm_ffi.get_global_func("testing.optional_tensor_view_has_value")
    assert has_value(None) is False
    assert has_value(np.zeros(3, dtype="float32")) is True
    assert has_value(tvm_ffi.from_dlpack(np.zeros(2, dtype="int8"))) is True
    with pytest.raises(TypeError, match=r"Expected `Optional<ffi.Tensor>` but got `int`$"):
        has_value(3)


def test_a_tensor_subclass_can_wrap_every_tensor():
    import tvm_ffi.core as core

    class MyTensor(tvm_ffi.Tensor):
        pass

    assert core._CLASS_TENSOR is tvm_ffi.Tensor
    a = np.arange(4, dtype="float32")
    core._set_class_tensor(MyTensor)
    try:
        assert core._CLASS_TENSOR is MyTensor
        x = tvm_ffi.from_dlpack(a)
        assert type(x) is MyTensor
        x.note = "a subclass has a __dict__"
        y = tvm_ffi.get_global_func("testing.echo")(x)
        assert type(y) is MyTensor and y.data_ptr() == a.ctypes.data
        assert y.dtype == "float32" and y.device == tvm_ffi.Device("cpu", 0)
        assert repr(y) == "float32[4]@cpu:0"
        assert np.from_dlpack(y).tolist() == [0.0, 1.0, 2.0, 3.0]
    finally:
        core._set_class_tensor(tvm_ffi.Tensor)
    assert type(tvm_ffi.from_dlpack(a)) is tvm_ffi.Tensor
    with pytest.raises(TypeError, match="is not a subclass of tvm_ffi.Tensor"):
        core._set_class_tensor(int)
    with pytest.raises(TypeError, match="cannot be made directly"):
        MyTensor()
