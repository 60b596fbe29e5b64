"""@c_class over C++-registered types (testing.DCPoint, testing.DCFrozen in
testing/testing_dcpy_types.cc)."""
import copy
import inspect

import pytest

import tvm_ffi
from tvm_ffi import core
from tvm_ffi.dataclasses import c_class, fields, is_dataclass


@c_class("testing.DCPoint", eq=True, order=True, unsafe_hash=True)
class DCPoint(tvm_ffi.Object):
    def describe(self):  # a method of the class body is kept
        return f"point {self.x}"


@c_class("testing.DCFrozen", frozen=True)
class DCFrozen(tvm_ffi.Object):
    pass


def test_fields_are_properties_with_docs():
    p = DCPoint(3)
    assert (p.x, p.y, p.label, p.note) == (3, 0.5, "pt", "")
    assert DCPoint.x.__doc__ == "abscissa"
    p.x = 10
    assert p.x == 10
    with pytest.raises(TypeError):
        p.x = "ten"
    assert p.x == 10


def test_init_positional_keywords_and_defaults():
    p = DCPoint(1, 2.5, label="a")
    assert (p.x, p.y, p.label) == (1, 2.5, "a")
    q = DCPoint(x=4)
    assert (q.x, q.y, q.label) == (4, 0.5, "pt")
    with pytest.raises(TypeError, match="missing argument `x`"):
        DCPoint()
    with pytest.raises(TypeError, match="unexpected keyword argument `z`"):
        DCPoint(1, z=2)
    with pytest.raises(TypeError, match="takes 3 positional arguments but 4 were given"):
        DCPoint(1, 2.0, "s", "t")


def test_methods_of_type_and_body():
    p = DCPoint(-3, 1.5)
    assert p.norm1() == 4.5
    assert p.describe() == "point -3"


def test_eq_skips_compare_off_field_and_is_by_content():
    a = DCPoint(1, 2.0, label="a")
    b = DCPoint(1, 2.0, label="b")
    c = DCPoint(1, 3.0)
    assert a == b and not (a != b)
    assert a != c
    assert not a.same_as(b)
    assert (a == 1) is False


def test_order_and_hash():
    a, b = DCPoint(1, 2.0), DCPoint(1, 3.0)
    assert a < b and a <= b and b > a and b >= a
    assert not (b < a)
    assert sorted([b, a]) == [a, b]
    assert hash(DCPoint(1, 2.0, label="x")) == hash(DCPoint(1, 2.0, label="y"))
    assert len({DCPoint(5), DCPoint(5)}) == 1
    with pytest.raises(TypeError):
        a < 1  # noqa: B015


def test_repr_follows_repr_off():
    text = repr(DCPoint(1, 2.0, label="a"))
    assert "testing.DCPoint" in text
    assert "x=1" in text and "label" in text
    assert "note" not in text


def test_frozen_class():
    f = DCFrozen(3, 4)
    assert (f.id, f.value) == (3, 4)
    with pytest.raises(AttributeError):
        f.value = 5
    with pytest.raises(AttributeError):
        f.id = 5
    DCFrozen.value.set(f, 9)
    assert f.value == 9


def test_fields_and_is_dataclass():
    assert is_dataclass(DCPoint) and is_dataclass(DCPoint(1))
    assert not is_dataclass(tvm_ffi.Array)
    assert not is_dataclass(1)
    fs = fields(DCPoint)
    assert [f.name for f in fs] == ["x", "y", "label", "note"]
    assert fs[2].kw_only and not fs[2].compare and not fs[2].hash
    assert not fs[3].repr
    assert fs[0].doc == "abscissa"
    with pytest.raises(TypeError, match="must be a c_class or py_class type or instance, got int"):
        fields(1)


def test_copy_and_replace():
    p = DCPoint(1, 2.0, label="a")
    q = copy.copy(p)
    assert q == p and not q.same_as(p) and q.label == "a"
    d = copy.deepcopy(p)
    assert d == p and not d.same_as(p)
    r = tvm_ffi.dataclasses.replace(p, x=7)
    assert (r.x, r.y, r.label) == (7, 2.0, "a")
    assert p.x == 1
    f = tvm_ffi.dataclasses.replace(DCFrozen(1, 2), value=3)
    assert (f.id, f.value) == (1, 3)
    with pytest.raises(TypeError, match="unexpected keyword argument 'zz'"):
        tvm_ffi.dataclasses.replace(p, zz=1)


def test_match_args():
    assert DCPoint.__match_args__ == ("x", "y", "note")
    match DCPoint(1, 2.0):
        case DCPoint(x, y):
            assert (x, y) == (1, 2.0)
        case _:
            pytest.fail("no match")


def test_type_info_records():
    info = DCPoint.__tvm_ffi_type_info__
    assert isinstance(info, core.TypeInfo)
    assert info.type_cls is DCPoint
    assert info.type_key == "testing.DCPoint"
    assert info.type_index == core._type_key_to_index("testing.DCPoint")
    assert info.parent_type_info.type_key == "ffi.Object"
    assert info.type_ancestors == [info.parent_type_info.type_index]
    names = [f.name for f in info.fields]
    assert names == ["x", "y", "label", "note"]
    x, y, label, note = info.fields
    assert all(isinstance(f, core.TypeField) for f in info.fields)
    assert x.field_static_type_index == 1 and y.field_static_type_index == 3
    assert not x.c_has_default and y.c_has_default
    assert label.c_kw_only and not label.c_compare and not label.c_hash
    assert not note.c_repr and note.c_compare
    assert not x.frozen
    assert DCFrozen.__tvm_ffi_type_info__.fields[0].frozen
    methods = {m.name: m for m in info.methods}
    assert isinstance(methods["norm1"], core.TypeMethod)
    assert not methods["norm1"].is_static and methods["norm1"].doc == "|x| + |y|"
    assert methods["__ffi_init__"].is_static


def test_init_false_keeps_raw_constructor_off():
    # init=False: no __init__ is generated; one of the class body is kept.
    @c_class("testing.DCFrozen", init=False)
    class DCFrozen2(tvm_ffi.Object):
        def __init__(self, v):
            self.__init_handle_by_constructor__(
                next(
                    m.func
                    for m in DCFrozen2.__tvm_ffi_type_info__.methods
                    if m.name == "__ffi_init__"
                ),
                1,
                v,
            )

    try:
        obj = DCFrozen2(5)
        assert obj.value == 5 and type(obj) is DCFrozen2
        assert list(inspect.signature(DCFrozen2.__init__).parameters) == ["self", "v"]
    finally:
        core._register_object(DCFrozen2.__tvm_ffi_type_info__.type_index, DCFrozen)
        DCFrozen.__tvm_ffi_type_info__.type_cls = DCFrozen


def test_errors():
    with pytest.raises(ValueError, match="Cannot find object type index for testing.NoSuchDC"):
        c_class("testing.NoSuchDC")(type("X", (tvm_ffi.Object,), {}))
    with pytest.raises(ValueError, match="has no namespace"):
        c_class("NoDot")(type("X", (tvm_ffi.Object,), {}))
    with pytest.raises(TypeError, match="needs a subclass of tvm_ffi.Object"):
        c_class("testing.DCPoint")(int)
    with pytest.raises(ValueError, match="order=True requires eq=True"):
        c_class("testing.DCPoint", order=True)
