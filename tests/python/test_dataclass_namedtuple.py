"""dataclasses.common._make_namedtuple and TypeSchema.from_annotation /
convert / check_value."""
import inspect
import itertools
from typing import Optional

import pytest

import tvm_ffi
from tvm_ffi import Object
from tvm_ffi import dataclasses as dc
from tvm_ffi.core import TypeSchema, _to_py_class_value
from tvm_ffi.dataclasses.common import _make_namedtuple

_ids = itertools.count()


def _key(name):
    return f"testing.namedtuple_ours.{name}_{next(_ids)}"


def test_type_schema_from_annotation_and_convert():
    assert TypeSchema.from_annotation(int) == TypeSchema("int")
    assert TypeSchema.from_annotation(Optional[str]) == TypeSchema(
        "Optional", (TypeSchema("str"),)
    )
    assert TypeSchema.from_annotation(list[int]).origin == "List"
    assert str(TypeSchema.from_annotation(dict[str, int])) == "Dict[str, int]"
    assert str(TypeSchema.from_annotation(tuple[int, ...])) == "Array[int]"
    assert _to_py_class_value(TypeSchema("float").convert(3)) == 3.0
    assert type(_to_py_class_value(TypeSchema("float").convert(3))) is float
    assert _to_py_class_value(TypeSchema("Optional", (TypeSchema("int"),)).convert(None)) is None
    with pytest.raises(
        TypeError, match=r"^type conversion failed for int: expected int, got str$"
    ):
        TypeSchema("int").convert("x")
    assert TypeSchema("int").check_value(5) is None
    with pytest.raises(TypeError, match=r"^type check failed for bool: expected bool, got str$"):
        TypeSchema("bool").check_value("x")
    with pytest.raises(TypeError, match="Cannot convert"):
        TypeSchema.from_annotation(complex)

    class FloatLike:
        def __tvm_ffi_float__(self):
            return 2.5

    assert _to_py_class_value(TypeSchema("float").convert(FloatLike())) == 2.5


def test_namedtuple_converts_like_the_fields():
    @dc.py_class(_key("Base"))
    class Base(Object):
        count: int

    @dc.py_class(_key("Measure"))
    class Measure(Base):
        scale: float
        hidden: int = dc.field(default=9, init=False)

    Rec = _make_namedtuple("Rec", dc.fields(Measure))
    assert Rec.__bases__ == (tuple,)
    assert Rec._fields == ("count", "scale", "hidden")
    assert Rec.__annotations__ == {"count": int, "scale": float, "hidden": int}
    assert str(inspect.signature(Rec)) == "(count, scale, hidden)"
    v = Rec(2, scale=3, hidden=1)
    assert tuple(v) == (2, 3.0, 1) and type(v.scale) is float
    assert repr(v) == "Rec(count=2, scale=3.0, hidden=1)"
    assert type(Rec._make(iter([1, 2, 3])).scale) is float
    assert type(v._replace(scale=7).scale) is float
    with pytest.raises(
        TypeError, match=r"^Rec\.scale: type conversion failed for float: expected float, got str"
    ) as err:
        Rec(1, "no", 3)
    assert isinstance(err.value.__cause__, TypeError)
    with pytest.raises(TypeError):
        Rec(1, 2)  # every field is required
    with pytest.raises(ValueError):
        _make_namedtuple("Bad", (dc.Field("for", TypeSchema("int")),))
    assert not dc.is_dataclass(Rec)


def test_namedtuple_of_object_fields():
    @dc.py_class(_key("Holder"))
    class Holder(Object):
        pair: tvm_ffi.testing.TestIntPair
        items: tuple[float, ...] = ()

    Rec = _make_namedtuple("HolderRec", dc.fields(Holder))
    pair = tvm_ffi.testing.TestIntPair(1, 2)
    v = Rec(pair, [1, 2])
    assert v.pair.same_as(pair)
    assert list(v.items) == [1.0, 2.0] and all(type(x) is float for x in v.items)
    with pytest.raises(
        TypeError,
        match=r"^HolderRec\.pair: type conversion failed for testing\.TestIntPair: "
        r"expected testing\.TestIntPair, got int$",
    ):
        Rec(3, [])
