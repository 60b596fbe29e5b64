"""Objects: register_object, reflected fields and methods, identity."""
import pytest

import tvm_ffi
import tvm_ffi.testing as t


@tvm_ffi.register_object("testing.TestObjectBase")
class TestObjectBase(tvm_ffi.Object):
    __test__ = False


@tvm_ffi.register_object("testing.TestObjectDerived")
class TestObjectDerived(TestObjectBase):
    __test__ = False


def test_returned_objects_use_the_registered_class():
    obj = t.make_test_object_base(1, 2.5, "abc")
    assert type(obj) is TestObjectBase
    assert obj.__tvm_ffi_type_key__ == "testing.TestObjectBase"


def test_reflected_fields_are_properties():
    obj = TestObjectBase(3, 4.5, "xyz")
    assert (obj.v_i64, obj.v_f64, obj.v_str) == (3, 4.5, "xyz")
    obj.v_i64 = 10
    assert obj.v_i64 == 10
    obj.v_str = "a string longer than seven bytes"
    assert obj.v_str == "a string longer than seven bytes"
    with pytest.raises(TypeError):
        obj.v_i64 = "not an int"
    assert TestObjectBase.v_i64.__doc__ == "int64 field"


def test_reflected_methods():
    obj = TestObjectBase(3, 4.5, "xyz")
    assert obj.add_i64(4) == 7


def test_derived_type_inherits_fields():
    # Positional parameters: the required v_array, then the defaulted fields.
    obj = TestObjectDerived([1, 2], 1, 2.0, "s")
    assert isinstance(obj, TestObjectBase)
    assert obj.v_i64 == 1
    assert list(obj.v_array) == [1, 2]
    assert obj.add_i64(1) == 2


def test_identity_equality_and_hash():
    a = t.make_test_object_base(1, 2.0, "s")
    b = t.echo(a)
    c = t.make_test_object_base(1, 2.0, "s")
    assert a.same_as(b) and a == b and hash(a) == hash(b)
    assert not a.same_as(c) and a != c
    assert a.__chandle__() == b.__chandle__() != 0
    assert not a.same_as(1)
    # Upstream's other names: id_ is __chandle__(), is_ is same_as.
    assert a.id_ == b.id_ == a.__chandle__() and a.id_ != c.id_
    assert a.is_(b) and not a.is_(c) and not a.is_(None) and not a.is_(object())
    assert tvm_ffi.Object.__new__(tvm_ffi.Object).id_ == 0
    # __ctypes_handle__(): the address as a ctypes.c_void_p (None when empty).
    import ctypes
    h = a.__ctypes_handle__()
    assert type(h) is ctypes.c_void_p and h.value == a.__chandle__()
    moved = t.make_test_object_base(1, 2.0, "s")
    t.echo(moved._move())
    assert moved.__ctypes_handle__().value is None


def test_register_object_refuses_keys_without_namespace():
    with pytest.raises(ValueError) as info:

        @tvm_ffi.register_object("NoNamespace")
        class Bad(tvm_ffi.Object):
            pass

    assert str(info.value) == (
        "type key 'NoNamespace' has no namespace; FFI type keys look like 'mylib.NoNamespace'"
    )


def test_register_object_unknown_key():
    with pytest.raises(ValueError) as info:

        @tvm_ffi.register_object("testing.NoSuchType")
        class Missing(tvm_ffi.Object):
            pass

    assert str(info.value) == "Cannot find object type index for testing.NoSuchType"


def test_register_object_needs_object_subclass():
    with pytest.raises(TypeError):
        tvm_ffi.register_object("testing.TestObjectBase")(int)


def test_unregistered_type_uses_nearest_registered_ancestor():
    probe = t.py_leak_probe()
    assert type(probe) is tvm_ffi.Object
    assert probe.__tvm_ffi_type_key__ == "testing.PyLeakProbe"
    assert repr(probe) == "testing.PyLeakProbe"  # no fields: the key alone


def test_uninitialised_object():
    obj = tvm_ffi.Object()
    assert obj.__chandle__() == 0
    with pytest.raises(ValueError, match="holds no FFI object"):
        t.echo(obj)
