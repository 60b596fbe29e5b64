"""From a field annotation to its storage and its value check.

Each annotation becomes a ``_Schema``: the FFI storage it asks for (a static
type index, see /work/dc-design.md "Interface 1"), whether None is allowed,
and, for what the storage alone cannot check (Optional of int, unions, the
element types of containers, forward references), a ``convert(value)`` that
returns the value to store or raises ``_Mismatch``.
"""
from __future__ import annotations

import sys
import types
import typing

from .. import core

# Storage kinds (TVMFFITypeIndex).
ANY = -1
INT = 1
BOOL = 2
FLOAT = 3
OBJECT = 64


class _Mismatch(Exception):
    """Raised by a schema's conversion: the value does not fit.  ``detail``
    says where inside a container, when it is an item that does not fit
    (``element [1]: expected int, got None``)."""

    def __init__(self, detail=None):
        super().__init__(detail)
        self.detail = detail


def _inner_mismatch(where, schema, value, err):
    """The _Mismatch of a container whose item ``value`` at ``where`` did not
    fit ``schema``."""
    inner = err.detail or f"expected {schema.describe()}, got {describe_value(value)}"
    return _Mismatch(f"{where}: {inner}")


def describe_value(value) -> str:
    """How an error message shows a value: the value itself when short, its
    type otherwise."""
    if value is None:
        return "None"
    if isinstance(value, bool):
        return f"bool {value}"
    if isinstance(value, int) and not -(2**63) <= value < 2**63:
        return f"int {value!r} (out of the int64 range)"
    if isinstance(value, (int, float)):
        return f"{type(value).__name__} {value!r}"
    if isinstance(value, str):
        if len(value) <= 32:
            return f'str "{value}"'
        return "str"
    key = getattr(value, "__tvm_ffi_type_key__", None) if hasattr(value, "__chandle__") else None
    return key if isinstance(key, str) else type(value).__name__


def _ts(origin, args=()):
    from ..type_schema import TypeSchema

    return TypeSchema(origin, args)


def _index_of(key: str) -> int:
    return core._type_key_to_index(key)


class _Schema:
    """Base: ``storage`` (static type index), ``nullable``, ``needs_check``
    (True when the storage alone does not enforce the type)."""

    storage = ANY
    nullable = False
    needs_check = False

    def convert(self, value):
        return value

    def describe(self) -> str:
        raise NotImplementedError


class _AnySchema(_Schema):
    def type_schema(self):
        return _ts("Any")

    def describe(self):
        return "Any"


class _NoneSchema(_Schema):
    def type_schema(self):
        return _ts("None")

    nullable = True
    needs_check = True

    def convert(self, value):
        if value is None:
            return None
        raise _Mismatch

    def describe(self):
        return "None"


class _IntSchema(_Schema):
    def type_schema(self):
        return _ts("int")

    storage = INT

    def convert(self, value):
        if not isinstance(value, int):
            hook = getattr(type(value), "__tvm_ffi_int__", None)
            if hook is not None:  # the protocol a call argument may use
                value = hook(value)
        if isinstance(value, int) and -(2**63) <= value < 2**63:
            return int(value) if isinstance(value, bool) else value
        raise _Mismatch

    def describe(self):
        return "int"


class _FloatSchema(_Schema):
    def type_schema(self):
        return _ts("float")

    storage = FLOAT

    def convert(self, value):
        if isinstance(value, float):
            return value
        if isinstance(value, int):
            return float(value)
        hook = getattr(type(value), "__tvm_ffi_float__", None)
        if hook is not None:  # the protocol a call argument may use
            result = hook(value)
            if isinstance(result, float):
                return result
        raise _Mismatch

    def describe(self):
        return "float"


class _BoolSchema(_Schema):
    def type_schema(self):
        return _ts("bool")

    storage = BOOL

    def convert(self, value):
        if isinstance(value, bool):
            return value
        raise _Mismatch

    def describe(self):
        return "bool"


class _StrSchema(_Schema):
    def type_schema(self):
        return _ts("str")

    def __init__(self):
        self.storage = _index_of("ffi.String")

    def convert(self, value):
        if isinstance(value, str):
            return value
        raise _Mismatch

    def describe(self):
        return "str"


class _BytesSchema(_Schema):
    def type_schema(self):
        return _ts("bytes")

    def __init__(self):
        self.storage = _index_of("ffi.Bytes")

    def convert(self, value):
        if isinstance(value, (bytes, bytearray)):
            return value
        raise _Mismatch

    def describe(self):
        return "bytes"


