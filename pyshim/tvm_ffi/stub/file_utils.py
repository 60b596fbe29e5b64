"""Reading a source file into stub blocks and writing it back."""
from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from . import consts as C

# `name):` then the payload, right after the marker prefix.
_DIRECTIVE = re.compile(r"([^\s()]+)\):(.*)$")


def syntax_for(path: Path) -> C.MarkerSyntax:
    """The marker syntax of a file, by its suffix (``#`` markers when unknown)."""
    return C.SYNTAX_BY_EXT.get(Path(path).suffix.lower(), C.PYTHON_SYNTAX)


@dataclasses.dataclass
class CodeBlock:
    """A run of lines of a file: a stub block (``kind`` set), a one-line
    directive (``kind == "directive"``, ``param == (name, payload)``) or the
    plain lines between them (``kind is None``).

    ``param``: ``(prefix, module)`` for ``global``, the type key for
    ``object``, the module for ``export``, ``""`` otherwise.
    """

    kind: str | None
    param: Any
    lineno_start: int
    lineno_end: int | None
    lines: list[str] = dataclasses.field(default_factory=list)

    @property
    def indent(self) -> int:
        """Columns before the first line's text (where generated lines start)."""
        if not self.lines:
            return 0
        first = self.lines[0]
        return len(first) - len(first.lstrip(" "))

    @staticmethod
    def from_begin_line(lineno: int, line: str, syntax: C.MarkerSyntax) -> CodeBlock:
        """Parses a marker line: a ``begin`` marker opens a block (its
        ``lineno_end`` stays ``None``); a directive is a complete block."""
        text = line.strip()
        if text.startswith(syntax.begin):
            return CodeBlock._from_spec(lineno, text[len(syntax.begin):].strip(), line)
        if text.startswith(syntax.prefix):
            match = _DIRECTIVE.match(text[len(syntax.prefix):])
            if match is not None:
                name, payload = match.group(1), match.group(2).strip()
                return CodeBlock("directive", (name, payload), lineno, lineno, [])
        raise ValueError(f"Unknown stub type at line {lineno}: {line.strip()!r}")

    @staticmethod
    def _from_spec(lineno: int, spec: str, line: str) -> CodeBlock:
        kind, _, rest = spec.partition("/")
        if kind == "global" and rest:
            prefix, _, module = rest.partition("@")
            return CodeBlock("global", (prefix.strip(), module.strip()), lineno, None, [])
        if kind == "object" and rest:
            return CodeBlock("object", rest.strip(), lineno, None, [])
        if kind == "export" and rest:
            return CodeBlock("export", rest.strip(), lineno, None, [])
        if spec in ("import-section", "import"):
            return CodeBlock("import-section", "", lineno, None, [])
        if spec == "__all__":
            return CodeBlock("__all__", "", lineno, None, [])
        raise ValueError(f"Unknown stub type at line {lineno}: {line.strip()!r}")


@dataclasses.dataclass
class FileInfo:
    """A file as blocks; joining every block's lines gives the file back."""

    path: Path
    lines: tuple[str, ...]
    code_blocks: list[CodeBlock]
    syntax: C.MarkerSyntax = C.PYTHON_SYNTAX

    @staticmethod
    def from_file(file: Path, include_empty: bool = False) -> FileInfo | None:
        """Reads ``file``; None when it opts out (``skip-file``) or, unless
        ``include_empty``, has no marker at all."""
        path = Path(file).resolve()
        syntax = syntax_for(path)
        lines = tuple(path.read_text(encoding="utf-8").splitlines())
        if any(line.strip().startswith(syntax.skip_file) for line in lines):
            return None
        blocks = _parse_blocks(lines, syntax)
        if not include_empty and all(block.kind is None for block in blocks):
            return None
        return FileInfo(path=path, lines=lines, code_blocks=blocks, syntax=syntax)

    def text(self) -> str:
        """The file's text as the blocks now stand."""
        out = [line for block in self.code_blocks for line in block.lines]
        return "\n".join(out) + "\n" if out else ""

    def update(self, verbose: bool, dry_run: bool) -> bool:
        """Writes the blocks back when they changed the file (not when
        ``dry_run``); returns whether they did."""
        new_lines = tuple(line for block in self.code_blocks for line in block.lines)
        if new_lines == self.lines:
            return False
        if verbose:
            print(f"{C.TERM_GREEN}[Updated] {self.path}{C.TERM_RESET}")
        if not dry_run:
            self.path.write_text(self.text(), encoding="utf-8")
            self.lines = new_lines
        return True

    def reload(self) -> None:
        """Reads the file again from disk (after something appended to it)."""
        fresh = FileInfo.from_file(self.path, include_empty=True)
        if fresh is None:
            raise ValueError(f"{self.path} is marked skip-file")
        self.lines = fresh.lines
        self.code_blocks = fresh.code_blocks
        self.syntax = fresh.syntax


def _parse_blocks(lines: tuple[str, ...], syntax: C.MarkerSyntax) -> list[CodeBlock]:
    blocks: list[CodeBlock] = []
    plain: CodeBlock | None = None
    open_block: CodeBlock | None = None
    for lineno, line in enumerate(lines, start=1):
        text = line.strip()
        if open_block is not None:
            if text.startswith(syntax.begin):
                raise ValueError(
                    f"Nested stub not permitted at line {lineno} "
                    f"(block opened at line {open_block.lineno_start})"
                )
            open_block.lines.append(line)
            if text.startswith(syntax.end):
                open_block.lineno_end = lineno
                blocks.append(open_block)
                open_block = None
            continue
        if text.startswith(syntax.end):
            raise ValueError(f"Unmatched `end` marker at line {lineno}")
        if text.startswith(syntax.prefix):
            block = CodeBlock.from_begin_line(lineno, line, syntax)
            block.lines.append(line)
            plain = None
            if block.kind == "directive":
                blocks.append(block)
            else:
                open_block = block
            continue
        if plain is None:
            plain = CodeBlock(None, "", lineno, lineno, [])
            blocks.append(plain)
        plain.lines.append(line)
        plain.lineno_end = lineno
    if open_block is not None:
        raise ValueError(f"Unclosed stub block starting at line {open_block.lineno_start}")
    return blocks


def collect_files(paths: Iterable[Path], exts: Iterable[str]) -> list[FileInfo]:
    """Every file with markers: a named file always, a folder's files (recursively,
    sorted) when their suffix is one of ``exts`` (compared without case)."""
    wanted = {ext.lower() for ext in exts}
    seen: set[Path] = set()
    out: list[FileInfo] = []
    for path in paths:
        path = Path(path)
        if path.is_dir():
            candidates = sorted(
                p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in wanted
            )
        elif path.is_file():
            candidates = [path]
        else:
            raise FileNotFoundError(f"no such file or folder: {path}")
        for candidate in candidates:
            resolved = candidate.resolve()
            if resolved in seen:
                continue
            seen.add(resolved)
            info = FileInfo.from_file(resolved)
            if info is not None:
                out.append(info)
    return out
