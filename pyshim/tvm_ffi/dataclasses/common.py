"""``fields``, ``asdict``, ``astuple``, ``replace``, ``is_dataclass`` for
``c_class``/``py_class`` types (the counterparts of :mod:`dataclasses`)."""
from __future__ import annotations

import collections as _collections
import copy as _copy
from collections import namedtuple as _namedtuple

from .. import core
from ..type_schema import TypeSchema


def is_dataclass(obj) -> bool:
    """True for a ``c_class``/``py_class`` type or an instance of one."""
    cls = obj if isinstance(obj, type) else type(obj)
    return cls.__dict__.get("__ffi_is_dataclass__", False) is True


def fields(obj_or_cls):
    """The :class:`Field` records of a ``c_class``/``py_class`` type or
    instance, inherited ones first (the order of ``__init__``)."""
    if not is_dataclass(obj_or_cls):
        raise TypeError(
            "fields() argument must be a c_class or py_class type or instance, "
            f"got {type(obj_or_cls).__name__}"
        )
    cls = obj_or_cls if isinstance(obj_or_cls, type) else type(obj_or_cls)
    return cls.__ffi_fields__


def replace(obj, /, **changes):
    """A copy of ``obj`` with the given fields changed (frozen fields too)."""
    if not is_dataclass(obj) or isinstance(obj, type):
        raise TypeError("replace() should be called on c_class / py_class instances")
    return obj.__replace__(**changes)


def _walk(obj, inner, on_dataclass):
    """One step of :func:`asdict`/:func:`astuple` below a dataclass: the
    containers are rebuilt with ``inner`` applied to their items, as
    :mod:`dataclasses` does (a named tuple, a ``defaultdict`` keep their
    type), FFI Arrays/Lists become lists and Maps/Dicts dicts; FFI objects
    are kept, other values deep-copied."""
    from ..container import Array, Dict, List, Map

    if is_dataclass(obj) and not isinstance(obj, type):
        return on_dataclass(obj)
    if isinstance(obj, tuple) and hasattr(obj, "_fields"):  # a named tuple
        return type(obj)(*(inner(v) for v in obj))
    if isinstance(obj, (list, tuple)):
        return type(obj)(inner(v) for v in obj)
    if isinstance(obj, (Array, List)):
        return [inner(v) for v in obj]
    if isinstance(obj, (Map, Dict)):
        return {inner(k): inner(v) for k, v in obj.items()}
    if isinstance(obj, dict):
        items = ((inner(k), inner(v)) for k, v in obj.items())
        if isinstance(obj, _collections.defaultdict):
            return type(obj)(obj.default_factory, items)
        return type(obj)(items)
    return obj if hasattr(obj, "__chandle__") else _copy.deepcopy(obj)


def _asdict_inner(obj, dict_factory):
    """:func:`asdict` of any value (a dataclass instance becomes
    ``dict_factory([(name, value), ...])``)."""
    return _walk(
        obj,
        lambda v: _asdict_inner(v, dict_factory),
        lambda o: dict_factory(
            [(f.name, _asdict_inner(getattr(o, f.name), dict_factory)) for f in fields(o)]
        ),
    )


def _astuple_inner(obj, tuple_factory):
    """:func:`astuple` of any value (a dataclass instance becomes
    ``tuple_factory([value, ...])``)."""
    return _walk(
        obj,
        lambda v: _astuple_inner(v, tuple_factory),
        lambda o: tuple_factory(
            [_astuple_inner(getattr(o, f.name), tuple_factory) for f in fields(o)]
        ),
    )


def asdict(obj, *, dict_factory=dict):
    """The fields of ``obj`` as a dict, recursing into nested dataclass
    instances and containers (FFI Array/List become lists, Map/Dict dicts)."""
    if not is_dataclass(obj) or isinstance(obj, type):
        raise TypeError("asdict() should be called on c_class / py_class instances")
    return _asdict_inner(obj, dict_factory)


def astuple(obj, *, tuple_factory=tuple):
    """The field values of ``obj`` as a tuple, recursing like :func:`asdict`."""
    if not is_dataclass(obj) or isinstance(obj, type):
        raise TypeError("astuple() should be called on c_class / py_class instances")
    return _astuple_inner(obj, tuple_factory)


def _make_namedtuple(typename, fields):
    """A :func:`collections.namedtuple` class ``typename`` with one item per
    :class:`Field` of ``fields`` (in that order, all required, ``init=False``
    ones too; defaults are not used) that converts each item as the field
    converts it: ``Rec = _make_namedtuple("Rec", fields(Point))`` makes
    tuples whose construction, ``_make`` and ``_replace`` check and convert
    like ``Point``'s fields, without making a ``Point``.  A field's schema is
    its ``_ty_schema``, else ``TypeSchema.from_annotation(field.type)`` (the
    Fields are not changed).  A bad value is a TypeError
    ``"<typename>.<field>: ..."`` whose cause is the conversion's error."""
    cls = _namedtuple(typename, [f.name for f in fields])
    names = cls._fields
    schemas = tuple(
        f._ty_schema if f._ty_schema is not None else TypeSchema.from_annotation(f.type)
        for f in fields
    )
    cls.__annotations__ = {f.name: f.type for f in fields if f.type is not None}
    plain_new = cls.__new__
    plain_make = cls._make.__func__

    def __new__(klass, /, *args, **kwargs):
        raw = plain_new(klass, *args, **kwargs)
        out = []
        for name, schema, value in zip(names, schemas, raw):
            try:
                out.append(core._to_py_class_value(schema.convert(value)))
            except TypeError as exc:
                raise TypeError(f"{typename}.{name}: {exc}") from exc
        return plain_new(klass, *out)

    __new__.__signature__ = _signature_of(plain_new)
    __new__.__doc__ = plain_new.__doc__

    def _make(klass, iterable):
        # The plain _make checks the length without calling __new__.
        return klass(*plain_make(klass, iterable))

    cls.__new__ = staticmethod(__new__)
    cls._make = classmethod(_make)
    return cls


def _signature_of(fn):
    import inspect

    return inspect.signature(fn)
