"""``unpack_dataclass_to_tuple``: a dataclass instance becomes the tuple of
its fields (in declaration order), recursively, so it can be passed to an
FFI function as nested Arrays.  Lists, tuples (named tuples too) and dict
values are walked; any other value is passed through as is (not copied)."""
from __future__ import annotations


def _fields_of(cls):
    names = _FIELDS.get(cls)
    if names is None:
        import dataclasses  # noqa: PLC0415

        names = _FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls))
    return names


_FIELDS: dict = {}


def unpack_dataclass_to_tuple(x):
    """``x`` with every dataclass instance inside it replaced by the tuple of
    its (unpacked) field values: ``Config(x=1, y=2)`` -> ``(1, 2)``,
    ``[Config(1, 2)]`` -> ``[(1, 2)]``, ``{"a": Config(1, 2)}`` ->
    ``{"a": (1, 2)}``.  A dataclass that contains itself raises
    ValueError instead of recursing forever."""
    return _unpack(x, set())


def _unpack(x, active):
    cls = type(x)
    if hasattr(cls, "__dataclass_fields__") and not isinstance(x, type):
        if id(x) in active:
            raise ValueError(f"unpack_dataclass_to_tuple: {cls.__name__} instance contains itself")
        active.add(id(x))
        try:
            return tuple(_unpack(getattr(x, name), active) for name in _fields_of(cls))
        finally:
            active.discard(id(x))
    if cls is list:
        return [_unpack(v, active) for v in x]
    if cls is tuple:
        return tuple(_unpack(v, active) for v in x)
    if isinstance(x, tuple) and hasattr(cls, "_fields"):  # a named tuple: a plain tuple
        return tuple(_unpack(v, active) for v in x)
    if cls is dict:
        return {k: _unpack(v, active) for k, v in x.items()}
    return x
