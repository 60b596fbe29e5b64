"""``py_class``: an FFI object type defined by an annotated Python class."""
from __future__ import annotations

import sys
from collections.abc import Mapping

from .. import core
from .._type_info import (
    FLAG_COMPARE_OFF,
    FLAG_DEFAULT_FROM_FACTORY,
    FLAG_HAS_DEFAULT,
    FLAG_HASH_OFF,
    FLAG_INIT_OFF,
    FLAG_KW_ONLY,
    FLAG_REPR_OFF,
    FLAG_SEQ_HASH_DEF,
    FLAG_SEQ_HASH_DEF_SIMPLE,
    FLAG_SEQ_HASH_IGNORE,
    type_info as _type_info,
)
from ..registry import _kwargs_sentinel
from . import _methods
from ._types import _ForwardSchema, _Mismatch, describe_value, schema_of
from ._typemethod import (  # noqa: F401  (method and the collector live here too)
    _collect_py_methods,
    _is_method_marked,
    _type_attr_options,
    method,
    register_py_hooks,
    register_py_methods,
    register_type_attrs,
)
from .field import KW_ONLY, MISSING, Field, _field_converter, field, init_property

# py_class(structural_eq=...) -> TVMFFISEqHashKind.
_STRUCTURAL_KINDS = {
    None: 0,
    "tree": 1,
    "var": 2,
    "dag": 3,
    "const-tree": 4,
    "singleton": 5,
}
_FIELD_SEQ_FLAGS = {
    None: 0,
    "ignore": FLAG_SEQ_HASH_IGNORE,
    "def": FLAG_SEQ_HASH_DEF,
    "def-simple": FLAG_SEQ_HASH_DEF_SIMPLE,
}


def _is_classvar(annotation) -> bool:
    if isinstance(annotation, str):
        return annotation.startswith(("ClassVar", "typing.ClassVar"))
    import typing

    return annotation is typing.ClassVar or typing.get_origin(annotation) is typing.ClassVar


def _is_kw_only_marker(annotation, globalns) -> bool:
    if isinstance(annotation, str):
        try:
            annotation = eval(annotation, globalns)  # noqa: S307
        except Exception:  # noqa: BLE001 - a forward reference is not the marker
            return False
    return annotation is KW_ONLY


def _own_annotations(cls):
    ann = cls.__dict__.get("__annotations__")
    if ann is None and sys.version_info >= (3, 14):  # pragma: no cover - lazy annotations
        import annotationlib

        ann = annotationlib.get_annotations(cls, format=annotationlib.Format.FORWARDREF)
    return dict(ann or {})


def _parent_info(cls):
    for base in cls.__mro__[1:]:
        info = base.__dict__.get("__tvm_ffi_type_info__")
        if info is not None:
            return info
    return _type_info(core._type_key_to_index("ffi.Object"))


def _check_one_ffi_parent(cls):
    """An FFI type has one parent type: refuse FFI bases beside that chain.

    The parent is the first FFI type in the MRO; any other FFI type among the
    bases must be one of its ancestors.  Otherwise the other base's fields
    (and its frozen-ness) would silently not be part of the new type, and the
    FFI would not see the new type as a subtype of it.
    """
    ffi_bases = [b for b in cls.__mro__[1:] if "__tvm_ffi_type_info__" in b.__dict__]
    for other in ffi_bases[1:]:
        if other not in ffi_bases[0].__mro__:
            raise TypeError(
                f"py_class {cls.__name__}: bases {ffi_bases[0].__name__} and "
                f"{other.__name__} are both FFI types and neither derives from the other; "
                f"an FFI type has one parent type (inherit from one of them only, or make "
                f"the other a plain Python mixin)"
            )


def _field_from_cxx(tf) -> Field:
    """A Field describing a field declared in C++ (defaults stay in C++)."""
    f = Field(
        tf.name,
        tf.ty,
        default=tf.c_default,
        default_factory=tf.c_default_factory,
        frozen=tf.frozen,
        init=tf.c_init,
        repr=tf.c_repr,
        hash=tf.c_hash,
        compare=tf.c_compare,
        kw_only=tf.c_kw_only,
        structural_eq=tf.c_structural_eq,
        doc=tf.doc,
    )
    f.name = tf.name
    if tf.c_has_default:
        f.metadata["cxx_default"] = True
    return f


