"""Rust spellings of FFI types and the fixed facts the Rust generator relies on."""
from __future__ import annotations

# FFI origin or type key -> the Rust type a binding names (a `::` path is imported).
RUST_TY_MAP_DEFAULTS: dict[str, str] = {
    "Any": "tvm_ffi::Any",
    "Array": "tvm_ffi::Array",
    "Callable": "tvm_ffi::Function",
    "DataType": "tvm_ffi::DLDataType",
    "Device": "tvm_ffi::DLDevice",
    "List": "tvm_ffi::List",
    "Map": "tvm_ffi::Map",
    "None": "()",
    "Object": "tvm_ffi::object::ObjectRef",
    "Shape": "tvm_ffi::Shape",
    "Tensor": "tvm_ffi::Tensor",
    "bool": "bool",
    "bytes": "tvm_ffi::Bytes",
    "dtype": "tvm_ffi::DLDataType",
    "ffi.BigInt": "tvm_ffi::BigInt",
    "ffi.Bytes": "tvm_ffi::Bytes",
    "ffi.Error": "tvm_ffi::Error",
    "ffi.Function": "tvm_ffi::Function",
    "ffi.Module": "tvm_ffi::Module",
    "ffi.Object": "tvm_ffi::object::ObjectRef",
    "ffi.Shape": "tvm_ffi::Shape",
    "ffi.String": "tvm_ffi::String",
    "ffi.Tensor": "tvm_ffi::Tensor",
    "ffi.reflection.AccessPath": "tvm_ffi::reflection::AccessPath",
    "ffi.reflection.AccessStep": "tvm_ffi::reflection::AccessStep",
    "float": "f64",
    "int": "i64",
    "str": "tvm_ffi::String",
}

# Generic containers: their type arguments are spelled, `Any` where the schema has none.
GENERIC_ARITY: dict[str, int] = {"Array": 1, "List": 1, "Map": 2}

# Rust types whose size is fixed (a directive naming one is checked against the field).
SCALAR_SIZES: dict[str, int] = {
    "bool": 1,
    "i8": 1,
    "u8": 1,
    "i16": 2,
    "u16": 2,
    "i32": 4,
    "u32": 4,
    "f32": 4,
    "i64": 8,
    "u64": 8,
    "f64": 8,
}

# Integer types an `enum` directive may name as the newtype's representation.
ENUM_REPRS = ("i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64")

# An FFI `int` / `float` field of a given width, mirrored by value.
INT_BY_SIZE = {1: "i8", 2: "i16", 4: "i32", 8: "i64"}
FLOAT_BY_SIZE = {4: "f32", 8: "f64"}

POINTER_SIZE = 8  # an object handle field (ObjectRef, Array, ...)
ANY_CELL_SIZE = 16  # a `TVMFFIAny` cell: `Any` and the value-typed `Optional<T>`

# Names every generated object struct uses itself: a reflected field with one of
# them gets a trailing underscore.
RESERVED_MEMBERS = frozenset({"base"})

# Rust keywords: a raw identifier (`r#type`) where Rust allows one, else a trailing `_`.
RUST_KEYWORDS = frozenset({
    "as", "async", "await", "break", "const", "continue", "dyn", "else", "enum", "extern",
    "false", "fn", "for", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut",
    "pub", "ref", "return", "static", "struct", "trait", "true", "type", "unsafe", "use",
    "where", "while", "abstract", "become", "box", "do", "final", "macro", "override",
    "priv", "typeof", "unsized", "virtual", "yield", "try", "gen",
})
# Keywords that cannot be raw identifiers.
RUST_NO_RAW = frozenset({"self", "Self", "super", "crate"})

MAX_WIDTH = 100  # the column rustfmt wraps at
INDENT = "    "
