"""Checking and converting Python values against a :class:`TypeSchema`.

``build(schema)`` makes a converter: a function from a Python value to the
Python value the schema stores (``True`` for ``int`` becomes ``1``, a list
for ``Array[float]`` an :class:`tvm_ffi.Array` of floats, ...).  A value that
does not fit raises ``_Mismatch`` whose text says where and why
(``element [1]: expected int, got str``); ``TypeSchema.convert`` and
``check_value`` turn it into a ``TypeError``.

Before a value is matched, the conversion protocols a call argument honours
are applied (``_normalize``): ``__tvm_ffi_object__`` first, then
``__tvm_ffi_value__`` (followed until it stops changing, with cycles
reported), then :class:`tvm_ffi.core.ObjectConvertible`'s ``asobject()``.

This module is imported on first use (``import tvm_ffi`` does not load it).
"""
from __future__ import annotations

import ctypes
import numbers
import os

from . import core
from ._type_info import type_info

INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1

# Longest __tvm_ffi_value__ chain followed before it counts as a cycle.
MAX_VALUE_DEPTH = 64

# Type indices (TVMFFITypeIndex).
_OBJECT = 64
_FUNCTION = 68
_SHAPE = 69
_TENSOR = 70
_ARRAY = 71
_MAP = 72
_LIST = 75
_DICT = 76
_ERROR = 67

# Exact types no conversion protocol applies to.
_PLAIN = frozenset({int, float, bool, str, bytes, bytearray, type(None), list, tuple, dict})


class _Mismatch(Exception):
    """The value does not fit; str() is the reason, with its path."""


def describe(value) -> str:
    """How an error names a value: None, an FFI object's type key, or the
    Python type's name."""
    if value is None:
        return "None"
    if isinstance(value, core.Object):
        return value.__tvm_ffi_type_key__
    return type(value).__name__


def _type_index(value) -> int:
    return value.__tvm_ffi_type_index__


def is_subtype_index(index: int, base: int) -> bool:
    """Whether FFI type ``index`` is ``base`` or derives from it."""
    if index == base or base == _OBJECT:
        return True
    if index < 64:
        return False
    return base in type_info(index).type_ancestors


# ---- conversion protocols -------------------------------------------------------


def _asobject_hook():
    return core.ObjectConvertible.__tvm_ffi_object__


def _follow_value(value):
    """``value`` after its ``__tvm_ffi_value__`` chain: stops at a value
    without the protocol, at one that returns itself, or at one whose hook
    raises (the value then meets the schema as it is)."""
    seen = [value]
    current = value
    for _ in range(MAX_VALUE_DEPTH):
        hook = getattr(type(current), "__tvm_ffi_value__", None)
        if hook is None:
            return current
        try:
            nxt = hook(current)
        except Exception:
            return current
        if nxt is current:
            return current
        if any(nxt is s for s in seen):
            break
        seen.append(nxt)
        current = nxt
    raise _Mismatch("infinite __tvm_ffi_value__ cycle detected")


def _object_protocols(value):
    """``__tvm_ffi_object__`` (a class's own) or ``asobject()`` applied; the
    value unchanged when it has neither."""
    tp = type(value)
    hook = getattr(tp, "__tvm_ffi_object__", None)
    if hook is not None and hook is not _asobject_hook():
        try:
            return hook(value)
        except Exception:
            raise _Mismatch(f"__tvm_ffi_object__() failed for {tp.__name__}") from None
    if isinstance(value, core.ObjectConvertible):
        try:
            return value.asobject()
        except Exception:
            raise _Mismatch(f"asobject() failed for {tp.__name__}") from None
    return value


def normalize(value):
    """The value a schema matches: FFI objects and plain Python values as
    they are; other values through the conversion protocols."""
    tp = type(value)
    if tp in _PLAIN or isinstance(value, core.Object):
        return value
    hook = getattr(tp, "__tvm_ffi_object__", None)
    if hook is not None and hook is not _asobject_hook():
        return _object_protocols(value)
    if getattr(tp, "__tvm_ffi_value__", None) is not None:
        resolved = _follow_value(value)
        if resolved is value:
            return value
        if type(resolved) in _PLAIN or isinstance(resolved, core.Object):
            return resolved
        return _object_protocols(resolved)
    return _object_protocols(value)


def _fail(expected: str, value):
    raise _Mismatch(f"expected {expected}, got {describe(value)}")


# ---- scalar converters ------------------------------------------------------------


def _int64(value: int) -> int:
    if not INT64_MIN <= value <= INT64_MAX:
        raise _Mismatch(f"integer {value} out of int64 range [{INT64_MIN}, {INT64_MAX}]")
    return value


