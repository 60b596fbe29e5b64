"""Global functions and object classes: registration and lookup."""
from __future__ import annotations

import sys

from . import core

TYPE_CHECKING = False  # typing is not imported at run time (start-up cost)
if TYPE_CHECKING:
    from typing import Any, Callable

from ._type_info import TypeField, TypeInfo, TypeMethod, type_info as _cached_type_info


def register_global_func(func_name, f: Callable | None = None, override: bool = False):
    """Register a Python callable as an FFI global function.

    Three forms::

        @register_global_func("mylib.add_one")
        def add_one(x): ...

        register_global_func("mylib.add_one", add_one)

        @register_global_func          # the name is f.__name__
        def add_one(x): ...

    Returns the :class:`tvm_ffi.Function` that was registered (decorators
    therefore bind the name to it).  A name that is taken raises RuntimeError
    unless ``override=True``.
    """
    if callable(func_name) and f is None:
        f = func_name
        func_name = f.__name__
    if not isinstance(func_name, str):
        raise TypeError(f"func_name must be a str, got {func_name!r}")

    def register(myf):
        # The library's own message names its C parameter (allow_override);
        # say it in this function's terms.
        if not override and core._get_global_func(func_name) is not None:
            raise RuntimeError(
                f"global function `{func_name}` is already registered; "
                "pass override=True to replace it"
            )
        fn = core._register_global_func(func_name, myf, override)
        if fn is not myf:
            try:
                fn.__name__ = getattr(myf, "__name__", func_name)
                fn.__doc__ = getattr(myf, "__doc__", None)
            except AttributeError:
                pass
        return fn

    if f is not None:
        return register(f)
    return register


def get_global_func(name: str, allow_missing: bool = False) -> core.Function | None:
    """The global function ``name``; a missing one raises ValueError, or gives
    None with ``allow_missing=True``."""
    f = core._get_global_func(name)
    if f is None and not allow_missing:
        raise ValueError(f"Cannot find global function {name}")
    return f


def remove_global_func(name: str) -> bool:
    """Remove a global function; returns whether it existed."""
    return bool(get_global_func("ffi.FunctionRemoveGlobal")(name))


def list_global_func_names() -> list[str]:
    """Names of every global function, in no particular order."""
    functor = get_global_func("ffi.FunctionListGlobalNamesFunctor")()
    return [functor(i) for i in range(functor(-1))]


def get_global_func_metadata(name: str) -> dict[str, Any]:
    """The JSON metadata of a global function as a dict ({} when it has none)."""
    import json  # only here: json is not needed to import tvm_ffi
    text = get_global_func("ffi.GetGlobalFuncMetadata")(name)
    return json.loads(text) if text else {}


def get_registered_type_keys() -> list[str]:
    """The type keys of every type registered with libtvm_ffi (built-in,
    C++ and py_class types), in registration order."""
    return list(get_global_func("ffi.GetRegisteredTypeKeys")())


def init_ffi_api(namespace: str, target_module_name: str | None = None) -> None:
    """Put every global function named ``<namespace>.<name>`` (with no further
    dot in ``<name>``) on the module ``target_module_name`` (default:
    ``namespace``) as attribute ``<name>``.  Typical use, in a package's
    ``_ffi_api.py``: ``init_ffi_api("mylib", __name__)``.
    """
    target_module_name = target_module_name or namespace
    module = sys.modules[target_module_name]
    prefix = namespace[4:] if namespace.startswith("tvm.") else namespace
    prefix = prefix + "."
    for name in list_global_func_names():
        if not name.startswith(prefix):
            continue
        short = name[len(prefix) :]
        if not short or "." in short:
            continue
        f = get_global_func(name)
        f.__name__ = short
        setattr(module, short, f)


def _type_info(type_index: int) -> TypeInfo:
    info = _cached_type_info(type_index)
    info._refresh()
    return info


