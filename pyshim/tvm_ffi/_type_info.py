"""Reflection records of FFI types: :class:`TypeInfo`, :class:`TypeField` and
:class:`TypeMethod` (published as ``tvm_ffi.core.TypeInfo`` and so on).

One :class:`TypeInfo` exists per type index (made on first use and cached);
a class bound to the type carries it as ``cls.__tvm_ffi_type_info__``.
"""
from __future__ import annotations

from . import core

# TVMFFIFieldFlagBitMask (include/tvm/ffi/c_api.h).
FLAG_WRITABLE = 1
FLAG_HAS_DEFAULT = 2
FLAG_STATIC_METHOD = 4
FLAG_SEQ_HASH_IGNORE = 8
FLAG_SEQ_HASH_DEF = 16
FLAG_DEFAULT_FROM_FACTORY = 32
FLAG_REPR_OFF = 64
FLAG_COMPARE_OFF = 128
FLAG_HASH_OFF = 256
FLAG_INIT_OFF = 512
FLAG_KW_ONLY = 1024
FLAG_SETTER_IS_FUNCTION = 2048
FLAG_SEQ_HASH_DEF_SIMPLE = 4096




class TypeField:
    """One reflected field of an FFI type.

    ``frozen`` is True when the field has no public setter; the ``c_*``
    attributes restate the field's flags (``c_init``: a parameter of the
    generated ``__init__``; ``c_kw_only``; ``c_has_default``; ``c_repr``,
    ``c_compare``, ``c_hash``: taken into account by repr, comparison and
    hashing; ``c_structural_eq``: None, ``"ignore"``, ``"def"`` or
    ``"def-simple"``).  ``dataclass_field`` is the :class:`Field` a
    ``py_class`` declared it with (None for C++ fields).
    """

    __slots__ = (
        "name",
        "doc",
        "flags",
        "field_static_type_index",
        "field_index",
        "type_index",
        "frozen",
        "metadata",
        "getter",
        "setter",
        "ty",
        "c_init",
        "c_kw_only",
        "c_has_default",
        "c_default",
        "c_default_factory",
        "c_repr",
        "c_compare",
        "c_hash",
        "c_structural_eq",
        "dataclass_field",
    )

    def __init__(self, type_index, field_index, name, doc, flags, static_type_index):
        self.type_index = type_index
        self.field_index = field_index
        self.name = name
        self.doc = doc or None
        self.flags = flags
        self.field_static_type_index = static_type_index
        self.frozen = not (flags & FLAG_WRITABLE)
        self.metadata = {}
        self.getter = None
        self.setter = None
        self.ty = None
        self.c_init = not (flags & FLAG_INIT_OFF)
        self.c_kw_only = bool(flags & FLAG_KW_ONLY)
        self.c_has_default = bool(flags & FLAG_HAS_DEFAULT)
        # The default value itself lives in C; a py_class field records it.
        self.c_default = core.MISSING
        self.c_default_factory = core.MISSING
        self.c_repr = not (flags & FLAG_REPR_OFF)
        self.c_compare = not (flags & FLAG_COMPARE_OFF)
        self.c_hash = not (flags & FLAG_HASH_OFF)
        if flags & FLAG_SEQ_HASH_IGNORE:
            self.c_structural_eq = "ignore"
        elif flags & FLAG_SEQ_HASH_DEF:
            self.c_structural_eq = "def"
        elif flags & FLAG_SEQ_HASH_DEF_SIMPLE:
            self.c_structural_eq = "def-simple"
        else:
            self.c_structural_eq = None
        self.dataclass_field = None

    def as_property(self, cls=None, frozen=False):
        """A data descriptor (``core.FFIProperty``) reading and writing this
        field on instances; ``frozen`` refuses assignment (a field without the
        Writable flag refuses it anyway)."""
        return core.FFIProperty(self.type_index, self.field_index, frozen)

    def __repr__(self):
        return f"TypeField(name={self.name!r}, static_type_index={self.field_static_type_index})"


class TypeMethod:
    """One reflected method: ``func`` is the :class:`tvm_ffi.Function`;
    instance methods take the object as first argument."""

    __slots__ = ("name", "doc", "func", "flags", "is_static", "metadata")

    def __init__(self, name, doc, flags, func):
        self.name = name
        self.doc = doc or None
        self.flags = flags
        self.func = func
        self.is_static = bool(flags & FLAG_STATIC_METHOD)
        self.metadata = {}

    def as_callable(self, cls=None):
        """A function to put on a class: a staticmethod, or a plain function
        passing ``self`` first."""
        fn = self.func
        if self.is_static:
            return staticmethod(fn)

        def method(self, *args):
            return fn(self, *args)

        method.__name__ = self.name
        method.__qualname__ = f"{cls.__name__}.{self.name}" if cls is not None else self.name
        method.__doc__ = self.doc
        return method

    def __repr__(self):
        return f"TypeMethod(name={self.name!r}, is_static={self.is_static})"


class TypeInfo:
    """Reflection record of an FFI type.

    ``type_cls`` is the Python class bound to the type (None until one is);
    ``type_ancestors`` are the ancestor type indices, root first;
    ``fields`` and ``methods`` are the type's own (see ``all_fields`` for
    the inherited ones too); ``parent_type_info`` is the parent's record.
    """

    __slots__ = (
        "type_cls",
        "type_index",
        "type_key",
        "type_ancestors",
        "fields",
        "methods",
        "_parent",
        "_decorator_args",
        "__weakref__",
    )

    def __init__(self, type_index, type_key, ancestors, fields, methods):
        self.type_cls = None
        self.type_index = type_index
        self.type_key = type_key
        self.type_ancestors = list(ancestors)
        self.fields = fields
        self.methods = methods
        self._parent = None
        self._decorator_args = {}

    @property
    def parent_type_info(self):
        """The parent type's record (None for the root ``ffi.Object``)."""
        if self._parent is None and self.type_ancestors:
            self._parent = type_info(self.type_ancestors[-1])
        return self._parent

    @property
    def all_fields(self):
        """Fields of the ancestors (root first), then the type's own."""
        out = []
        for index in self.type_ancestors:
            out.extend(type_info(index).fields)
        out.extend(self.fields)
        return out

    # The tuple-era names (kept for callers written against them).
    @property
    def ancestors(self):
        return tuple(self.type_ancestors)

    def _refresh(self):
        """Re-read fields and methods (after a py_class registered them)."""
        _, _, fields, methods = _read(self.type_index)
        self.fields = fields
        self.methods = methods

    def __repr__(self):
        return f"TypeInfo(type_index={self.type_index}, type_key={self.type_key!r})"


_CACHE = {}


def _read(type_index):
    key, ancestors, fields, methods = core._type_info(type_index)
    fields = [
        TypeField(type_index, i, name, doc, flags, static)
        for i, (name, doc, flags, static) in enumerate(fields)
    ]
    methods = [TypeMethod(name, doc, flags, fn) for name, doc, flags, fn in methods]
    return key, ancestors, fields, methods


def type_info(type_index: int) -> TypeInfo:
    """The (cached) :class:`TypeInfo` of ``type_index``."""
    info = _CACHE.get(type_index)
    if info is None:
        info = TypeInfo(type_index, *_read(type_index))
        _CACHE[type_index] = info
    return info


core.TypeInfo = TypeInfo
core.TypeField = TypeField
core.TypeMethod = TypeMethod
