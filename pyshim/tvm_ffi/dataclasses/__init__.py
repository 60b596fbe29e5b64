"""FFI dataclasses: ``c_class`` over types registered in C/C++, ``py_class``
for FFI types defined in Python (docs/dataclasses.md)."""
from .. import _type_info  # noqa: F401  (publishes core.TypeInfo & co.)
from ..core import Object
from .c_class import c_class
from .common import asdict, astuple, fields, is_dataclass, replace
from .enum import Enum, EnumAttrMap, EnumState, IntEnum, StrEnum, auto, entry
from .gen_abi_cpp import gen_abi_cpp
from .field import KW_ONLY, MISSING, Field, field, init_property
from .py_class import py_class

__all__ = [
    "KW_ONLY",
    "MISSING",
    "Enum",
    "EnumAttrMap",
    "EnumState",
    "Field",
    "IntEnum",
    "Object",
    "StrEnum",
    "asdict",
    "astuple",
    "auto",
    "c_class",
    "entry",
    "field",
    "fields",
    "gen_abi_cpp",
    "init_property",
    "is_dataclass",
    "py_class",
    "replace",
]