def _ffi_init_method(cls, ctor, doc=None):
    """The constructor ``ctor`` as a method: ``obj.__ffi_init__(*args,
    **kwargs)`` makes the FFI object and points ``obj`` at it (as upstream
    exposes it)."""

    def __ffi_init__(self, *args, **kwargs):
        if kwargs:
            # Keywords follow the KWARGS sentinel as name, value pairs.
            args = args + (_kwargs_sentinel(),)
            for name, value in kwargs.items():
                args = args + (name, value)
        self.__init_handle_by_constructor__(ctor, *args)

    __ffi_init__.__qualname__ = f"{cls.__name__}.__ffi_init__"
    __ffi_init__.__doc__ = doc
    return __ffi_init__


def _warn_missing_field_annotations(cls, type_info: TypeInfo, *, stacklevel: int) -> None:
    """Warns (UserWarning) when the class body of ``cls`` does not annotate
    some of the type's own reflected fields (inherited fields and parent
    annotations do not count), naming them."""
    own = cls.__dict__.get("__annotations__") or {}
    missing = sorted({f.name for f in type_info.fields} - set(own))
    if missing:
        import warnings

        warnings.warn(
            f"c_class {type_info.type_key!r}: class `{cls.__qualname__}` does not annotate "
            f"reflected field(s) {', '.join(missing)}; annotate them (`name: type`) in the "
            "class body so type checkers and readers see them",
            UserWarning,
            stacklevel=stacklevel + 1,
        )


def _add_class_attrs(type_cls, type_info: TypeInfo, type_attr_names=()):
    """Puts the type's own reflected members on ``type_cls`` (upstream's
    low-level binding step): each field as a property and each method,
    unless the class body defines the name (a method also not when the
    class already has it through a base); the constructor (a method or the
    ``__ffi_init__`` type attribute) becomes ``__ffi_init__``; each name in
    ``type_attr_names`` with a value in the type's attribute table becomes
    a class attribute (a function taking the object first).  Returns
    ``type_cls``."""
    own = type_cls.__dict__
    for f in type_info.fields:
        if f.name not in own:
            setattr(type_cls, f.name, f.as_property(type_cls))
    ctor = None
    for m in type_info.methods:
        if m.name == "__ffi_init__":
            ctor = m
            continue
        if not hasattr(type_cls, m.name):
            setattr(type_cls, m.name, m.as_callable(type_cls))
    if "__ffi_init__" not in own:
        if ctor is not None:
            type_cls.__ffi_init__ = _ffi_init_method(type_cls, ctor.func, ctor.doc)
        else:
            fn = core._lookup_type_attr(type_info.type_index, "__ffi_init__")
            if fn is not None:
                type_cls.__ffi_init__ = _ffi_init_method(type_cls, fn)
    for name in type_attr_names:
        if name in own:
            continue
        value = core._lookup_type_attr(type_info.type_index, name)
        if value is not None:
            setattr(type_cls, name, value)
    return type_cls


def _attach_reflection(cls, info: TypeInfo, init: bool = True, frozen: bool = False) -> None:
    own = cls.__dict__
    # Own fields and methods first, then those of ancestors that no class in
    # the MRO provides yet.
    for tindex in (info.type_index,) + tuple(reversed(info.type_ancestors)):
        tinfo = info if tindex == info.type_index else _cached_type_info(tindex)
        for f in tinfo.fields:
            if f.name in own or (tindex != info.type_index and hasattr(cls, f.name)):
                continue
            setattr(cls, f.name, f.as_property(cls, frozen=frozen))
        for m in tinfo.methods:
            if m.name == "__ffi_init__" or m.name in own:
                continue
            if tindex != info.type_index and hasattr(cls, m.name):
                continue
            setattr(cls, m.name, m.as_callable(cls))
    ctor = next((m.func for m in info.methods if m.name == "__ffi_init__"), None)
    if ctor is not None and "__ffi_init__" not in own:
        doc = next(m.doc for m in info.methods if m.name == "__ffi_init__")
        cls.__ffi_init__ = _ffi_init_method(cls, ctor, doc)
    if init and "__init__" not in own:
        if ctor is not None:

            def __init__(self, *args, **kwargs):
                if kwargs:
                    # Keywords follow the KWARGS sentinel as name, value pairs.
                    args = args + (_kwargs_sentinel(),)
                    for name, value in kwargs.items():
                        args = args + (name, value)
                self.__init_handle_by_constructor__(ctor, *args)

        else:

            def __init__(self, *args, **kwargs):
                raise TypeError(
                    f"`{cls.__name__}` cannot be constructed directly: "
                    f"type {info.type_key} has no __ffi_init__"
                )

        cls.__init__ = __init__
    if "__repr__" not in own and _has_fields(info):
        cls.__repr__ = _reflected_repr