def _inherited_fields(parent):
    """Fields of the parent type and its ancestors, root first, as Fields."""
    out = []
    for tf in parent.all_fields:
        out.append(tf.dataclass_field if tf.dataclass_field is not None else _field_from_cxx(tf))
    return out


def _has_default(f: Field) -> bool:
    return f.has_default() or f.metadata.get("cxx_default", False)


def _collect_fields(cls, kw_only_default, frozen_default, globalns):
    fields = []
    init_props = {}
    # name -> (declaring class, annotation, keyword-only); a later class's
    # annotation of a name keeps its position.  The annotations read as one
    # list: a KW_ONLY marker in a base makes the fields after it keyword-only,
    # the class's own too (as upstream).
    entries = {}
    kw_only = kw_only_default
    markers = tuple(getattr(cls, "__ffi_field_markers__", ()))
    cls.__ffi_own_field_markers__ = []
    for klass in (*_plain_bases(cls), cls):
        for name, annotation in _own_annotations(klass).items():
            if _is_classvar(annotation):
                continue
            marker = _marker_of(annotation, markers, globalns)
            if marker is not None:
                # Not a field: recorded with the number of own fields before it.
                cls.__ffi_own_field_markers__.append((marker, klass, name, len(entries)))
                continue
            if _is_kw_only_marker(annotation, globalns):
                kw_only = True
                if klass is cls and name in cls.__dict__:
                    delattr(cls, name)
                continue
            entries[name] = (klass, annotation, kw_only)
    for name, (klass, annotation, kw_only) in entries.items():
        value = klass.__dict__.get(name, MISSING)
        if klass is not cls and isinstance(value, Field):
            # A base's Field is shared: this class gets its own copy.
            value = _copy_field(value)
        if isinstance(value, init_property):
            # A field computed after construction (see _init_property_funcs).
            f = Field(
                init=False, structural_eq="ignore", doc=value.doc,
                compare=True, hash=None, kw_only=None,
            )
            f.metadata["init_property"] = True
            init_props[name] = value.func
        elif isinstance(value, Field):
            f = value
        else:
            f = Field(default=value, compare=True, hash=None, kw_only=None)
        f.name = name
        f.type = annotation
        if f.kw_only is None:
            f.kw_only = kw_only
        if frozen_default:
            f.frozen = True
        if f.hash is None:
            f.hash = f.compare
        if isinstance(f.default, (list, dict, set)):
            raise ValueError(
                f"mutable default {type(f.default)} for field {name} is not allowed: "
                "use default_factory"
            )
        if klass is cls and name in cls.__dict__:
            delattr(cls, name)
        fields.append(f)
    if init_props:
        cls.__ffi_init_property_funcs__ = init_props
    return fields


def _marker_of(annotation, markers, globalns):
    """The class of ``markers`` (``__ffi_field_markers__``) that
    ``annotation`` is, else None."""
    if not markers:
        return None
    if isinstance(annotation, str):
        try:
            annotation = eval(annotation, globalns)  # noqa: S307
        except Exception:  # noqa: BLE001 - not a marker
            return None
    return next((m for m in markers if annotation is m), None)


def _field_markers(cls, parent, inherited_count):
    """``(marker, declaring class, name, position)`` of the marker
    annotations of ``cls`` and its ancestors, root first; ``position`` is
    the number of fields (inherited ones included) before it."""
    inherited = tuple(getattr(parent, "_decorator_args", {}).get("field_markers", ()))
    own = tuple(
        (marker, klass, name, inherited_count + index)
        for marker, klass, name, index in cls.__dict__.get("__ffi_own_field_markers__", ())
    )
    return inherited + own


def _plain_bases(cls):
    """The bases of ``cls`` that are not FFI types nor bases of its FFI
    parent, base first: plain classes between ``cls`` and its FFI parent,
    and plain mixins.  Their annotations are fields of ``cls`` too (before
    its own), as upstream collects them."""
    parent = next((b for b in cls.__mro__[1:] if "__tvm_ffi_type_info__" in b.__dict__), None)
    skip = set(parent.__mro__) if parent is not None else {object}
    return [k for k in reversed(cls.__mro__[1:]) if k not in skip and k is not object]


