"""Reflection records of FFI types: :class:`TypeInfo`, :class:`TypeField` and
:class:`TypeMethod` (published as ``tvm_ffi.core.TypeInfo`` and so on).

One :class:`TypeInfo` exists per type index (made on first use and cached);
a class bound to the type carries it as ``cls.__tvm_ffi_type_info__``.
"""
from __future__ import annotations

from . import _field_access, core

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
        "_metadata",
        "_metadata_json",
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
        "size",
        "alignment",
        "offset",
    )

    def __init__(self, type_index, field_index, name, doc, flags, static_type_index):
        self.type_index = type_index
        self.field_index = field_index
        self.name = name
        self.doc = doc or None
        self.flags = flags
        self.field_static_type_index = static_type_index
        self.frozen = not (flags & FLAG_WRITABLE)
        self._metadata = None
        self._metadata_json = ""
        self.getter = _field_access.FieldGetter(type_index, field_index)
        self.setter = _field_access.FieldSetter(type_index, field_index)
        self.ty = None
        self.c_init = not (flags & FLAG_INIT_OFF)
        self.c_kw_only = bool(flags & FLAG_KW_ONLY)
        self.c_has_default = bool(flags & FLAG_HAS_DEFAULT)
        # The registered default (or factory), set by _read; a py_class
        # field records its Python value instead.
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
        # Storage of the field in the object (bytes), from the C field info.
        self.size = None
        self.alignment = None
        self.offset = None

    metadata = property(
        lambda self: _parsed_metadata(self),
        lambda self, value: setattr(self, "_metadata", value),
        doc="The member's metadata (``type_schema`` ...), parsed from its JSON on first use.",
    )

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

    __slots__ = ("name", "doc", "func", "flags", "is_static", "_metadata", "_metadata_json")

    def __init__(self, name, doc, flags, func):
        self.name = name
        self.doc = doc or None
        self.flags = flags
        self.func = func
        self.is_static = bool(flags & FLAG_STATIC_METHOD)
        self._metadata = None
        self._metadata_json = ""

    metadata = TypeField.metadata

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

    @property
    def total_size(self):
        """The object's size in bytes, from the type's own metadata (None when
        it has none, or does not know the size)."""
        return core._type_layout(self.type_index)[0]

    # The tuple-era names (kept for callers written against them).
    @property
    def ancestors(self):
        return tuple(self.type_ancestors)

    def _register_fields(self, fields, structure_kind=None):
        """Defines ``fields`` (:class:`tvm_ffi.dataclasses.Field` objects with
        a name and a ``_ty_schema``) as this Python-defined type's own fields
        (upstream's low-level py_class step; see ``core._register_py_class``)."""
        from .dataclasses.py_class import register_fields

        register_fields(self, fields, structure_kind)

    def _refresh(self):
        """Re-read fields and methods (after a py_class registered them)."""
        _, _, fields, methods = _read(self.type_index)
        self.fields = fields
        self.methods = methods

    def __repr__(self):
        return f"TypeInfo(type_index={self.type_index}, type_key={self.type_key!r})"


_CACHE = {}


def _parsed_metadata(member):
    if member._metadata is None:
        text = member._metadata_json
        if text:
            import json  # noqa: PLC0415  (only when metadata is read)

            try:
                member._metadata = json.loads(text)
            except ValueError:
                member._metadata = {}
        else:
            member._metadata = {}
    return member._metadata


def _read(type_index):
    key, ancestors, fields, methods = core._type_info(type_index)
    field_meta, method_meta = core._member_metadata(type_index)
    fields = [
        TypeField(type_index, i, name, doc, flags, static)
        for i, (name, doc, flags, static) in enumerate(fields)
    ]
    methods = [TypeMethod(name, doc, flags, fn) for name, doc, flags, fn in methods]
    _, layout = core._type_layout(type_index)
    # Lists read in separate calls: pair them only while they still line up.
    for members, texts in ((fields, field_meta), (methods, method_meta)):
        for member, text in zip(members, texts):
            member._metadata_json = text
    for member, (size, alignment, offset) in zip(fields, layout):
        member.size, member.alignment, member.offset = size, alignment, offset
    for member, default in zip(fields, core._field_defaults(type_index)):
        if not member.c_has_default:
            continue
        if member.flags & FLAG_DEFAULT_FROM_FACTORY:
            member.c_default_factory = default
        else:
            member.c_default = default
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


