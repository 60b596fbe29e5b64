"""``_install_dataclass_dunders``: the dataclass methods (``__init__``,
``__repr__``, ``__eq__``, ordering, ``__hash__``, ``__copy__``,
``__deepcopy__``, ``__replace__``, ``__match_args__``) on a class already
bound to an FFI type (upstream's internal module of the same name).

A method the class body defines is never replaced.  ``__init__`` is the
type's ``__ffi_init__`` (positional, then keywords); eq/order/hash go
through the C++ recursive comparisons (``ffi.RecursiveEq`` ...).
"""
from __future__ import annotations

from .registry import _attach_reflection


def _install_dataclass_dunders(
    cls: type,
    *,
    init: bool,
    repr: bool,
    eq: bool,
    order: bool,
    unsafe_hash: bool,
    match_args: bool = True,
    py_class_mode: bool = False,
) -> None:
    from .dataclasses.c_class import _field_from_cxx  # noqa: PLC0415
    from .dataclasses.py_class import install_common  # noqa: PLC0415

    info = getattr(cls, "__tvm_ffi_type_info__", None)
    if info is None:
        raise TypeError(
            f"{cls.__name__} is bound to no FFI type: register it (register_object, "
            "c_class or py_class) before installing its dataclass methods"
        )
    if order and not eq:
        raise ValueError("order=True requires eq=True")
    if init:
        _attach_reflection(cls, info, init=True)
    all_fields = []
    for tf in info.all_fields:
        if tf.dataclass_field is None:
            tf.dataclass_field = _field_from_cxx(tf)
        all_fields.append(tf.dataclass_field)
    params = {
        "init": init,
        "repr": repr,
        "eq": eq,
        "order": order,
        "unsafe_hash": unsafe_hash,
        "match_args": match_args,
    }
    install_common(cls, all_fields, params)