class _DTypeSchema(_Schema):
    """``tvm_ffi.dtype``: an Any slot holding a data type; a string such as
    ``"float32"`` is parsed."""

    needs_check = True

    def type_schema(self):
        return _ts("dtype")

    def convert(self, value):
        from .._dtype import dtype

        if isinstance(value, dtype):
            return value
        if isinstance(value, str):
            try:
                return dtype(value)
            except (TypeError, ValueError):
                raise _Mismatch from None
        raise _Mismatch

    def describe(self):
        return "dtype"


class _DeviceSchema(_Schema):
    """``tvm_ffi.Device``: an Any slot holding a device; a string such as
    ``"cuda:1"`` or ``"cpu"`` is parsed."""

    needs_check = True

    def type_schema(self):
        return _ts("Device")

    def convert(self, value):
        if isinstance(value, core.Device):
            return value
        if isinstance(value, str):
            from .._device import device

            try:
                return device(value)
            except (TypeError, ValueError):
                raise _Mismatch from None
        raise _Mismatch

    def describe(self):
        return "Device"


class _ObjectSchema(_Schema):
    """An FFI object class (registered with register_object/c_class/py_class)."""

    def type_schema(self):
        return _ts(self.key)

    def __init__(self, cls):
        self.cls = cls
        info = cls.__tvm_ffi_type_info__
        self.storage = info.type_index
        self.key = info.type_key

    def convert(self, value):
        if isinstance(value, self.cls):
            return value
        raise _Mismatch

    def describe(self):
        return self.cls.__name__


class _EnumSchema(_ObjectSchema):
    """An IntEnum/StrEnum class: takes a variant, or its payload (an int in
    the int64 range, a str), stored as the variant at that index."""

    needs_check = True

    def __init__(self, cls, payload):
        super().__init__(cls)
        self.payload = payload

    def convert(self, value):
        if isinstance(value, self.cls):
            return value
        if self.payload is int and isinstance(value, int):
            if not -(2**63) <= value < 2**63:
                raise _Mismatch
            index = int(value)
        elif self.payload is str and isinstance(value, str):
            index = value
        else:
            raise _Mismatch
        state = core._lookup_type_attr(self.storage, "__ffi_enum__")
        found = None if state is None else state.indexes.get(index)
        if found is None:
            raise _Mismatch
        return found


class _AnyObjectSchema(_Schema):
    """``tvm_ffi.Object``: any FFI object."""

    def type_schema(self):
        return _ts("Object")

    storage = OBJECT

    def convert(self, value):
        if hasattr(value, "__chandle__"):
            return value
        raise _Mismatch

    def describe(self):
        return "Object"


class _CallableSchema(_Schema):
    def type_schema(self):
        return _ts("Callable")

    def __init__(self):
        self.storage = _index_of("ffi.Function")

    def convert(self, value):
        if callable(value):
            return value
        raise _Mismatch

    def describe(self):
        return "Callable"


class _OptionalSchema(_Schema):
    """``X | None``: object storage made nullable, or Any storage plus a check."""

    def type_schema(self):
        return _ts("Optional", (self.inner.type_schema(),))

    def __init__(self, inner):
        self.inner = inner
        self.nullable = True
        if inner.storage >= OBJECT:
            self.storage = inner.storage
            self.needs_check = inner.needs_check
        else:
            self.storage = ANY
            self.needs_check = True

    def convert(self, value):
        if value is None:
            return None
        return self.inner.convert(value)

    def describe(self):
        return f"Optional[{self.inner.describe()}]"


class _UnionSchema(_Schema):
    needs_check = True

    def type_schema(self):
        return _ts("Union", tuple(o.type_schema() for o in self.options))

    def __init__(self, options):
        self.options = options
        self.nullable = any(isinstance(o, _NoneSchema) for o in options)

    def convert(self, value):
        # An exact kind first, so 1 stays an int in `float | int`.
        for option in self.options:
            try:
                converted = option.convert(value)
            except _Mismatch:
                continue
            if type(converted) is type(value):
                return converted
        for option in self.options:
            try:
                return option.convert(value)
            except _Mismatch:
                continue
        raise _Mismatch

    def describe(self):
        return " | ".join(o.describe() for o in self.options)


