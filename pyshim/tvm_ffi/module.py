"""Modules: functions loaded from compiled libraries.

``load_module(path)`` opens a shared library and returns a :class:`Module`;
its functions are the library's ``__tvm_ffi_<name>`` symbols::

    mod = tvm_ffi.load_module("build/libadd_one.so")
    mod.add_one(x)                  # or mod["add_one"](x)
    mod.get_function_doc("add_one")

A function taken from a module keeps the library loaded; the library is
closed when nothing uses it any more (unless ``keep_module_alive``, the
default, pins it for the life of the process).
"""
from __future__ import annotations

from os import fspath

from . import core
from .registry import register_object

__all__ = ["Module", "ModulePropertyMask", "load_module", "system_lib"]


def _global(name: str) -> core.Function:
    f = core._get_global_func(name)
    if f is None:  # pragma: no cover - libtvm_ffi always registers them
        raise RuntimeError(f"global function `{name}` is not registered")
    return f


# Looked up once: libtvm_ffi registers them when it loads.
_load_from_file = _global("ffi.ModuleLoadFromFile")
_system_lib = _global("ffi.SystemLib")
_get_function = _global("ffi.ModuleGetFunction")
_implements_function = _global("ffi.ModuleImplementsFunction")
_get_metadata = _global("ffi.ModuleGetFunctionMetadata")
_get_doc = _global("ffi.ModuleGetFunctionDoc")
_get_kind = _global("ffi.ModuleGetKind")
_describe = _global("ffi.ModuleDescribe")
_get_property_mask = _global("ffi.ModuleGetPropertyMask")
_inspect_source = _global("ffi.ModuleInspectSource")
_get_write_formats = _global("ffi.ModuleGetWriteFormats")
_write_to_file = _global("ffi.ModuleWriteToFile")
_import_module = _global("ffi.ModuleImportModule")
_clear_imports = _global("ffi.ModuleClearImports")
_globals_add = _global("ffi.ModuleGlobalsAdd")


# Bits of Module.get_property_mask(); ModulePropertyMask names them (an
# IntEnum made on first use, so that importing tvm_ffi does not import enum).
_BINARY_SERIALIZABLE = 0b001
_RUNNABLE = 0b010
_COMPILATION_EXPORTABLE = 0b100


def _make_property_mask():
    from enum import IntEnum

    class ModulePropertyMask(IntEnum):
        """Bits of :meth:`Module.get_property_mask`."""

        BINARY_SERIALIZABLE = _BINARY_SERIALIZABLE
        RUNNABLE = _RUNNABLE
        COMPILATION_EXPORTABLE = _COMPILATION_EXPORTABLE

    ModulePropertyMask.__module__ = __name__
    globals()["ModulePropertyMask"] = ModulePropertyMask
    return ModulePropertyMask


def __getattr__(name):
    if name == "ModulePropertyMask":
        return _make_property_mask()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@register_object("ffi.Module")
class Module(core.Object):
    """A loaded library (``ffi.Module``).

    Its functions are reachable as attributes (``mod.add_one``, cached on
    the instance), by item (``mod["add_one"]``) or with
    :meth:`get_function`; a missing one raises AttributeError naming the
    function and the library.  ``"add_one" in mod`` tells whether it exists.
    """

    # __dict__ holds the functions already looked up.
    __slots__ = ("__dict__",)

    entry_name: ClassVar[str] = "main"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("Module cannot be constructed directly: use tvm_ffi.load_module(path)")

    @property
    def kind(self) -> str:
        """The module's kind: ``"library"`` for shared and system libraries."""
        return _get_kind(self)

    @property
    def imports(self) -> List["Module"]:
        """The modules this one imports (searched by ``query_imports``)."""
        return list(self.imports_)

    def get_function(self, name: str, query_imports: bool = False) -> core.Function:
        """The function ``name`` (symbol ``__tvm_ffi_<name>``); with
        ``query_imports`` the imports are searched too.  AttributeError when
        there is none."""
        if not isinstance(name, str):
            raise TypeError(f"function name must be a str, got {type(name).__name__}")
        f = _get_function(self, name, query_imports)
        if f is None:
            raise AttributeError(f"Module has no function '{name}' ({_describe(self)})")
        return f

    def implements_function(self, name: str, query_imports: bool = False) -> bool:
        """Whether the module (or, with ``query_imports``, an import) has ``name``."""
        return bool(_implements_function(self, name, query_imports))

    def get_function_metadata(
        self, name: str, query_imports: bool = False
    ) -> Optional[Dict[str, Any]]:
        """The parsed JSON of ``__tvm_ffi__metadata_<name>`` (its ``type_schema``
        key describes the signature), or None when the library has none."""
        text = _get_metadata(self, name, query_imports)
        if text is None:
            return None
        import json

        return json.loads(text)

    def get_function_doc(self, name: str, query_imports: bool = False) -> Optional[str]:
        """The docstring of ``__tvm_ffi__doc_<name>``, or None."""
        text = _get_doc(self, name, query_imports)
        return text if text else None

    def import_module(self, module: "Module") -> None:
        """Adds ``module`` to the imports; RuntimeError if that makes a cycle."""
        _import_module(self, module)

    def clear_imports(self) -> None:
        _clear_imports(self)

    def inspect_source(self, fmt: str = "") -> str:
        return _inspect_source(self, fmt)

    def get_write_formats(self) -> Sequence[str]:
        return list(_get_write_formats(self))

    def write_to_file(self, file_name: str, fmt: str = "") -> None:
        _write_to_file(self, file_name, fmt)

    def get_property_mask(self) -> int:
        return int(_get_property_mask(self))

    def is_binary_serializable(self) -> bool:
        return bool(self.get_property_mask() & _BINARY_SERIALIZABLE)

    def is_runnable(self) -> bool:
        return bool(self.get_property_mask() & _RUNNABLE)

    def is_compilation_exportable(self) -> bool:
        return bool(self.get_property_mask() & _COMPILATION_EXPORTABLE)

    def __getattr__(self, name: str) -> core.Function:
        # Only reached when normal lookup fails; dunder names are never functions.
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        f = self.get_function(name)
        setattr(self, name, f)
        return f

    def __getitem__(self, name: str) -> core.Function:
        if not isinstance(name, str):
            raise TypeError(f"function name must be a str, got {type(name).__name__}")
        return self.get_function(name)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.implements_function(name)

    def __call__(self, *args: Any) -> Any:
        """Calls the entry function ``main``."""
        return self.get_function(self.entry_name)(*args)

    def __repr__(self) -> str:
        return f"<tvm_ffi.Module {_describe(self)}>"


def system_lib(symbol_prefix: str = "") -> Module:
    """The module of the symbols registered with
    ``TVMFFIEnvModRegisterSystemLibSymbol``; ``mod["f"]`` looks for
    ``__tvm_ffi_<symbol_prefix>f``, then ``__tvm_ffi_f``.  One per prefix."""
    return _system_lib(symbol_prefix)


def load_module(path: Union[str, "PathLike[str]"], keep_module_alive: bool = True) -> Module:
    """Loads a compiled library (``.so``) as a :class:`Module`.

    With ``keep_module_alive`` (the default) the library stays loaded until
    the process ends, so objects it made can never outlive its code.  With
    False it is closed once neither the module nor any of its functions is
    referenced.  RuntimeError naming the path when it cannot be loaded.
    """
    mod = _load_from_file(fspath(path))
    if keep_module_alive:
        _globals_add(mod)
    return mod
