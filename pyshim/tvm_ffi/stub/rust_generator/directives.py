"""The Rust generator's one-line directives: how a file narrows what the registry says.

- ``field: <type_key>.<field> -> <RustType>``: the field's Rust type;
- ``nullable: <type_key>.<field>``: an object field may be null (``Option<T>``);
- ``enum: <type_key>.<field> -> Name(i32) { A=0, B=1 }``: an integer field is a newtype;
- ``opaque: <type_key>``: never mirror the type by value;
- ``upcast: <type_key> -> <RustType>``: one more typed view the wrapper converts into;
- ``custom-new: <type_key>``: ``new`` is hand-written; the generated one is ``from_fields``.
"""
from __future__ import annotations

import dataclasses
import re

from . import consts as RC

_KEY = r"[A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*"
_TYPE = r"\S+"
_FIELD_RE = re.compile(rf"^({_KEY})\.([A-Za-z_]\w*)$")
_ENUM_RE = re.compile(r"^([A-Za-z_]\w*)\s*\(\s*(\w+)\s*\)\s*(?:\{(.*)\})?$", re.DOTALL)
_VARIANT_RE = re.compile(r"^([A-Za-z_]\w*)\s*=\s*(-?\d+)$")


@dataclasses.dataclass(frozen=True)
class EnumSpec:
    """A newtype over an integer: its name, representation and named values."""

    name: str
    repr: str
    variants: tuple[tuple[str, int], ...]


def _bad(name: str, payload: str, lineno: int, expected: str) -> ValueError:
    return ValueError(
        f"Invalid `{name}` directive at line {lineno}: {payload.strip()!r} (expected `{expected}`)"
    )


@dataclasses.dataclass
class Directives:
    field_types: dict[str, str] = dataclasses.field(default_factory=dict)
    nullable: set[str] = dataclasses.field(default_factory=set)
    enums: dict[str, EnumSpec] = dataclasses.field(default_factory=dict)
    opaque: set[str] = dataclasses.field(default_factory=set)
    upcasts: dict[str, list[str]] = dataclasses.field(default_factory=dict)
    custom_new: set[str] = dataclasses.field(default_factory=set)

    def add(self, name: str, payload: str, lineno: int) -> None:
        """Parses one directive; ValueError naming the line and the expected form otherwise."""
        handler = {
            "field": self._field,
            "nullable": self._nullable,
            "enum": self._enum,
            "opaque": self._opaque,
            "upcast": self._upcast,
            "custom-new": self._custom_new,
        }.get(name)
        if handler is None:
            raise ValueError(f"Unknown directive `{name}` at line {lineno}")
        handler(payload, lineno)

    @staticmethod
    def _field_key(name: str, text: str, payload: str, lineno: int, expected: str) -> str:
        """``<type_key>.<field>``, the type key itself dotted (``ns.Name``)."""
        if not _FIELD_RE.match(text) or "." not in text.rpartition(".")[0]:
            raise _bad(name, payload, lineno, expected)
        return text

    @staticmethod
    def _arrow(name: str, payload: str, lineno: int, expected: str) -> tuple[str, str]:
        lhs, sep, rhs = payload.partition("->")
        if not sep or not rhs.strip() or "->" in rhs:
            raise _bad(name, payload, lineno, expected)
        return lhs.strip(), rhs.strip()

    def _field(self, payload: str, lineno: int) -> None:
        expected = "<type_key>.<field> -> <RustType>"
        lhs, rhs = self._arrow("field", payload, lineno, expected)
        if not re.fullmatch(_TYPE, rhs):
            raise _bad("field", payload, lineno, expected)
        self.field_types[self._field_key("field", lhs, payload, lineno, expected)] = rhs

    def _nullable(self, payload: str, lineno: int) -> None:
        expected = "<type_key>.<field>"
        self.nullable.add(self._field_key("nullable", payload.strip(), payload, lineno, expected))

    def _enum(self, payload: str, lineno: int) -> None:
        expected = "<type_key>.<field> -> Name(i32) { A=0, B=1 }"
        lhs, rhs = self._arrow("enum", payload, lineno, expected)
        key = self._field_key("enum", lhs, payload, lineno, expected)
        match = _ENUM_RE.match(rhs)
        if match is None or match.group(2) not in RC.ENUM_REPRS:
            raise _bad("enum", payload, lineno, expected)
        variants = []
        body = (match.group(3) or "").strip()
        for part in filter(None, (p.strip() for p in body.split(","))):
            variant = _VARIANT_RE.match(part)
            if variant is None:
                raise _bad("enum", payload, lineno, expected)
            variants.append((variant.group(1), int(variant.group(2))))
        self.enums[key] = EnumSpec(match.group(1), match.group(2), tuple(variants))

    def _opaque(self, payload: str, lineno: int) -> None:
        key = payload.strip()
        if not re.fullmatch(_KEY, key):
            raise _bad("opaque", payload, lineno, "<type_key>")
        self.opaque.add(key)

    def _upcast(self, payload: str, lineno: int) -> None:
        expected = "<type_key> -> <RustType>"
        lhs, rhs = self._arrow("upcast", payload, lineno, expected)
        if not re.fullmatch(_KEY, lhs):
            raise _bad("upcast", payload, lineno, expected)
        if not re.fullmatch(_TYPE, rhs):
            raise _bad("upcast", payload, lineno, expected)
        self.upcasts.setdefault(lhs, []).append(rhs)

    def _custom_new(self, payload: str, lineno: int) -> None:
        key = payload.strip()
        if not re.fullmatch(_KEY, key):
            raise _bad("custom-new", payload, lineno, "<type_key>")
        self.custom_new.add(key)
