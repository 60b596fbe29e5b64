"""Callables reading and writing one reflected field of FFI objects
(``TypeField.getter`` / ``TypeField.setter``, published as
``tvm_ffi.core.FieldGetter`` / ``FieldSetter``), and ``core.ByteArrayArg``.

A getter or setter goes through the field's C accessor, so a setter also
writes fields that the class exposes as frozen (as upstream's does); the
object must be of the field's type or derive from it.
"""
from __future__ import annotations

from . import core


class FieldGetter:
    """``getter(obj)``: the value of field ``field_index`` of type
    ``type_index`` in ``obj``."""

    __slots__ = ("type_index", "field_index")

    def __init__(self, type_index: int, field_index: int) -> None:
        self.type_index = type_index
        self.field_index = field_index

    def __call__(self, obj):
        if not isinstance(obj, core.Object):
            raise TypeError(f"FieldGetter expects a tvm_ffi.Object, got {type(obj).__name__}")
        return core._field_get(obj, self.type_index, self.field_index)


class FieldSetter:
    """``setter(obj, value)``: store ``value`` (converted as a call argument
    is) in field ``field_index`` of type ``type_index`` of ``obj``."""

    __slots__ = ("type_index", "field_index")

    def __init__(self, type_index: int, field_index: int) -> None:
        self.type_index = type_index
        self.field_index = field_index

    def __call__(self, obj, value) -> None:
        if not isinstance(obj, core.Object):
            raise TypeError(f"FieldSetter expects a tvm_ffi.Object, got {type(obj).__name__}")
        core._field_set(obj, self.type_index, self.field_index, value)


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
