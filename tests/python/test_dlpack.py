"""The DLPack Python protocol: capsules made by hand (ctypes) with counting
deleters, consumed once, refused with the library's message, and freed
exactly once whoever ends up owning them."""
import ctypes
import gc
import os
import sys
import threading

import pytest

import tvm_ffi
import tvm_ffi.testing as t
from tvm_ffi import core

# ---- DLPack structs and capsules through ctypes ---------------------------------------


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [
        ("data", ctypes.c_void_p),
        ("device", DLDevice),
        ("ndim", ctypes.c_int32),
        ("dtype", DLDataType),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
        ("strides", ctypes.POINTER(ctypes.c_int64)),
        ("byte_offset", ctypes.c_uint64),
    ]


class DLPackVersion(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32)]


class DLManagedTensorVersioned(ctypes.Structure):
    pass


class DLManagedTensor(ctypes.Structure):
    pass


VERSIONED_DELETER = ctypes.CFUNCTYPE(None, ctypes.POINTER(DLManagedTensorVersioned))
LEGACY_DELETER = ctypes.CFUNCTYPE(None, ctypes.POINTER(DLManagedTensor))

DLManagedTensorVersioned._fields_ = [
    ("version", DLPackVersion),
    ("manager_ctx", ctypes.c_void_p),
    ("deleter", VERSIONED_DELETER),
    ("flags", ctypes.c_uint64),
    ("dl_tensor", DLTensor),
]
DLManagedTensor._fields_ = [
    ("dl_tensor", DLTensor),
    ("manager_ctx", ctypes.c_void_p),
    ("deleter", LEGACY_DELETER),
]

# Capsule names must outlive their capsules: module-level bytes do.
NAME_VERSIONED = b"dltensor_versioned"
NAME_LEGACY = b"dltensor"
NAME_OTHER = b"not_a_tensor"

_api = ctypes.pythonapi
_capsule_new = _api.PyCapsule_New
_capsule_new.restype = ctypes.py_object
_capsule_new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
# The destructor gets the dying capsule: take it as an address, never as an object.
_capsule_is_valid = _api.PyCapsule_IsValid
_capsule_is_valid.restype = ctypes.c_int
_capsule_is_valid.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
_capsule_get_pointer = _api.PyCapsule_GetPointer
_capsule_get_pointer.restype = ctypes.c_void_p
_capsule_get_pointer.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
DESTRUCTOR = ctypes.PYFUNCTYPE(None, ctypes.c_void_p)


class Producer:
    """Made-by-hand DLPack tensors over float32 data held here.  Counts the
    deleter calls per tensor; the ctypes memory stays alive until then."""

    def __init__(self):
        self.deleted = []  # keys of the tensors whose deleter ran, in order
        self._live = {}

        def versioned_deleter(ptr):
            self._deleted(ctypes.addressof(ptr.contents))

        def legacy_deleter(ptr):
            self._deleted(ctypes.addressof(ptr.contents))

        def destructor(cap):
            kinds = ((NAME_VERSIONED, DLManagedTensorVersioned), (NAME_LEGACY, DLManagedTensor))
            for name, kind in kinds:
                if _capsule_is_valid(cap, name):
                    mt = kind.from_address(_capsule_get_pointer(cap, name))
                    mt.deleter(ctypes.pointer(mt))

        self._versioned_deleter = VERSIONED_DELETER(versioned_deleter)
        self._legacy_deleter = LEGACY_DELETER(legacy_deleter)
        self._destructor = DESTRUCTOR(destructor)

    def _deleted(self, key):
        self.deleted.append(key)
        self._live.pop(key)

    def managed(self, values=(1.0, 2.0, 3.0), versioned=True, version=(1, 3), flags=0,
                strides=None, dtype=(2, 32, 1)):
        """A new managed tensor (1-d float32 by default); returns its address."""
        n = len(values)
        data = (ctypes.c_float * max(n, 1))(*values)
        shape = (ctypes.c_int64 * 1)(n)
        stride_arr = None if strides is None else (ctypes.c_int64 * 1)(*strides)
        mt = DLManagedTensorVersioned() if versioned else DLManagedTensor()
        if versioned:
            mt.version = DLPackVersion(*version)
            mt.flags = flags
            mt.deleter = self._versioned_deleter
        else:
            mt.deleter = self._legacy_deleter
        tensor = mt.dl_tensor
        tensor.data = ctypes.addressof(data)
        tensor.device = DLDevice(1, 0)
        tensor.ndim = 1
        tensor.dtype = DLDataType(*dtype)
        tensor.shape = shape
        tensor.strides = stride_arr
        key = ctypes.addressof(mt)
        self._live[key] = (mt, data, shape, stride_arr)
        return key

    def capsule(self, name=None, **kwargs):
        key = self.managed(**kwargs)
        if name is None:
            name = NAME_VERSIONED if kwargs.get("versioned", True) else NAME_LEGACY
        return _capsule_new(key, name, ctypes.cast(self._destructor, ctypes.c_void_p)), key

    @property
    def live(self):
        return len(self._live)


