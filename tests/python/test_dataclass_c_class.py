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
    with pytest.raises(TypeError, match="missing required argument: 'x'"):
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


def test_generated_init_signature_follows_the_field_flags():
    from tvm_ffi.testing import (
        _TestCxxAutoInit,
        _TestCxxClassDerivedDerived,
        _TestCxxInitSubset,
        _TestCxxKwOnly,
    )

    P = inspect.Parameter

    def shape(cls):
        sig = inspect.signature(cls.__init__)
        return [(p.name, p.kind, p.default is core.MISSING) for p in sig.parameters.values()]

    # Without a default first, then with one; keyword-only last.
    assert shape(_TestCxxClassDerivedDerived) == [
        ("self", P.POSITIONAL_OR_KEYWORD, False),
        ("v_i64", P.POSITIONAL_OR_KEYWORD, False),
        ("v_i32", P.POSITIONAL_OR_KEYWORD, False),
        ("v_f64", P.POSITIONAL_OR_KEYWORD, False),
        ("v_bool", P.POSITIONAL_OR_KEYWORD, False),
        ("v_f32", P.POSITIONAL_OR_KEYWORD, True),
        ("v_str", P.POSITIONAL_OR_KEYWORD, True),
    ]
    obj = _TestCxxClassDerivedDerived(1, 2, 3.0, True)
    assert (obj.v_bool, obj.v_f32, obj.v_str) == (True, 8.0, "default")
    assert [p[0] for p in shape(_TestCxxInitSubset)] == ["self", "required_field"]
    assert {p[1] for p in shape(_TestCxxKwOnly)[1:]} == {P.KEYWORD_ONLY}
    assert shape(_TestCxxAutoInit)[1:] == [
        ("a", P.POSITIONAL_OR_KEYWORD, False),
        ("d", P.POSITIONAL_OR_KEYWORD, True),
        ("c", P.KEYWORD_ONLY, False),
    ]
    # A class body's own __init__ keeps its signature.
    from tvm_ffi.testing import _TestCxxClassBase

    assert list(inspect.signature(_TestCxxClassBase.__init__).parameters) == [
        "self",
        "v_i64",
        "v_i32",
    ]


def test_cxx_defaults_and_flags_reach_type_fields():
    from tvm_ffi.testing import _TestCxxClassBase, _TestCxxClassDerived, _TestCxxInitSubset

    derived = {tf.name: tf for tf in _TestCxxClassDerived.__tvm_ffi_type_info__.fields}
    assert derived["v_f32"].c_default == 8.0 and derived["v_f32"].dataclass_field.default == 8.0
    assert derived["v_f64"].c_default is core.MISSING
    subset = {tf.name: tf for tf in _TestCxxInitSubset.__tvm_ffi_type_info__.fields}
    assert subset["optional_field"].c_default == -1 and subset["note"].c_default == "default"
    assert subset["note"].c_default_factory is core.MISSING
    base = _TestCxxClassBase.__tvm_ffi_type_info__.fields
    assert [(tf.name, tf.c_repr, tf.dataclass_field.type) for tf in base] == [
        ("v_i64", False, int),
        ("v_i32", False, int),
    ]
    text = repr(_TestCxxClassDerived(1, 2, 3.0, 4.0))  # the ReprOff fields are left out
    assert text.startswith("testing.TestCxxClassDerived(v_f64=3") and "v_i64" not in text


def test_type_attribute_hooks_become_class_attributes():
    from tvm_ffi.testing import TestCustomCompare, TestCustomHash, TestEqWithoutHash

    for cls, present, absent in (
        (TestCustomHash, {"__ffi_hash__"}, {"__ffi_eq__", "__ffi_compare__"}),
        (TestCustomCompare, {"__ffi_hash__", "__ffi_eq__", "__ffi_compare__"}, set()),
        (TestEqWithoutHash, {"__ffi_eq__"}, {"__ffi_hash__"}),
    ):
        for name in present:
            assert callable(cls.__dict__[name]), (cls, name)
        for name in absent:
            assert name not in cls.__dict__, (cls, name)
    a, b = TestCustomCompare(1, "x"), TestCustomCompare(1, "y")
    rhash = tvm_ffi.get_global_func("ffi.RecursiveHash")
    assert rhash(a) == rhash(b) and rhash(a) != rhash(TestCustomCompare(2, "x"))


def test_dataclass_transform_metadata():
    from tvm_ffi.dataclasses import Field, field

    meta = c_class.__dataclass_transform__
    assert meta["eq_default"] is False
    assert meta["field_specifiers"] == (Field, field)


def test_enum_fields_take_the_payload():
    from tvm_ffi.testing import _TestCxxEnumHolder, _TestCxxIntEnum, _TestCxxStrEnum

    h = _TestCxxEnumHolder(20, "*")
    assert isinstance(h.priority, _TestCxxIntEnum) and h.priority.same_as(_TestCxxIntEnum.high)
    assert isinstance(h.opcode, _TestCxxStrEnum) and h.opcode.same_as(_TestCxxStrEnum.mul)
    h.priority = 10
    assert h.priority.same_as(_TestCxxIntEnum.low)
    with pytest.raises(TypeError, match="expected testing.TestCxxIntEnum, got int"):
        h.priority = 11
    with pytest.raises(TypeError, match="expected testing.TestCxxStrEnum, got str"):
        _TestCxxEnumHolder(10, "/")