def _copy_field(f):
    import copy

    return copy.copy(f)


def _run_fields_resolved_hooks(cls, info, own, schemas):
    """Gives each own Field its ``_ty_schema``, then calls every function of
    the class and its bases marked ``__ffi_on_fields_resolved__ = True``
    (base first) as ``hook(type_info, own_fields)``, before the fields are
    defined: a hook may change the Fields (metadata, options) and consumes
    the ``field(**extra)`` keywords it understands (``extra_kwargs``).  Left
    over keywords are a TypeError."""
    for f, schema in zip(own, schemas):
        f._ty_schema = schema.type_schema()
    for klass in reversed(cls.__mro__):
        for value in list(vars(klass).values()):
            func = value.__func__ if isinstance(value, staticmethod) else value
            if callable(func) and getattr(func, "__ffi_on_fields_resolved__", False) is True:
                func(info, own)
    for f in own:
        if f.extra_kwargs:
            raise TypeError(
                f"{cls.__name__}.{f.name}: unrecognized field options: "
                + ", ".join(sorted(f.extra_kwargs))
            )


def _init_property_funcs(cls):
    """``(name, function)`` of every init_property of ``cls`` and its
    bases, root first; a subclass's function replaces its parent's."""
    funcs = {}
    for klass in reversed(cls.__mro__):
        funcs.update(klass.__dict__.get("__ffi_init_property_funcs__", {}))
    return list(funcs.items())


def _make_check(type_key, name, schema):
    describe = schema.describe
    convert = schema.convert

    def check(value):
        try:
            return convert(value)
        except _Mismatch as err:
            where = f" ({err.detail})" if err.detail else ""
            raise TypeError(
                f"field `{type_key}.{name}` expects {describe()}, "
                f"got {describe_value(value)}{where}"
            ) from None

    return check


def _define_entry(type_key, f: Field, schema, bad_default=None):
    flags = 0
    default = None
    if bad_default is not None:
        flags |= FLAG_HAS_DEFAULT | FLAG_DEFAULT_FROM_FACTORY
        default = core._convert_to_ffi_func(_raising_default(bad_default))
    elif f.default_factory is not MISSING:
        flags |= FLAG_HAS_DEFAULT | FLAG_DEFAULT_FROM_FACTORY
        default = core._convert_to_ffi_func(f.default_factory)
    elif f.default is not MISSING:
        flags |= FLAG_HAS_DEFAULT
        default = f.default
    if not f.repr:
        flags |= FLAG_REPR_OFF
    if not f.compare:
        flags |= FLAG_COMPARE_OFF
    if not f.hash:
        flags |= FLAG_HASH_OFF
    if not f.init:
        flags |= FLAG_INIT_OFF
    if f.kw_only:
        flags |= FLAG_KW_ONLY
    flags |= _FIELD_SEQ_FLAGS[f.structural_eq]
    check = _make_check(type_key, f.name, schema) if schema.needs_check else None
    return [f.name, schema.storage, schema.nullable, flags, f.doc, default, check]


def _check_default(type_key, f, schema):
    """Converts ``f.default`` to the field's type.  A default that does not
    convert is accepted here (as upstream does) and reported when it is
    used: the message is returned, None when the default is fine."""
    if f.default is MISSING:
        return None
    if f.default is None and schema.nullable:
        return None
    try:
        f.default = schema.convert(f.default)
    except _Mismatch:
        return (
            f"default for field '{f.name}' of {type_key} must be {schema.describe()}, "
            f"got {describe_value(f.default)}"
        )
    return None


def _raising_default(message):
    """A default factory that raises ``TypeError(message)`` when called."""

    def bad_default():
        raise TypeError(message)

    return bad_default


def _pending_forward_schemas(cls):
    """``(field name, schema)`` of the forward references of ``cls`` and
    its py_class bases not resolved yet."""
    out = []
    for klass in reversed(cls.__mro__):
        for name, schema in klass.__dict__.get("__ffi_forward_schemas__", ()):
            if schema.resolved is None:
                out.append((name, schema))
    return out