class Array:
    """Any object with __dlpack__: each call hands out a new capsule."""

    def __init__(self, producer, legacy_only=False, **kwargs):
        self.producer = producer
        self.legacy_only = legacy_only
        self.kwargs = kwargs
        self.calls = []

    def __dlpack__(self, stream=None, **kwargs):
        self.calls.append(dict(kwargs, stream=stream))
        if self.legacy_only and kwargs:
            raise TypeError("__dlpack__() got an unexpected keyword argument 'max_version'")
        max_version = kwargs.get("max_version")
        versioned = max_version is not None and max_version[0] >= 1 and not self.legacy_only
        cap, _ = self.producer.capsule(versioned=versioned, **self.kwargs)
        return cap

    def __dlpack_device__(self):
        return (1, 0)


@pytest.fixture
def producer():
    p = Producer()
    yield p
    gc.collect()
    assert p.live == 0, "a DLPack tensor was never deleted"


def capsule_name(cap):
    return repr(cap).split('"')[1]


# ---- consuming capsules -----------------------------------------------------------------


@pytest.mark.parametrize("versioned", [True, False])
def test_capsule_consumed_once_and_renamed(producer, versioned):
    cap, key = producer.capsule(versioned=versioned)
    x = tvm_ffi.from_dlpack(cap)
    assert isinstance(x, tvm_ffi.Tensor)
    assert x.shape == (3,) and x.dtype == "float32" and x.strides == (1,)
    assert capsule_name(cap) == ("used_dltensor_versioned" if versioned else "used_dltensor")
    assert t.tensor_sum_f32(x) == 6.0
    name = "used_dltensor_versioned" if versioned else "used_dltensor"
    with pytest.raises(ValueError) as e:
        tvm_ffi.from_dlpack(cap)
    assert str(e.value) == f"the DLPack capsule was already consumed (its name is '{name}')"
    del cap
    gc.collect()
    assert producer.deleted == []  # the tensor owns it now
    del x
    assert producer.deleted == [key]


def test_unconsumed_capsule_frees_its_tensor(producer):
    cap, key = producer.capsule()
    assert producer.live == 1
    del cap
    assert producer.deleted == [key]


def test_wrong_capsule_name(producer):
    cap, key = producer.capsule(name=NAME_OTHER)
    with pytest.raises(TypeError) as e:
        tvm_ffi.from_dlpack(cap)
    assert str(e.value) == (
        "expected a DLPack capsule named 'dltensor_versioned' or 'dltensor', got one named "
        "'not_a_tensor'"
    )
    # Not ours to free: the destructor of a capsule with that name does nothing.
    del cap
    assert producer.deleted == []
    producer._deleted(key)  # release the ctypes memory


