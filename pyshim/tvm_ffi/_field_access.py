"""Callables reading and writing one reflected field of FFI objects
(``TypeField.getter`` / ``TypeField.setter``, published as
``tvm_ffi.core.FieldGetter`` / ``FieldSetter``), and ``core.ByteArrayArg``.

A getter or setter goes through the field's C accessor, so a setter also
writes fields that the class exposes as frozen (as upstream's does); the
object must be of the field's type or derive from it.
"""
from __future__ import annotations

from . import core


def _checked(kind: str, obj, type_index: int):
    """``obj`` when it is an FFI object of type ``type_index`` or of a type
    derived from it; TypeError otherwise (reading another type's field would
    read unrelated memory)."""
    if not isinstance(obj, core.Object):
        raise TypeError(f"{kind} expects a tvm_ffi.Object, got {type(obj).__name__}")
    index = obj.__tvm_ffi_type_index__
    if index != type_index:
        from ._type_info import type_info  # noqa: PLC0415  (imports this module)

        info = type_info(index) if index is not None else None
        if info is None or type_index not in info.type_ancestors:
            want = type_info(type_index).type_key
            got = info.type_key if info is not None else "a null object"
            raise TypeError(f"{kind} of a {want} field got {got}")
    return obj


class FieldGetter:
    """``getter(obj)``: the value of field ``field_index`` of type
    ``type_index`` in ``obj``."""

    __slots__ = ("type_index", "field_index")

    def __init__(self, type_index: int, field_index: int) -> None:
        self.type_index = type_index
        self.field_index = field_index

    def __call__(self, obj):
        return core._field_get(_checked("FieldGetter", obj, self.type_index),
                               self.type_index, self.field_index)


class FieldSetter:
    """``setter(obj, value)``: store ``value`` (converted as a call argument
    is) in field ``field_index`` of type ``type_index`` of ``obj``."""

    __slots__ = ("type_index", "field_index")

    def __init__(self, type_index: int, field_index: int) -> None:
        self.type_index = type_index
        self.field_index = field_index

    def __call__(self, obj, value) -> None:
        core._field_set(_checked("FieldSetter", obj, self.type_index),
                        self.type_index, self.field_index, value)


class ByteArrayArg:
    """Bytes held for passing as a C byte array (``TVMFFIByteArray``): the
    argument must be ``bytes`` (anything else raises TypeError, as upstream's
    does for ``str``)."""

    __slots__ = ("data",)

    def __init__(self, data: bytes) -> None:
        if not isinstance(data, bytes):
            raise TypeError(f"expected bytes, {type(data).__name__} found")
        self.data = data

    def __len__(self) -> int:
        return len(self.data)


FieldGetter.__module__ = FieldSetter.__module__ = ByteArrayArg.__module__ = "tvm_ffi.core"