def _resolution_check(cls):
    """A function ``check()`` for the first constructions of ``cls``:
    resolves every forward reference of its fields, and raises TypeError
    (``Cannot instantiate Cls: ...``, one ``name: annotation (reason)``
    per field) when some do not resolve; None when there is nothing to
    resolve.  Once all resolve, ``check`` is no longer called."""
    if not _pending_forward_schemas(cls):
        return None
    state = {"pending": True}

    def check():
        failures = []
        for name, schema in _pending_forward_schemas(cls):
            try:
                schema.resolve()
            except TypeError as err:
                failures.append(f"{name}: {schema.text} ({err})")
        if failures:
            raise TypeError(
                f"Cannot instantiate {cls.__name__}: field annotations that do not resolve: "
                + "; ".join(failures)
            )
        state["pending"] = False

    check.state = state
    return check


def _init_parameters(all_fields):
    """The __init__ parameters as ``(positional, keyword_only)`` lists of
    Fields: each list has the fields without a default first, then those
    with one, each group in field order (parents' fields first).  The
    positional order is the one the type's ``__ffi_init__`` uses."""
    positional = [f for f in all_fields if f.init and not f.kw_only]
    kw_only = [f for f in all_fields if f.init and f.kw_only]

    def required_first(group):
        return [f for f in group if not _has_default(f)] + [f for f in group if _has_default(f)]

    return required_first(positional), required_first(kw_only)


def _make_init(cls, all_fields, ctor, post_init):
    """An __init__ whose signature (``__signature__``) is ``(self, <required
    positional>, <positional with default>=MISSING, *, <keyword-only>)``
    (every parameter of the function itself defaults to MISSING).
    The given arguments go to the type's ``__ffi_init__`` (in C++), which
    applies the defaults and reports a missing argument, so C++ callers
    and Python agree.  An object that already holds an FFI object (a
    subclass's own ``__init__`` made it and then called
    ``super().__init__()``) is left as it is."""
    import inspect

    positional, kw_only = _init_parameters(all_fields)
    required = [f.name for f in positional if not _has_default(f)]
    names = [f.name for f in positional] + [f.name for f in kw_only]
    optional = [n for n in names if n not in required]
    # The parameters are the field names; the generated code's own names
    # carry a prefix no field is expected to use (a field may be `self`).
    S, KW = "_tvm_ffi_self", "_tvm_ffi_kw"
    sig = [S] + [f"{f.name}=_tvm_ffi_MISSING" for f in positional]
    if kw_only:
        sig.append("*")
        sig.extend(f"{f.name}=_tvm_ffi_MISSING" for f in kw_only)
    lines = [f"def __init__({', '.join(sig)}):", f"    if {S}.__chandle__(): return"]
    check = _resolution_check(cls)
    if check is not None:
        lines.append("    if _tvm_ffi_check.state['pending']: _tvm_ffi_check()")
    lines.append(f"    {KW} = ()")
    lines.extend(f"    if {n} is not _tvm_ffi_MISSING: {KW} += ({n!r}, {n})" for n in optional)
    call = f"{S}.__init_handle_by_constructor__(_tvm_ffi_ctor"
    if required:
        missing = " or ".join(f"{n} is _tvm_ffi_MISSING" for n in required)
        lines.append(f"    if {missing}:")
        lines.extend(
            f"        if {n} is not _tvm_ffi_MISSING: {KW} += ({n!r}, {n})" for n in required
        )
        lines.append(f"        {call}, _tvm_ffi_KW, *{KW})")
        lines.append("    else:")
        lines.append(f"        {call}, {', '.join(required)}, _tvm_ffi_KW, *{KW})")
    else:
        lines.append(f"    {call}, _tvm_ffi_KW, *{KW})")
    if post_init:
        lines.append(f"    {S}.__post_init__()")
    namespace = {
        "_tvm_ffi_ctor": ctor,
        "_tvm_ffi_KW": _kwargs_sentinel(),
        "_tvm_ffi_MISSING": MISSING,
        "_tvm_ffi_check": check,
    }
    exec("\n".join(lines), namespace)  # noqa: S102
    fn = namespace["__init__"]
    fn.__qualname__ = f"{cls.__qualname__}.__init__"
    fn.__module__ = cls.__module__
    P = inspect.Parameter
    # A field may be called `self`: the instance's parameter is then renamed.
    params = [P("self" if "self" not in names else S, P.POSITIONAL_OR_KEYWORD)]
    for f in positional:
        default = MISSING if _has_default(f) else P.empty
        params.append(P(f.name, P.POSITIONAL_OR_KEYWORD, default=default))
    for f in kw_only:
        default = MISSING if _has_default(f) else P.empty
        params.append(P(f.name, P.KEYWORD_ONLY, default=default))
    fn.__signature__ = inspect.Signature(params)
    return fn