def _call_hook(what: str, fn, value):
    try:
        return fn(value)
    except Exception as err:
        raise _Mismatch(f"{what} failed for {type(value).__name__}: {err}") from None


def conv_int(value):
    value = normalize(value)
    tp = type(value)
    if tp is int:
        return _int64(value)
    if tp is bool:
        return int(value)
    if isinstance(value, int):
        return _int64(int(value))
    hook = getattr(tp, "__tvm_ffi_int__", None)
    if hook is not None:
        out = _call_hook("__tvm_ffi_int__()", hook, value)
        if isinstance(out, int):
            return _int64(int(out))
        _fail("int", value)
    if isinstance(value, numbers.Integral):
        return _int64(_call_hook("int()", int, value))
    return _fail("int", value)


def conv_float(value):
    value = normalize(value)
    if isinstance(value, float):
        return value
    if isinstance(value, int):
        try:
            return float(value)
        except OverflowError:
            raise _Mismatch(f"integer {value} too large for float") from None
    hook = getattr(type(value), "__tvm_ffi_float__", None)
    if hook is not None:
        out = _call_hook("__tvm_ffi_float__()", hook, value)
        if isinstance(out, (int, float)):
            return float(out)
        _fail("float", value)
    if isinstance(value, numbers.Real):
        return _call_hook("float()", float, value)
    return _fail("float", value)


def conv_bool(value):
    value = normalize(value)
    if type(value) is bool:
        return value
    if isinstance(value, int):
        return value != 0
    if isinstance(value, numbers.Integral):
        return _call_hook("bool()", bool, value)
    return _fail("bool", value)


def conv_str(value):
    value = normalize(value)
    if type(value) is str:
        return value
    if isinstance(value, str) and not isinstance(value, _dtype_class()):
        return str.__str__(value)
    return _fail("str", value)


def conv_bytes(value):
    value = normalize(value)
    if type(value) is bytes:
        return value
    if isinstance(value, (bytes, bytearray)):
        return bytes(value)
    return _fail("bytes", value)


def conv_none(value):
    value = normalize(value)
    if value is None:
        return None
    return _fail("None", value)


def conv_any(value):
    out = normalize(value)
    if getattr(type(out), "__tvm_ffi_value__", None) is not None:
        raise _Mismatch(f"failed to convert Any from {type(out).__name__}")
    return out


def conv_opaque_ptr(value):
    value = normalize(value)
    if value is None:
        return ctypes.c_void_p(None)
    if isinstance(value, ctypes.c_void_p):
        return value
    tp = type(value)
    hook = getattr(tp, "__tvm_ffi_opaque_ptr__", None)
    if hook is not None:
        return ctypes.c_void_p(_call_hook("__tvm_ffi_opaque_ptr__()", hook, value))
    hook = getattr(tp, "__cuda_stream__", None)
    if hook is not None:
        pair = _call_hook("__cuda_stream__()", hook, value)
        return ctypes.c_void_p(pair[1])
    return _fail("ctypes.c_void_p", value)


def conv_device(value):
    value = normalize(value)
    if isinstance(value, core.Device):
        return value
    if isinstance(value, str):
        try:
            return core.Device(value)
        except Exception:
            raise _Mismatch(f"expected Device, got invalid device string {value!r}") from None
    tp = type(value)
    hook = getattr(tp, "__dlpack_device__", None)
    # A tensor also has __dlpack_device__; it is not a device.
    if hook is not None and getattr(tp, "__dlpack__", None) is None:
        pair = _call_hook("__dlpack_device__()", hook, value)
        try:
            return core.Device(int(pair[0]), int(pair[1]))
        except Exception:
            raise _Mismatch(f"__dlpack_device__() of {tp.__name__} gave {pair!r}") from None
    return _fail("Device", value)


def _dtype_class():
    from ._dtype import dtype

    return dtype


def conv_dtype(value):
    value = normalize(value)
    dtype = _dtype_class()
    if isinstance(value, dtype):
        return value
    if isinstance(value, core.DataType):
        return dtype(str(value))
    if isinstance(value, str):
        try:
            return dtype(value)
        except Exception:
            raise _Mismatch(f"expected dtype, got invalid dtype string {value!r}") from None
    tp = type(value)
    hook = getattr(tp, "__dlpack_data_type__", None)
    if hook is not None:
        code, bits, lanes = _call_hook("__dlpack_data_type__()", hook, value)
        return dtype(str(core._datatype_from_triple(code, bits, lanes)))
    if tp.__module__.partition(".")[0] in ("numpy", "torch", "ml_dtypes"):
        try:
            return dtype(value)
        except Exception:
            pass
    return _fail("dtype", value)


