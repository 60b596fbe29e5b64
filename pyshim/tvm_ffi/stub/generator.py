"""The target-language generators ``--target`` chooses from."""
from __future__ import annotations

from typing import Any, Callable

_REGISTRY: dict[str, Callable[[], Any]] = {}


def register_generator(name: str, factory: Callable[[], Any]) -> None:
    _REGISTRY[name] = factory


def generator_names() -> list[str]:
    """The names ``--target`` accepts, sorted."""
    _load_builtin()
    return sorted(_REGISTRY)


def get_generator(name: str) -> Any:
    """A new generator for ``name``; ValueError naming the known ones otherwise."""
    _load_builtin()
    if name not in _REGISTRY:
        known = ", ".join(sorted(_REGISTRY))
        raise ValueError(f"Unknown generator {name!r}. Known generators: {known}")
    return _REGISTRY[name]()


def _load_builtin() -> None:
    if "python" not in _REGISTRY:
        from .python_generator import PythonGenerator

        register_generator("python", PythonGenerator)
    if "rust" not in _REGISTRY:
        from .rust_generator import RustGenerator

        register_generator("rust", RustGenerator)