def _wrap_user_init(cls, user_init, new):
    """The class body's own ``__init__``, run on an object that holds a
    zeroed FFI instance of the type (``new`` is its ``__ffi_new__``): its
    fields read 0, 0.0, False or None until the body assigns them, and
    defaults are not applied.  An object that already holds one (a
    subclass's ``__init__`` called ``super().__init__(...)``) keeps it."""
    import functools

    check = _resolution_check(cls)

    @functools.wraps(user_init)
    def __init__(self, *args, **kwargs):
        if check is not None and check.state["pending"]:
            check()
        if not self.__chandle__():
            self.__init_handle_by_constructor__(new)
        user_init(self, *args, **kwargs)

    return __init__


def _with_slots(cls):
    """``cls`` remade with ``__slots__ = ()`` (no instance ``__dict__``:
    assigning a name that is not a field raises AttributeError)."""
    if "__slots__" in cls.__dict__:
        return cls
    ns = dict(cls.__dict__)
    ns.pop("__dict__", None)
    ns.pop("__weakref__", None)
    ns["__slots__"] = ()
    new = type(cls)(cls.__name__, cls.__bases__, ns)
    new.__qualname__ = cls.__qualname__
    # Methods using zero-argument super() refer to the class through a cell.
    for value in ns.values():
        func = getattr(value, "__func__", value)
        closure = getattr(func, "__closure__", None)
        if closure and "__class__" in func.__code__.co_freevars:
            cell = closure[func.__code__.co_freevars.index("__class__")]
            if cell.cell_contents is cls:
                cell.cell_contents = new
    return new


def _caller_locals(depth):
    """The local names where the decorator is used, when that is a function
    body (so annotations may name classes defined earlier in it), and the
    caller's globals under the key ``None`` (used when the class's module is
    not in ``sys.modules``, as for code run by ``exec``)."""
    frame = sys._getframe(depth + 1)
    if frame.f_locals is frame.f_globals:
        return {None: frame.f_globals}
    out = dict(frame.f_locals)
    out[None] = frame.f_globals
    return out


# The classes py_class made, by (module, enclosing scope) and by name: a
# forward reference also resolves to a class defined later in the same
# function body, or, failing all else, to the one py_class of that name.
_BY_SCOPE = {}
_BY_NAME = {}


class _UniqueByName(Mapping):
    """A read-only mapping: a name to the py_class of that name, when
    exactly one py_class has it."""

    def __getitem__(self, name):
        classes = _BY_NAME.get(name, ())
        if len(classes) != 1:
            raise KeyError(name)
        return classes[0]

    def __iter__(self):
        return (name for name, classes in list(_BY_NAME.items()) if len(classes) == 1)

    def __len__(self):
        return sum(1 for _ in self)


def _remember_class(cls):
    scope = cls.__qualname__.rpartition(".")[0]
    _BY_SCOPE.setdefault((cls.__module__, scope), {})[cls.__name__] = cls
    _BY_NAME.setdefault(cls.__name__, []).append(cls)


def _names_for(cls, caller_locals, globalns):
    """Where annotations of ``cls`` are looked up, in order: the caller's
    locals (a copy), the classes py_class made in the same scope (live),
    the module's globals (live), the builtins, and the class of a unique
    py_class name.  Used as the ``locals`` of ``eval``, so that a py_class
    name elsewhere never hides a global or builtin."""
    import builtins
    import collections

    scope = cls.__qualname__.rpartition(".")[0]
    return collections.ChainMap(
        dict(caller_locals),
        _BY_SCOPE.setdefault((cls.__module__, scope), {}),
        globalns,
        vars(builtins),
        _UniqueByName(),
    )