def _has_fields(info: TypeInfo) -> bool:
    if info.fields:
        return True
    return any(_cached_type_info(t).fields for t in info.type_ancestors)


def _reflected_repr(self) -> str:
    """``type_key(field=value, ...)`` through ffi.ReprPrint (fields marked
    ReprOff are left out)."""
    if not self.__chandle__():
        return core.Object.__repr__(self)
    return get_global_func("ffi.ReprPrint")(self)


_KWARGS = []


def _kwargs_sentinel():
    if not _KWARGS:
        _KWARGS.append(get_global_func("ffi.GetKwargsObject")())
    return _KWARGS[0]


def register_object(type_key=None):
    """Bind a Python class (a subclass of :class:`tvm_ffi.Object`) to a type
    registered in C or C++, so that objects of that type come back to Python
    as instances of it.  Reflected fields become properties and reflected
    methods become methods::

        @tvm_ffi.register_object("mylib.IntPair")
        class IntPair(tvm_ffi.Object):
            pass

    Type keys must have a namespace (``"mylib.IntPair"``, not ``"IntPair"``).
    """

    def register(cls, key):
        if not isinstance(key, str):
            raise TypeError(f"type key must be a str, got {key!r}")
        if "." not in key:
            raise ValueError(
                f"type key {key!r} has no namespace; FFI type keys look like 'mylib.{key}'"
            )
        if not (isinstance(cls, type) and issubclass(cls, core.Object)):
            raise TypeError(f"{cls!r} must be a subclass of tvm_ffi.Object")
        try:
            index = core._type_key_to_index(key)
        except (KeyError, ValueError, RuntimeError):
            raise ValueError(f"Cannot find object type index for {key}") from None
        info = _type_info(index)
        _attach_reflection(cls, info)
        info.type_cls = cls
        cls.__tvm_ffi_type_info__ = info
        core._register_object(index, cls)
        return cls

    if isinstance(type_key, str):
        return lambda cls: register(cls, type_key)
    if type_key is None:
        return lambda cls: register(cls, cls.__name__)
    return register(type_key, type_key.__name__)


def _fallback_class_factory(type_index: int):
    """Make and bind the class of a reflected type that no Python class is
    bound to (the extension calls this on first use of such a type).

    The class is named after the type key (``testing.Foo`` gives class
    ``Foo`` of module ``testing``, qualname ``testing.Foo``), derives from
    the class of the type's parent (itself made this way when needed), and
    carries the type's fields as properties and its methods.
    """
    if type_index in _MAKING:  # asked again while making it: no class yet
        return None
    _MAKING.add(type_index)
    try:
        return _make_fallback_class(type_index)
    finally:
        _MAKING.discard(type_index)


_MAKING = set()


def _make_fallback_class(type_index: int):
    info = _type_info(type_index)
    parent_index = info.type_ancestors[-1] if info.type_ancestors else None
    parent = core._class_for_index(parent_index) if parent_index is not None else core.Object
    module, _, name = info.type_key.rpartition(".")
    cls = type(
        name,
        (parent,),
        {
            "__slots__": (),
            "__module__": module,
            "__qualname__": info.type_key,
            "__doc__": f"Auto-generated fallback class for the FFI type {info.type_key} "
            "(no Python class was registered for it).",
        },
    )
    _attach_reflection(cls, info)
    info.type_cls = cls
    cls.__tvm_ffi_type_info__ = info
    core._register_object(type_index, cls)
    return cls


core._fallback_class_factory = _fallback_class_factory
