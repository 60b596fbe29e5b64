"""dataclasses.init_property, registry._add_class_attrs, core._to_py_class_value."""
from __future__ import annotations

import itertools
from typing import Optional

import pytest

import tvm_ffi
from tvm_ffi import Object, core
from tvm_ffi.dataclasses import field, fields, init_property, py_class
from tvm_ffi.registry import _add_class_attrs

_ids = itertools.count()


def _key(name):
    return f"testing.initprop.{name}_{next(_ids)}"


def test_computed_once_and_stored_as_a_field():
    calls = []

    @py_class(_key("Box"))
    class Box(Object):
        w: int
        h: int = 1

        @init_property
        def area(self) -> int:
            """The area."""
            calls.append(1)
            return self.w * self.h

    b = Box(3, h=4)
    assert b.area == 12 and b.area == 12
    assert calls == [1]
    f = next(f for f in Box.__tvm_ffi_type_info__.fields if f.name == "area")
    assert (f.c_init, f.c_structural_eq, f.doc) == (False, "ignore", "The area.")
    assert [x.name for x in fields(Box)] == ["w", "h", "area"]
    # Not a parameter of __init__, and C++ sees the stored value.
    with pytest.raises(TypeError):
        Box(1, 2, 3)
    assert "area=12" in tvm_ffi.get_global_func("ffi.ReprPrint")(b)


def test_inheritance_order_override_and_post_init():
    calls = []

    @py_class(_key("Parent"))
    class Parent(Object):
        x: int = field(default=0)

        @init_property
        def base(self) -> int:
            return self.x + 100

        @init_property
        def value(self) -> int:
            calls.append("parent")
            return 1

    @py_class(_key("Child"))
    class Child(Parent):
        @init_property
        def derived(self) -> int:
            return self.base + 1

        @init_property
        def value(self) -> int:
            calls.append("child")
            return 2

        def __post_init__(self):
            calls.append(("post", self.derived))

    c = Child(x=1)
    assert (c.base, c.derived, c.value) == (101, 102, 2)
    assert calls == ["child", ("post", 102)]
    # The overriding init_property did not add a second `value` field.
    assert [f.name for f in fields(Child)] == ["x", "base", "value", "derived"]


def test_self_reference_and_no_annotation():
    @py_class(_key("Chain"))
    class Chain(Object):
        n: int = 0

        @init_property
        def nxt(self) -> Optional[Chain]:
            return Chain(self.n - 1) if self.n > 0 else None

        @init_property
        def anything(self):
            return "free"

    a = Chain(2)
    assert a.nxt.n == 1 and a.nxt.nxt.n == 0 and a.nxt.nxt.nxt is None
    assert a.anything == "free"


def test_init_property_error_propagates():
    @py_class(_key("Bad"))
    class Bad(Object):
        x: int

        @init_property
        def half(self) -> int:
            raise ZeroDivisionError(f"no half of {self.x}")

    with pytest.raises(ZeroDivisionError, match="no half of 3"):
        Bad(3)
    with pytest.raises(TypeError, match="init_property needs a function, got 5"):
        init_property(5)


def test_add_class_attrs_binds_fields_and_methods():
    info = tvm_ffi.testing.TestIntPair.__tvm_ffi_type_info__
    cls = type("Bare", (core.Object,), {"__slots__": (), "b": "mine"})
    assert _add_class_attrs(cls, info) is cls
    assert isinstance(cls.__dict__["a"], core.FFIProperty)
    assert cls.__dict__["b"] == "mine"  # the class body wins
    obj = cls.__new__(cls)
    obj.__ffi_init__(3, 4)
    assert obj.a == 3
    assert obj.sum() == 7


def test_to_py_class_value_is_the_value():
    marker = object()
    assert core._to_py_class_value(marker) is marker
    assert core._to_py_class_value(5) == 5


def test_attach_field_objects_and_annotation_warning():
    import warnings

    from tvm_ffi.dataclasses import Field
    from tvm_ffi.dataclasses.c_class import _attach_field_objects
    from tvm_ffi.registry import _warn_missing_field_annotations

    info = tvm_ffi.testing.TestIntPair.__tvm_ffi_type_info__

    class Annotated:
        a: int

    saved = [tf.dataclass_field for tf in info.fields]
    try:
        _attach_field_objects(Annotated, info)
        by_name = {tf.name: tf.dataclass_field for tf in info.fields}
        assert isinstance(by_name["a"], Field)
        assert (by_name["a"].name, by_name["a"].type, by_name["b"].type) == ("a", int, None)
    finally:
        for tf, f in zip(info.fields, saved):
            tf.dataclass_field = f
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        _warn_missing_field_annotations(Annotated, info, stacklevel=1)
    assert len(w) == 1 and w[0].category is UserWarning
    assert "does not annotate reflected field(s) b;" in str(w[0].message)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        Annotated.__annotations__["b"] = int
        _warn_missing_field_annotations(Annotated, info, stacklevel=1)
