"""Python spellings of FFI types, and where FFI modules live in Python."""
from __future__ import annotations

# FFI origin -> the Python type written in a stub (its module is imported).
TY_MAP_DEFAULTS = {
    "Any": "typing.Any",
    "Callable": "typing.Callable",
    "Array": "collections.abc.Sequence",
    "List": "collections.abc.MutableSequence",
    "Map": "collections.abc.Mapping",
    "Dict": "collections.abc.MutableMapping",
    "Object": "ffi.Object",
    "Tensor": "ffi.Tensor",
    "dtype": "ffi.dtype",
    "Device": "ffi.Device",
    "ffi.Enum": "tvm_ffi.dataclasses.Enum",
    "ffi.IntEnum": "tvm_ffi.dataclasses.IntEnum",
    "ffi.StrEnum": "tvm_ffi.dataclasses.StrEnum",
    "ffi.EnumState": "tvm_ffi.dataclasses.EnumState",
}

# Parameters accept any sequence or mapping, whatever the result type is.
TY_MAP_INPUT_DEFAULTS = {
    "Array": "collections.abc.Sequence",
    "List": "collections.abc.Sequence",
    "Map": "collections.abc.Mapping",
    "Dict": "collections.abc.Mapping",
}

# FFI module prefix -> Python module (whole dotted components only).
MOD_MAP = {
    "testing": "tvm_ffi.testing",
    "ffi": "tvm_ffi",
}
