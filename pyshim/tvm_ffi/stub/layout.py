"""Whether a reflected type's native layout is fully known: a pure function of its byte facts.

A type is *complete* when every byte it adds after its parent (``[parent
total_size, own total_size)``) is a reflected field or padding that the
type's alignment forces at the end or before a field; a binding can then
mirror it by value. Otherwise it is *opaque*, with one reason:

- ``no-mirror``: the target has no mirror for it (asked by the caller);
- ``parent-opaque``: an ancestor is opaque;
- ``layout-unknown``: no own type metadata, or a field without byte facts;
- ``field-overlap``: a field starts inside bytes already taken, or ends past the size;
- ``uncovered-bytes``: bytes no field explains (a hidden member, a vptr);
- ``unrenderable-field``: the caller cannot spell a field's type;
- ``by-directive``: the caller asked for it to stay opaque.
"""
from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Collection, Mapping
from pathlib import Path
from typing import Any

from .utils import NamedTypeSchema, ObjectInfo

OBJECT_HEADER_SIZE = 24  # sizeof(TVMFFIObject)
OBJECT_HEADER_ALIGNMENT = 8


@dataclasses.dataclass(frozen=True)
class ByteRange:
    """The bytes ``[start, end)`` of an object."""

    start: int
    end: int

    def __str__(self) -> str:
        return f"[{self.start}, {self.end})"


@dataclasses.dataclass(frozen=True)
class FieldBytes:
    name: str
    offset: int
    size: int
    alignment: int


@dataclasses.dataclass
class Verdict:
    """The classification of one type, with the evidence it was made from."""

    type_key: str
    verdict: str  # "complete" or "opaque"
    reason: str | None
    detail: str
    parent: str | None
    ancestors: list[str]
    total_size: int | None
    is_final: bool | None
    own_bytes: ByteRange | None
    alignment: int | None
    fields: list[FieldBytes] = dataclasses.field(default_factory=list)
    uncovered: list[ByteRange] = dataclasses.field(default_factory=list)
    padding: list[ByteRange] = dataclasses.field(default_factory=list)

    @property
    def is_complete(self) -> bool:
        return self.verdict == "complete"


def _ranges(ranges: list[ByteRange]) -> str:
    return ", ".join(str(r) for r in ranges)