def test_unknown_major_version_is_refused_and_left_to_its_owner(producer):
    cap, key = producer.capsule(version=(2, 0))
    with pytest.raises(RuntimeError) as e:
        tvm_ffi.from_dlpack(cap)
    assert str(e.value) == (
        "DLPack tensor version 2.0 is not supported: the major version must be 1"
    )
    assert capsule_name(cap) == "dltensor_versioned"
    assert producer.deleted == []
    del cap
    assert producer.deleted == [key]


def test_padded_subbyte_flag_is_refused(producer):
    cap, key = producer.capsule(flags=4)
    with pytest.raises(RuntimeError) as e:
        tvm_ffi.from_dlpack(cap)
    assert str(e.value) == (
        "DLPack tensor has the IS_SUBBYTE_TYPE_PADDED flag: padded sub-byte element types "
        "are not supported"
    )
    assert capsule_name(cap) == "dltensor_versioned"
    del cap
    assert producer.deleted == [key]


@pytest.mark.parametrize("versioned", [True, False])
@pytest.mark.parametrize(
    "dtype, why",
    [
        ((2, 32, 0), "lanes must be at least 1"),
        ((2, 0, 1), "bits must be at least 1"),
        ((255, 0, 0), "bits must be at least 1"),
        ((100, 8, 1), "unknown type code 100"),
    ],
)
def test_invalid_dtype_is_refused_and_left_to_its_owner(producer, versioned, dtype, why):
    # Such a tensor used to be adopted and handed to kernels as is.
    cap, key = producer.capsule(versioned=versioned, dtype=dtype)
    with pytest.raises(RuntimeError) as e:
        tvm_ffi.from_dlpack(cap)
    code, bits, lanes = dtype
    assert str(e.value) == (
        f"DLPack tensor has an invalid dtype {{code {code}, bits {bits}, lanes {lanes}}}: {why}"
    )
    assert capsule_name(cap) == ("dltensor_versioned" if versioned else "dltensor")
    assert producer.deleted == []
    del cap
    assert producer.deleted == [key]


def test_contiguity_refusal_leaves_capsule(producer):
    cap, key = producer.capsule(values=(1.0, 2.0, 3.0, 4.0), strides=(-1,))
    with pytest.raises(RuntimeError) as e:
        tvm_ffi.from_dlpack(cap, require_contiguous=True)
    assert str(e.value) == "DLPack tensor is not contiguous: shape [4], strides [-1]"
    x = tvm_ffi.from_dlpack(cap)  # still unconsumed, so it can be taken without the check
    assert x.strides == (-1,) and not x.is_contiguous()
    del cap, x
    assert producer.deleted == [key]


def test_null_strides_become_compact(producer):
    cap, _ = producer.capsule(versioned=False)
    x = tvm_ffi.from_dlpack(cap)
    assert x.strides == (1,) and x.is_contiguous()


def test_read_only_flag_is_kept(producer):
    is_read_only = tvm_ffi.get_global_func("ffi.TensorIsReadOnly")
    cap, _ = producer.capsule(flags=1)
    x = tvm_ffi.from_dlpack(cap)
    assert is_read_only(x) is True
    with pytest.raises(ValueError) as e:
        t.tensor_add_one_f32(x)
    assert str(e.value) == "testing.tensor_add_one_f32: the tensor is read-only"
    # A legacy capsule cannot carry the flag, so it is refused.
    with pytest.raises(BufferError):
        x.__dlpack__()
    assert "dltensor_versioned" in repr(x.__dlpack__(max_version=(1, 0)))


def test_bad_arguments():
    with pytest.raises(TypeError) as e:
        tvm_ffi.from_dlpack(3)
    assert str(e.value) == "from_dlpack needs an object with __dlpack__ or a DLPack capsule, got 3"
    with pytest.raises(ValueError) as e:
        tvm_ffi.from_dlpack(t.make_tensor_f32(2), require_alignment=-1)
    assert str(e.value) == "require_alignment must be in [0, 2**31), got -1"
    with pytest.raises(TypeError):
        tvm_ffi.from_dlpack()
    with pytest.raises(TypeError):
        tvm_ffi.from_dlpack(t.make_tensor_f32(2), nonsense=1)


