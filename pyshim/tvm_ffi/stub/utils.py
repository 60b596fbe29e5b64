"""What the generator knows about a function or a type, independent of the target language."""
from __future__ import annotations

import dataclasses
import json
from typing import Any

from ..core import MISSING, TypeSchema, _lookup_type_attr


@dataclasses.dataclass
class InitConfig:
    """``--init-*`` flags: the package, its shared library target, the prefix to generate."""

    pkg: str
    shared_target: str
    prefix: str


@dataclasses.dataclass
class Options:
    """The command line of one ``tvm-ffi-stubgen`` run."""

    imports: list[str] = dataclasses.field(default_factory=list)
    dlls: list[str] = dataclasses.field(default_factory=list)
    init: InitConfig | None = None
    indent: int = 4
    files: list[str] = dataclasses.field(default_factory=list)
    verbose: bool = False
    dry_run: bool = False
    check: bool = False
    target: str = "python"
    coverage_out: str | None = None


class NamedTypeSchema(TypeSchema):
    """A schema with the name it belongs to (a function, field or parameter),
    plus a field's facts where the registry has them (None/MISSING otherwise)."""

    def __init__(
        self,
        name: str,
        schema: TypeSchema,
        *,
        size: int | None = None,
        alignment: int | None = None,
        offset: int | None = None,
        default: Any = MISSING,
        default_is_factory: bool = False,
        structural_eq: str | None = None,
        frozen: bool = False,
    ) -> None:
        super().__init__(
            schema.origin, schema.args, named_args=schema.named_args, type_key=schema.type_key
        )
        self.name = name
        self.size = size
        self.alignment = alignment
        self.offset = offset
        self.default = default
        self.default_is_factory = default_is_factory
        self.structural_eq = structural_eq
        self.frozen = frozen


def callable_parts(schema: TypeSchema) -> tuple[TypeSchema | None, tuple[TypeSchema, ...] | None]:
    """(result, parameters) of a ``Callable`` schema; None where unknown."""
    if schema.origin != "Callable":
        raise ValueError(f"expected a Callable schema, got {schema.repr()!r}")
    if schema.named_args is not None:
        ret = schema.named_args.get("return")
        params = schema.named_args.get("params")
        return (ret[0] if ret else None), (tuple(params) if params is not None else None)
    if not schema.args:
        return None, None
    if len(schema.args) == 1:
        return schema.args[0], None
    return schema.args[0], tuple(schema.args[1:])


@dataclasses.dataclass
class FuncInfo:
    """A global function or a method; ``is_member``: its first parameter is ``self``."""

    schema: NamedTypeSchema
    is_member: bool

    @staticmethod
    def from_schema(name: str, schema: TypeSchema, is_member: bool = False) -> FuncInfo:
        return FuncInfo(NamedTypeSchema(name, schema), is_member)

    @property
    def short_name(self) -> str:
        return self.schema.name.rsplit(".", 1)[-1]


@dataclasses.dataclass
class InitFieldInfo:
    """One parameter of a type's generated ``__init__``."""

    name: str
    schema: NamedTypeSchema
    kw_only: bool
    has_default: bool


@dataclasses.dataclass
class ObjectInfo:
    """A reflected type: its own fields and methods, and where it sits in the hierarchy."""

    fields: list[NamedTypeSchema]
    methods: list[FuncInfo]
    type_key: str | None = None
    parent_type_key: str | None = None
    init_fields: list[InitFieldInfo] = dataclasses.field(default_factory=list)
    has_init: bool = False
    ancestors: list[str] = dataclasses.field(default_factory=list)
    total_size: int | None = None
    is_final: bool | None = None

    def has_overloaded_methods(self) -> bool:
        names = [m.short_name for m in self.methods]
        return len(names) != len(set(names))

    @staticmethod
    def from_type_info(type_info: Any) -> ObjectInfo:
        """Reads a ``core.TypeInfo`` (fields, methods, ancestors)."""
        chain = []
        parent = type_info.parent_type_info
        while parent is not None:
            chain.append(parent)
            parent = parent.parent_type_info
        chain.reverse()
        fields = [_field_schema(f) for f in type_info.fields]
        methods = []
        for m in type_info.methods:
            if m.name == "__ffi_init__":  # the constructor: rendered as __init__/__ffi_init__
                continue
            schema = _schema_from_metadata(getattr(m, "metadata", None) or {})
            if schema is None or schema.origin != "Callable":
                schema = TypeSchema("Callable")
            methods.append(FuncInfo(NamedTypeSchema(m.name, schema), is_member=not m.is_static))
        init_fields = []
        for info in [*chain, type_info]:
            for f in info.fields:
                if getattr(f, "c_init", True):
                    init_fields.append(InitFieldInfo(
                        name=f.name,
                        schema=_field_schema(f),
                        kw_only=bool(getattr(f, "c_kw_only", False)),
                        has_default=bool(getattr(f, "c_has_default", False)),
                    ))
        has_init = any(m.name == "__ffi_init__" for m in type_info.methods)
        return ObjectInfo(
            fields=fields,
            methods=methods,
            type_key=type_info.type_key,
            parent_type_key=chain[-1].type_key if chain else None,
            init_fields=init_fields,
            has_init=has_init,
            ancestors=[info.type_key for info in chain],
            # Only a type with its own metadata knows its size (others inherit a parent's).
            total_size=getattr(type_info, "total_size", None),
            is_final=_lookup_type_attr(type_info.type_index, "__ffi_type_final__"),
        )


def _schema_from_metadata(metadata: dict[str, Any]) -> TypeSchema | None:
    text = metadata.get("type_schema")
    if not text:
        return None
    return TypeSchema.from_json_obj(json.loads(text) if isinstance(text, str) else text)


def _field_schema(field: Any) -> NamedTypeSchema:
    schema = _schema_from_metadata(getattr(field, "metadata", None) or {}) or TypeSchema("Any")
    has_default = bool(getattr(field, "c_has_default", False))
    return NamedTypeSchema(
        field.name,
        schema,
        size=getattr(field, "size", None),
        alignment=getattr(field, "alignment", None),
        offset=getattr(field, "offset", None),
        structural_eq=getattr(field, "c_structural_eq", None),
        default=field.c_default if has_default else MISSING,
        default_is_factory=bool(getattr(field, "c_default_factory", False)) and has_default,
        frozen=bool(getattr(field, "frozen", False)),
    )