# Type lookups by key, index and class (upstream's core names) ---------------


def _object_type_key_to_index(type_key: str):
    """The type index of ``type_key``, or None when no such type is registered."""
    if not isinstance(type_key, str):
        raise TypeError(f"type key must be a str, got {type_key!r}")
    try:
        return core._type_key_to_index(type_key)
    except KeyError:
        return None


def _type_index_to_type_info(type_index: int):
    """The :class:`TypeInfo` of ``type_index``, or None when it is not registered."""
    try:
        return type_info(type_index)
    except (KeyError, ValueError, IndexError, RuntimeError):
        return None


def _lookup_or_register_type_info_from_type_key(type_key: str) -> TypeInfo:
    """The :class:`TypeInfo` of ``type_key``, read from the registry on first
    use; ValueError when no type of that key is registered."""
    index = _object_type_key_to_index(type_key)
    if index is None:
        raise ValueError(f"Cannot find type index for type key {type_key!r}")
    return type_info(index)


# Classes that cannot carry __tvm_ffi_type_info__ (the extension's immutable
# types: core.Object, core.Function, ...) are bound here instead.
_BUILTIN_CLASS_INFO: dict = {}


def _bind_builtin_classes(classes: dict) -> None:
    """Bind each ``type_key: class`` of the package's own classes to its
    TypeInfo (``info.type_cls``, and ``__tvm_ffi_type_info__`` where the
    class can take an attribute)."""
    for key, cls in classes.items():
        info = type_info(core._type_key_to_index(key))
        info.type_cls = cls
        try:
            cls.__tvm_ffi_type_info__ = info
        except TypeError:  # an immutable extension type
            _BUILTIN_CLASS_INFO[cls] = info


def _type_cls_to_type_info(type_cls: type):
    """The :class:`TypeInfo` a class was bound to (register_object, c_class,
    py_class, or one of the package's own classes), or None for a class bound
    to no FFI type (a subclass does not inherit its base's binding)."""
    info = _BUILTIN_CLASS_INFO.get(type_cls)
    if info is None:
        info = getattr(type_cls, "__dict__", {}).get("__tvm_ffi_type_info__")
    return info if isinstance(info, TypeInfo) else None


def _set_type_cls(info: TypeInfo, type_cls: type) -> None:
    """Bind ``type_cls`` to the type of ``info``: objects of that type come
    back to Python as instances of it."""
    info.type_cls = type_cls
    type_cls.__tvm_ffi_type_info__ = info
    core._register_object(info.type_index, type_cls)


def _register_object_by_index(type_index: int, type_cls: type) -> TypeInfo:
    """:func:`_set_type_cls` for a type given by index; returns its TypeInfo."""
    info = type_info(type_index)
    _set_type_cls(info, type_cls)
    return info


def _object_repr(obj) -> str:
    """``type_key(field=value, ...)`` as ffi.ReprPrint writes it."""
    if not isinstance(obj, core.Object):
        raise TypeError(f"object_repr needs an FFI object, got {type(obj).__name__}")
    f = core._get_global_func("ffi.ReprPrint")
    return f(obj)


core._object_type_key_to_index = _object_type_key_to_index
core._type_index_to_type_info = _type_index_to_type_info
core._lookup_or_register_type_info_from_type_key = _lookup_or_register_type_info_from_type_key
core._type_cls_to_type_info = _type_cls_to_type_info
core._set_type_cls = _set_type_cls
core._register_object_by_index = _register_object_by_index
core.object_repr = _object_repr


def _register_py_class(parent_type_info, type_key, type_cls):
    """A new FFI type under ``parent_type_info``'s, bound to ``type_cls``
    (fields come next, with :meth:`TypeInfo._register_fields`)."""
    from .dataclasses.py_class import register_py_class

    return register_py_class(parent_type_info, type_key, type_cls)


core._register_py_class = _register_py_class
