"""FFI enums: each variant is a singleton FFI object of an enum type.

::

    class Color(Enum, type_key="mylib.Color"):
        RED = auto()
        GREEN = auto()

    Color.RED._int_index == 0 and Color.RED._str_index == "RED"
    Color.get(1).same_as(Color.GREEN) and Color("GREEN").same_as(Color.GREEN)

The singletons of an enum type live in its :class:`EnumState`, the type
attribute ``__ffi_enum__`` (``ENUM_STATE_ATTR``) that C++ (``EnumDef``,
include/tvmffi/enum.h) and Python share: ``entries`` in registration order,
``indexes`` from both indices to the singleton, ``attrs`` the extensible
attribute columns.

- A plain ``Enum`` variant gets integer index = its position and string
  index = its name; it may carry declared fields
  (``arity: int`` then ``ADD = entry(arity=2)``).
- ``IntEnum`` variants are written ``NAME = 5`` (or ``entry(value=5)``):
  the int is the integer index (a signed int64), the name the string index;
  ``value`` is the integer index.
- ``StrEnum`` variants are written ``NAME = "text"``: the text is the string
  index (and ``name`` and ``value``), the integer index their position.
- ``NAME: ClassVar[Cls]`` without a value binds an existing singleton
  (one C++ registered) by string index, or makes a plain one.
- A ``type_key`` that C++ already registered binds to that type
  (``c_class``); otherwise the type is defined from Python (``py_class``).
"""
from __future__ import annotations

import typing
from typing import Any, ClassVar

from .. import core
from ..container import Dict, List
from ..core import Object
from ..registry import get_global_func
from .c_class import c_class
from .py_class import py_class

__all__ = [
    "ENUM_STATE_ATTR",
    "Enum",
    "EnumAttrMap",
    "EnumState",
    "IntEnum",
    "StrEnum",
    "auto",
    "entry",
]

ENUM_STATE_ATTR = "__ffi_enum__"
_INT64_MIN = -(1 << 63)
_INT64_MAX = (1 << 63) - 1


@c_class("ffi.EnumState")
class EnumState(Object):
    """The singletons of one enum type, their indexes and attribute columns."""

    entries: List[Object]
    indexes: Dict[Any, Object]
    attrs: Dict[str, Dict[Object, Any]]


class _EnumEntry:
    """What ``entry(...)``/``auto()`` leave in a class body until the enum
    type is defined."""

    __slots__ = ("args", "kwargs")

    def __init__(self, *args, **kwargs):
        self.args = args
        self.kwargs = kwargs

    def __repr__(self):
        shown = [repr(a) for a in self.args]
        shown.extend(f"{k}={v!r}" for k, v in self.kwargs.items())
        return f"entry({', '.join(shown)})"


def entry(*args, **kwargs):
    """A variant with field values (``value=`` is the payload of an
    IntEnum/StrEnum variant)."""
    return _EnumEntry(*args, **kwargs)


def auto():
    """A variant with nothing but its default indices."""
    return _EnumEntry()


def _check_index(index):
    """``index`` as an enum index: an int in the int64 range (bool counts as
    int) or a str.  OverflowError / TypeError otherwise."""
    if isinstance(index, bool):
        return int(index)
    if isinstance(index, int):
        if not _INT64_MIN <= index <= _INT64_MAX:
            raise OverflowError(f"enum index {index} is outside the int64 range")
        return index
    if isinstance(index, str):
        return index
    raise TypeError(f"an enum index is an int or a str, got {type(index).__name__}")


def _state_of(cls, create=False):
    """The EnumState of the enum class ``cls`` (None when it has none and
    ``create`` is false)."""
    info = getattr(cls, "__tvm_ffi_type_info__", None)
    if info is None:
        return None
    state = core._lookup_type_attr(info.type_index, ENUM_STATE_ATTR)
    if state is None and create:
        core._register_type_attr(info.type_index, ENUM_STATE_ATTR, EnumState())
        state = core._lookup_type_attr(info.type_index, ENUM_STATE_ATTR)
    return state