def _align_up(value: int, alignment: int) -> int:
    return -(-value // alignment) * alignment if alignment > 0 else value


def classify(
    infos: Mapping[str, ObjectInfo],
    forced_opaque: Collection[str] = (),
    unmirrored: Collection[str] = (),
    field_renderable: Callable[[NamedTypeSchema], bool] | None = None,
) -> dict[str, Verdict]:
    """A verdict for every type of ``infos`` (any order; each ancestor must be
    present, KeyError naming the missing one otherwise)."""
    verdicts: dict[str, Verdict] = {}

    def visit(key: str, child: str | None) -> Verdict:
        if key not in verdicts:
            if key not in infos:
                raise KeyError(
                    f"type {key!r} (an ancestor of {child!r}) is not among the types given"
                )
            info = infos[key]
            parent = visit(info.parent_type_key, key) if info.parent_type_key else None
            verdicts[key] = _classify_one(
                key, info, parent, key in forced_opaque, key in unmirrored, field_renderable
            )
        return verdicts[key]

    for key in infos:
        visit(key, None)
    return {key: verdicts[key] for key in infos}


def _classify_one(
    key: str,
    info: ObjectInfo,
    parent: Verdict | None,
    forced: bool,
    unmirrored: bool,
    field_renderable: Callable[[NamedTypeSchema], bool] | None,
) -> Verdict:
    v = Verdict(
        type_key=key, verdict="opaque", reason=None, detail="",
        parent=info.parent_type_key, ancestors=list(info.ancestors),
        total_size=info.total_size, is_final=info.is_final, own_bytes=None, alignment=None,
    )
    if unmirrored:
        v.reason, v.detail = "no-mirror", f"{key!r} has no mirror in the target"
        return v
    if parent is None:
        v.verdict, v.alignment = "complete", OBJECT_HEADER_ALIGNMENT
        v.own_bytes = ByteRange(OBJECT_HEADER_SIZE, OBJECT_HEADER_SIZE)
        v.detail = f"the root: the {OBJECT_HEADER_SIZE}-byte object header, nothing of its own"
        return v
    # Evidence first: it is recorded even when a parent decides the verdict.
    missing = [f.name for f in info.fields if None in (f.offset, f.size, f.alignment)]
    fields = sorted(
        (
            FieldBytes(f.name, f.offset, f.size, f.alignment)
            for f in info.fields
            if f.name not in missing
        ),
        key=lambda f: f.offset,
    )
    v.fields = fields
    start = parent.total_size
    if start is None and parent.parent is None:
        start = OBJECT_HEADER_SIZE  # the root is the header, whether or not it says so
    known = info.total_size is not None and start is not None and not missing
    if known:
        v.own_bytes = ByteRange(start, info.total_size)
        v.alignment = max([parent.alignment or 1, *(f.alignment for f in fields)])
    if not parent.is_complete:
        v.reason = "parent-opaque"
        v.detail = f"parent {parent.type_key!r} is opaque ({parent.reason})"
        return v
    if info.total_size is None:
        v.reason, v.detail = "layout-unknown", f"{key!r} has no own type metadata (no total size)"
        return v
    if missing:
        v.reason = "layout-unknown"
        v.detail = f"field {missing[0]!r} has no offset, size or alignment"
        return v
    end = info.total_size
    cursor = start
    for f in fields:
        where = ByteRange(f.offset, f.offset + f.size)
        if f.offset < cursor:
            v.reason = "field-overlap"
            v.detail = f"field {f.name!r} at {where} starts before byte {cursor}"
            return v
        if where.end > end:
            v.reason = "field-overlap"
            v.detail = f"field {f.name!r} at {where} ends past total_size {end}"
            return v
        if f.offset > cursor:
            gap = ByteRange(cursor, f.offset)
            (v.padding if _align_up(cursor, f.alignment) == f.offset else v.uncovered).append(gap)
        cursor = where.end
    if cursor < end:
        gap = ByteRange(cursor, end)
        (v.padding if _align_up(cursor, v.alignment) == end else v.uncovered).append(gap)
    if v.uncovered:
        v.reason = "uncovered-bytes"
        v.detail = f"own bytes {v.own_bytes}: no field covers {_ranges(v.uncovered)}"
        return v
    if field_renderable is not None:
        for f in sorted(info.fields, key=lambda f: f.offset):
            if not field_renderable(f):
                v.reason = "unrenderable-field"
                v.detail = f"the type of field {f.name!r} cannot be spelled"
                return v
    if forced:
        v.reason, v.detail = "by-directive", f"{key!r} is kept opaque by a directive"
        return v
    v.verdict = "complete"
    v.detail = f"own bytes {v.own_bytes} covered by fields" + (
        f"; padding {_ranges(v.padding)}" if v.padding else ""
    )
    return v


def coverage_report(verdicts: Mapping[str, Verdict]) -> dict[str, dict[str, Any]]:
    """The verdicts as JSON-ready dicts, by sorted type key."""
    def pair(r: ByteRange) -> list[int]:
        return [r.start, r.end]

    return {
        key: {
            "verdict": v.verdict,
            "reason": v.reason,
            "detail": v.detail,
            "parent": v.parent,
            "ancestors": v.ancestors,
            "total_size": v.total_size,
            "is_final": v.is_final,
            "own_bytes": pair(v.own_bytes) if v.own_bytes is not None else None,
            "fields": [dataclasses.asdict(f) for f in v.fields],
            "uncovered": [pair(r) for r in v.uncovered],
            "padding": [pair(r) for r in v.padding],
        }
        for key, v in sorted(verdicts.items())
    }


def write_coverage_report(path: Path, verdicts: Mapping[str, Verdict]) -> None:
    Path(path).write_text(json.dumps(coverage_report(verdicts), indent=2) + "\n", encoding="utf-8")
