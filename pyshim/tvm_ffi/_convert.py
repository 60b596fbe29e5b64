"""Explicit conversion of Python values to FFI values."""
from __future__ import annotations

from . import core

# typing is not imported at run time (it costs as much as the rest of
# `import tvm_ffi`); type checkers see the names below.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable


def convert(value: Any) -> Any:
    """Convert a Python value to the FFI value a call would pass.

    list/tuple become :class:`tvm_ffi.Array`, dict becomes :class:`tvm_ffi.Map`,
    callables become :class:`tvm_ffi.Function`, FFI objects and plain values
    (None, bool, int, float, str, bytes, dtype, Device) come back unchanged, and
    any other object becomes an ``ffi.OpaquePyObject`` wrapper (see
    :class:`tvm_ffi.container.OpaquePyObject`).
    """
    if isinstance(value, (core.Object, core.Device, str, bytes, bool, int, float)) or value is None:
        return value
    return core._convert(value)


def convert_func(pyfunc: Callable, tensor_cls: type | None = None) -> core.Function:
    """Wrap a Python callable as an FFI :class:`tvm_ffi.Function`.

    With ``tensor_cls`` (a class publishing ``__dlpack_c_exchange_api__``,
    such as ``torch.Tensor``), tensor arguments reach ``pyfunc`` as instances
    of that class instead of :class:`tvm_ffi.Tensor`, without a copy."""
    return core._convert_to_ffi_func(pyfunc, tensor_cls)


def _to_py_class_value(value: Any) -> Any:
    """The Python value held by a :class:`core.CAny` (what
    :meth:`TypeSchema.convert` returns), as a field of that value reads
    back: strings as :class:`core.String`, bytes as :class:`core.Bytes`,
    objects shared (not copied).  Any other value comes back as it is."""
    if type(value) is not core.CAny:
        return value
    out = value._to_py()
    if type(out) is str:
        return core.String(out)
    if type(out) is bytes:
        return core.Bytes(out)
    return out


core._to_py_class_value = _to_py_class_value


class ObjectConvertible:
    """Base class of Python values that stand for an FFI object: a subclass
    defines :meth:`asobject`, and passing an instance to an FFI call (or to
    :func:`tvm_ffi.convert`) passes the object it returns."""

    __slots__ = ()

    def asobject(self):
        """The :class:`tvm_ffi.Object` this value stands for."""
        raise NotImplementedError(f"{type(self).__name__} does not define asobject()")

    def __tvm_ffi_object__(self):
        return self.asobject()


core.ObjectConvertible = ObjectConvertible