def _variants(cls):
    state = _state_of(cls)
    return [] if state is None else list(state.entries)


class _ClassProperty:
    """A read-only attribute computed from the class."""

    __slots__ = ("fget",)

    def __init__(self, fget):
        self.fget = fget

    def __get__(self, instance, owner=None):
        return self.fget(owner if owner is not None else type(instance))


class _EnumMeta(type(Object)):
    def __new__(mcls, name, bases, ns, **kwargs):
        # Variants are fixed objects: no instance __dict__ (and py_class
        # then keeps the class as it is).
        ns.setdefault("__slots__", ())
        return super().__new__(mcls, name, bases, ns, **kwargs)

    def __iter__(cls):
        return iter(_variants(cls))

    def __len__(cls):
        return len(_variants(cls))

    def __call__(cls, *args, **kwargs):
        # Cls(index) is the variant at that index (ValueError when none is).
        if len(args) == 1 and not kwargs:
            (value,) = args
            if isinstance(value, cls):
                return value
            if isinstance(value, (int, str)):
                try:
                    return cls.get(value)
                except KeyError:
                    raise ValueError(f"{value!r} is not a valid {cls.__name__}") from None
        return super().__call__(*args, **kwargs)


@c_class("ffi.Enum", init=False)
class Enum(Object, metaclass=_EnumMeta):
    """Base of FFI enums; subclass it with ``type_key=...``."""

    __slots__ = ()

    def __init_subclass__(cls, *, type_key=None, frozen=True, init=True, repr=True, **kwargs):
        super().__init_subclass__(**kwargs)
        if type_key is None:
            return
        payload = int if issubclass(cls, IntEnum) else str if issubclass(cls, StrEnum) else None
        user_names = set(cls.__dict__)
        binders, declared = _collect(cls, payload)
        cxx_backed = core._object_type_key_to_index(type_key) is not None
        if cxx_backed:
            c_class(type_key, init=init, repr=repr)(cls)
        else:
            py_class(type_key, frozen=frozen, structural_eq="singleton")(cls)
        _install_behaviour(cls, payload, user_names)
        _define_variants(cls, binders, declared, type_key, cxx_backed, payload)

    @classmethod
    def get(cls, index):
        """The variant at integer or string index ``index`` (KeyError when
        there is none, OverflowError for an int outside int64)."""
        index = _check_index(index)
        state = _state_of(cls)
        if state is not None and index in state.indexes:
            return state.indexes[index]
        raise KeyError(index)

    @classmethod
    def all_entries(cls):
        """The variants in registration order."""
        return iter(_variants(cls))

    @_ClassProperty
    def attr_dict(cls):
        """The live attribute columns: name -> Dict(variant -> value)."""
        state = _state_of(cls)
        return Dict({}) if state is None else state.attrs

    @classmethod
    def def_attr(cls, name, *, default=core.MISSING):
        """An :class:`EnumAttrMap`: attribute ``name`` of this enum's variants."""
        return EnumAttrMap(cls, name, default=default)