def _register(cls, type_key, params, caller_locals=None):
    if not (isinstance(cls, type) and issubclass(cls, core.Object)):
        raise TypeError(f"py_class {cls!r} must inherit from tvm_ffi.Object")
    _check_one_ffi_parent(cls)
    _collect_py_methods(cls)  # a classmethod among them fails before the key is taken
    if params.get("slots", True):
        cls = _with_slots(cls)
    if type_key is None:
        type_key = f"{cls.__module__}.{cls.__qualname__}"
    if not isinstance(type_key, str) or "." not in type_key:
        raise ValueError(
            f"type key {type_key!r} has no namespace; FFI type keys look like 'mylib.Name'"
        )
    parent = _parent_info(cls)
    # A frozen class may derive from a non-frozen one and the reverse: each
    # field keeps the setting of the class that declares it.
    caller_locals = dict(caller_locals or {})
    caller_globals = caller_locals.pop(None, {})
    module = sys.modules.get(cls.__module__)
    # The module's own namespace (not a copy): forward references resolve
    # against what it holds when they are first used.
    globalns = vars(module) if module is not None else caller_globals
    own = _collect_fields(cls, params["kw_only"], params["frozen"], globalns)
    inherited = _inherited_fields(parent)
    inherited_names = {f.name for f in inherited}
    # An init_property over a parent's field only replaces the function.
    own = [
        f for f in own
        if not (f.metadata.get("init_property") and f.name in inherited_names)
    ]
    for f in own:
        if f.name in inherited_names:
            raise TypeError(
                f"field {f.name!r} of {type_key} is already a field of a parent type"
            )
    localns = _names_for(cls, caller_locals, globalns)
    # A dry run first, with the class standing for any object: a bad
    # annotation or default is reported before the type key is taken.
    localns[cls.__name__] = core.Object
    for f in own:
        _check_default(type_key, f, schema_of(f.type, globalns, localns))
    localns[cls.__name__] = cls

    type_index = core._alloc_type_index(type_key, parent.type_index)
    info = _type_info(type_index)
    info.type_cls = cls
    info._decorator_args = dict(params)
    info._decorator_args["field_markers"] = _field_markers(cls, parent, len(inherited))
    cls.__tvm_ffi_type_info__ = info
    core._register_object(type_index, cls)

    schemas = [schema_of(f.type, globalns, localns) for f in own]
    for f in own:
        f.type = _resolved(f.type, globalns, localns)
    _run_fields_resolved_hooks(cls, info, own, schemas)
    _define_fields(
        cls, info, own, schemas, _STRUCTURAL_KINDS[params["structural_eq"]],
        lambda: (register_py_methods(cls, type_index, globalns, localns),
                 register_py_hooks(cls, type_index)),
    )
    register_type_attrs(cls, type_index, parent.type_index)
    all_fields = inherited + own
    _install_methods(cls, info, all_fields, params)
    _remember_class(cls)
    return cls


def _resolved(annotation, globalns, localns):
    """A string annotation evaluated (Field.type is the resolved annotation,
    as :func:`typing.get_type_hints` gives it); kept as the string while it
    names something not defined yet."""
    if not isinstance(annotation, str):
        return annotation
    try:
        return eval(annotation, globalns, localns)  # noqa: S307
    except Exception:  # noqa: BLE001 - a forward reference stays a string
        return annotation


def _define_fields(cls, info, own, schemas, structural_kind, before_refresh=None):
    """Defines the type's own fields through ``ffi.DataclassDefine`` and
    puts each on ``cls`` as a property."""
    type_key = info.type_key
    bad = [_check_default(type_key, f, schema) for f, schema in zip(own, schemas)]
    entries = [_define_entry(type_key, f, s, b) for f, s, b in zip(own, schemas, bad)]
    _methods.ffi_func("ffi.DataclassDefine")(info.type_index, entries, structural_kind)
    if before_refresh is not None:
        before_refresh()
    info._refresh()
    cls.__ffi_forward_schemas__ = tuple(
        (f.name, schema) for f, schema in zip(own, schemas) if isinstance(schema, _ForwardSchema)
    )
    for tf, f, schema in zip(info.fields, own, schemas):
        tf.dataclass_field = f
        tf.ty = schema.type_schema()
        tf.metadata = f.metadata
        tf.frozen = f.frozen
        tf.c_default = f.default
        tf.c_default_factory = f.default_factory
        setattr(cls, f.name, tf.as_property(cls, frozen=f.frozen))


