"""Device: construction, parsing, properties, equality, errors."""
import pickle

import pytest

import tvm_ffi
from tvm_ffi import DLDeviceType, Device


def test_device_from_string_and_pair():
    d = Device("cuda:1")
    assert d.type == "cuda"
    assert d.index == 1
    assert d.dlpack_device_type() == DLDeviceType.kDLCUDA == 2
    assert Device("cuda", 1) == d
    assert tvm_ffi.device("cuda:1") == d
    assert Device("cpu").index == 0
    assert Device("cuda:2 (annotation)").index == 2
    assert Device("cuda:3", 0).index == 3
    assert Device(DLDeviceType.kDLCPU, 0) == Device("cpu")
    assert Device("mps").type == "metal"


def test_device_str_repr():
    d = Device("cuda", 0)
    assert str(d) == "cuda:0"
    assert repr(d) == "device(type='cuda', index=0)"
    assert str(Device("rocm:5")) == "rocm:5"


def test_device_eq_hash_pickle():
    assert Device("cpu", 0) == Device("cpu", 0)
    assert Device("cpu", 0) != Device("cpu", 1)
    assert Device("cpu", 0) != "cpu:0"
    assert hash(Device("cuda", 2)) == hash(Device("cuda:2"))
    assert len({Device("cpu"), Device("cpu", 0), Device("cuda")}) == 2
    assert pickle.loads(pickle.dumps(Device("cuda:3"))) == Device("cuda:3")


def test_device_errors():
    with pytest.raises(ValueError) as info:
        Device("tpu")
    assert str(info.value) == "Unknown device: tpu"
    with pytest.raises(ValueError, match="^Invalid device: 'cuda:0:1'$"):
        Device("cuda:0:1")
    with pytest.raises(ValueError, match="^Invalid device index: 'cuda:x'$"):
        Device("cuda:x")
    with pytest.raises(TypeError, match="^device index must be an int, got 'a'$"):
        Device("cuda", "a")
    with pytest.raises(ValueError, match="^Unknown device: llvm$"):
        Device("llvm")


def test_device_index_from_numpy_scalar():
    np = pytest.importorskip("numpy")
    assert Device("cuda", np.int64(3)).index == 3


def test_removed_names_do_not_exist():
    d = Device("cuda:0")
    assert not hasattr(d, "device_id")
    assert not hasattr(d, "device_type")
    assert not hasattr(Device, "cpu")
    assert not hasattr(Device, "cuda")


def test_set_class_device():
    import tvm_ffi.testing as t

    class MyDevice(tvm_ffi.Device):
        pass

    old = tvm_ffi.core._CLASS_DEVICE
    assert old is tvm_ffi.Device
    tvm_ffi.core._set_class_device(MyDevice)
    try:
        assert tvm_ffi.core._CLASS_DEVICE is MyDevice
        d = tvm_ffi.device("cuda", 1)
        assert type(d) is MyDevice and d == tvm_ffi.Device("cuda", 1)
        assert type(t.echo(tvm_ffi.Device("cpu", 0))) is MyDevice  # call results too
        with pytest.raises(TypeError, match="^_set_class_device needs core.Device or a subclass, got"):
            tvm_ffi.core._set_class_device(int)
    finally:
        tvm_ffi.core._set_class_device(old)
    assert type(tvm_ffi.device("cpu")) is tvm_ffi.Device
