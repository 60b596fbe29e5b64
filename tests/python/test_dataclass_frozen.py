"""Frozen @py_class types and frozen fields."""
import copy

import pytest

import tvm_ffi
from tvm_ffi.dataclasses import field, py_class, replace


@py_class("testing.dcf.Frozen", frozen=True, eq=True, unsafe_hash=True)
class Frozen(tvm_ffi.Object):
    a: int
    b: str = "b"


@py_class("testing.dcf.Mixed")
class Mixed(tvm_ffi.Object):
    fixed: int = field(frozen=True, default=1)
    free: int = 0


def test_frozen_class_rejects_assignment():
    f = Frozen(1)
    with pytest.raises(AttributeError, match="cannot assign to field 'a' of frozen 'Frozen'"):
        f.a = 2
    with pytest.raises(AttributeError):
        f.b = "c"
    with pytest.raises(AttributeError):
        del f.a
    assert (f.a, f.b) == (1, "b")


def test_frozen_fields_are_set_by_init_and_escape_hatch():
    f = Frozen(5, "x")
    assert (f.a, f.b) == (5, "x")
    Frozen.a.set(f, 6)
    assert f.a == 6
    with pytest.raises(TypeError, match="testing.dcf.Frozen.a"):
        Frozen.a.set(f, "no")


def test_frozen_field_in_mutable_class():
    m = Mixed()
    m.free = 3
    assert m.free == 3
    with pytest.raises(AttributeError, match="cannot assign to field 'fixed'"):
        m.fixed = 2
    assert Mixed(fixed=4).fixed == 4


def test_frozen_values_hash_and_copy():
    assert Frozen(1) == Frozen(1) and hash(Frozen(1)) == hash(Frozen(1))
    assert {Frozen(1): "x"}[Frozen(1)] == "x"
    c = copy.copy(Frozen(2, "z"))
    assert (c.a, c.b) == (2, "z")
    r = replace(Frozen(1), a=9)
    assert (r.a, r.b) == (9, "b")
    m = replace(Mixed(), fixed=7)
    assert m.fixed == 7


def test_frozen_descriptor_attributes():
    prop = Frozen.__dict__["a"]
    assert prop.frozen is True
    assert Mixed.__dict__["free"].frozen is False
    assert Mixed.__dict__["fixed"].frozen is True


def test_frozen_and_non_frozen_py_classes_mix_field_by_field():
    from tvm_ffi.dataclasses import py_class

    @py_class("dcfrozen_mix.Open")
    class Open(tvm_ffi.Object):
        a: int = 0

    @py_class("dcfrozen_mix.ShutChild", frozen=True)
    class ShutChild(Open):
        b: int = 0

    c = ShutChild(1, 2)
    c.a = 10  # the parent's field stays writable
    with pytest.raises(AttributeError, match="cannot assign to field 'b' of frozen 'ShutChild'"):
        c.b = 20
    assert (c.a, c.b) == (10, 2)
    assert ShutChild.__dict__["b"].fset is None
    assert Open.__dict__["a"].fset is not None

    @py_class("dcfrozen_mix.Shut", frozen=True)
    class Shut(tvm_ffi.Object):
        a: int = 0

    @py_class("dcfrozen_mix.OpenChild")
    class OpenChild(Shut):
        b: int = 0

    o = OpenChild(1, 2)
    o.b = 20
    with pytest.raises(AttributeError, match="cannot assign to field 'a' of frozen 'OpenChild'"):
        o.a = 10
    assert (o.a, o.b) == (1, 20)
    OpenChild.__dict__["b"].fset(o, 30)  # fset is the property's set
    assert o.b == 30

    @py_class("dcfrozen_mix.ShutToo", frozen=True)
    class ShutToo(Shut):
        b: int = 0

    x = ShutToo(1, 2)
    for name in ("a", "b"):
        with pytest.raises(AttributeError, match=f"cannot assign to field '{name}' of frozen"):
            setattr(x, name, 5)


def test_an_uninitialised_instance_reports_itself_plainly():
    from tvm_ffi.dataclasses import py_class

    @py_class("dcfrozen_mix.Bare")
    class Bare(tvm_ffi.Object):
        x: int = 0

    b = Bare.__new__(Bare)
    assert repr(b) == "<Bare (uninitialised)>"
    with pytest.raises(ValueError) as e:
        b.x
    assert str(e.value) == (
        "field 'x' cannot be read: this test_an_uninitialised_instance_reports_itself_plainly."
        "<locals>.Bare object holds no FFI object (it was never initialised)")
