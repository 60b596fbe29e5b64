"""``String`` and ``Bytes``: ``str`` and ``bytes`` that can carry the FFI
object they came from (upstream's ``core.String`` / ``core.Bytes``), with
their common base ``PyNativeObject``.

They are ordinary ``str``/``bytes`` everywhere (FFI calls take them as such);
``_tvm_ffi_cached_object`` holds the ``ffi.String``/``ffi.Bytes`` object when
one is known (None otherwise).  Pickling gives a plain ``str``/``bytes``.
"""
from __future__ import annotations

from . import core


class PyNativeObject:
    """Base of the Python-native values backed by an FFI object."""

    __slots__ = ()

    def __init_cached_object_by_constructor__(self, fconstructor, *args) -> None:
        """Make the backing FFI object with ``fconstructor(*args)`` and keep it."""
        obj = fconstructor(*args)
        if not isinstance(obj, core.Object):
            # An ffi.String/ffi.Bytes comes back to Python as str/bytes; the
            # object itself is then the value's own conversion.
            obj = None
        self._tvm_ffi_cached_object = obj


class String(str, PyNativeObject):
    """A ``str`` that may carry its ``ffi.String`` object."""

    def __new__(cls, value: str = "") -> String:
        if not isinstance(value, str):
            raise TypeError(f"String needs a str, got {type(value).__name__}")
        self = str.__new__(cls, value)
        self._tvm_ffi_cached_object = None
        return self

    @classmethod
    def __from_tvm_ffi_object__(cls, obj) -> String:
        self = cls.__new__(cls, str(obj) if not isinstance(obj, str) else obj)
        self._tvm_ffi_cached_object = obj if isinstance(obj, core.Object) else None
        return self

    def __reduce__(self):
        return (str, (str(self),))


class Bytes(bytes, PyNativeObject):
    """A ``bytes`` that may carry its ``ffi.Bytes`` object."""

    def __new__(cls, value: bytes = b"") -> Bytes:
        if not isinstance(value, (bytes, bytearray, memoryview)):
            raise TypeError(f"Bytes needs a bytes-like object, got {type(value).__name__}")
        self = bytes.__new__(cls, value)
        self._tvm_ffi_cached_object = None
        return self

    @classmethod
    def __from_tvm_ffi_object__(cls, obj) -> Bytes:
        self = cls.__new__(cls, obj if isinstance(obj, (bytes, bytearray)) else bytes(obj))
        self._tvm_ffi_cached_object = obj if isinstance(obj, core.Object) else None
        return self

    def __reduce__(self):
        return (bytes, (bytes(self),))


core.PyNativeObject = PyNativeObject
core.String = String
core.Bytes = Bytes
