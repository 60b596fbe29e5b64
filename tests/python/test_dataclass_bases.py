"""py_class with more than one FFI base: an FFI type has one parent type.

A second FFI base beside the parent chain used to be accepted with its
fields silently dropped (and frozen mixed with non-frozen); it is a
TypeError now.  Bases on the parent chain and plain Python mixins stay fine.
"""
import pytest

import tvm_ffi
from tvm_ffi.dataclasses import fields, py_class


@py_class("testing.bases.A")
class A(tvm_ffi.Object):
    a: int


@py_class("testing.bases.B")
class B(tvm_ffi.Object):
    b: int


@py_class("testing.bases.Frozen", frozen=True)
class Frozen(tvm_ffi.Object):
    f: int


@py_class("testing.bases.A2")
class A2(A):
    a2: int


def _message(first, other):
    return (rf"^py_class C: bases {first} and {other} are both FFI types and neither derives "
            r"from the other; an FFI type has one parent type \(inherit from one of them only, "
            r"or make the other a plain Python mixin\)$")


def test_two_py_class_bases_are_refused():
    with pytest.raises(TypeError, match=_message("A", "B")):
        @py_class("testing.bases.AB")
        class C(A, B):
            c: int


def test_frozen_and_non_frozen_bases_are_refused():
    for frozen in (False, True):
        with pytest.raises(TypeError, match=_message("A", "Frozen")):
            @py_class(f"testing.bases.AF{frozen}", frozen=frozen)
            class C(A, Frozen):
                c: int


def test_a_registered_cxx_type_beside_a_py_class_is_refused():
    with pytest.raises(TypeError, match=_message("A", "Array")):
        @py_class("testing.bases.AArray")
        class C(A, tvm_ffi.Array):
            c: int


def test_the_refused_type_key_stays_free():
    with pytest.raises(TypeError):
        @py_class("testing.bases.Retry")
        class C(A, B):
            c: int

    @py_class("testing.bases.Retry")
    class C(A):  # noqa: F811
        c: int

    assert [f.name for f in fields(C)] == ["a", "c"]


def test_a_base_on_the_parent_chain_is_accepted():
    # A is an ancestor of A2: listing both is one chain, not two parents.
    @py_class("testing.bases.Chain")
    class C(A2, A):
        c: int

    assert [f.name for f in fields(C)] == ["a", "a2", "c"]
    assert C(1, 2, 3).a2 == 2


def test_a_plain_python_mixin_is_accepted():
    class Mixin:
        def twice(self):
            return 2 * self.a

    @py_class("testing.bases.Mixin")
    class C(Mixin, A):
        c: int

    assert C(4, 5).twice() == 8
    assert [f.name for f in fields(C)] == ["a", "c"]
