"""``tvm_ffi.method``: Python methods of a ``py_class`` put into the type's
reflected method table (``TVMFFITypeRegisterMethod``), so any FFI consumer
finds them by name in ``TypeInfo.methods``."""
from __future__ import annotations

import inspect
import json
import sys
import typing

from .. import core

# Names that name type attributes (TypeAttrColumn entries), never methods.
FFI_TYPE_ATTR_NAMES = frozenset(
    {
        "__ffi_repr__",
        "__ffi_hash__",
        "__ffi_eq__",
        "__ffi_compare__",
        "__ffi_convert__",
        "__ffi_convert_type_schema__",
        "__any_hash__",
        "__any_equal__",
        "__s_equal__",
        "__s_hash__",
        "__s_visit__",
        "__s_mutate__",
        "__s_maybe_inplace_mutate__",
        "__data_to_json__",
        "__data_from_json__",
    }
)
# The hooks a py_class copies from its parent unless it says otherwise.
DEFAULT_INHERIT_TYPE_ATTRS = (
    "__s_equal__",
    "__s_hash__",
    "__s_visit__",
    "__data_to_json__",
    "__data_from_json__",
)
_MARK = "__ffi_method__"


def method(fn):
    """Mark a method of a ``@py_class`` body for FFI reflection::

        @py_class("mylib.Node")
        class Node(tvm_ffi.Object):
            x: int

            @tvm_ffi.method
            def label(self) -> str:
                return f"N({self.x})"

    When the class is registered, the method joins the type's method table
    (with a ``Callable`` type schema read from its annotations), so C++,
    Rust or Python find it by name in ``TypeInfo.methods``; it stays an
    ordinary Python method too.  A ``staticmethod`` (either decorator
    order) registers as a static method; a ``classmethod`` is refused,
    since a method's first argument is the object.  A name of a type
    attribute (``__ffi_repr__`` ...) goes to that attribute instead.
    Returns ``fn`` itself, marked.
    """
    if isinstance(fn, staticmethod):
        setattr(fn.__func__, _MARK, True)
        return fn
    if isinstance(fn, classmethod):
        raise TypeError(
            "@tvm_ffi.method: @classmethod is not supported: a reflected method takes "
            "the object (or nothing, for @staticmethod) as its first argument, not the class"
        )
    if not callable(fn):
        raise TypeError(f"@tvm_ffi.method: expected a callable, got {type(fn).__name__}")
    setattr(fn, _MARK, True)
    return fn


def _is_method_marked(value) -> bool:
    """True for a callable (or static/class method of one) marked by :func:`method`."""
    if isinstance(value, (staticmethod, classmethod)):
        value = value.__func__
    elif not callable(value):
        return False
    return getattr(value, _MARK, False) is True


def _type_attr_options(cls):
    """The type-attribute names of ``cls`` (the built-in ones plus its
    ``__ffi_type_attr_names__`` and ``__ffi_inherit_type_attrs__``) and the
    names it copies from its parent."""
    extra = getattr(cls, "__ffi_type_attr_names__", ())
    inherited = getattr(cls, "__ffi_inherit_type_attrs__", DEFAULT_INHERIT_TYPE_ATTRS)
    for value in (extra, inherited):
        if not isinstance(value, (tuple, list)) or not all(isinstance(n, str) for n in value):
            raise TypeError(
                f"{cls.__name__}: __ffi_type_attr_names__ and __ffi_inherit_type_attrs__ "
                f"must be tuples or lists of str, got {value!r}"
            )
    return FFI_TYPE_ATTR_NAMES | frozenset(extra) | frozenset(inherited), tuple(inherited)


def _schema_json_of(annotation, globalns, localns):
    from ..type_schema import TypeSchema
    from ._types import schema_of

    ts = schema_of(annotation, globalns, localns).type_schema()
    origin = typing.get_origin(annotation) or annotation
    # A Python list/dict argument arrives as a mutable ffi.List/ffi.Dict.
    if origin is list and ts.origin == "Array":
        ts = TypeSchema("List", ts.args)
    elif origin is dict and ts.origin == "Map":
        ts = TypeSchema("Dict", ts.args)
    return ts


def _callable_only():
    from ..type_schema import TypeSchema

    return json.dumps({"type_schema": TypeSchema("Callable").to_json()})


def _method_metadata_json(cls, func, is_static, globalns, localns=None) -> str:
    """``{"type_schema": Callable[[params...], return]}`` of a Python method:
    ``self`` is the class's own type; a bare ``Callable`` when the
    annotations cannot be read or the signature has ``*args``, ``**kwargs``
    or keyword-only parameters."""
    from ..type_schema import TypeSchema

    ns = dict(localns or {})
    ns.setdefault(cls.__name__, cls)
    try:
        hints = typing.get_type_hints(func, globalns=globalns, localns=ns)
        sig = inspect.signature(func)
    except (NameError, AttributeError, TypeError, ValueError):
        return _callable_only()
    params = list(sig.parameters.values())
    if any(
        p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD, p.KEYWORD_ONLY) for p in params
    ):
        return _callable_only()
    try:
        schemas = []
        if not is_static:
            schemas.append(_schema_json_of(cls, globalns, ns))
            params = params[1:]
        for p in params:
            schemas.append(_schema_json_of(hints.get(p.name, typing.Any), globalns, ns))
        ret = _schema_json_of(hints.get("return", typing.Any), globalns, ns)
    except TypeError:
        return _callable_only()
    schema = TypeSchema("Callable", named_args={"return": (ret,), "params": tuple(schemas)})
    return json.dumps({"type_schema": schema.to_json()})


