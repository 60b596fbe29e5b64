"""tvm_ffi.VirtualDevice: constraints, canonical objects, join/default, pickle."""
import pickle

import pytest

import tvm_ffi
from tvm_ffi import VirtualDevice
from tvm_ffi.serialization import from_json_graph_str, to_json_graph_str


def test_construction_and_read_only_fields():
    vd = VirtualDevice()
    assert (vd.device_type_int, vd.virtual_device_id, vd.target, vd.memory_scope) == (-1, -1, None, "")
    assert vd.is_fully_unconstrained() and not vd.is_fully_constrained()
    vd = VirtualDevice(tvm_ffi.Device("cuda", 1))
    assert (vd.device_type_int, vd.virtual_device_id, vd.device_type()) == (2, 1, 2)
    vd = VirtualDevice(8)  # a DLPack device type: the id stays unconstrained
    assert (vd.device_type_int, vd.virtual_device_id) == (8, -1)
    only_scope = VirtualDevice(memory_scope="global")
    assert not only_scope.is_fully_unconstrained() and only_scope.memory_scope == "global"
    target = tvm_ffi.convert(["llvm"])
    full = VirtualDevice(tvm_ffi.Device("cuda", 0), target, "global")
    assert full.is_fully_constrained() and full.target.same_as(target)
    with pytest.raises(AttributeError):
        full.memory_scope = "x"
    with pytest.raises(TypeError, match=r"^VirtualDevice: device must be a tvm_ffi.Device, a device type int or None, got str$"):
        VirtualDevice("cuda")
    with pytest.raises(TypeError, match=r"^VirtualDevice: memory_scope must be a str, got int$"):
        VirtualDevice(memory_scope=3)
    with pytest.raises(ValueError, match=r"device_type_int must be -1 \(unconstrained\) or a non-negative int32, got -5"):
        VirtualDevice(-5)
    with pytest.raises(TypeError, match=r"target must be an FFI object or None, got int"):
        VirtualDevice(1, 3)


def test_repr_shows_only_constrained_fields():
    assert repr(VirtualDevice()) == "VirtualDevice()"
    assert repr(VirtualDevice(memory_scope="global")) == "VirtualDevice(memory_scope='global')"
    assert repr(VirtualDevice(tvm_ffi.Device("cuda", 1), memory_scope="g")) == (
        "VirtualDevice(device_type=2, virtual_device_id=1, memory_scope='g')"
    )


def test_canonical_objects():
    fu = VirtualDevice.fully_unconstrained()
    assert fu.same_as(VirtualDevice.fully_unconstrained())
    assert VirtualDevice.canonical(VirtualDevice()).same_as(fu)
    a = VirtualDevice(tvm_ffi.Device("cuda", 1), memory_scope="global")
    b = VirtualDevice(tvm_ffi.Device("cuda", 1), memory_scope="global")
    assert not a.same_as(b)
    assert VirtualDevice.canonical(a).same_as(VirtualDevice.canonical(b))
    assert not VirtualDevice.canonical(VirtualDevice(2)).same_as(VirtualDevice.canonical(a))
    assert a == b and hash(a) == hash(b) and a != VirtualDevice(2)
    assert len({a, b, VirtualDevice(), fu}) == 2


def test_join():
    dev = VirtualDevice(tvm_ffi.Device("cuda", 1))
    scope = VirtualDevice(memory_scope="global")
    j = VirtualDevice.join(dev, scope)
    assert (j.device_type_int, j.virtual_device_id, j.memory_scope) == (2, 1, "global")
    assert j.same_as(VirtualDevice.canonical(VirtualDevice(tvm_ffi.Device("cuda", 1), memory_scope="global")))
    assert VirtualDevice.join(dev, VirtualDevice(tvm_ffi.Device("cpu", 0))) is None
    assert VirtualDevice.join(dev, VirtualDevice(tvm_ffi.Device("cuda", 2))) is None
    assert VirtualDevice.join(scope, VirtualDevice(memory_scope="shared")) is None
    t1, t2 = tvm_ffi.convert(["a"]), tvm_ffi.convert(["a"])
    assert VirtualDevice.join(VirtualDevice(target=t1), VirtualDevice(target=t2)) is None
    assert VirtualDevice.join(VirtualDevice(), VirtualDevice()).same_as(VirtualDevice.fully_unconstrained())


def test_default():
    t1 = tvm_ffi.convert(["a"])
    d = VirtualDevice.default(VirtualDevice(memory_scope="global"),
                              VirtualDevice(tvm_ffi.Device("cuda", 3), t1, "local"))
    assert (d.device_type_int, d.virtual_device_id, d.memory_scope) == (2, 3, "global")
    assert d.target.same_as(t1)
    e = VirtualDevice.default(VirtualDevice(1), VirtualDevice(tvm_ffi.Device("cuda", 0), t1))
    assert (e.device_type_int, e.virtual_device_id, e.target) == (1, 0, None)


def test_json_graph_and_pickle_give_the_canonical_object():
    a = VirtualDevice(tvm_ffi.Device("cuda", 1), memory_scope="global")
    text = to_json_graph_str(a)
    assert text == (
        '{"root_index":2,"nodes":[{"type":"None"},{"type":"ffi.String","data":"global"},'
        '{"type":"ffi.VirtualDevice","data":{"device_type_int":2,"virtual_device_id":1,'
        '"target":0,"memory_scope":1}}]}'
    )
    assert from_json_graph_str(text).same_as(VirtualDevice.canonical(a))
    back = pickle.loads(pickle.dumps(a))
    assert type(back) is VirtualDevice and back == a
    assert back.same_as(VirtualDevice.canonical(a))
    assert pickle.loads(pickle.dumps(VirtualDevice())).same_as(VirtualDevice.fully_unconstrained())


def test_c_callers_have_the_globals():
    names = set(tvm_ffi.list_global_func_names())
    for n in ["ffi.VirtualDevice", "ffi.VirtualDeviceFullyUnconstrained", "ffi.VirtualDeviceCanonical",
              "ffi.VirtualDeviceJoin", "ffi.VirtualDeviceDefault",
              "ffi.VirtualDeviceIsFullyUnconstrained", "ffi.VirtualDeviceIsFullyConstrained"]:
        assert n in names
    join = tvm_ffi.get_global_func("ffi.VirtualDeviceJoin")
    assert join(VirtualDevice(2), VirtualDevice(3)) is None
