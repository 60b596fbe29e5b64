"""What the loaded libraries registered: global functions and object types, by prefix."""
from __future__ import annotations

from .. import registry
from ..core import (
    TypeSchema,
    _lookup_or_register_type_info_from_type_key,
    _object_type_key_to_index,
)
from .utils import FuncInfo, NamedTypeSchema, ObjectInfo, _schema_from_metadata


def collect_global_funcs() -> dict[str, list[FuncInfo]]:
    """Every global function, under its prefix (the name up to the last dot)."""
    out: dict[str, list[FuncInfo]] = {}
    for name in sorted(registry.list_global_func_names()):
        prefix = name.rpartition(".")[0]
        try:
            schema = _schema_from_metadata(registry.get_global_func_metadata(name) or {})
        except (TypeError, ValueError):
            schema = None
        if schema is None or schema.origin != "Callable":
            schema = TypeSchema("Callable")
        out.setdefault(prefix, []).append(FuncInfo(NamedTypeSchema(name, schema), is_member=False))
    return out


# Type indices below this are values held in the Any cell itself (None, int,
# Device, small strings, ...), not objects with a header.
_FIRST_OBJECT_TYPE_INDEX = 64


def collect_type_keys() -> dict[str, list[str]]:
    """Every registered object type key, under its prefix."""
    out: dict[str, list[str]] = {}
    for key in sorted(registry.get_registered_type_keys()):
        index = _object_type_key_to_index(key)
        if index is None or index < _FIRST_OBJECT_TYPE_INDEX:
            continue
        out.setdefault(key.rpartition(".")[0], []).append(key)
    return out


def object_info_from_type_key(type_key: str) -> ObjectInfo:
    return ObjectInfo.from_type_info(_lookup_or_register_type_info_from_type_key(type_key))


def toposort_objects(type_keys: list[str]) -> list[ObjectInfo]:
    """The types of ``type_keys``, each after its parent when both are listed."""
    infos = {key: object_info_from_type_key(key) for key in type_keys}
    done: set[str] = set()
    out: list[ObjectInfo] = []

    def visit(key: str) -> None:
        if key in done:
            return
        done.add(key)
        parent = infos[key].parent_type_key
        if parent in infos:
            visit(parent)
        out.append(infos[key])

    for key in sorted(infos):
        visit(key)
    return out
