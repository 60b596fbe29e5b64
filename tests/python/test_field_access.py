"""tvm_ffi.core.FieldGetter / FieldSetter (the getter and setter of each
reflected TypeField) and core.ByteArrayArg."""
import pytest

import tvm_ffi
import tvm_ffi.testing as t
from tvm_ffi import core


def _field(type_key, name):
    info = core._lookup_or_register_type_info_from_type_key(type_key)
    return next(f for f in info.fields if f.name == name)


def test_fields_carry_a_getter_and_a_setter():
    a = _field("testing.TestIntPair", "a")
    assert isinstance(a.getter, core.FieldGetter)
    assert isinstance(a.setter, core.FieldSetter)
    assert core.FieldGetter.__module__ == "tvm_ffi.core"


def test_getter_reads_the_field():
    pair = t.TestIntPair(3, 4)
    assert _field("testing.TestIntPair", "a").getter(pair) == 3
    assert _field("testing.TestIntPair", "b").getter(pair) == 4


def test_setter_writes_the_field():
    # Observed from upstream: setter(pair, 5), then pair.a == 5.
    pair = t.TestIntPair(1, 2)
    a = _field("testing.TestIntPair", "a")
    assert a.setter(pair, 5) is None
    assert pair.a == 5 and pair.sum() == 7


def test_setter_converts_and_checks_the_value():
    obj = t.TestObjectDerived(v_i64=1, v_f64=2.0, v_str="s", v_map={"k": 1}, v_array=[1])
    v_map = _field("testing.TestObjectDerived", "v_map")
    v_map.setter(obj, {"x": 2})
    assert isinstance(obj.v_map, tvm_ffi.Map) and dict(obj.v_map) == {"x": 2}
    assert v_map.getter(obj).same_as(obj.v_map)
    pair = t.TestIntPair(1, 2)
    with pytest.raises(TypeError):
        _field("testing.TestIntPair", "a").setter(pair, "not an int")
    assert pair.a == 1


def test_getter_refuses_non_objects_and_other_types():
    a = _field("testing.TestIntPair", "a")
    with pytest.raises(TypeError, match="FieldGetter expects a tvm_ffi.Object, got int"):
        a.getter(1)
    with pytest.raises(TypeError, match="FieldSetter expects a tvm_ffi.Object, got str"):
        a.setter("x", 1)
    with pytest.raises(TypeError):
        a.getter()
    with pytest.raises(TypeError, match="^FieldGetter of a testing.TestIntPair field got ffi.Array$"):
        a.getter(tvm_ffi.Array([1]))  # another type's memory: refused, not read
    with pytest.raises(TypeError, match="^FieldSetter of a testing.TestIntPair field got ffi.Map$"):
        a.setter(tvm_ffi.Map({}), 1)


def test_fields_of_a_base_type_work_on_derived_objects():
    obj = t.TestObjectDerived(v_i64=7, v_f64=2.0, v_str="s", v_map={}, v_array=[])
    base_field = _field("testing.TestObjectBase", "v_i64")
    assert base_field.getter(obj) == 7
    base_field.setter(obj, 9)
    assert obj.v_i64 == 9


def test_byte_array_arg():
    arg = core.ByteArrayArg(b"ab\0c")
    assert len(arg) == 4 and arg.data == b"ab\0c"
    with pytest.raises(TypeError, match="^expected bytes, str found$"):  # upstream's message
        core.ByteArrayArg("ab")


def test_core_dl_device_type_is_the_package_enum():
    assert core.DLDeviceType is tvm_ffi.DLDeviceType
    assert core.DLDeviceType.kDLCUDA == 2
    with pytest.raises(AttributeError, match="'tvm_ffi.core' has no attribute 'nope'"):
        core.nope  # noqa: B018