class EnumAttrMap:
    """One extensible attribute of an enum's variants, kept in the enum's
    state (``attrs[name]``, shared with C++ and every other map of the same
    name)::

        cost = Op.def_attr("cost", default=0)
        cost[Op.ADD] = 1
        cost[Op.ADD], cost[Op.MUL], Op.ADD in cost   # 1, 0, True

    Keys must be variants of the enum (TypeError otherwise); reading a
    variant without a value gives the default, or KeyError without one."""

    __slots__ = ("_default", "_enum_cls", "_name")

    def __init__(self, enum_cls, name, *, default=core.MISSING):
        if not (isinstance(enum_cls, type) and issubclass(enum_cls, Enum)):
            raise TypeError(f"EnumAttrMap needs an Enum class, got {enum_cls!r}")
        if not isinstance(name, str):
            raise TypeError(f"EnumAttrMap attribute name must be a str, got {name!r}")
        self._enum_cls = enum_cls
        self._name = name
        self._default = default

    @property
    def name(self):
        """The attribute's name."""
        return self._name

    def _check(self, variant):
        if not isinstance(variant, self._enum_cls):
            raise TypeError(
                f"expected a variant of {self._enum_cls.__name__}, got {type(variant).__name__}"
            )

    def _column(self, create):
        state = _state_of(self._enum_cls, create=create)
        if state is None:
            return None
        column = state.attrs.get(self._name)
        if column is None and create:
            column = Dict({})
            state.attrs[self._name] = column
        return column

    def __setitem__(self, variant, value):
        self._check(variant)
        self._column(True)[variant] = value

    def __getitem__(self, variant):
        self._check(variant)
        column = self._column(False)
        if column is not None and variant in column:
            return column[variant]
        if self._default is not core.MISSING:
            return self._default
        raise KeyError(f"{variant!r} has no value for attribute {self._name!r}")

    def __contains__(self, variant):
        if not isinstance(variant, self._enum_cls):
            return False
        column = self._column(False)
        return column is not None and variant in column

    def get(self, variant, default=None):
        """The variant's value, or ``default`` when it has none."""
        return self[variant] if variant in self else default

    def __repr__(self):
        return f"EnumAttrMap({self._enum_cls.__name__}, {self._name!r})"


@c_class("ffi.IntEnum", init=False)
class IntEnum(Enum):
    """An enum whose ``value`` is the variant's integer index (an int64)."""

    __slots__ = ()

    def __init_subclass__(cls, **kwargs):
        _refuse_value_field(cls, "IntEnum")
        super().__init_subclass__(**kwargs)


@c_class("ffi.StrEnum", init=False)
class StrEnum(Enum):
    """An enum whose ``value`` and ``name`` are the variant's string index."""

    __slots__ = ()

    def __init_subclass__(cls, **kwargs):
        _refuse_value_field(cls, "StrEnum")
        super().__init_subclass__(**kwargs)


def _own_annotations(cls):
    return dict(cls.__dict__.get("__annotations__", {}))


def _refuse_value_field(cls, base):
    if "value" in cls.__dict__ or "value" in _own_annotations(cls):
        raise TypeError(f"{base} reserves `value` for the variant's index; rename the field")


def _is_class_var(annotation):
    if annotation is ClassVar or typing.get_origin(annotation) is ClassVar:
        return True
    if isinstance(annotation, str):
        text = annotation.replace(" ", "")
        return text.startswith(("ClassVar", "typing.ClassVar"))
    return False


def _collect(cls, payload):
    """Takes the variant declarations out of the class body: the names
    annotated ``ClassVar`` with no value (binders) and name -> _EnumEntry
    (a payload enum's plain literal becomes ``entry(value=literal)``)."""
    annotations = _own_annotations(cls)
    binders = [
        name
        for name, ann in annotations.items()
        if not name.startswith("_") and _is_class_var(ann) and name not in cls.__dict__
    ]
    field_names = {name for name, ann in annotations.items() if not _is_class_var(ann)}
    declared = {}
    for name, value in list(cls.__dict__.items()):
        if name.startswith("_") or name in field_names:
            continue
        if isinstance(value, _EnumEntry):
            declared[name] = value
        elif payload is not None and not (
            callable(value) or isinstance(value, (staticmethod, classmethod, property))
        ):
            declared[name] = _EnumEntry(value=value)
        else:
            continue
        delattr(cls, name)
    return binders, declared


def _indices(cls, name, position, decl, payload):
    """(int index, str index, remaining field values) of a declaration."""
    kwargs = dict(decl.kwargs)
    if "_int_index" in kwargs or "_str_index" in kwargs:
        raise TypeError(f"{cls.__name__}.{name}: the enum indices are not field values")
    if payload is None:
        return position, name, kwargs
    if "value" not in kwargs:
        raise TypeError(f"{cls.__name__}.{name} needs a {payload.__name__} value")
    value = kwargs.pop("value")
    if type(value) is not payload:
        raise TypeError(
            f"{cls.__name__}.{name}: the value must be a {payload.__name__}, "
            f"got {type(value).__name__}"
        )
    if payload is int:
        return _check_index(value), name, kwargs
    return position, value, kwargs