# ---- producers with __dlpack__ ----------------------------------------------------------


def test_producer_asked_for_versioned_first(producer):
    a = Array(producer)
    x = tvm_ffi.from_dlpack(a)
    assert a.calls == [{"max_version": tvm_ffi.core.__dlpack_version__, "stream": None}]
    assert tvm_ffi.core.__dlpack_version__ == (1, 3)
    assert t.tensor_sum_f32(x) == 6.0
    del x
    assert len(producer.deleted) == 1


def test_legacy_only_producer_falls_back(producer):
    a = Array(producer, legacy_only=True)
    x = tvm_ffi.from_dlpack(a)
    assert len(a.calls) == 2 and a.calls[1] == {"stream": None}
    assert x.shape == (3,)
    del x
    assert len(producer.deleted) == 1


def test_producer_as_call_argument_deleted_once(producer):
    a = Array(producer)
    assert t.tensor_sum_f32(a) == 6.0
    assert len(producer.deleted) == 1 and producer.live == 0
    t.tensor_noop3(a, a, a)
    assert len(producer.deleted) == 4 and producer.live == 0


def test_producer_kept_alive_by_a_stored_tensor(producer):
    a = Array(producer)
    keep = tvm_ffi.convert([a])  # an ffi.Array holding the tensor
    assert producer.deleted == [] and producer.live == 1
    del keep
    gc.collect()
    assert producer.live == 0


def test_producer_refusal_reaches_the_caller(producer):
    a = Array(producer, version=(9, 9))
    with pytest.raises(RuntimeError, match="^DLPack tensor version 9.9 is not supported"):
        t.tensor_noop(a)
    gc.collect()
    assert producer.live == 0  # the capsule, never consumed, freed it


def test_dlpack_returning_a_non_capsule():
    class Bad:
        def __dlpack__(self, **kwargs):
            return 42

    message = r"^__dlpack__\(\) of .* returned 42, not a DLPack capsule$"
    with pytest.raises(TypeError, match=message):
        tvm_ffi.from_dlpack(Bad())
    with pytest.raises(TypeError, match="returned 42, not a DLPack capsule"):
        t.tensor_noop(Bad())


def test_producer_error_propagates():
    class Failing:
        def __dlpack__(self, **kwargs):
            raise BufferError("cannot export this")

    with pytest.raises(BufferError, match="^cannot export this$"):
        t.tensor_noop(Failing())


# ---- Tensor.__dlpack__ ------------------------------------------------------------------


def test_dlpack_export_versions():
    x = t.make_tensor_f32(2, 3)
    assert capsule_name(x.__dlpack__()) == "dltensor"
    assert capsule_name(x.__dlpack__(max_version=(0, 8))) == "dltensor"
    assert capsule_name(x.__dlpack__(max_version=(1, 0))) == "dltensor_versioned"
    assert capsule_name(x.__dlpack__(max_version=(1, 5), stream=None)) == "dltensor_versioned"
    assert capsule_name(x.__dlpack__(dl_device=(1, 0), copy=False)) == "dltensor"
    assert x.__dlpack_device__() == (1, 0)


def test_dlpack_export_refusals():
    x = t.make_tensor_f32(2)
    with pytest.raises(BufferError) as e:
        x.__dlpack__(copy=True)
    assert str(e.value) == "tvm_ffi.Tensor.__dlpack__ cannot copy: copy=True is not supported"
    with pytest.raises(BufferError) as e:
        x.__dlpack__(dl_device=(2, 0))
    assert str(e.value) == (
        "tvm_ffi.Tensor.__dlpack__ cannot move a tensor on device (1, 0) to device (2, 0)"
    )
    with pytest.raises(TypeError):
        x.__dlpack__(None)
    with pytest.raises(TypeError, match="unexpected keyword argument 'versions'"):
        x.__dlpack__(versions=(1, 0))
    with pytest.raises(TypeError, match=r"max_version must be a \(major, minor\) tuple"):
        x.__dlpack__(max_version=1)
    with pytest.raises(TypeError, match="stream must be None or an int"):
        x.__dlpack__(stream="s")