def _collect_py_methods(cls, globalns=None):
    """The reflection entries of a ``@py_class`` body, in body order: each
    name in the class's type-attribute names, and each callable marked by
    :func:`method`.  ``(name, function, is_static)`` tuples, or with
    ``globalns`` given ``(name, function, is_static, metadata_json)``
    (metadata None for a type attribute); None when there are none.  A
    ``classmethod`` among them is a TypeError."""
    attr_names, _ = _type_attr_options(cls)
    with_metadata = globalns is not None
    if globalns is None:
        module = sys.modules.get(cls.__module__)
        globalns = vars(module) if module is not None else {}
    out = []
    for name, value in cls.__dict__.items():
        marked = _is_method_marked(value)
        if not marked and name not in attr_names:
            continue
        if isinstance(value, classmethod):
            raise TypeError(
                f"py_class {cls.__name__!r}: {name!r} is wrapped by @classmethod, which "
                "cannot be a reflected method (its first argument would be the class); "
                "use @staticmethod or an instance method, and put @staticmethod outside "
                "@tvm_ffi.method or drop it"
            )
        is_static = isinstance(value, staticmethod)
        func = value.__func__ if is_static else value
        if not with_metadata:
            out.append((name, func, is_static))
            continue
        meta = None
        if marked and name not in attr_names:
            meta = _method_metadata_json(cls, func, is_static, globalns)
        out.append((name, func, is_static, meta))
    return out or None


def register_py_methods(cls, type_index, globalns, localns=None) -> int:
    """Registers the marked methods of ``cls`` (type attributes aside) on
    ``type_index``; returns how many."""
    attr_names, _ = _type_attr_options(cls)
    count = 0
    for name, value in list(cls.__dict__.items()):
        if not _is_method_marked(value) or name in attr_names:
            continue
        if isinstance(value, classmethod):
            _collect_py_methods(cls)  # raises the classmethod TypeError
        is_static = isinstance(value, staticmethod)
        func = value.__func__ if is_static else value
        meta = _method_metadata_json(cls, func, is_static, globalns, localns)
        doc = inspect.getdoc(func)
        core._register_type_method(
            type_index, name, core._convert_to_ffi_func(func), is_static, doc, meta
        )
        count += 1
    return count


def register_type_attrs(cls, type_index, parent_index) -> None:
    """Stores the class's own type attributes in the type's attribute
    columns (what ``core._lookup_type_attr`` and C++ read): each name of its
    ``__ffi_type_attr_names__`` that the class body defines (a function is
    stored as a ``tvm_ffi.Function`` taking the object first, a staticmethod
    as its function, any other value converted as a call argument is).  A
    name the body does not define but ``__ffi_inherit_type_attrs__`` lists
    gets the parent type's value.  The built-in hook names (``__ffi_repr__``,
    ``__s_equal__``...) are left to the machinery that wires them."""
    _, inherited = _type_attr_options(cls)
    for name in getattr(cls, "__ffi_type_attr_names__", ()):
        if name in FFI_TYPE_ATTR_NAMES:
            continue
        if name in cls.__dict__:
            value = cls.__dict__[name]
            if isinstance(value, staticmethod):
                value = core._convert_to_ffi_func(value.__func__)
            elif inspect.isfunction(value):
                value = core._convert_to_ffi_func(value)
        elif name in inherited:
            value = core._lookup_type_attr(parent_index, name)
            if value is None:
                continue
        else:
            continue
        core._register_type_attr(type_index, name, value)


# The hooks of a py_class body that the core's walks call (ffi.ReprPrint,
# ffi.RecursiveEq/Hash/Lt...): registered as the type's attributes.
_BODY_HOOKS = ("__ffi_repr__", "__ffi_eq__", "__ffi_hash__", "__ffi_compare__")


def register_py_hooks(cls, type_index) -> int:
    """Registers the ``__ffi_repr__`` / ``__ffi_eq__`` / ``__ffi_hash__`` /
    ``__ffi_compare__`` functions of ``cls``'s body as type attributes of
    ``type_index`` (so C++ and every walk call them); returns how many."""
    count = 0
    for name in _BODY_HOOKS:
        value = cls.__dict__.get(name)
        if value is None:
            continue
        if isinstance(value, (staticmethod, classmethod)) or not callable(value):
            raise TypeError(
                f"py_class {cls.__name__!r}: {name} must be a plain function "
                f"(self, ...), got {value!r}"
            )
        core._register_type_attr(type_index, name, core._convert_to_ffi_func(value))
        count += 1
    return count