class _SeqSchema(_Schema):
    """``list[T]`` / ``Array[T]`` / ``List[T]``."""

    def type_schema(self):
        origin = "Array" if self.storage == _index_of("ffi.Array") else "List"
        return _ts(origin, (self.elem.type_schema(),))

    def __init__(self, container_cls, key, elem, name):
        self.container_cls = container_cls
        self.storage = _index_of(key)
        self.elem = elem
        self.name = name
        self.needs_check = True

    def convert(self, value):
        if isinstance(value, (str, bytes, dict)) or not hasattr(value, "__iter__"):
            raise _Mismatch
        if isinstance(value, self.container_cls) and isinstance(self.elem, _AnySchema):
            return value
        items = list(value)
        out = []
        changed = not isinstance(value, self.container_cls)
        for i, item in enumerate(items):
            try:
                converted = self.elem.convert(item)
            except _Mismatch as err:
                raise _inner_mismatch(f"element [{i}]", self.elem, item, err) from None
            changed = changed or converted is not item
            out.append(converted)
        if not changed:
            return value
        return self.container_cls(out)

    def describe(self):
        return f"{self.name}[{self.elem.describe()}]"


class _MapSchema(_Schema):
    """``dict[K, V]`` / ``Map[K, V]`` / ``Dict[K, V]``."""

    def type_schema(self):
        origin = "Map" if self.storage == _index_of("ffi.Map") else "Dict"
        return _ts(origin, (self.key_schema.type_schema(), self.value_schema.type_schema()))

    def __init__(self, container_cls, key, key_schema, value_schema, name):
        self.container_cls = container_cls
        self.storage = _index_of(key)
        self.key_schema = key_schema
        self.value_schema = value_schema
        self.name = name
        self.needs_check = True

    def convert(self, value):
        if not hasattr(value, "items"):
            raise _Mismatch
        if (
            isinstance(value, self.container_cls)
            and isinstance(self.key_schema, _AnySchema)
            and isinstance(self.value_schema, _AnySchema)
        ):
            return value
        changed = not isinstance(value, self.container_cls)
        out = {}
        for k, v in value.items():
            try:
                ck = self.key_schema.convert(k)
            except _Mismatch as err:
                raise _inner_mismatch(f"key {k!r}", self.key_schema, k, err) from None
            try:
                cv = self.value_schema.convert(v)
            except _Mismatch as err:
                raise _inner_mismatch(f"value for key {k!r}", self.value_schema, v, err) from None
            changed = changed or ck is not k or cv is not v
            out[ck] = cv
        if not changed:
            return value
        return self.container_cls(out)

    def describe(self):
        return f"{self.name}[{self.key_schema.describe()}, {self.value_schema.describe()}]"


class _ForwardSchema(_Schema):
    """An annotation naming something not defined yet: Any storage, resolved
    on the first value that reaches it."""

    def type_schema(self):
        if self.resolved is not None:
            return self.resolved.type_schema()
        return _ts("Any")

    needs_check = True

    def __init__(self, text, globalns, localns):
        self.text = text
        self.globalns = globalns
        self.localns = localns
        self.resolved = None

    def resolve(self):
        if self.resolved is None:
            try:
                annotation = eval(self.text, self.globalns, self.localns)  # noqa: S307
            except Exception as err:  # noqa: BLE001 - any failure to evaluate it
                raise TypeError(
                    f"cannot resolve the forward reference {self.text!r}: {err}"
                ) from None
            self.resolved = schema_of(annotation, self.globalns, self.localns)
        return self.resolved

    @property
    def nullable(self):
        return True

    def convert(self, value):
        return self.resolve().convert(value)

    def describe(self):
        if self.resolved is not None:
            return self.resolved.describe()
        return self.text


def _containers():
    from ..container import Array, Dict, List, Map

    return Array, List, Map, Dict


