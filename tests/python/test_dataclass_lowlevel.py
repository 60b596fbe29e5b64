"""core._register_py_class and TypeInfo._register_fields: upstream's
low-level steps of a Python-defined type."""
import itertools

import pytest

import tvm_ffi
from tvm_ffi import core
from tvm_ffi._dunder import _install_dataclass_dunders
from tvm_ffi.core import MISSING, TypeSchema
from tvm_ffi.dataclasses import Field
from tvm_ffi.registry import _add_class_attrs

_ids = itertools.count()


def _key(name):
    return f"testing.lowlevel.{name}_{next(_ids)}"


def _make(name, fields, parent=core.Object):
    parent_info = core._type_cls_to_type_info(parent)
    cls = type(name, (parent,), {"__slots__": ()})
    info = core._register_py_class(parent_info, _key(name), cls)
    info._register_fields(fields)
    cls.__tvm_ffi_type_info__ = info
    _add_class_attrs(cls, info)
    _install_dataclass_dunders(cls, init=True, repr=True, eq=False, order=False, unsafe_hash=False)
    return cls


def test_fields_from_type_schemas():
    Pt = _make(
        "Pt",
        [
            Field("x", TypeSchema("int")),
            Field("y", TypeSchema("float"), default=0.5),
            Field("tag", TypeSchema("Optional", (TypeSchema("str"),)), default=None),
            Field("items", TypeSchema("Array", (TypeSchema("int"),)), default_factory=list),
        ],
    )
    p = Pt(x=3)
    assert (p.x, p.y, p.tag, list(p.items)) == (3, 0.5, None, [])
    assert type(Pt(x=1, y=2).y) is float
    with pytest.raises(TypeError, match=r"Pt_\d+\.x` expects int, got str"):
        Pt(x="no")
    assert [f.name for f in Pt.__tvm_ffi_type_info__.fields] == ["x", "y", "tag", "items"]
    assert Pt.__tvm_ffi_type_info__.type_cls is Pt
    assert type(tvm_ffi.convert([p])[0]) is Pt


def test_object_field_by_type_key_and_inheritance():
    Leaf = _make("Leaf", [Field("v", TypeSchema("int"), default=MISSING)])
    Holder = _make(
        "Holder",
        [Field("pair", TypeSchema(tvm_ffi.testing.TestIntPair.__tvm_ffi_type_info__.type_key))],
        parent=Leaf,
    )
    pair = tvm_ffi.testing.TestIntPair(1, 2)
    h = Holder(v=1, pair=pair)
    assert h.pair.same_as(pair) and h.v == 1
    with pytest.raises(TypeError, match="names no registered type"):
        _make("Nope", [Field("z", TypeSchema("testing.lowlevel.NoSuchKey"))])


def test_duplicate_key_keeps_the_first():
    key = _key("Dup")
    parent_info = core._type_cls_to_type_info(core.Object)
    c1 = type("D1", (core.Object,), {"__slots__": ()})
    info = core._register_py_class(parent_info, key, c1)
    info._register_fields([Field(name="x", _ty_schema=TypeSchema("int"))])
    c2 = type("D2", (core.Object,), {"__slots__": ()})
    with pytest.raises(ValueError, match="is already registered"):
        core._register_py_class(parent_info, key, c2)
    again = core._lookup_or_register_type_info_from_type_key(key)
    assert again.type_cls is c1
    assert [f.name for f in again.fields] == ["x"]
    with pytest.raises(TypeError, match="needs a subclass of tvm_ffi.Object"):
        core._register_py_class(parent_info, _key("NotObj"), int)


def test_field_positional_schema_and_factory_message():
    f = Field("x", TypeSchema("int"))
    assert (f.name, f._ty_schema.origin, f.type) == ("x", "int", None)
    with pytest.raises(TypeError, match="default_factory must be a callable, got 0"):
        Field("x", TypeSchema("int"), default_factory=0)


def test_field_layout_and_total_size():
    info = tvm_ffi.testing.TestIntPair.__tvm_ffi_type_info__
    header = 24  # sizeof(TVMFFIObject)
    assert [(f.size, f.alignment, f.offset) for f in info.fields] == [
        (8, 8, header),
        (8, 8, header + 8),
    ]
    assert info.total_size == header + 16
    Base = _make("LBase", [Field("x", TypeSchema("int")), Field("f", TypeSchema("float"))])
    Child = _make("LChild", [Field("s", TypeSchema("str"))], parent=Base)
    b, c = Base.__tvm_ffi_type_info__, Child.__tvm_ffi_type_info__
    assert [f.offset for f in b.fields] == [header, header + 8]
    assert c.fields[0].offset >= b.total_size
    assert c.total_size == c.fields[0].offset + c.fields[0].size
    # A type without metadata of its own does not know its size.
    assert core._lookup_or_register_type_info_from_type_key("ffi.Object").total_size == header
    assert core._lookup_or_register_type_info_from_type_key("ffi.Function").total_size is None


def test_type_schema_takes_upstreams_parameters():
    ts = TypeSchema("int", (), 1)
    assert (ts.origin, ts.origin_type_index, ts.fallback, ts.named_args) == ("int", 1, None, None)
    key = tvm_ffi.testing.TestIntPair.__tvm_ffi_type_info__.type_key
    index = tvm_ffi.testing.TestIntPair.__tvm_ffi_type_info__.type_index
    Holder = _make("OTI", [Field("p", TypeSchema(key, origin_type_index=index))])
    assert Holder(p=tvm_ffi.testing.TestIntPair(1, 2)).p.a == 1
    assert TypeSchema("int").origin_type_index == 1  # derived from the origin when not given
