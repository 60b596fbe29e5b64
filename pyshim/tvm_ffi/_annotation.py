"""From a Python annotation to a :class:`TypeSchema` (``TypeSchema.from_annotation``).

Imported on first use: it needs ``typing``, which ``import tvm_ffi`` avoids.
"""
from __future__ import annotations

import collections.abc
import ctypes
import sys
import types
import typing

from . import core
from .type_schema import TypeSchema

_SCALARS = {
    int: "int",
    float: "float",
    bool: "bool",
    str: "str",
    bytes: "bytes",
    type(None): "None",
    ctypes.c_void_p: "ctypes.c_void_p",
}


def _ffi_classes():
    from . import container
    from ._dtype import dtype

    return {
        container.Array: ("Array", 1),
        container.List: ("List", 1),
        container.Map: ("Map", 2),
        container.Dict: ("Dict", 2),
    }, dtype


def _S(origin, args=None, **kw) -> TypeSchema:
    return TypeSchema(origin, args, **kw)


def _is_union(origin) -> bool:
    return origin is typing.Union or (sys.version_info >= (3, 10) and origin is types.UnionType)


def _union(args) -> TypeSchema:
    flat = []
    has_none = False
    for arg in args:
        schema = schema_from_annotation(arg)
        if schema.origin == "None":
            has_none = True
        elif schema.origin == "Union":
            flat.extend(schema.args)
        else:
            flat.append(schema)
    if not flat:
        return _S("None")
    inner = flat[0] if len(flat) == 1 else _S("Union", tuple(flat))
    return _S("Optional", (inner,)) if has_none else inner


def _callable(args) -> TypeSchema:
    if not args:
        return _S("Callable")
    params, ret = args
    ret_schema = (schema_from_annotation(ret),)
    if params is Ellipsis:
        return _S("Callable", (), named_args={"return": ret_schema})
    return _S(
        "Callable",
        (),
        named_args={
            "return": ret_schema,
            "params": tuple(schema_from_annotation(p) for p in params),
        },
    )


def _object_class(cls: type) -> TypeSchema:
    if cls is core.Object:
        return _S("Object")
    if cls is core.Function:
        return _S("Callable")
    if issubclass(cls, core.Tensor):
        return _S("Tensor")
    info = cls.__dict__.get("__tvm_ffi_type_info__")
    if info is None:
        raise TypeError(
            f"Cannot convert {cls!r} to TypeSchema: the Object class is not registered "
            "(register_object, c_class or py_class)"
        )
    key = info.type_key
    return _S(key, type_key="ffi.BigInt" if key == "ffi.BigInt" else None)


def schema_from_annotation(annotation) -> TypeSchema:
    """See :meth:`TypeSchema.from_annotation`."""
    if annotation is None:
        return _S("None")
    if annotation is typing.Any:
        return _S("Any")
    if isinstance(annotation, type):
        name = _SCALARS.get(annotation)
        if name is not None:
            return _S(name)
    containers, dtype = _ffi_classes()
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if _is_union(origin):
        return _union(args)
    if annotation is typing.Callable or annotation is collections.abc.Callable:
        return _S("Callable")
    if origin is collections.abc.Callable:
        return _callable(args)
    if annotation is list or origin is list:
        if len(args) > 1:
            raise TypeError(f"list takes at most 1 type argument, got {len(args)}")
        return _S("List", tuple(schema_from_annotation(a) for a in args))
    if annotation is dict or origin is dict:
        if len(args) not in (0, 2):
            raise TypeError(f"dict requires 0 or 2 type arguments, got {len(args)}")
        return _S("Dict", tuple(schema_from_annotation(a) for a in args))
    if annotation is tuple:
        return _S("tuple")
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return _S("Array", (schema_from_annotation(args[0]),))
        if args == ((),):  # typing.Tuple[()] on older Pythons
            args = ()
        return _S("tuple", tuple(schema_from_annotation(a) for a in args))
    for cls, (name, arity) in containers.items():
        if annotation is cls:
            return _S(name)
        if origin is cls:
            if len(args) != arity:
                raise TypeError(
                    f"{name} requires {arity} type argument{'s' if arity > 1 else ''}, "
                    f"got {len(args)}"
                )
            return _S(name, tuple(schema_from_annotation(a) for a in args))
    if isinstance(annotation, type):
        if issubclass(annotation, core.String):
            return _S("str")
        if issubclass(annotation, core.Bytes):
            return _S("bytes")
        if issubclass(annotation, core.Device):
            return _S("Device")
        if issubclass(annotation, (core.DataType, dtype)):
            return _S("dtype")
        if issubclass(annotation, core.Object):
            return _object_class(annotation)
    raise TypeError(f"Cannot convert {annotation!r} to TypeSchema")
