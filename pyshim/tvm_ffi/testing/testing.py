"""Python classes over the object types of libtvm_ffi_testing, and small
helpers; imported by ``tvm_ffi.testing`` after the library is loaded."""
from __future__ import annotations

import sys

from .. import core
from ..core import Object
from ..dataclasses import IntEnum, StrEnum, c_class, entry


def _requires(minor):
    import pytest

    return pytest.mark.skipif(sys.version_info < (3, minor), reason=f"requires Python 3.{minor}+")


def __getattr__(name):
    # requires_py310 / requires_py312 / requires_py313: pytest skip marks,
    # made on first use so that importing this module does not need pytest.
    if name.startswith("requires_py3") and name[len("requires_py3") :].isdigit():
        return _requires(int(name[len("requires_py3") :]))
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@c_class("testing.TestObjectBase")
class TestObjectBase(Object):
    """v_i64=10, v_f64=10.0, v_str='hello'; add_i64(x) -> v_i64 + x."""

    __slots__ = ()
    __test__ = False


@c_class("testing.TestObjectDerived")
class TestObjectDerived(TestObjectBase):
    """TestObjectBase with fields v_array and v_map (default an empty Map)."""

    __slots__ = ()
    __test__ = False


@c_class("testing.TestIntPair")
class TestIntPair(Object):
    """TestIntPair(a, b); sum() -> a + b."""

    __slots__ = ()
    __test__ = False


@c_class("testing.TestFrozenCxx", frozen=True)
class TestFrozenCxx(Object):
    """TestFrozenCxx(value, tag), fields read-only from Python."""

    __slots__ = ()
    __test__ = False


@c_class("testing.TestObjectPtrHolder")
class TestObjectPtrHolder(Object):
    """TestObjectPtrHolder(value, optional_value=None)."""

    __slots__ = ()
    __test__ = False


@c_class("testing.TestNonCopyable")
class TestNonCopyable(Object):
    """TestNonCopyable(value)."""

    __slots__ = ()
    __test__ = False


@c_class("testing.SchemaAllTypes")
class _SchemaAllTypes(Object):
    """One field of each kind of type; methods add_int, append_int,
    maybe_concat, merge_map and the static make_with."""

    __slots__ = ()


@c_class("testing.TestCompare")
class TestCompare(Object):
    """TestCompare(key, name, ignored_field): compared by key and name only."""

    __slots__ = ()
    __test__ = False


@c_class("testing.TestHash")
class TestHash(Object):
    """TestHash(key, name, hash_ignored): hashed by key and name only."""

    __slots__ = ()
    __test__ = False


@c_class("testing.TestCustomHash")
class TestCustomHash(Object):
    """TestCustomHash(key, label): its __ffi_hash__ hook hashes key only."""

    __slots__ = ()
    __test__ = False


@c_class("testing.TestCustomCompare")
class TestCustomCompare(Object):
    """TestCustomCompare(key, label): __ffi_eq__/__ffi_compare__ look at key only."""

    __slots__ = ()
    __test__ = False


@c_class("testing.TestEqWithoutHash")
class TestEqWithoutHash(Object):
    """TestEqWithoutHash(key, label): an __ffi_eq__ hook and no __ffi_hash__."""

    __slots__ = ()
    __test__ = False


@c_class("testing.TestCxxClassBase")
class _TestCxxClassBase(Object):
    """v_i64, v_i32; this class's own __init__ stores v_i64 + 1 and v_i32 + 2."""

    __slots__ = ()

    v_i64: int
    v_i32: int

    not_field_1 = 1
    not_field_2 = 2

    def __init__(self, v_i64: int, v_i32: int) -> None:
        info = type(self).__tvm_ffi_type_info__
        ffi_init = core._lookup_type_attr(info.type_index, "__ffi_init__")
        self.__init_handle_by_constructor__(ffi_init, v_i64 + 1, v_i32 + 2)


@c_class("testing.TestCxxClassDerived", eq=True, order=True, unsafe_hash=True)
class _TestCxxClassDerived(_TestCxxClassBase):
    """_TestCxxClassBase with v_f64 and v_f32=8.0 (compared, ordered, hashed);
    its __init__ is the type's __ffi_init__ (c_class installs it)."""

    __slots__ = ()

    v_f64: float
    v_f32: float


