"""Rust names, `use` paths, type spelling, module paths and the token view ``--check`` compares."""
from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Callable, Iterable
from pathlib import Path

from ...core import TypeSchema
from . import consts as RC
from .directives import Directives


def _to_path(name: str) -> str:
    """``ffi.String`` -> ``tvm_ffi::String``; a ``::`` path or a bare name is kept."""
    if "::" in name or "." not in name:
        return name
    parts = name.split(".")
    if parts[0] == "ffi":
        parts[0] = "tvm_ffi"
    return "::".join(parts)


@dataclasses.dataclass(frozen=True)
class RustUse:
    """One ``use`` item, by its full path (a dotted FFI name is turned into one)."""

    path: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "path", _to_path(self.path.strip()))

    @property
    def leaf(self) -> str:
        return self.path.rsplit("::", 1)[-1]

    def as_use_line(self) -> str:
        """``use <path>;``, or ``""`` for a bare name (a primitive or a local item)."""
        return f"use {self.path};" if "::" in self.path else ""


@dataclasses.dataclass
class RustImports:
    """What one file's blocks need: the ``use`` items (first come, first kept), the
    file's directives, and the header-only stand-ins of builtin ancestors
    (type key -> the struct its ``base`` slot holds)."""

    items: list[RustUse] = dataclasses.field(default_factory=list)
    directives: Directives = dataclasses.field(default_factory=Directives)
    builtin_mirrors: dict[str, str] = dataclasses.field(default_factory=dict)

    def record(self, name: str) -> str:
        """The spelling of ``name`` in the file: its leaf once imported; the full path when
        another path already took that leaf (then nothing is recorded)."""
        item = RustUse(name)
        if "::" not in item.path:
            return item.path
        for known in self.items:
            if known.leaf == item.leaf:
                return item.leaf if known.path == item.path else item.path
        self.items.append(item)
        return item.leaf


def rust_ident(name: str) -> str:
    """A reflected name as a Rust identifier: C++ member (``x_``) and dunder (``__x__``)
    decorations dropped, keywords raw (``r#type``) or suffixed (``self_``), and the
    generated ``base`` slot kept free."""
    core = name
    if len(name) > 4 and name.startswith("__") and name.endswith("__") and name.strip("_"):
        core = name[2:-2]
    elif len(name) > 1 and name.endswith("_") and not name.endswith("__") and name.strip("_"):
        core = name[:-1]
    if core in RC.RUST_NO_RAW or core in RC.RESERVED_MEMBERS:
        return core + "_"
    if core in RC.RUST_KEYWORDS:
        return "r#" + core
    return core


TypeRenderer = Callable[[str, "str | None"], "str | None"]


def render_rust_type(schema: TypeSchema, ty_render: TypeRenderer) -> str | None:
    """The Rust spelling of ``schema`` in a value position, or None when some part of it
    has no Rust counterpart. ``ty_render(origin, type_key)`` spells one leaf."""
    origin = schema.origin
    if origin == "Optional":
        if not schema.args:
            return None
        inner = render_rust_type(schema.args[0], ty_render)
        return None if inner is None else f"Option<{inner}>"
    if origin in RC.GENERIC_ARITY:
        head = ty_render(origin, schema.type_key)
        if head is None:
            return None
        args = list(schema.args)[: RC.GENERIC_ARITY[origin]]
        while len(args) < RC.GENERIC_ARITY[origin]:
            args.append(TypeSchema("Any"))
        spelled = [render_rust_type(arg, ty_render) for arg in args]
        if any(s is None for s in spelled):
            return None
        return f"{head}<{', '.join(spelled)}>"  # type: ignore[arg-type]
    return ty_render(origin, schema.type_key)


@functools.lru_cache(maxsize=None)
def rust_module_path(path: Path) -> tuple[str, ...]:
    """The module a ``.rs`` file defines, from where it sits under its crate's ``src``:
    ``src/lib.rs`` is ``crate``, ``src/ir/mod.rs`` and ``src/ir.rs`` are ``crate::ir``."""
    path = Path(path).resolve()
    crate = next((d for d in path.parents if (d / "Cargo.toml").is_file()), None)
    if crate is None:
        raise ValueError(f"{path} is in no Cargo crate (no Cargo.toml above it)")
    src = crate / "src"
    try:
        rel = path.relative_to(src)
    except ValueError:
        raise ValueError(f"{path} is not under {src}, so it names no module") from None
    parts = list(rel.parts)
    last = Path(parts.pop()).stem
    if not (last == "mod" or (not parts and last in ("lib", "main"))):
        parts.append(last)
    return ("crate", *(rust_ident(p) if p not in RC.RESERVED_MEMBERS else p for p in parts))


_TOKEN = re.compile(
    r"""(?:::)?(?:r\#)?[A-Za-z_][A-Za-z0-9_]*(?:::(?:r\#)?[A-Za-z_][A-Za-z0-9_]*)*  # a path
      | \d[\w.]*            # a number
      | "(?:\\.|[^"\\])*"   # a string
      | ->|=>|::|\S         # punctuation
    """,
    re.VERBOSE,
)
_USE = re.compile(r"\buse\s+[^;]*;")


def check_tokens(lines: Iterable[str]) -> list[str]:
    """What a binding says, not how it is spelled: doc comments and ``use`` items dropped,
    each path cut to its last segment, layout and trailing commas ignored."""
    text = "\n".join(line for line in lines if not line.lstrip().startswith(("///", "//!")))
    text = _USE.sub(" ", text)
    out: list[str] = []
    for token in _TOKEN.findall(text):
        if "::" in token and token != "::":
            token = token.rsplit("::", 1)[-1]
        if token in ("}", ")", "]") and out and out[-1] == ",":
            out.pop()
        out.append(token)
    return out
