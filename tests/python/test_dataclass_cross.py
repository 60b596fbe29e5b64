"""A py_class used from C++ through the C ABI only (testing.dataclass_* in
testing/testing_dataclass.cc): created, read, mutated, returned; identity
kept across the boundary."""
from __future__ import annotations

import pytest

import tvm_ffi
import tvm_ffi.testing
from tvm_ffi.dataclasses import field, py_class


@py_class("testing.dcx.Item")
class Item(tvm_ffi.Object):
    name: str
    count: int = 1
    tags: list[str] = field(default_factory=list)
    _: tvm_ffi.dataclasses.KW_ONLY
    weight: float = 0.5


@py_class("testing.dcx.Box")
class Box(tvm_ffi.Object):
    items: list[Item] = field(default_factory=list)
    best: Item | None = None


def t():
    return tvm_ffi.testing


def test_cpp_creates_with_python_defaults_and_factories():
    it = t().dataclass_create("testing.dcx.Item", "apple")
    assert type(it) is Item
    assert (it.name, it.count, list(it.tags), it.weight) == ("apple", 1, [], 0.5)
    kw = t().dataclass_create("testing.dcx.Item", "pear", 3, core_kwargs(), "weight", 2.0)
    assert (kw.name, kw.count, kw.weight) == ("pear", 3, 2.0)
    a = t().dataclass_create("testing.dcx.Item", "a")
    b = t().dataclass_create("testing.dcx.Item", "b")
    assert not a.tags.same_as(b.tags)  # the factory ran once per instance


def core_kwargs():
    from tvm_ffi.registry import _kwargs_sentinel

    return _kwargs_sentinel()


def test_cpp_reads_and_writes_fields():
    it = Item("x", 4, ["t"], weight=1.5)
    assert t().dataclass_get(it, "name") == "x"
    assert t().dataclass_get(it, "count") == 4
    assert t().dataclass_get(it, "weight") == 1.5
    assert list(t().dataclass_get(it, "tags")) == ["t"]
    assert list(t().dataclass_field_names(it)) == ["name", "count", "tags", "weight"]
    back = t().dataclass_set(it, "count", 9)
    assert back.same_as(it) and back is not None
    assert it.count == 9
    t().dataclass_set(it, "tags", ["a", "b"])
    assert list(it.tags) == ["a", "b"]


def test_cpp_writes_are_type_checked():
    it = Item("x")
    with pytest.raises(TypeError, match='field `testing.dcx.Item.count` expects int, got str "no"'):
        t().dataclass_set(it, "count", "no")
    with pytest.raises(TypeError, match="testing.dcx.Item.tags"):
        t().dataclass_set(it, "tags", [1])
    assert it.count == 1


def test_cpp_missing_argument_and_unknown_field():
    with pytest.raises(TypeError, match="missing required argument: 'name'"):
        t().dataclass_create("testing.dcx.Item")
    with pytest.raises(AttributeError, match="has no field `nope`"):
        t().dataclass_get(Item("x"), "nope")


def test_identity_round_trip_and_nested():
    it = Item("x")
    echo = tvm_ffi.get_global_func("testing.echo")
    assert echo(it).same_as(it)
    assert type(echo(it)) is Item
    box = Box([it])
    got = t().dataclass_get(box, "items")
    assert got[0].same_as(it)
    t().dataclass_set(box, "best", it)
    assert box.best.same_as(it)
    t().dataclass_set(box, "best", None)
    assert box.best is None
    # Mutations through C++ are seen by every Python reference.
    t().dataclass_set(got[0], "name", "renamed")
    assert it.name == "renamed"


def test_cpp_empty_instance():
    it = t().dataclass_new("testing.dcx.Item")
    assert type(it) is Item
    assert it.count == 0 and it.weight == 0.0
    assert it.name is None or it.name == ""
