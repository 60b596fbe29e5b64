"""fields, asdict, astuple, replace, is_dataclass, KW_ONLY, MISSING, Field."""
from __future__ import annotations

import pytest

import tvm_ffi
from tvm_ffi.dataclasses import (
    KW_ONLY,
    MISSING,
    Field,
    asdict,
    astuple,
    field,
    fields,
    is_dataclass,
    py_class,
    replace,
)


@py_class("testing.dcc.Inner")
class Inner(tvm_ffi.Object):
    v: int = 0


@py_class("testing.dcc.Outer")
class Outer(tvm_ffi.Object):
    name: str
    inner: Inner
    items: list[int] = field(default_factory=list)
    table: dict[str, Inner] = field(default_factory=dict)
    _: KW_ONLY
    flag: bool = field(default=False, doc="a flag", metadata={"unit": "none"})


def test_fields_describe_declarations():
    fs = fields(Outer)
    assert [f.name for f in fs] == ["name", "inner", "items", "table", "flag"]
    assert all(isinstance(f, Field) for f in fs)
    assert fs[0].default is MISSING and fs[0].default_factory is MISSING
    assert fs[2].default_factory is list
    assert fs[4].kw_only and not fs[3].kw_only
    assert fs[4].doc == "a flag" and fs[4].metadata == {"unit": "none"}
    assert fs[4].default is False
    assert fields(Outer("n", Inner())) == fs
    assert Outer.flag.__doc__ == "a flag"


def test_is_dataclass():
    assert is_dataclass(Outer) and is_dataclass(Outer("n", Inner()))
    assert not is_dataclass(tvm_ffi.Object)
    assert not is_dataclass(tvm_ffi.Array([1]))
    assert not is_dataclass(3)
    assert not is_dataclass(int)


def test_asdict_and_astuple_recurse():
    o = Outer("n", Inner(1), [1, 2], {"k": Inner(2)}, flag=True)
    assert asdict(o) == {
        "name": "n",
        "inner": {"v": 1},
        "items": [1, 2],
        "table": {"k": {"v": 2}},
        "flag": True,
    }
    assert astuple(o) == ("n", (1,), [1, 2], {"k": (2,)}, True)
    assert asdict(Inner(3), dict_factory=list) == [("v", 3)]
    with pytest.raises(TypeError, match="asdict\\(\\) should be called on"):
        asdict(Outer)
    with pytest.raises(TypeError, match="astuple\\(\\) should be called on"):
        astuple(1)


def test_replace():
    o = Outer("n", Inner(1))
    r = replace(o, name="m", flag=True)
    assert (r.name, r.flag) == ("m", True)
    assert r.inner.same_as(o.inner)
    assert (o.name, o.flag) == ("n", False)
    with pytest.raises(TypeError, match="replace\\(\\) should be called on"):
        replace(Outer, name="x")
    with pytest.raises(TypeError, match="testing.dcc.Outer.name"):
        replace(o, name=3)


def test_replace_init_false_field_is_an_error():
    @py_class("testing.dcc.WithHidden")
    class WithHidden(tvm_ffi.Object):
        a: int
        hidden: int = field(default=0, init=False)

    with pytest.raises(ValueError, match="field 'hidden' is declared with init=False"):
        replace(WithHidden(1), hidden=2)


def test_missing_sentinel():
    assert repr(MISSING) is not None
    assert MISSING is tvm_ffi.dataclasses.MISSING
    assert Field().default is MISSING


def test_field_validation():
    with pytest.raises(TypeError, match="default_factory must be a callable, got 3"):
        field(default_factory=3)
    with pytest.raises(ValueError, match="field structural_eq must be"):
        field(structural_eq="maybe")
    with pytest.raises(TypeError, match="field doc must be a str or None"):
        field(doc=3)
    f = field(default=1, structural_eq="def-pattern")
    assert f.structural_eq == "def"
    assert "default=1" in repr(f)


def test_exported_from_package():
    assert tvm_ffi.dataclasses.py_class is py_class
    assert "dataclasses" in tvm_ffi.__all__
    assert KW_ONLY is tvm_ffi.dataclasses.KW_ONLY


def test_asdict_astuple_rebuild_containers_as_dataclasses_does():
    import collections

    from tvm_ffi.dataclasses.common import _asdict_inner, _astuple_inner

    dd = collections.defaultdict(list, {"a": [Inner(1)]})
    out = _asdict_inner(dd, dict)
    assert type(out) is collections.defaultdict and out.default_factory is list
    assert dict(out) == {"a": [{"v": 1}]}
    NT = collections.namedtuple("NT", "x y")
    out = _astuple_inner(NT(Inner(2), [Inner(3)]), tuple)
    assert type(out) is NT and out == ((2,), [(3,)])
    out = _asdict_inner(tvm_ffi.Map({"k": tvm_ffi.Array([Inner(4)])}), dict)
    assert type(out) is dict and out == {"k": [{"v": 4}]}
    leaf = [1]
    copied = _asdict_inner({"l": leaf}, dict)["l"]
    assert copied == leaf and copied is not leaf  # plain values are copied
    with pytest.raises(TypeError, match=r"^asdict\(\) should be called on c_class / py_class instances$"):
        asdict(3)
    with pytest.raises(TypeError, match=r"^astuple\(\) should be called on c_class / py_class instances$"):
        astuple(Inner)


def test_cxx_field_defaults_are_read():
    import tvm_ffi.testing

    info = tvm_ffi.testing.TestObjectBase.__tvm_ffi_type_info__
    assert [(f.name, f.c_default) for f in info.fields] == [
        ("v_i64", 10), ("v_f64", 10.0), ("v_str", "hello")]
    assert all(f.c_default_factory is MISSING for f in info.fields)
    derived = tvm_ffi.testing.TestObjectDerived.__tvm_ffi_type_info__
    v_array = next(f for f in derived.fields if f.name == "v_array")
    assert not v_array.c_has_default and v_array.c_default is MISSING
