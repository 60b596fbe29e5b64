"""``c_class``: a Python class over an FFI type registered in C or C++."""
from __future__ import annotations

import copy as _copy
import typing

from .. import core
from .._type_info import type_info as _type_info
from ..registry import _attach_reflection
from .field import Field, field
from .py_class import _field_from_cxx, install_common


def _attach_field_objects(cls, type_info, *, frozen=False):
    """Gives each of the type's own reflected fields its :class:`Field`
    (``TypeField.dataclass_field``, what :func:`fields` returns): name,
    flags, ``_ty_schema`` (the ``TypeField.ty``), defaults as known, and
    ``type`` the class's resolved annotation of that name (None without
    one, or when the annotations do not resolve).  ``frozen`` marks every
    field frozen.  Called again, it replaces the Fields."""
    import typing

    try:
        hints = typing.get_type_hints(cls)
    except Exception:  # noqa: BLE001 - an unresolvable annotation leaves types unknown
        hints = {}
    for tf in type_info.fields:
        if frozen:
            tf.frozen = True
        f = _field_from_cxx(tf)
        f.type = hints.get(tf.name)
        tf.dataclass_field = f


# For type checkers: c_class makes dataclass-like classes whose fields
# field()/Field describe (and, when Field has one, convert).
@typing.dataclass_transform(
    eq_default=False,
    field_specifiers=(Field, field),
    converter=getattr(field(), "converter", None),
)
def c_class(
    type_key,
    *,
    frozen=False,
    init=True,
    repr=True,
    eq=False,
    order=False,
    unsafe_hash=False,
    match_args=True,
):
    """Bind a class to the C/C++ type ``type_key``, like
    :func:`tvm_ffi.register_object`, and give it dataclass behaviour::

        @c_class("testing.DCPoint", eq=True)
        class DCPoint(tvm_ffi.Object):
            pass

    Reflected fields become properties (read-only when ``frozen``, with
    ``.set(obj, value)`` as the way around it), ``__init__`` takes the
    type's ``__ffi_init__`` arguments (positional, then keywords), and
    ``__repr__``/``__eq__``/ordering/``__hash__`` follow the options and
    the fields' flags (ReprOff, CompareOff, HashOff).  Methods the class
    body defines are kept.
    """
    if order and not eq:
        raise ValueError("order=True requires eq=True")
    if not isinstance(type_key, str):
        raise TypeError(f"c_class needs a type key string, got {type_key!r}")
    params = {
        "frozen": frozen,
        "init": init,
        "repr": repr,
        "eq": eq,
        "order": order,
        "unsafe_hash": unsafe_hash,
        "match_args": match_args,
    }

    def decorator(cls):
        if not (isinstance(cls, type) and issubclass(cls, core.Object)):
            raise TypeError(f"c_class needs a subclass of tvm_ffi.Object, got {cls!r}")
        if "." not in type_key:
            raise ValueError(
                f"type key {type_key!r} has no namespace; FFI type keys look like "
                f"'mylib.{type_key}'"
            )
        try:
            index = core._type_key_to_index(type_key)
        except (KeyError, ValueError, RuntimeError):
            raise ValueError(f"Cannot find object type index for {type_key}") from None
        info = _type_info(index)
        info._refresh()
        user_init = "__init__" in cls.__dict__
        _attach_reflection(cls, info, init=init, frozen=frozen)
        info.type_cls = cls
        info._decorator_args = dict(params)
        cls.__tvm_ffi_type_info__ = info
        _attach_field_objects(cls, info, frozen=frozen)
        all_fields = []
        for tf in info.all_fields:
            if tf.dataclass_field is None:
                tf.dataclass_field = _field_from_cxx(tf)
            f = tf.dataclass_field
            if frozen and not f.frozen:
                # An ancestor's field, frozen in this class only.
                f = _copy.copy(f)
                f.frozen = True
            all_fields.append(f)
        install_common(cls, all_fields, params)
        _install_type_attrs(cls, info)
        if init and not user_init and "__init__" in cls.__dict__:
            _set_init_signature(cls.__init__, info)
        core._register_object(index, cls)
        return cls

    return decorator


def _install_type_attrs(cls, info):
    """The type's hooks in the type-attribute table (``__ffi_hash__``,
    ``__ffi_eq__``, ...) as class attributes, unless the class defines them."""
    from ._typemethod import FFI_TYPE_ATTR_NAMES

    for name in sorted(FFI_TYPE_ATTR_NAMES):
        if name in cls.__dict__:
            continue
        value = core._lookup_type_attr(info.type_index, name)
        if value is not None:
            setattr(cls, name, value)


def _set_init_signature(init_fn, info):
    """What ``inspect.signature`` shows for a generated ``__init__``: the
    ``__ffi_init__`` parameters the fields' flags make (ancestors' first):
    positional ones without a default, then with one, then keyword-only
    ones; a default shows as MISSING (C++ applies it)."""
    import inspect

    required, optional, kw_only = [], [], []
    for tf in info.all_fields:
        if not tf.c_init:
            continue
        default = core.MISSING if tf.c_has_default else inspect.Parameter.empty
        if tf.c_kw_only:
            kind = inspect.Parameter.KEYWORD_ONLY
            kw_only.append(inspect.Parameter(tf.name, kind, default=default))
        else:
            kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
            (optional if tf.c_has_default else required).append(
                inspect.Parameter(tf.name, kind, default=default)
            )
    self_param = inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)
    try:
        init_fn.__signature__ = inspect.Signature([self_param, *required, *optional, *kw_only])
    except (AttributeError, ValueError):  # a builtin, or names Python refuses
        pass