def conv_callable(value):
    value = normalize(value)
    if isinstance(value, core.Object):
        if _type_index(value) == _FUNCTION:
            return value
        return _fail("Callable", value)
    if callable(value):
        return value
    return _fail("Callable", value)


def conv_tensor(value):
    value = normalize(value)
    if isinstance(value, core.Object):
        if _type_index(value) == _TENSOR:
            return value
        return _fail("Tensor", value)
    tp = type(value)
    if getattr(tp, "__dlpack_c_exchange_api__", None) is not None:
        if os.environ.get("TVM_FFI_SKIP_DLPACK_C_EXCHANGE_API", "0") != "1":
            return value
    elif getattr(tp, "__dlpack__", None) is not None:
        return value
    return _fail("Tensor", value)


def conv_object(value):
    """``Object``: any FFI object, or a Python value a call would pass as one
    (a list, dict, callable, exception or opaque object); not None, numbers,
    strings or bytes."""
    value = normalize(value)
    if isinstance(value, core.Object):
        return value
    if value is None or isinstance(value, (bool, int, float, str, bytes, bytearray)):
        return _fail("Object", value)
    if isinstance(value, (core.Device, core.DataType, ctypes.c_void_p)):
        return _fail("Object", value)
    return value


def _object_converter(type_key: str, index: int):
    """A registered object type: an instance of it (or of a subtype), an enum
    variant's payload, or a value a call converts to such an object."""

    def conv(value):
        value = normalize(value)
        if index == _SHAPE and isinstance(value, (list, tuple, core.ArrayBase, core.ListBase)):
            return _to_shape(value, type_key)
        if isinstance(value, core.Object):
            if is_subtype_index(_type_index(value), index):
                return value
            return _fail(type_key, value)
        cls = type_info(index).type_cls
        if cls is not None and value is not None:
            variant = _enum_variant(cls, value)
            if variant is not None:
                return variant
        if value is None or isinstance(value, (bool, int, float, str, bytes, bytearray)):
            return _fail(type_key, value)
        # What a call would pass for the value (an exception becomes an
        # ffi.Error, anything else an ffi.OpaquePyObject, ...).
        try:
            obj = core._convert(value)
        except Exception:
            return _fail(type_key, value)
        if isinstance(obj, core.Object) and is_subtype_index(_type_index(obj), index):
            return obj
        return _fail(type_key, value)

    return conv


def _enum_variant(cls, value):
    """The variant of enum class ``cls`` whose payload is ``value`` (an int
    for an IntEnum, a str for a StrEnum); None when none is, or when ``cls``
    is not such an enum."""
    from .dataclasses.enum import IntEnum, StrEnum

    if isinstance(value, bool):
        return None
    if isinstance(cls, type) and issubclass(cls, IntEnum) and isinstance(value, int):
        pass
    elif isinstance(cls, type) and issubclass(cls, StrEnum) and isinstance(value, str):
        pass
    else:
        return None
    for variant in cls.all_entries():
        if variant.value == value:
            return variant
    return None


def _to_shape(value, type_key):
    """An ffi.Shape from a sequence of ints (a Shape is a tuple already)."""
    from .container import Shape

    if isinstance(value, Shape):
        return value
    items = list(value)
    for i, item in enumerate(items):
        if isinstance(item, bool) or not isinstance(item, int):
            raise _Mismatch(
                f"expected {type_key}, got {describe(value)} "
                f"(element [{i}] is {describe(item)}, not int)"
            )
    return Shape(items)


# ---- containers ---------------------------------------------------------------------


def _container_classes():
    from .container import Array, Dict, List, Map

    return {_ARRAY: Array, _LIST: List, _MAP: Map, _DICT: Dict}


def _is_any(schema) -> bool:
    return schema.origin == "Any"


def _sequence_converter(name: str, kind: int, elem):
    """Array / List of ``elem``: a list, a tuple, an ffi.Array or an ffi.List
    (str, generators and mappings are not sequences here)."""
    elem_conv = elem._converter()
    elem_any = _is_any(elem)

    def conv(value):
        value = normalize(value)
        source = None
        if isinstance(value, (list, tuple)):
            items = value
        elif isinstance(value, core.Object) and _type_index(value) in (_ARRAY, _LIST):
            source = value
            if elem_any and _type_index(value) == kind:
                return value
            items = list(value)
        else:
            return _fail(name, value)
        out, changed = _convert_items(items, elem_conv)
        if source is not None and not changed and _type_index(source) == kind:
            return source
        return _container_classes()[kind](out)

    return conv


def _convert_items(items, convs):
    """Converts items[i] with convs[i] (or convs itself for all); returns
    (converted list, whether any item changed)."""
    out = []
    changed = False
    single = callable(convs)
    for i, item in enumerate(items):
        conv = convs if single else convs[i]
        try:
            new = conv(item)
        except _Mismatch as err:
            raise _Mismatch(f"element [{i}]: {err}") from None
        if new is not item:
            changed = True
        out.append(new)
    return out, changed