def register_py_class(parent_info, type_key, type_cls):
    """``core._register_py_class``: a new FFI type ``type_key`` under
    ``parent_info``'s type, bound to ``type_cls`` (a subclass of
    tvm_ffi.Object), without fields yet; its :class:`TypeInfo`.  A key in
    use is a ValueError and leaves the existing type alone."""
    if not (isinstance(type_cls, type) and issubclass(type_cls, core.Object)):
        raise TypeError(f"_register_py_class needs a subclass of tvm_ffi.Object, got {type_cls!r}")
    if not isinstance(type_key, str) or "." not in type_key:
        raise ValueError(
            f"type key {type_key!r} has no namespace; FFI type keys look like 'mylib.Name'"
        )
    type_index = core._alloc_type_index(type_key, parent_info.type_index)
    info = _type_info(type_index)
    info.type_cls = type_cls
    type_cls.__tvm_ffi_type_info__ = info
    core._register_object(type_index, type_cls)
    return info


def register_fields(info, fields, structure_kind=None):
    """``TypeInfo._register_fields``: defines ``fields`` (:class:`Field` objects
    with ``name`` and ``_ty_schema`` (a :class:`tvm_ffi.core.TypeSchema`)
    or ``type`` (an annotation)) as the type's own fields, in order, and
    puts them on the bound class as properties.  ``structure_kind`` is the
    structural kind's number (None: ``"tree"``)."""
    from ._types import annotation_of

    cls = info.type_cls
    if cls is None:
        raise TypeError(f"type {info.type_key} is bound to no class: use _register_py_class")
    schemas = []
    for f in fields:
        if not isinstance(f, Field) or not isinstance(f.name, str):
            raise TypeError(f"_register_fields needs named Field objects, got {f!r}")
        if f._ty_schema is not None:
            if f.type is None:
                f.type = annotation_of(f._ty_schema)
            schemas.append(schema_of(annotation_of(f._ty_schema)))
        else:
            schemas.append(schema_of(f.type if f.type is not None else _Any()))
        if f.kw_only is None:
            f.kw_only = False
        if f.hash is None:
            f.hash = f.compare
    kind = _STRUCTURAL_KINDS["tree"] if structure_kind is None else structure_kind
    _define_fields(cls, info, list(fields), schemas, kind)


def _Any():
    import typing

    return typing.Any


def _install_methods(cls, info, all_fields, params):
    own = cls.__dict__
    ctor = next((m.func for m in info.methods if m.name == "__ffi_init__"), None)
    props = _init_property_funcs(cls)
    post_init = hasattr(cls, "__post_init__")
    if "__init__" in own:
        new = core._lookup_type_attr(info.type_index, "__ffi_new__")
        cls.__init__ = _wrap_user_init(cls, own["__init__"], new)
    elif params["init"]:
        made = _make_init(cls, all_fields, ctor, post_init and not props)
        if props:
            made = _with_init_properties(cls, made, props, post_init)
        cls.__init__ = made
    else:
        # init=False: construction takes the type's __ffi_init__ arguments.
        def __init__(self, /, *args, **kwargs):
            if kwargs:
                args = args + (_kwargs_sentinel(),)
                for name, value in kwargs.items():
                    args = args + (name, value)
            self.__init_handle_by_constructor__(ctor, *args)

        cls.__init__ = __init__
    if "__ffi_init__" not in own and ctor is not None:
        def __ffi_init__(self, /, *args, **kwargs):
            if kwargs:
                args = args + (_kwargs_sentinel(),)
                for name, value in kwargs.items():
                    args = args + (name, value)
            self.__init_handle_by_constructor__(ctor, *args)

        cls.__ffi_init__ = __ffi_init__
    install_common(cls, all_fields, params)


def _with_init_properties(cls, made, props, post_init):
    """``made`` (an __init__ that does not call __post_init__) followed by
    computing and storing each init_property (frozen fields too), then
    ``__post_init__`` when the class has one."""
    import inspect

    setters = None

    def __init__(self, *args, **kwargs):
        nonlocal setters
        made(self, *args, **kwargs)
        if setters is None:
            setters = [(getattr(cls, name), func) for name, func in props]
        for prop, func in setters:
            prop.set(self, func(self))
        if post_init:
            self.__post_init__()

    __init__.__qualname__ = made.__qualname__
    __init__.__module__ = made.__module__
    __init__.__signature__ = inspect.signature(made)
    return __init__


