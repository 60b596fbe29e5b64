"""``unpack_dataclass_to_tuple``: a dataclass instance becomes the tuple of
its fields (in declaration order), recursively, so it can be passed to an
FFI function as nested Arrays.  Lists, tuples (named tuples keep their
type) and dict values are walked; any other value is passed through as is
(not copied).

Each dataclass gets an unpacker made once from its annotations (a
*schema*, see :func:`_extract_dataclass_to_tuple_schema`): a field whose
type cannot hold a dataclass or a list is read as is, any other one is
unpacked by looking at its value.
"""
from __future__ import annotations

import dataclasses
import keyword
import typing

# A schema maps each field name to one of:
#   None      the value is read as is (its type holds no dataclass or list);
#   "unpack"  the value is unpacked according to what it is at run time;
#   a schema  the field's type is this (nested) dataclass.
UNPACK = "unpack"

_LEAF_TYPES = frozenset({int, float, complex, bool, str, bytes, type(None)})
_LEAF_ORIGINS = {tuple, dict, set, frozenset, typing.Union}
try:  # ``int | None``
    import types as _types

    _LEAF_ORIGINS.add(_types.UnionType)
except AttributeError:  # pragma: no cover - Python < 3.10
    pass


def _holds_no_dataclass(tp) -> bool:
    """Whether every value of annotation ``tp`` is passed through unchanged:
    leaf types, and tuples, dicts, sets and unions made only of them (a
    list is not: lists are rebuilt)."""
    if tp is Ellipsis or tp in _LEAF_TYPES:
        return True
    if typing.get_origin(tp) in _LEAF_ORIGINS:
        args = typing.get_args(tp)
        return bool(args) and all(_holds_no_dataclass(a) for a in args)
    return False


def _classify(tp, active):
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        if tp in active:  # a class that contains itself: decided per value
            return UNPACK
        return _extract_dataclass_to_tuple_schema(tp, memo=active)
    if _holds_no_dataclass(tp):
        return None
    return UNPACK  # Any, object, a string not resolved, list[...], other classes


def _extract_dataclass_to_tuple_schema(cls, *, memo=None):
    """The schema of dataclass ``cls``: ``{field: None | "unpack" | schema}``.

    Annotations are resolved with :func:`typing.get_type_hints`; when they
    do not resolve (a name local to a function, say), every field is
    ``"unpack"``.  ``memo`` holds the classes being expanded, so a class
    that refers to itself gets ``"unpack"`` there instead of recursing.
    """
    if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)):
        raise TypeError(f"Expected a dataclass class, got {cls!r}")
    active = set() if memo is None else memo
    try:
        hints = typing.get_type_hints(cls)
    except Exception:  # noqa: BLE001 - unresolvable annotations: decide per value
        hints = {}
    active.add(cls)
    try:
        return {
            f.name: _classify(hints[f.name], active) if f.name in hints else UNPACK
            for f in dataclasses.fields(cls)
        }
    finally:
        active.discard(cls)


def _validate_dataclass_to_tuple_schema(schema) -> None:
    """Checks that ``schema`` is a dict whose keys are identifiers that are
    not keywords and whose values are None, ``"unpack"`` or such dicts:
    the names become attribute reads in generated code."""
    if not isinstance(schema, dict):
        raise TypeError(f"a dataclass-to-tuple schema must be a dict, got {type(schema).__name__}")
    for name, sub in schema.items():
        if not isinstance(name, str):
            raise TypeError(f"a schema field name must be a string, got {name!r}")
        if not name.isidentifier():
            raise ValueError(f"schema field name {name!r} is not a valid Python identifier")
        if keyword.iskeyword(name):
            raise ValueError(f"schema field name {name!r} is a Python keyword")
        if sub is not None and sub != UNPACK:
            _validate_dataclass_to_tuple_schema(sub)


def _make_unpacker(cls):
    """``unpack(x, active)`` for instances of dataclass ``cls``: the tuple of
    its fields, each read as is or unpacked (``_unpack``) as its schema
    entry says.  A nested dataclass field is unpacked from its value too,
    so a value that is not of the annotated class still works."""
    schema = _extract_dataclass_to_tuple_schema(cls)
    _validate_dataclass_to_tuple_schema(schema)
    items = [
        f"x.{name}" if sub is None else f"_unpack(x.{name}, active)"
        for name, sub in schema.items()
    ]
    body = "(" + "".join(item + ", " for item in items) + ")"
    namespace = {"_unpack": _unpack}
    exec(f"def unpack(x, active):\n    return {body}\n", namespace)  # noqa: S102
    return namespace["unpack"]


_UNPACKERS: dict = {}


def unpack_dataclass_to_tuple(x):
    """``x`` with every dataclass instance inside it replaced by the tuple of
    its (unpacked) field values: ``Config(x=1, y=2)`` -> ``(1, 2)``,
    ``[Config(1, 2)]`` -> ``[(1, 2)]``, ``{"a": Config(1, 2)}`` ->
    ``{"a": (1, 2)}``.  Lists and tuples keep their type (a named tuple
    too); leaves are the same objects, not copies.  A dataclass that
    contains itself raises ValueError instead of recursing forever."""
    return _unpack(x, set())


def _unpack(x, active):
    cls = type(x)
    unpacker = _UNPACKERS.get(cls)
    if unpacker is None:
        if isinstance(cls, type) and dataclasses.is_dataclass(cls):
            unpacker = _UNPACKERS[cls] = _make_unpacker(cls)
        elif isinstance(x, (list, tuple)):
            if isinstance(x, tuple) and hasattr(cls, "_fields"):  # a named tuple
                return cls(*(_unpack(v, active) for v in x))
            return cls(_unpack(v, active) for v in x)
        elif isinstance(x, dict):
            return {k: _unpack(v, active) for k, v in x.items()}
        else:
            return x
    key = id(x)
    if key in active:
        raise ValueError(f"unpack_dataclass_to_tuple: {cls.__name__} instance contains itself")
    active.add(key)
    try:
        return unpacker(x, active)
    finally:
        active.discard(key)