def _tuple_converter(args):
    """``tuple[...]``: a list, tuple, ffi.Array or ffi.List of exactly
    len(args) items (any items, any length, when args is None); stored as
    an ffi.Array."""
    convs = None if args is None else [a._converter() for a in args]

    def conv(value):
        value = normalize(value)
        source = None
        if isinstance(value, (list, tuple)):
            items = value
        elif isinstance(value, core.Object) and _type_index(value) in (_ARRAY, _LIST):
            source = value
            items = list(value)
        else:
            return _fail("tuple", value)
        if convs is None:
            out, changed = list(items), False
        else:
            if len(items) != len(convs):
                raise _Mismatch(
                    f"expected tuple of length {len(convs)}, "
                    f"got {describe(value)} of length {len(items)}"
                )
            out, changed = _convert_items(items, convs)
        if source is not None and not changed and _type_index(source) == _ARRAY:
            return source
        return _container_classes()[_ARRAY](out)

    return conv


def _mapping_converter(name: str, kind: int, key, val):
    """Map / Dict of ``key`` to ``val``: a dict, an ffi.Map or an ffi.Dict."""
    key_conv = key._converter()
    val_conv = val._converter()
    all_any = _is_any(key) and _is_any(val)

    def conv(value):
        value = normalize(value)
        source = None
        if isinstance(value, dict):
            items = value.items()
        elif isinstance(value, core.Object) and _type_index(value) in (_MAP, _DICT):
            source = value
            if all_any and _type_index(value) == kind:
                return value
            items = list(value.items())
        else:
            return _fail(name, value)
        out = {}
        changed = False
        for k, v in items:
            try:
                new_k = key_conv(k)
            except _Mismatch as err:
                raise _Mismatch(f"key {k!r}: {err}") from None
            try:
                new_v = val_conv(v)
            except _Mismatch as err:
                raise _Mismatch(f"value for key {k!r}: {err}") from None
            if new_k is not k or new_v is not v:
                changed = True
            out[new_k] = new_v
        if source is not None and not changed and _type_index(source) == kind:
            return source
        return _container_classes()[kind](out)

    return conv


def _optional_converter(inner):
    inner_conv = inner._converter()

    def conv(value):
        value = normalize(value)
        if value is None:
            return None
        return inner_conv(value)

    return conv


def _union_converter(schema):
    convs = [a._converter() for a in schema.args]
    text = schema.repr()

    def conv(value):
        value = normalize(value)
        for alt in convs:
            try:
                return alt(value)
            except _Mismatch:
                continue
        return _fail(text, value)

    return conv


# ---- building -----------------------------------------------------------------------

_SCALARS = {
    "int": conv_int,
    "float": conv_float,
    "bool": conv_bool,
    "str": conv_str,
    "bytes": conv_bytes,
    "None": conv_none,
    "Any": conv_any,
    "ctypes.c_void_p": conv_opaque_ptr,
    "Device": conv_device,
    "dtype": conv_dtype,
    "Callable": conv_callable,
    "Tensor": conv_tensor,
    "Object": conv_object,
}

_SEQUENCES = {"Array": _ARRAY, "List": _LIST, "list": _LIST}
_MAPPINGS = {"Map": _MAP, "Dict": _DICT, "dict": _DICT}


def build(schema):
    """The converter of ``schema``; TypeError for an origin that names no
    type (neither a built-in origin nor a registered type key)."""
    origin = schema.origin
    conv = _SCALARS.get(origin)
    if conv is not None:
        return conv
    if origin in _SEQUENCES:
        kind = _SEQUENCES[origin]
        return _sequence_converter("List" if kind == _LIST else "Array", kind, schema.args[0])
    if origin in _MAPPINGS:
        kind = _MAPPINGS[origin]
        return _mapping_converter(
            "Dict" if kind == _DICT else "Map", kind, schema.args[0], schema.args[1]
        )
    if origin == "tuple":
        return _tuple_converter(schema.args)
    if origin == "Optional":
        return _optional_converter(schema.args[0])
    if origin == "Union":
        return _union_converter(schema)
    index = object_index(origin)
    if index is None:
        if schema.fallback is not None:
            return schema.fallback._converter()
        raise TypeError(f"unknown TypeSchema origin: {origin!r}")
    return _object_converter(origin, index)


def object_index(type_key: str):
    """The type index of registered object type ``type_key``, or None."""
    if "." not in type_key:
        return None
    try:
        return core._type_key_to_index(type_key)
    except Exception:
        return None