def install_common(cls, all_fields, params):
    """repr/eq/order/hash/copy/replace/match_args, never over a method of the
    class body."""
    own = cls.__dict__
    cls.__ffi_field_names__ = {f.name: f.init for f in all_fields}

    def put(name, value):
        if name not in own:
            setattr(cls, name, value)

    if params.get("repr", True):
        put("__repr__", _methods.__repr__)
    if params.get("eq"):
        eq, ne = _methods.make_eq()
        put("__eq__", eq)
        put("__ne__", ne)
    if params.get("order"):
        for name, fn in _methods.make_order():
            put(name, fn)
    if params.get("unsafe_hash"):
        put("__hash__", _methods.__hash__)
    put("__copy__", _methods.__copy__)
    put("__deepcopy__", _methods.__deepcopy__)
    put("__replace__", _methods.make_replace(cls))
    if params.get("match_args", True):
        put(
            "__match_args__",
            tuple(f.name for f in all_fields if f.init and not f.kw_only),
        )
    cls.__ffi_fields__ = tuple(all_fields)
    cls.__ffi_is_dataclass__ = True


def py_class(
    cls_or_type_key=None,
    /,
    *,
    type_key=None,
    frozen=False,
    init=True,
    repr=True,
    eq=False,
    order=False,
    unsafe_hash=False,
    match_args=True,
    kw_only=False,
    structural_eq="tree",
    slots=True,
):
    """Define an FFI object type from an annotated class::

        @py_class("mylib.Pair")
        class Pair(tvm_ffi.Object):
            first: int
            second: str = "two"

    The type is registered through the C ABI (key ``type_key``, default
    ``<module>.<qualname>``): C and C++ code can create it (``__ffi_init__``,
    ``__ffi_new__``), read and write its fields and hand it back.  Fields
    are checked on construction and assignment.  Options are those of
    :func:`dataclasses.dataclass` plus ``structural_eq`` (the kind for
    structural equality and hashing: ``"tree"``, ``"var"``, ``"dag"``,
    ``"const-tree"``, ``"singleton"`` or None).  ``eq``/``order`` compare
    field by field (fields with compare=False skipped); ``unsafe_hash``
    hashes the same way.  ``slots`` (default True) remakes the class with
    ``__slots__ = ()``, as :func:`dataclasses.dataclass` does, so instances
    have no ``__dict__`` (unless a base class has one).
    """
    if order and not eq:
        raise ValueError("order=True requires eq=True")
    if structural_eq not in _STRUCTURAL_KINDS:
        raise ValueError(
            "structural_eq must be one of 'const-tree', 'dag', 'singleton', 'tree', 'var' "
            f"or None, got {structural_eq!r}"
        )
    params = {
        "frozen": frozen,
        "init": init,
        "repr": repr,
        "eq": eq,
        "order": order,
        "unsafe_hash": unsafe_hash,
        "match_args": match_args,
        "kw_only": kw_only,
        "structural_eq": structural_eq,
        "slots": slots,
    }
    caller_locals = _caller_locals(1)
    if isinstance(cls_or_type_key, type):
        return _register(cls_or_type_key, type_key, params, caller_locals)
    if isinstance(cls_or_type_key, str):
        if type_key is not None:
            raise TypeError("py_class got the type key both positionally and as type_key")
        type_key = cls_or_type_key
    elif cls_or_type_key is not None:
        raise TypeError(
            f"py_class expects a class or a type key string, got {cls_or_type_key!r}"
        )
    return lambda cls: _register(cls, type_key, params, caller_locals)


# What type checkers read (typing.dataclass_transform): py_class makes
# dataclass-like classes whose fields are given by Field/field().
py_class.__dataclass_transform__ = {
    "eq_default": False,
    "order_default": False,
    "kw_only_default": False,
    "frozen_default": False,
    "field_specifiers": (Field, field),
    "kwargs": {"converter": _field_converter},
}
