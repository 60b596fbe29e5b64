"""tvm_ffi.method: py_class methods in the type's reflected method table."""
import itertools
import typing

import pytest

import tvm_ffi
from tvm_ffi import Object, method
from tvm_ffi.dataclasses import py_class
from tvm_ffi.dataclasses.py_class import _collect_py_methods

_ids = itertools.count()


def _key(name):
    return f"testing.meth.{name}_{next(_ids)}"


def _find(cls, name):
    return next((m for m in cls.__tvm_ffi_type_info__.methods if m.name == name), None)


def test_top_level_name():
    assert tvm_ffi.method is method
    assert "method" in tvm_ffi.__all__


def test_instance_method_is_registered_and_callable_through_ffi():
    @py_class(_key("Node"))
    class Node(Object):
        x: int

        @method
        def label(self, prefix: str) -> str:
            """The label."""
            return f"{prefix}{self.x}"

        def helper(self):
            return self.x

    m = _find(Node, "label")
    assert m is not None and m.is_static is False
    assert m.doc == "The label."
    assert m.func(Node(x=7), "n") == "n7"
    # Still an ordinary Python method; unmarked helpers are not reflected.
    assert Node(x=2).label("p") == "p2"
    assert _find(Node, "helper") is None
    # The C table itself has it: a fresh read of the type sees it by name.
    key, _, _, methods = tvm_ffi.core._type_info(Node.__tvm_ffi_type_info__.type_index)
    assert "label" in [name for name, _, _, _ in methods]


def test_static_method_either_order():
    @py_class(_key("Stat"))
    class Stat(Object):
        x: int

        @method
        @staticmethod
        def forty_two() -> int:
            return 42

        @staticmethod
        @method
        def twice(v: int) -> int:
            return 2 * v

    a, b = _find(Stat, "forty_two"), _find(Stat, "twice")
    assert a.is_static and b.is_static
    assert a.func() == 42
    assert b.func(5) == 10


def test_metadata_is_a_callable_schema():
    @py_class(_key("Meta"))
    class Meta(Object):
        x: int

        @method
        def describe(self, values: typing.List[int], prefix: str) -> str:  # noqa: UP006
            return prefix

        @method
        def loose(self, *args):
            return len(args)

    ts = _find(Meta, "describe").metadata["type_schema"]
    assert ts == {
        "type": "Callable",
        "named_args": {
            "return": [{"type": "str"}],
            "params": [
                {"type": Meta.__tvm_ffi_type_info__.type_key},
                {"type": "List", "args": [{"type": "int"}]},
                {"type": "str"},
            ],
        },
    }
    # *args: only "some callable" is known.
    assert _find(Meta, "loose").metadata["type_schema"] == {"type": "Callable"}


def test_classmethod_refused():
    with pytest.raises(TypeError, match=r"@classmethod is not supported"):
        method(classmethod(lambda cls: 0))
    with pytest.raises(TypeError, match=r"expected a callable, got int"):
        method(42)

    def maker(cls):
        return 0

    maker.__ffi_method__ = True
    key = _key("CM")
    with pytest.raises(TypeError, match=r"'make' is wrapped by @classmethod"):

        @py_class(key)
        class CM(Object):
            x: int
            make = classmethod(maker)

    # Refused before the type key was taken.
    assert key not in tvm_ffi.get_registered_type_keys()


def test_type_attr_names_are_not_methods():
    @py_class(_key("Attr"))
    class Attr(Object):
        x: int

        @method
        def __ffi_repr__(self, fn_repr):
            return "r"

        @method
        def __len__(self) -> int:
            return self.x

        def __ffi_custom__(self):
            return 0

    assert _find(Attr, "__ffi_repr__") is None
    assert _find(Attr, "__len__").func(Attr(x=3)) == 3
    collected = _collect_py_methods(Attr)
    assert [(n, s) for n, _, s in collected] == [("__ffi_repr__", False), ("__len__", False)]