def schema_of(annotation, globalns=None, localns=None) -> _Schema:
    """The schema of a (resolved or string) annotation."""
    if isinstance(annotation, str):
        try:
            annotation = eval(annotation, globalns or {}, localns or {})  # noqa: S307
        except Exception:  # noqa: BLE001 - a name not defined yet, or text that fails
            return _ForwardSchema(annotation, globalns or {}, localns or {})
        if isinstance(annotation, str):  # a quoted annotation, stringified once more
            return schema_of(annotation, globalns, localns)
    if isinstance(annotation, typing.ForwardRef):
        return _ForwardSchema(annotation.__forward_arg__, globalns or {}, localns or {})
    if annotation is typing.Any or annotation is object:
        return _AnySchema()
    if annotation is None or annotation is type(None):
        return _NoneSchema()
    if annotation is int:
        return _IntSchema()
    if annotation is float:
        return _FloatSchema()
    if annotation is bool:
        return _BoolSchema()
    if annotation is str:
        return _StrSchema()
    if annotation is bytes:
        return _BytesSchema()
    if annotation is core.Device:
        return _DeviceSchema()
    if isinstance(annotation, type) and annotation.__name__ == "dtype":
        from .._dtype import dtype

        if annotation is dtype:
            return _DTypeSchema()
    Array, List, Map, Dict = _containers()
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Union or (sys.version_info >= (3, 10) and origin is types.UnionType):
        options = [schema_of(a, globalns, localns) for a in args]
        others = [o for o in options if not isinstance(o, _NoneSchema)]
        if len(others) == 1 and len(options) == 2:
            return _OptionalSchema(others[0])
        return _UnionSchema(options)
    if origin in (list, Array, List, tuple, typing.Sequence) or annotation in (list, tuple):
        elem = _AnySchema()
        if origin is tuple:
            # tuple[T, ...] checks its items; other tuple shapes are stored unchecked.
            if len(args) == 2 and args[1] is Ellipsis:
                elem = schema_of(args[0], globalns, localns)
        elif args:
            elem = schema_of(args[0], globalns, localns)
        # A Python list is mutable: list[T] is stored as an ffi.List (as
        # upstream); Array[T] and tuples as an ffi.Array.
        if origin in (List, list) or annotation in (List, list):
            return _SeqSchema(List, "ffi.List", elem, "List" if origin is List else "list")
        return _SeqSchema(Array, "ffi.Array", elem, "Array" if origin is Array else "tuple")
    if origin in (dict, Map, Dict, typing.Mapping) or annotation is dict:
        ks = schema_of(args[0], globalns, localns) if args else _AnySchema()
        vs = schema_of(args[1], globalns, localns) if len(args) > 1 else _AnySchema()
        # A Python dict is mutable: dict[K, V] is stored as an ffi.Dict.
        if origin in (Dict, dict) or annotation is dict:
            return _MapSchema(Dict, "ffi.Dict", ks, vs, "Dict" if origin is Dict else "dict")
        return _MapSchema(Map, "ffi.Map", ks, vs, "Map" if origin is Map else "Mapping")
    if origin is not None and getattr(origin, "__name__", "") == "Callable":
        return _CallableSchema()
    if annotation is typing.Callable:
        return _CallableSchema()
    if isinstance(annotation, type):
        if annotation is core.Object:
            return _AnyObjectSchema()
        if annotation is core.Function:
            return _CallableSchema()
        if issubclass(annotation, core.Object):
            if "__tvm_ffi_type_info__" in annotation.__dict__:
                from .enum import IntEnum, StrEnum

                if issubclass(annotation, IntEnum):
                    return _EnumSchema(annotation, int)
                if issubclass(annotation, StrEnum):
                    return _EnumSchema(annotation, str)
                return _ObjectSchema(annotation)
            raise TypeError(
                f"field type {annotation.__name__} is an Object subclass that is not "
                "registered (use register_object, c_class or py_class on it)"
            )
    raise TypeError(f"unsupported field type {annotation!r}")


_SCALAR_ORIGINS = {
    "int": int,
    "float": float,
    "bool": bool,
    "str": str,
    "bytes": bytes,
}


def _special_origin(origin):
    """``tvm_ffi.dtype`` / ``tvm_ffi.Device`` for those type-schema origins."""
    if origin == "dtype":
        from .._dtype import dtype

        return dtype
    if origin == "Device":
        return core.Device
    return None


def annotation_of(ts):
    """The annotation a :class:`tvm_ffi.core.TypeSchema` stands for (so that
    :func:`schema_of` can read it): scalars, ``None``/``Any``, ``Optional``,
    ``Union``, ``Array``/``List``/``Map``/``Dict``, ``Callable`` and type
    keys (the class bound to the key).  TypeError for a key with no class."""
    origin = ts.origin
    if origin in _SCALAR_ORIGINS:
        return _SCALAR_ORIGINS[origin]
    special = _special_origin(origin)
    if special is not None:
        return special
    if origin == "Any":
        return typing.Any
    if origin == "None":
        return None
    args = tuple(annotation_of(a) for a in ts.args)
    if origin == "Optional":
        return typing.Optional[args[0]] if args else typing.Any
    if origin == "Union":
        return typing.Union[args] if args else typing.Any
    Array, List, Map, Dict = _containers()
    seqs = {"Array": Array, "List": List, "list": List, "tuple": Array}
    if origin in seqs:
        return seqs[origin][args[0]] if args else seqs[origin]
    maps = {"Map": Map, "Dict": Dict, "dict": Dict}
    if origin in maps:
        return maps[origin][args[0], args[1]] if len(args) == 2 else maps[origin]
    if origin == "Callable":
        return core.Function
    if origin in ("Object", "ffi.Object"):
        return core.Object
    try:
        index = core._type_key_to_index(origin)
    except (KeyError, ValueError, RuntimeError):
        raise TypeError(f"type schema {origin!r} names no registered type") from None
    return core._class_for_index(index)
