"""Python imports and type annotations for generated stubs."""
from __future__ import annotations

import dataclasses
from typing import Callable

from ...core import TypeSchema
from ..utils import callable_parts
from .consts import MOD_MAP, TY_MAP_INPUT_DEFAULTS


@dataclasses.dataclass(frozen=True)
class ImportItem:
    """``from <mod> import <short> [as <alias>]``, at run time or only for type checkers."""

    name: str
    type_checking_only: bool = False
    alias: str | None = None

    @property
    def mod(self) -> str:
        mod = self.name.rpartition(".")[0]
        for src, dst in MOD_MAP.items():
            if mod == src or mod.startswith(src + "."):
                return dst + mod[len(src):]
        return mod

    @property
    def short(self) -> str:
        return self.name.rpartition(".")[2]

    def spelling(self) -> str:
        return f"{self.short} as {self.alias}" if self.alias else self.short


def render_type(schema: TypeSchema, ty_map: Callable[[str], str]) -> str:
    """``schema`` as a Python annotation; ``ty_map`` names each origin."""
    origin = schema.origin
    if origin == "Optional":
        return f"{render_type(schema.args[0], ty_map)} | None"
    if origin == "Union":
        return " | ".join(render_type(a, ty_map) for a in schema.args)
    if origin in ("Tuple", "tuple"):
        return f"tuple[{', '.join(render_type(a, ty_map) for a in schema.args)}]"
    if origin == "Callable":
        ret, params = callable_parts(schema)
        head = ty_map("Callable")
        ret_text = render_type(ret, ty_map) if ret is not None else ty_map("Any")
        if params is None:
            return f"{head}[..., {ret_text}]"
        return f"{head}[[{', '.join(render_type(p, ty_map) for p in params)}], {ret_text}]"
    name = ty_map(origin)
    if schema.args:
        return f"{name}[{', '.join(render_type(a, ty_map) for a in schema.args)}]"
    return name


class TypeNamer:
    """A ``ty_map`` callable over a name table that records the import each
    dotted name needs; a name in ``reserved`` (a function of the same block)
    is imported under ``_<name>``."""

    def __init__(
        self,
        table: dict[str, str],
        imports: list[ImportItem],
        reserved: set[str] | frozenset[str] = frozenset(),
        for_input: bool = False,
    ) -> None:
        self.table = table
        self.imports = imports
        self.reserved = reserved
        self.for_input = for_input

    def __call__(self, name: str) -> str:
        target = self.table.get(name, name)
        if self.for_input and name in TY_MAP_INPUT_DEFAULTS:
            target = TY_MAP_INPUT_DEFAULTS[name]
        if "." not in target:
            return target
        short = target.rpartition(".")[2]
        alias = f"_{short}" if short in self.reserved else None
        add_import(self.imports, ImportItem(target, type_checking_only=True, alias=alias))
        return alias or short


def add_import(imports: list[ImportItem], item: ImportItem) -> None:
    if item not in imports:
        imports.append(item)