def test_body_hooks_become_type_attributes():
    # __ffi_repr__/__ffi_eq__/__ffi_hash__/__ffi_compare__ in a body are the
    # type's hooks: ffi.ReprPrint and the Recursive* walks call them.
    @py_class(_key("Hooked"))
    class Hooked(Object):
        key: int
        label: str

        def __ffi_repr__(self, fn_repr):
            return f"<{self.key} {fn_repr(tvm_ffi.Array([self.label]))}>"

        def __ffi_eq__(self, other, fn_eq):
            return fn_eq(self.key, other.key)

        def __ffi_hash__(self, fn_hash):
            return fn_hash(self.key)

        def __ffi_compare__(self, other, fn_cmp):
            return fn_cmp(other.key, self.key)  # descending

    f = tvm_ffi.get_global_func
    a, b, c = Hooked(1, "a"), Hooked(1, "b"), Hooked(2, "a")
    assert f("ffi.ReprPrint")(tvm_ffi.Array([a])) == '(<1 ("a",)>,)'
    assert f("ffi.RecursiveEq")(a, b) and not f("ffi.RecursiveEq")(a, c)
    assert f("ffi.RecursiveHash")(a) == f("ffi.RecursiveHash")(b)
    assert f("ffi.RecursiveLt")(c, a)
    assert core_attr(Hooked, "__ffi_repr__") is not None


def core_attr(cls, name):
    return tvm_ffi.core._lookup_type_attr(cls.__tvm_ffi_type_info__.type_index, name)


def test_body_hook_must_be_a_plain_function():
    with pytest.raises(TypeError, match=r"__ffi_hash__ must be a plain function \(self, ...\)"):
        @py_class(_key("BadHook"))
        class BadHook(Object):
            x: int
            __ffi_hash__ = staticmethod(lambda fn: 0)


def test_collect_without_any():
    @py_class(_key("None"))
    class Plain(Object):
        x: int

        def helper(self):
            return 1

    assert _collect_py_methods(Plain) is None


def test_method_error_propagates_through_ffi():
    @py_class(_key("Err"))
    class Err(Object):
        x: int

        @method
        def boom(self) -> int:
            raise ValueError(f"bad x {self.x}")

    with pytest.raises(ValueError, match="bad x 4"):
        _find(Err, "boom").func(Err(x=4))


def test_type_attr_names_are_stored_in_the_attribute_columns():
    from typing import ClassVar

    from tvm_ffi import core
    from tvm_ffi.dataclasses import py_class

    @py_class("testing.dcm.AttrParent")
    class AttrParent(tvm_ffi.Object):
        __ffi_type_attr_names__ = ("__test_hook__", "__test_meta__", "__test_static__")
        __ffi_inherit_type_attrs__ = ("__test_hook__",)
        __test_meta__: ClassVar[tuple] = ("a", 1)
        value: int

        def __test_hook__(self):
            return self.value + 1

        @staticmethod
        def __test_static__(x):
            return x * 2

    @py_class("testing.dcm.AttrChild")
    class AttrChild(AttrParent):
        pass

    p, c = (k.__tvm_ffi_type_info__.type_index for k in (AttrParent, AttrChild))
    assert [f.name for f in AttrParent.__tvm_ffi_type_info__.fields] == ["value"]
    assert tuple(core._lookup_type_attr(p, "__test_meta__")) == ("a", 1)
    assert core._lookup_type_attr(p, "__test_hook__")(AttrParent(4)) == 5
    assert core._lookup_type_attr(p, "__test_static__")(21) == 42
    # Inherited only when listed in __ffi_inherit_type_attrs__.
    assert core._lookup_type_attr(c, "__test_hook__")(AttrChild(9)) == 10
    assert core._lookup_type_attr(c, "__test_meta__") is None
    assert core._lookup_type_attr(c, "__test_static__") is None
    assert "__test_hook__" not in {m.name for m in AttrParent.__tvm_ffi_type_info__.methods}
