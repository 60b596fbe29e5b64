"""Marker spellings and fixed tables of the stub generator (no Python-typing facts here)."""
from __future__ import annotations

import dataclasses


@dataclasses.dataclass(frozen=True)
class MarkerSyntax:
    """The markers of one comment syntax: ``<comment> tvm-ffi-stubgen(<name>)...``."""

    comment: str

    @property
    def prefix(self) -> str:
        return f"{self.comment} tvm-ffi-stubgen("

    @property
    def begin(self) -> str:
        return f"{self.prefix}begin):"

    @property
    def end(self) -> str:
        return f"{self.prefix}end)"

    @property
    def ty_map(self) -> str:
        return self.directive("ty-map")

    @property
    def import_object(self) -> str:
        return self.directive("import-object")

    @property
    def skip_file(self) -> str:
        return f"{self.prefix}skip-file)"

    def directive(self, name: str) -> str:
        """The marker of the one-line directive ``name``."""
        return f"{self.prefix}{name}):"


PYTHON_SYNTAX = MarkerSyntax(comment="#")
RUST_SYNTAX = MarkerSyntax(comment="//")

# File suffix -> the markers read inside such a file.
SYNTAX_BY_EXT: dict[str, MarkerSyntax] = {
    ".py": PYTHON_SYNTAX,
    ".pyi": PYTHON_SYNTAX,
    ".rs": RUST_SYNTAX,
}

# Directives the pipeline itself reads; a generator declares only others.
PIPELINE_DIRECTIVE_KINDS: frozenset[str] = frozenset({"ty-map", "prefix", "skip"})

# Block kinds a begin marker may name (None: the lines between blocks).
BLOCK_KINDS = ("global", "object", "import-section", "export", "__all__")

TERM_RESET = "\033[0m"
TERM_RED = "\033[31m"
TERM_GREEN = "\033[32m"
TERM_YELLOW = "\033[33m"
TERM_CYAN = "\033[36m"

# Types every binding already has: no generated class for them.
BUILTIN_TYPE_KEYS = frozenset({
    "ffi.BigInt",
    "ffi.Bytes",
    "ffi.Error",
    "ffi.Function",
    "ffi.Object",
    "ffi.OpaquePyObject",
    "ffi.SmallBytes",
    "ffi.SmallStr",
    "ffi.String",
    "ffi.Tensor",
})