def _make_variant(cls, int_index, str_index, args, kwargs, payload):
    """A new singleton of ``cls``'s type with the given indices and fields."""
    info = cls.__tvm_ffi_type_info__
    if args:
        # Positional values go to the type's own fields, in order.
        own = [f.name for f in info.fields]
        if len(args) > len(own):
            raise TypeError(
                f"{cls.__name__}.{str_index}: {len(args)} positional values for "
                f"{len(own)} fields"
            )
        kwargs = {**dict(zip(own, args)), **kwargs}
    pairs = ["_int_index", int_index, "_str_index", str_index]
    if payload is not None:
        pairs += ["value", int_index if payload is int else str_index]
    for k, v in kwargs.items():
        pairs += [k, v]
    make = get_global_func("ffi.MakeObjectFromPackedArgs")
    try:
        return make(info.type_index, *pairs)
    except Exception as err:  # noqa: BLE001 - reported with the variant's name
        raise TypeError(f"{cls.__name__}.{str_index}: invalid enum variant: {err}") from None


def _add(state, variant):
    state.entries.append(variant)
    state.indexes[variant._int_index] = variant
    state.indexes[variant._str_index] = variant


def _define_variants(cls, binders, declared, type_key, cxx_backed, payload):
    state = _state_of(cls, create=True)
    for name in binders:
        variant = state.indexes.get(name)
        if variant is None:
            if cxx_backed:
                raise RuntimeError(f"enum {type_key!r} has no variant at string index {name!r}")
            if payload is int:
                raise TypeError(f"{cls.__name__}.{name} needs an int value")
            variant = _make_variant(cls, len(state.entries), name, (), {}, payload)
            _add(state, variant)
        type.__setattr__(cls, name, variant)
    for name, decl in declared.items():
        int_index, str_index, kwargs = _indices(cls, name, len(state.entries), decl, payload)
        # Aliases: a payload names the variant it shares.
        variant = state.indexes.get(int_index if payload is int else str_index)
        if variant is None:
            if int_index in state.indexes or str_index in state.indexes:
                raise ValueError(f"{cls.__name__}.{name}: the enum index is taken")
            variant = _make_variant(cls, int_index, str_index, decl.args, kwargs, payload)
            _add(state, variant)
        type.__setattr__(cls, name, variant)


def _install_behaviour(cls, payload, user_names):
    """For payload enums ``name``, comparison, hash and str by value; the
    default repr (``Cls.name`` for payload enums, ``type_key.name`` else)."""
    user_repr = "__repr__" in user_names
    if payload is None:
        if not user_repr:
            key = cls.__tvm_ffi_type_info__.type_key
            cls.__repr__ = lambda self: f"{key}.{self._str_index}"
        return

    def __eq__(self, other):
        if isinstance(other, type(self)):
            return self.value == other.value
        if isinstance(other, payload) and not isinstance(other, Enum):
            return self.value == other
        return NotImplemented

    def __ne__(self, other):
        result = __eq__(self, other)
        return result if result is NotImplemented else not result

    own = {
        "__eq__": __eq__,
        "__ne__": __ne__,
        "__hash__": lambda self: hash(self.value),
        "__str__": lambda self: str(self.value),
    }
    for name, fn in own.items():
        if name not in user_names:
            type.__setattr__(cls, name, fn)
    if "name" not in user_names:
        type.__setattr__(cls, "name", property(_name))
    if not user_repr:
        cls.__repr__ = lambda self: f"{type(self).__name__}.{self.name}"


def _name(self):
    """The variant's name: its string index."""
    return str(self._str_index)