def test_exported_capsule_holds_a_reference():
    x = t.make_tensor_f32(2)
    before = t.object_use_count(x)
    caps = [x.__dlpack__(max_version=(1, 0)), x.__dlpack__()]
    assert t.object_use_count(x) == before + 2
    y = tvm_ffi.from_dlpack(caps[0])
    assert t.object_use_count(x) == before + 2  # moved into y
    del caps
    gc.collect()
    assert t.object_use_count(x) == before + 1
    del y
    assert t.object_use_count(x) == before


def test_round_trip_through_own_capsules_keeps_lanes():
    x = t.make_tensor("int8x4", 2, 3)
    for cap in (x.__dlpack__(), x.__dlpack__(max_version=(1, 0))):
        y = tvm_ffi.from_dlpack(cap)
        assert y.dtype == "int8x4" and y.dtype.lanes == 4
        assert y.shape == (2, 3) and y.data_ptr() == x.data_ptr()


def test_from_dlpack_of_a_tensor(producer):
    x = t.make_tensor_f32(2, 3)
    assert tvm_ffi.from_dlpack(x) is x
    y = tvm_ffi.from_dlpack(x, require_contiguous=True, require_alignment=64)
    assert y is not x and y.data_ptr() == x.data_ptr()
    cap, key = producer.capsule(values=(1.0, 2.0), strides=(-1,))
    z = tvm_ffi.from_dlpack(cap)
    with pytest.raises(RuntimeError) as e:
        tvm_ffi.from_dlpack(z, require_contiguous=True)
    assert str(e.value) == "DLPack tensor is not contiguous: shape [2], strides [-1]"
    del cap, z
    gc.collect()
    assert producer.deleted == [key]


# ---- streams ------------------------------------------------------------------------------


def test_stream_set_and_get_per_thread():
    cuda = 2
    assert core._env_get_current_stream(cuda, 0) == 0
    prev = core._env_set_current_stream(cuda, 0, 0x1234)
    assert prev == 0
    assert core._env_get_current_stream(cuda, 0) == 0x1234
    assert t.env_get_stream(cuda, 0) == 0x1234  # seen from C on this thread
    assert core._env_get_current_stream(cuda, 1) == 0  # per device
    seen = {}

    def other():
        seen["before"] = core._env_get_current_stream(cuda, 0)
        core._env_set_current_stream(cuda, 0, 0x99)
        seen["after"] = t.env_get_stream(cuda, 0)

    th = threading.Thread(target=other)
    th.start()
    th.join()
    assert seen == {"before": 0, "after": 0x99}
    assert core._env_get_current_stream(cuda, 0) == 0x1234  # untouched by the other thread
    assert core._env_set_current_stream(cuda, 0, None) == 0x1234
    assert core._env_get_current_stream(cuda, 0) == 0


# ---- torch (skipped without it, required with TVM_FFI_REQUIRE_TORCH=1) -------------------


def test_torch_round_trip():
    if os.environ.get("TVM_FFI_REQUIRE_TORCH") == "1":
        import torch
    else:
        torch = pytest.importorskip("torch")
    a = torch.arange(6, dtype=torch.float32).reshape(2, 3)
    x = tvm_ffi.from_dlpack(a)
    assert x.shape == (2, 3) and x.dtype == "float32" and x.data_ptr() == a.data_ptr()
    assert t.tensor_data_ptr(a) == a.data_ptr()
    assert t.tensor_sum_f32(a[:, ::2]) == float(a[:, ::2].sum())
    b = torch.from_dlpack(t.make_tensor_f32(2, 2))
    assert b.shape == (2, 2) and float(b.sum()) == 0.0
    c = torch.from_dlpack(x)
    assert c.data_ptr() == a.data_ptr()
    before = sys.getrefcount(a)
    for _ in range(1000):
        t.tensor_noop(a)
    assert sys.getrefcount(a) == before
