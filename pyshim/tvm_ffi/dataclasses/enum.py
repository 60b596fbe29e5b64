"""FFI enums: each variant is a singleton FFI object of a ``py_class`` type.

::

    class Color(Enum, type_key="mylib.Color"):
        RED = auto()
        GREEN = auto()

    Color.RED._int_index == 0 and Color.RED._str_index == "RED"
    Color.get(1) is Color.GREEN and Color("GREEN") is Color.GREEN

Variants may carry declared fields (``arity: int`` then
``ADD = entry(arity=2)``).  ``IntEnum`` variants take their integer index
as ``entry(5)`` (default: the previous one plus 1) and expose it as
``value``; ``StrEnum`` variants take their string index as
``entry("red")`` (default: the attribute name) and expose it as ``value``.
Variants are created once, at class definition; C++ gets them as ordinary
objects of the type (structural kind "singleton").
"""
from __future__ import annotations

from .. import core
from .py_class import py_class


class _EnumEntry:
    __slots__ = ("args", "kwargs")

    def __init__(self, *args, **kwargs):
        self.args = args
        self.kwargs = kwargs

    def __repr__(self):
        parts = [repr(a) for a in self.args]
        parts += [f"{k}={v!r}" for k, v in self.kwargs.items()]
        return f"entry({', '.join(parts)})"


def entry(*args, **kwargs):
    """Declare a variant: the index for IntEnum/StrEnum, declared fields by name."""
    return _EnumEntry(*args, **kwargs)


def auto():
    """Declare a variant with the default index."""
    return _EnumEntry()


class _EnumMeta(type(core.Object)):
    def __new__(mcls, name, bases, ns, **kwargs):
        # Variants are fixed objects: no instance __dict__.
        ns.setdefault("__slots__", ())
        return super().__new__(mcls, name, bases, ns, **kwargs)

    def __iter__(cls):
        return iter(cls.__dict__.get("_ffi_enum_entries", ()))

    def __len__(cls):
        return len(cls.__dict__.get("_ffi_enum_entries", ()))

    def __call__(cls, *args, **kwargs):
        if "_ffi_enum_entries" in cls.__dict__ and len(args) == 1 and not kwargs:
            value = args[0]
            if isinstance(value, cls):
                return value
            return cls.get(value)
        return super().__call__(*args, **kwargs)


class Enum(core.Object, metaclass=_EnumMeta):
    """Base of FFI enums; subclass with ``type_key=...``."""

    __slots__ = ()

    def __init_subclass__(cls, *, type_key=None, **kwargs):
        super().__init_subclass__(**kwargs)
        if type_key is None:
            return
        _define(cls, type_key)

    @property
    def name(self):
        """The variant's name (its string index)."""
        return self._str_index

    @classmethod
    def get(cls, index):
        """The variant with integer index or string index ``index``
        (KeyError when there is none)."""
        table = cls.__dict__.get("_ffi_enum_index", {})
        if isinstance(index, bool) or not isinstance(index, (int, str)):
            raise TypeError(f"enum index must be an int or a str, got {index!r}")
        try:
            return table[index]
        except KeyError:
            raise KeyError(index) from None

    @classmethod
    def all_entries(cls):
        """The variants in declaration order."""
        return iter(cls.__dict__.get("_ffi_enum_entries", ()))

    @classmethod
    def def_attr(cls, name, *, default=core.MISSING):
        """An :class:`EnumAttrMap`: attribute ``name`` of this enum's
        variants, set per variant after the enum is defined."""
        return EnumAttrMap(cls, name, default=default)


class EnumAttrMap:
    """A per-variant attribute of an enum, kept outside the variants (so
    any module can add one to an enum it does not own)::

        cost = Op.def_attr("cost", default=0)
        cost[Op.ADD] = 1
        cost[Op.ADD], cost[Op.MUL], Op.ADD in cost   # 1, 0, True

    Every map of the same enum and name shares the values (an ffi Dict per
    name, held by the enum class).  Keys must be variants of the enum
    (TypeError otherwise); reading a variant without a value gives the
    default, or KeyError when there is none."""

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
                f"expected a variant of {self._enum_cls.__name__}, got {variant!r}"
            )

    def _column(self, create):
        columns = self._enum_cls.__dict__.get("__ffi_enum_attrs__")
        if columns is None:
            if not create:
                return None
            columns = {}
            type.__setattr__(self._enum_cls, "__ffi_enum_attrs__", columns)
        column = columns.get(self._name)
        if column is None and create:
            from ..container import Dict

            column = columns[self._name] = Dict({})
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


class IntEnum(Enum):
    """An enum whose ``value`` is the variant's integer index."""

    __slots__ = ()

    @property
    def value(self):
        return self._int_index


class StrEnum(Enum):
    """An enum whose ``value`` (and ``name``) is the variant's string index."""

    __slots__ = ()

    @property
    def value(self):
        return self._str_index


def _define(cls, type_key):
    declared = {}
    for name, value in list(cls.__dict__.items()):
        if isinstance(value, _EnumEntry):
            declared[name] = value
            delattr(cls, name)
    ann = cls.__dict__.get("__annotations__")
    if ann is None:
        ann = {}
        cls.__annotations__ = ann
    for reserved in ("_int_index", "_str_index", "value"):
        if reserved in ann:
            raise TypeError(f"enum {cls.__name__} may not declare a field named {reserved!r}")
    # The index fields first, then the declared ones.
    fields = {"_int_index": int, "_str_index": str}
    fields.update(ann)
    ann.clear()
    ann.update(fields)
    user_repr = "__repr__" in cls.__dict__
    py_class(type_key, frozen=True, structural_eq="singleton", eq=False)(cls)
    entries = []
    table = {}
    next_int = 0
    for name, decl in declared.items():
        args = decl.args
        str_index = name
        int_index = next_int
        if args:
            if len(args) != 1:
                raise TypeError(f"entry() of {cls.__name__}.{name} takes at most one index")
            if issubclass(cls, IntEnum):
                if isinstance(args[0], bool) or not isinstance(args[0], int):
                    raise TypeError(
                        f"IntEnum entry {cls.__name__}.{name} needs an int index, got {args[0]!r}"
                    )
                int_index = args[0]
            elif issubclass(cls, StrEnum):
                if not isinstance(args[0], str):
                    raise TypeError(
                        f"StrEnum entry {cls.__name__}.{name} needs a str index, got {args[0]!r}"
                    )
                str_index = args[0]
            else:
                raise TypeError(
                    f"entry() of plain Enum {cls.__name__}.{name} takes field values by name"
                )
        if int_index in table or str_index in table:
            raise ValueError(f"duplicate enum index for {cls.__name__}.{name}")
        next_int = int_index + 1
        obj = type.__call__(cls, int_index, str_index, **decl.kwargs)
        entries.append(obj)
        table[int_index] = obj
        table[str_index] = obj
        setattr(cls, name, obj)
    cls._ffi_enum_entries = tuple(entries)
    cls._ffi_enum_index = table

    def __repr__(self):
        return f"<{type(self).__name__}.{self._str_index}: {self._int_index}>"

    if not user_repr:
        cls.__repr__ = __repr__

    def __reduce__(self):
        return (type(self).get, (self._int_index,))

    cls.__reduce__ = __reduce__