@c_class("testing.TestCxxClassDerivedDerived")
class _TestCxxClassDerivedDerived(_TestCxxClassDerived):
    """_TestCxxClassDerived with v_str='default' and v_bool."""

    __slots__ = ()

    v_str: str
    v_bool: bool


@c_class("testing.TestCxxInitSubset")
class _TestCxxInitSubset(Object):
    """required_field; optional_field=-1 and note='default' are not init parameters."""

    __slots__ = ()

    required_field: int
    optional_field: int
    note: str


@c_class("testing.TestCxxKwOnly")
class _TestCxxKwOnly(Object):
    """Keyword-only x, y, z and w=100."""

    __slots__ = ()

    x: int
    y: int
    z: int
    w: int


@c_class("testing.TestCxxAutoInit")
class _TestCxxAutoInit(Object):
    """a; b=42 (not an init parameter); keyword-only c; d=99."""

    __slots__ = ()

    a: int
    b: int
    c: int
    d: int


@c_class("testing.TestCxxAutoInitSimple")
class _TestCxxAutoInitSimple(Object):
    """x, y."""

    __slots__ = ()

    x: int
    y: int


@c_class("testing.TestCxxAutoInitAllInitOff")
class _TestCxxAutoInitAllInitOff(Object):
    """x=7, y=9, z=1234; none is an init parameter."""

    __slots__ = ()

    x: int
    y: int
    z: int


@c_class("testing.TestCxxAutoInitKwOnlyDefaults")
class _TestCxxAutoInitKwOnlyDefaults(Object):
    """p_required, p_default=11; keyword-only k_required, k_default=22; hidden=33."""

    __slots__ = ()

    p_required: int
    p_default: int
    k_required: int
    k_default: int
    hidden: int


@c_class("testing.TestCxxNoAutoInit", init=False)
class _TestCxxNoAutoInit(Object):
    """x, y; the type has no __ffi_init__."""

    __slots__ = ()

    x: int
    y: int


@c_class("testing.TestCxxAutoInitParent")
class _TestCxxAutoInitParent(Object):
    """parent_required, parent_default=5."""

    __slots__ = ()

    parent_required: int
    parent_default: int


@c_class("testing.TestCxxAutoInitChild")
class _TestCxxAutoInitChild(_TestCxxAutoInitParent):
    """The parent's fields, child_required and keyword-only child_kw_only."""

    __slots__ = ()

    child_required: int
    child_kw_only: int


def create_object(type_key: str, **kwargs) -> Object:
    """Make an object of ``type_key`` by reflection, each keyword setting the
    field of that name (any field, constructor parameter or not) and the
    other fields at their defaults (``ffi.MakeObjectFromPackedArgs``)."""
    args = [type_key]
    for k, v in kwargs.items():
        args += [k, v]
    return _make_object_from_packed_args()(*args)


def _make_object_from_packed_args():
    f = core._get_global_func("ffi.MakeObjectFromPackedArgs")
    if f is None:
        raise RuntimeError("libtvm_ffi has no ffi.MakeObjectFromPackedArgs")
    return f


# testing.TestEnumVariant's C++ singletons (made on demand: see testing_enum.cc).
core._get_global_func("testing.enum_variant_register")()


class _TestCxxIntEnum(IntEnum, type_key="testing.TestCxxIntEnum"):
    """An IntEnum registered in C++; its variants are defined here."""

    low = entry(value=10)
    high = entry(value=20)


class _TestCxxStrEnum(StrEnum, type_key="testing.TestCxxStrEnum"):
    """A StrEnum registered in C++; its variants are defined here."""

    add = entry(value="+")
    mul = entry(value="*")


@c_class("testing.TestCxxEnumHolder")
class _TestCxxEnumHolder(Object):
    """priority (a _TestCxxIntEnum) and opcode (a _TestCxxStrEnum); both take
    their variant's payload too."""

    __test__ = False

    priority: _TestCxxIntEnum
    opcode: _TestCxxStrEnum
